// Written as for iOS: this file compiles unchanged against Apple's frameworks, with the import
// swap below as its only difference.
#if canImport(CoreLocation)
  import CoreLocation
#else
  import GeoSimFrameworks
#endif

/// Looks addresses up the way a small iOS feature would: one geocoder, completion handlers
/// and async calls, and notes of what the user would see, in order.
final class AddressLookup: NSObject {
  let geocoder = CLGeocoder()
  private(set) var notes: [String] = []
  private(set) var placemarks: [CLPlacemark] = []

  /// Reverse-geocodes `location` with a completion handler.
  func describe(_ location: CLLocation) {
    geocoder.reverseGeocodeLocation(location) { placemarks, error in
      self.note(placemarks, error)
    }
    notes.append("asked, geocoding \(geocoder.isGeocoding)")
  }

  /// Forward-geocodes `text` with a completion handler.
  func find(_ text: String) {
    geocoder.geocodeAddressString(text) { placemarks, error in
      self.note(placemarks, error)
    }
  }

  /// Reverse-geocodes `location` in a task, awaiting the answer.
  func describeAsync(_ location: CLLocation) {
    Task {
      do {
        let found = try await self.geocoder.reverseGeocodeLocation(location)
        self.note(found, nil)
      } catch {
        self.note(nil, error)
      }
    }
  }

  /// Forward-geocodes `text` in a task, awaiting the answer.
  func findAsync(_ text: String) {
    Task {
      do {
        let found = try await self.geocoder.geocodeAddressString(text)
        self.note(found, nil)
      } catch CLError.geocodeFoundNoResult {
        self.notes.append("nothing found")
      } catch {
        self.note(nil, error)
      }
    }
  }

  func cancel() {
    geocoder.cancelGeocode()
    notes.append("cancelled")
  }

  private func note(_ placemarks: [CLPlacemark]?, _ error: Error?) {
    if let error {
      notes.append("error \((error as? CLError)?.code.rawValue ?? -1)")
      return
    }
    guard let placemarks, let first = placemarks.first else {
      notes.append("no placemarks")
      return
    }
    self.placemarks = placemarks
    let parts = [first.administrativeArea, first.locality, first.thoroughfare].compactMap { $0 }
    notes.append("found \(placemarks.count): \(first.name ?? "?") (\(parts.joined()))")
  }
}
