// The benchmark's app written as for iOS: the same work as `DeviceBenchSuite`'s app, through
// Apple's names. This file imports only the framework layer, as a user's app file does.
import GeoSimFrameworks

/// Asks for permission, monitors the regions, counts what arrives — through `CLLocationManager`.
final class FrameworksCountingApp: NSObject, CLLocationManagerDelegate {
  let manager = CLLocationManager()
  var fixes = 0
  var regionEvents = 0

  init(regions: [CLCircularRegion]) {
    super.init()
    manager.delegate = self
    manager.allowsBackgroundLocationUpdates = true
    manager.pausesLocationUpdatesAutomatically = false
    manager.requestAlwaysAuthorization()
    manager.startUpdatingLocation()
    for region in regions { manager.startMonitoring(for: region) }
  }

  func locationManager(_ manager: CLLocationManager, didUpdateLocations locations: [CLLocation]) {
    fixes += locations.count
  }

  func locationManager(_ manager: CLLocationManager, didEnterRegion region: CLRegion) {
    regionEvents += 1
  }

  func locationManager(_ manager: CLLocationManager, didExitRegion region: CLRegion) {
    regionEvents += 1
  }

  /// The regions as the app declares them.
  static func regions(_ centres: [(latitude: Double, longitude: Double)]) -> [CLCircularRegion] {
    centres.enumerated().map { i, centre in
      CLCircularRegion(
        center: CLLocationCoordinate2D(latitude: centre.latitude, longitude: centre.longitude),
        radius: 200, identifier: "r\(i)")
    }
  }
}
