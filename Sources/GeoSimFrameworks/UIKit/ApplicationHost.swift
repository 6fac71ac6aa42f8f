import Device
import JSON

/// Runs a UIKit app — its `UIApplicationDelegate` — as the simulated phone's app: what
/// `UIApplicationMain` does on iOS.
///
/// Install it with a closure that makes the app's delegate:
///
///     phone.install { ApplicationHost { AppDelegate() } }
///     catalog.register("CheckIn") { _ in ApplicationHost.factory { AppDelegate() } }
///
/// The phone creates a new host at every launch and the host a new delegate, so nothing of
/// the app's memory survives a relaunch, as on iOS. (iOS creates the delegate from its class
/// through the Objective-C runtime; Swift can build an object from a class only through a
/// `required` initializer, which `UIResponder`'s is not, hence the closure.)
///
/// The delegate hears the phone's lifecycle as iOS tells it [A]:
///
/// | the phone | the delegate hears | `applicationState` during the call |
/// |---|---|---|
/// | the user launches the app | `willFinishLaunching`, `didFinishLaunching` (options `nil`), `applicationDidBecomeActive` | `inactive`, then `active` |
/// | a region event relaunches it | `willFinishLaunching`, `didFinishLaunching` (options `[.location: true]`), `applicationDidEnterBackground` | `background` |
/// | the user leaves it | `applicationWillResignActive`, `applicationDidEnterBackground` | `active`, then `background` |
/// | the user returns | `applicationWillEnterForeground`, `applicationDidBecomeActive` | `inactive` [?], then `active` |
/// | a region event wakes the suspended app | `applicationDidEnterBackground`, then the event | `background` |
/// | the app is terminated while in the background | `applicationWillTerminate` | `background` |
/// | the app is terminated in the foreground | `applicationWillResignActive`, `applicationDidEnterBackground`, `applicationWillTerminate` [?] | `active`, then `background` |
/// | the app is suspended, or terminated while suspended | nothing | |
///
/// The phone has no inactive state of its own, so each pair above is called back to back at
/// one instant, and interruptions that make an app inactive without leaving it (a call,
/// Control Center) do not happen. The phone's `terminate` stands for both the user's swipe
/// and the system's termination, which cannot be told apart here: a running app hears
/// `applicationWillTerminate` in both, as iOS does for a running app [A]; a crash, which gives
/// none, is not modelled.
///
/// The host is the app's screen for the scenario (`Device.AppScreen`): its map is the
/// `MKMapView` the app created most recently in this process [?], so the timeline's touches
/// reach it; ``observableState`` describes that map and the app's state.
public final class ApplicationHost: SimulatedApp, AppScreen {
  private let makeDelegate: @MainActor () -> any UIApplicationDelegate
  @Uncounted private var phone: Phone? = nil
  /// The app delegate of this process, from its launch on.
  public private(set) var delegate: (any UIApplicationDelegate)?
  /// What `applicationState` reports during a lifecycle callback, where iOS's state differs
  /// from the phone's.
  private(set) var reportedState: UIApplication.State?
  /// The map on screen: the one the app created last.
  private(set) var screenMap: MKMapView?

  /// The entries of the app's Info.plist the phone reads (the purpose keys of
  /// `requestTemporaryFullAccuracyAuthorization(withPurposeKey:)`); none by default.
  public let infoPlist: InfoPlist

  /// A host whose app delegate `makeDelegate` creates at launch, on the main actor, for an app
  /// whose bundle declares `infoPlist`.
  public init(
    infoPlist: InfoPlist = InfoPlist(),
    _ makeDelegate: @escaping @MainActor () -> any UIApplicationDelegate
  ) {
    self.infoPlist = infoPlist
    self.makeDelegate = makeDelegate
  }

  /// The launch factory for `Device.Phone.install(_:)` or an app catalog: a new host, and so
  /// a new delegate, at every launch.
  public static func factory(
    infoPlist: InfoPlist = InfoPlist(),
    _ makeDelegate: @escaping @MainActor () -> any UIApplicationDelegate
  ) -> () -> any SimulatedApp {
    { ApplicationHost(infoPlist: infoPlist, makeDelegate) }
  }

  // MARK: The phone's lifecycle

  /// Creates the delegate and tells it the app launched, with the launch options.
  public func didLaunch(on phone: Phone, reason: LaunchReason) {
    self.phone = phone
    let relaunched = reason == .location
    onMainActor { host, application in
      let delegate = host.makeDelegate()
      host.delegate = delegate
      application.delegate = delegate
      let options: [UIApplication.LaunchOptionsKey: Any]? =
        relaunched ? [.location: NSNumber(value: true)] : nil
      host.reporting(relaunched ? .background : .inactive) {
        _ = delegate.application(application, willFinishLaunchingWithOptions: options)
        _ = delegate.application(application, didFinishLaunchingWithOptions: options)
      }
      if relaunched {
        host.reporting(.background) { delegate.applicationDidEnterBackground(application) }
      } else {
        host.reporting(.active) { delegate.applicationDidBecomeActive(application) }
      }
    }
  }

  /// The app comes back to the foreground.
  public func willEnterForeground() {
    onMainActor { host, application in
      guard let delegate = host.delegate else { return }
      host.reporting(.inactive) { delegate.applicationWillEnterForeground(application) }
      host.reporting(.active) { delegate.applicationDidBecomeActive(application) }
    }
  }

  /// The user left the app.
  public func didEnterBackground() {
    onMainActor { host, application in
      guard let delegate = host.delegate else { return }
      host.reporting(.active) { delegate.applicationWillResignActive(application) }
      host.reporting(.background) { delegate.applicationDidEnterBackground(application) }
    }
  }

  /// The suspended app runs again in the background for an event.
  public func didResumeInBackground() {
    onMainActor { host, application in
      guard let delegate = host.delegate else { return }
      host.reporting(.background) { delegate.applicationDidEnterBackground(application) }
    }
  }

  /// The running app is about to end.
  public func willTerminate() {
    let inForeground = phone?.appState == .foreground
    onMainActor { host, application in
      guard let delegate = host.delegate else { return }
      if inForeground {
        host.reporting(.active) { delegate.applicationWillResignActive(application) }
        host.reporting(.background) { delegate.applicationDidEnterBackground(application) }
      }
      host.reporting(.background) { delegate.applicationWillTerminate(application) }
    }
  }

  /// Runs `body` as the app's main-actor code, with this host's phone current (a driver that
  /// has not made it current still gets the app's calls right).
  private func onMainActor(_ body: @MainActor (ApplicationHost, UIApplication) -> Void) {
    guard let phone else { return }
    // The host and the phone belong to the phone's one thread, which runs this
    // call; the main actor is that thread too.
    nonisolated(unsafe) let host = self
    phone.makeCurrent {
      MainActor.assumeIsolated { body(host, UIApplication.shared) }
    }
  }

  /// Reports `state` as the app's state while `body` runs.
  private func reporting(_ state: UIApplication.State, _ body: () -> Void) {
    let previous = reportedState
    reportedState = state
    defer { reportedState = previous }
    body()
  }

  // MARK: The screen

  /// An `MKMapView` was created in this process: the screen shows it from now on.
  func show(_ map: MKMapView) {
    screenMap = map
  }

  /// The map on screen, if the app has created one: the timeline's touches go to it.
  public var mapView: MapView? { screenMap?.map }

  /// What the screen shows, as a JSON object:
  /// - `"applicationState"`: `"active"`, `"inactive"` or `"background"`;
  /// - with a map: `"markers"`, its annotations but the user's dot, and `"annotations"`, all of
  ///   them, each `{"title", "latitude", "longitude"}`; `"userLocationShown"`, whether the dot
  ///   is among them; `"camera"`, `{"latitude", "longitude", "zoom"}` (zoom as tile levels).
  public var observableState: JSONValue {
    var state: [String: JSONValue] = [:]
    if let phone {
      let reported = reportedState ?? (phone.appState == .foreground ? .active : .background)
      state["applicationState"] = .string(reported.description)
    }
    if let map = screenMap?.map {
      func marker(_ annotation: any Annotation) -> JSONValue {
        .object([
          "title": annotation.title.map(JSONValue.string) ?? .null,
          "latitude": .number(annotation.coordinate.latitude),
          "longitude": .number(annotation.coordinate.longitude),
        ])
      }
      let annotations = map.annotations
      state["annotations"] = .array(annotations.map(marker))
      state["markers"] = .array(annotations.filter { !($0 is UserLocation) }.map(marker))
      state["userLocationShown"] = .bool(annotations.contains { $0 is UserLocation })
      let center = map.centerCoordinate
      state["camera"] = .object([
        "latitude": .number(center.latitude), "longitude": .number(center.longitude),
        "zoom": .number(map.camera.zoomLevel),
      ])
    }
    return .object(state)
  }
}

extension MKMapView {
  /// Puts a new map on the screen of the app's host, when a host runs the app.
  func mapCreated(on phone: Phone) {
    (phone.runningApp as? ApplicationHost)?.show(self)
  }
}
