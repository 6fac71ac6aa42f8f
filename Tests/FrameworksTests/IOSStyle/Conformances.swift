// Written as for iOS: conformances apps commonly add to CoreLocation's types, which must still
// compile (Apple's types do not declare them).
#if canImport(CoreLocation)
  import CoreLocation
#else
  import GeoSimFrameworks
#endif

extension CLLocationCoordinate2D: Equatable {
  /// Coordinates are equal when both degrees are.
  public static func == (a: CLLocationCoordinate2D, b: CLLocationCoordinate2D) -> Bool {
    a.latitude == b.latitude && a.longitude == b.longitude
  }
}
