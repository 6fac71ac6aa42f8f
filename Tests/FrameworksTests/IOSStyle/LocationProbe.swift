// Written as for iOS: this file compiles unchanged against Apple's frameworks, with the import
// swap below as its only difference.
#if canImport(CoreLocation)
  import CoreLocation
#else
  import GeoSimFrameworks
#endif

/// Records what its location manager says, for checking Core Location's callbacks one at a
/// time: one-shot fixes, the cached location, region monitoring and its failures.
final class LocationProbe: NSObject, CLLocationManagerDelegate {
  let manager = CLLocationManager()
  private(set) var fixes: [CLLocation] = []
  private(set) var failures: [(region: String?, code: Int)] = []
  private(set) var errors: [Int] = []

  override init() {
    super.init()
    manager.delegate = self
    manager.desiredAccuracy = kCLLocationAccuracyNearestTenMeters
  }

  func start() {
    manager.requestWhenInUseAuthorization()
  }

  func locationManager(_ manager: CLLocationManager, didUpdateLocations locations: [CLLocation]) {
    fixes += locations
  }

  func locationManager(_ manager: CLLocationManager, didFailWithError error: Error) {
    errors.append((error as NSError).code)
  }

  func locationManager(
    _ manager: CLLocationManager, monitoringDidFailFor region: CLRegion?, withError error: Error
  ) {
    if case CLError.regionMonitoringFailure = error {
      failures.append((region?.identifier, CLError.regionMonitoringFailure.rawValue))
    } else {
      failures.append((region?.identifier, (error as NSError).code))
    }
  }

  /// Monitors a circle unless the phone cannot.
  func monitor(_ center: CLLocationCoordinate2D, radius: CLLocationDistance, _ name: String) {
    guard CLLocationManager.isMonitoringAvailable(for: CLCircularRegion.self) else { return }
    manager.startMonitoring(
      for: CLCircularRegion(center: center, radius: radius, identifier: name))
  }
}
