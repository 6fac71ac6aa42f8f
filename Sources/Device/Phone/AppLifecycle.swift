/// Where the app's process is in its life (UIKit's application states, with "not running"
/// covering both never launched and terminated).
public enum AppState: String, Hashable, Sendable, CustomStringConvertible {
  /// No process: never launched, terminated by the user or the system, or after a reboot.
  case notRunning
  /// On screen and in use.
  case foreground
  /// Running in the background (background location updates, or a short grace period).
  case background
  /// In memory but not running: it receives nothing until it runs again.
  case suspended

  /// The raw name.
  public var description: String { rawValue }
}

/// Why the app was launched (`UIApplication.LaunchOptionsKey`).
public enum LaunchReason: String, Hashable, Sendable {
  /// The user opened it.
  case user
  /// The system relaunched it into the background for a location (region) event.
  case location
}

/// The app under test: its model layer, launched by the phone and given the phone's services.
///
/// A relaunch creates a new instance through the factory given to ``Phone/install(_:)``: memory
/// is gone, while key-value storage and monitored regions survive, as on iOS.
public protocol SimulatedApp: AnyObject {
  /// The process started (`application(_:didFinishLaunchingWithOptions:)`).
  func didLaunch(on phone: Phone, reason: LaunchReason)
  /// The app came to the foreground.
  func willEnterForeground()
  /// The app went to the background.
  func didEnterBackground()
  /// The suspended app runs again in the background to handle a system event (a region
  /// event), which it hears next.
  func didResumeInBackground()
  /// The process is about to end while the app runs (in the foreground or the background):
  /// terminated by the user or the system, or the phone restarts. Not called for a suspended
  /// app, which iOS removes from memory without notice [A].
  func willTerminate()
  /// The entries of the app's Info.plist the phone reads; none by default.
  var infoPlist: InfoPlist { get }
}

extension SimulatedApp {
  /// Does nothing by default.
  public func willEnterForeground() {}
  /// Does nothing by default.
  public func didEnterBackground() {}
  /// Does nothing by default.
  public func didResumeInBackground() {}
  /// Does nothing by default.
  public func willTerminate() {}
  /// An Info.plist with none of the entries the phone reads.
  public var infoPlist: InfoPlist { InfoPlist() }
}

/// The entries of an app's Info.plist that the phone reads: what the app declares in its
/// bundle, the same at every launch.
public struct InfoPlist: Hashable, Sendable {
  /// `NSLocationTemporaryUsageDescriptionDictionary`: the purpose keys the app may pass to
  /// `requestTemporaryFullAccuracyAuthorization(withPurposeKey:)`, each with the text its
  /// prompt shows [A].
  public var locationTemporaryUsageDescriptionDictionary: [String: String]
  /// `NSLocationRequireExplicitServiceSession` (iOS 18): no implicit service session for live
  /// updates and monitor events; they deliver only while the app holds a `CLServiceSession`,
  /// and say `serviceSessionRequired` otherwise [A].
  public var requiresExplicitServiceSession: Bool

  /// An Info.plist with these entries.
  public init(
    locationTemporaryUsageDescriptionDictionary: [String: String] = [:],
    requiresExplicitServiceSession: Bool = false
  ) {
    self.locationTemporaryUsageDescriptionDictionary = locationTemporaryUsageDescriptionDictionary
    self.requiresExplicitServiceSession = requiresExplicitServiceSession
  }
}
