// Written as for iOS 17: the import swap is this file's only difference from an Xcode target's.
#if canImport(UIKit)
  import UIKit
  import CoreLocation
#else
  import GeoSimFrameworks
#endif

/// A UIKit app around the arrival alarm: the first launch sets the destination; a launch for
/// a location event only recreates the monitor, which is how it hears the event [A].
final class ArrivalAppDelegate: UIResponder, UIApplicationDelegate {
  static let destination = CLLocationCoordinate2D(latitude: 35.681236, longitude: 139.767125)
  var alarm: ArrivalMonitor?
  private(set) var launchedForLocation = false

  func application(
    _ application: UIApplication,
    didFinishLaunchingWithOptions launchOptions: [UIApplication.LaunchOptionsKey: Any]?
  ) -> Bool {
    launchedForLocation = (launchOptions?[.location] as? NSNumber)?.boolValue == true
    alarm = ArrivalMonitor(destination: launchedForLocation ? nil : ArrivalAppDelegate.destination)
    return true
  }
}
