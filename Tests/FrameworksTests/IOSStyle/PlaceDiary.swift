// Written as for iOS: this file compiles unchanged against Apple's frameworks, with the import
// swap below as its only difference.
#if canImport(CoreLocation)
  import CoreLocation
#else
  import GeoSimFrameworks
#endif

/// Keeps a diary of where the user goes with the two power-friendly services, as an iOS app
/// would: Always permission, then significant location changes and visits, started again at
/// every launch (the system relaunches the app for either).
final class PlaceDiary: NSObject, CLLocationManagerDelegate {
  let manager = CLLocationManager()
  private(set) var notes: [String] = []
  private(set) var changes: [CLLocation] = []
  private(set) var visits: [CLVisit] = []
  private let start: Date

  /// A diary whose notes give times in seconds after `start`.
  init(start: Date) {
    self.start = start
    super.init()
    manager.delegate = self
  }

  private func seconds(_ date: Date) -> String {
    if date == Date.distantPast { return "?" }
    if date == Date.distantFuture { return "-" }
    return "\(Int(date.timeIntervalSince(start)))"
  }

  func locationManagerDidChangeAuthorization(_ manager: CLLocationManager) {
    switch manager.authorizationStatus {
    case .notDetermined:
      manager.requestAlwaysAuthorization()
    case .authorizedAlways:
      if CLLocationManager.significantLocationChangeMonitoringAvailable() {
        manager.startMonitoringSignificantLocationChanges()
      }
      manager.startMonitoringVisits()
    default:
      notes.append("no permission")
    }
  }

  func locationManager(_ manager: CLLocationManager, didUpdateLocations locations: [CLLocation]) {
    guard let last = locations.last else { return }
    changes.append(last)
    notes.append("moved at \(seconds(last.timestamp)), ±\(Int(last.horizontalAccuracy)) m")
  }

  func locationManager(_ manager: CLLocationManager, didVisit visit: CLVisit) {
    visits.append(visit)
    if visit.departureDate == Date.distantFuture {
      notes.append("arrived at \(seconds(visit.arrivalDate))")
    } else {
      notes.append("stayed \(seconds(visit.arrivalDate))–\(seconds(visit.departureDate))")
    }
  }

  func locationManager(_ manager: CLLocationManager, didFailWithError error: any Error) {
    notes.append("failed: \(error)")
  }
}
