import Geo

/// The extent of a map region in degrees, like `MKCoordinateSpan`.
///
/// One degree of latitude is about 111 km; one degree of longitude about 111 km · cos φ [A].
/// A span cannot be invalid: the initializer rejects negative or non-finite deltas, a latitude
/// delta above 180° and a longitude delta above 360°.
public struct CoordinateSpan: Hashable, Sendable, CustomStringConvertible {
  /// The north–south extent in degrees, in [0, 180].
  public let latitudeDelta: Double
  /// The east–west extent in degrees, in [0, 360].
  public let longitudeDelta: Double

  /// A validated span; throws ``DeviceError`` (``DeviceErrorCode/invalidArgument``) naming the
  /// offending delta.
  public init(latitudeDelta: Double, longitudeDelta: Double) throws {
    try CoordinateSpan.check("latitudeDelta", latitudeDelta, maximum: 180)
    try CoordinateSpan.check("longitudeDelta", longitudeDelta, maximum: 360)
    self.latitudeDelta = latitudeDelta
    self.longitudeDelta = longitudeDelta
  }

  private static func check(_ name: String, _ value: Double, maximum: Double) throws {
    guard value.isFinite else {
      throw DeviceError(.invalidArgument, "span \(name) \(value) is not a finite number")
    }
    guard value >= 0 else {
      throw DeviceError(
        .invalidArgument, "span \(name) \(value) is negative; a span is degrees in [0, \(maximum)]")
    }
    guard value <= maximum else {
      throw DeviceError(
        .invalidArgument, "span \(name) \(value) exceeds \(maximum) degrees")
    }
  }

  /// The span as `Δlat×Δlon`.
  public var description: String { "\(latitudeDelta)°×\(longitudeDelta)°" }
}

/// A rectangular area of the map around a centre, like `MKCoordinateRegion`.
///
/// Its corners are `center ± span/2` [A]; across the antimeridian the east edge has a smaller
/// longitude than the west edge. A map view's ``MapView/region`` is the region that *encloses*
/// what the view shows: with a heading the view's own corners are not this region's corners.
public struct CoordinateRegion: Hashable, Sendable, CustomStringConvertible {
  /// The centre of the region.
  public var center: Coordinate
  /// The extent of the region.
  public var span: CoordinateSpan

  /// A region from its centre and span.
  public init(center: Coordinate, span: CoordinateSpan) {
    self.center = center
    self.span = span
  }

  /// A region from its centre and the deltas of its span; throws ``DeviceError`` for an invalid
  /// span (see ``CoordinateSpan/init(latitudeDelta:longitudeDelta:)``).
  public init(center: Coordinate, latitudeDelta: Double, longitudeDelta: Double) throws {
    self.center = center
    self.span = try CoordinateSpan(latitudeDelta: latitudeDelta, longitudeDelta: longitudeDelta)
  }

  /// The region as `center span`.
  public var description: String { "\(center) \(span)" }
}
