import Device
import Foundation
import SimKernel

/// A small app model that keeps a diary with the two power-friendly location services: it asks
/// for Always permission, starts significant location changes and visit monitoring whenever it
/// is authorized (at every launch, as iOS requires after a relaunch), and records each change
/// (`moved`) and visit (`arrived`, `departed`) as its own events.
final class PlaceDiaryApp: SimulatedApp, LocationManagerDelegate {
  private weak var phone: Phone?
  private var manager: LocationManager?

  func didLaunch(on phone: Phone, reason: LaunchReason) {
    self.phone = phone
    let manager = LocationManager(phone: phone)
    manager.delegate = self
    self.manager = manager
  }

  func locationManagerDidChangeAuthorization(_ manager: LocationManager) {
    switch manager.authorizationStatus {
    case .notDetermined: manager.requestAlwaysAuthorization()
    case .authorizedAlways, .authorizedWhenInUse:
      manager.startMonitoringSignificantLocationChanges()
      manager.startMonitoringVisits()
    default: break
    }
  }

  func locationManager(_ manager: LocationManager, didUpdateLocations locations: [Location]) {
    phone?.recordAppEvent("moved")
  }

  func locationManager(_ manager: LocationManager, didVisit visit: Visit) {
    phone?.recordAppEvent(visit.departure == nil ? "arrived" : "departed")
  }
}
