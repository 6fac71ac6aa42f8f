#if canImport(UIKit)
  import UIKit
#else
  import GeoSimFrameworks
#endif

/// The app's entry: the check-in service starts at every launch, including a relaunch in the
/// background for a region event (`launchOptions?[.location]`).
public final class AppDelegate: UIResponder, UIApplicationDelegate {
  /// The feature.
  public let checkIn = CheckInService()

  /// Starts the check-in service, at every launch.
  public func application(
    _ application: UIApplication,
    didFinishLaunchingWithOptions launchOptions: [UIApplication.LaunchOptionsKey: Any]?
  ) -> Bool {
    if launchOptions?[.location] != nil {
      print("relaunched for a region event; last check-in: \(checkIn.lastCheckIn ?? "none")")
    }
    checkIn.start()
    return true
  }
}
