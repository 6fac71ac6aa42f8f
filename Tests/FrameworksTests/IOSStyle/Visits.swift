// Written as for iOS: this file compiles unchanged against Apple's frameworks, with the import
// swap below as its only difference.
#if canImport(CoreLocation)
  import CoreLocation
#else
  import GeoSimFrameworks
#endif

/// Counts visits to a circle and keeps the last fix, the way a small iOS feature would:
/// permission asked from a main-queue block, monitoring started once authorized, a timer that
/// samples the location, and async work in tasks.
final class VisitCounter: NSObject, CLLocationManagerDelegate {
  let manager = CLLocationManager()
  let region: CLCircularRegion
  private(set) var notes: [String] = []
  private(set) var lastFix: CLLocation?
  private var sampler: Timer?

  init(center: CLLocationCoordinate2D, radius: CLLocationDistance) {
    region = CLCircularRegion(center: center, radius: radius, identifier: "place")
    super.init()
    manager.delegate = self
    manager.desiredAccuracy = kCLLocationAccuracyNearestTenMeters
    DispatchQueue.main.async {
      self.notes.append("asking")
      self.manager.requestAlwaysAuthorization()
    }
  }

  func locationManagerDidChangeAuthorization(_ manager: CLLocationManager) {
    notes.append("authorization \(manager.authorizationStatus)")
    guard manager.authorizationStatus == .authorizedAlways else { return }
    if CLLocationManager.isMonitoringAvailable(for: CLCircularRegion.self) {
      manager.startMonitoring(for: region)
    }
    manager.startUpdatingLocation()
    sampler = Timer.scheduledTimer(withTimeInterval: 60, repeats: true) { [weak self] _ in
      guard let self, let fix = self.manager.location else { return }
      self.notes.append("sampled at \(Int(fix.timestamp.timeIntervalSince1970))")
    }
  }

  func locationManager(_ manager: CLLocationManager, didUpdateLocations locations: [CLLocation]) {
    lastFix = locations.last
  }

  func locationManager(_ manager: CLLocationManager, didEnterRegion region: CLRegion) {
    notes.append("entered \(region.identifier)")
    Task {
      try await Task.sleep(for: .seconds(30))
      self.notes.append("30 s after entering")
    }
  }

  func locationManager(_ manager: CLLocationManager, didExitRegion region: CLRegion) {
    notes.append("left \(region.identifier)")
    DispatchQueue.main.asyncAfter(deadline: .now() + 5) {
      self.notes.append("5 s after leaving")
    }
  }

  func stopSampling() {
    sampler?.invalidate()
  }
}
