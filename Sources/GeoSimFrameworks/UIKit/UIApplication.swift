import Device

/// The running app (`UIApplication`): its state and its delegate, on the simulated phone.
///
/// `UIApplication.shared` is the app of the phone whose world runs on the calling thread;
/// using it outside a world stops the process with a message saying how to run the code in
/// one. Isolated to the main actor, as Apple's.
@MainActor open class UIApplication: UIResponder {
  /// The app's execution state (`UIApplication.State`, Apple's raw values).
  public enum State: Int, Sendable, CustomStringConvertible {
    /// In the foreground and receiving events.
    case active = 0
    /// In the foreground but not receiving events: while launching [A] and while moving back
    /// into the foreground [?].
    case inactive = 1
    /// In the background, running code (a suspended app runs none) [A].
    case background = 2

    /// `active`, `inactive` or `background`.
    public var description: String {
      switch self {
      case .active: "active"
      case .inactive: "inactive"
      case .background: "background"
      }
    }
  }

  /// A key of the launch options dictionary (`UIApplication.LaunchOptionsKey`).
  public struct LaunchOptionsKey: Hashable, RawRepresentable, Sendable {
    /// The key's name (`"UIApplicationLaunchOptionsLocationKey"`).
    public let rawValue: String

    /// A key with this name.
    public init(rawValue: String) {
      self.rawValue = rawValue
    }

    /// A key with this name.
    public init(_ rawValue: String) {
      self.rawValue = rawValue
    }

    /// The app was launched to handle a location event; its value is an `NSNumber` holding
    /// `true`. Its presence is the signal to create a `CLLocationManager`, whose delegate then
    /// hears the event [A].
    public static let location = LaunchOptionsKey("UIApplicationLaunchOptionsLocationKey")
  }

  /// The phone keeps its one instance (an attachment), so it outlives it.
  unowned let phone: Phone

  init(phone: Phone) {
    self.phone = phone
    super.init()
  }

  /// The running app's `UIApplication`.
  open class var shared: UIApplication {
    let phone = Phone.requireCurrent(doing: "UIApplication.shared")
    return phone.attachment(UIApplication.self) { UIApplication(phone: phone) }
  }

  /// The app delegate of the running process, set by ``ApplicationHost`` when it launches the
  /// app; weak, as Apple's.
  open weak var delegate: (any UIApplicationDelegate)?

  /// The app's state: `active` in the foreground; `background` in the background (and, for
  /// code that could read it, while suspended or not running); `inactive` or another state
  /// during the lifecycle callbacks, as iOS reports it there (see ``ApplicationHost``).
  open var applicationState: State {
    if let host = phone.runningApp as? ApplicationHost, let reported = host.reportedState {
      return reported
    }
    switch phone.appState {
    case .foreground: return .active
    case .background, .suspended, .notRunning: return .background
    }
  }
}
