// Written as for iOS: this file compiles unchanged against Apple's frameworks, with the import
// swap below as its only difference.
#if canImport(CoreLocation)
  import CoreLocation
#else
  import GeoSimFrameworks
#endif

/// A directions feature that needs precise location: it notes every authorization callback,
/// old and new, and asks for temporary full accuracy when the user gave approximate location.
final class PreciseDirections: NSObject, CLLocationManagerDelegate {
  let manager = CLLocationManager()
  let purposeKey: String
  private(set) var notes: [String] = []

  init(purposeKey: String) {
    self.purposeKey = purposeKey
    super.init()
    manager.delegate = self
    notes.append("created")
  }

  func start() {
    manager.requestWhenInUseAuthorization()
  }

  func locationManagerDidChangeAuthorization(_ manager: CLLocationManager) {
    notes.append("authorization \(manager.authorizationStatus) \(manager.accuracyAuthorization)")
  }

  func locationManager(
    _ manager: CLLocationManager, didChangeAuthorization status: CLAuthorizationStatus
  ) {
    notes.append("status \(status)")
  }

  /// Asks with a completion handler.
  func askForPrecision() {
    manager.requestTemporaryFullAccuracyAuthorization(withPurposeKey: purposeKey) { error in
      if let error {
        self.notes.append("not asked: \(userMessage(for: error))")
      } else {
        self.notes.append("answered, now \(self.manager.accuracyAuthorization)")
      }
    }
    notes.append("asking")
  }

  /// Asks with the async form, from a task.
  func askForPrecisionAsync() {
    Task {
      do {
        try await self.manager.requestTemporaryFullAccuracyAuthorization(
          withPurposeKey: self.purposeKey)
        self.notes.append("answered, now \(self.manager.accuracyAuthorization)")
      } catch CLError.promptDeclined {
        self.notes.append("not asked")
      } catch {
        self.notes.append("failed")
      }
    }
  }
}
