import Device
import Geo

/// The width and height of a map region in degrees (`MKCoordinateSpan`): a plain pair, not
/// checked, as on iOS — ``MKMapView/setRegion(_:animated:)`` ignores a region whose span is
/// negative, not a number, or beyond 180° × 360°.
///
/// Like Apple's, it is not `Equatable`: compare its fields.
public struct MKCoordinateSpan: Sendable {
  /// The north–south extent in degrees; one degree of latitude is about 111 km [A].
  public var latitudeDelta: CLLocationDegrees
  /// The east–west extent in degrees; one degree of longitude is about 111 km at the equator
  /// and shrinks to 0 at the poles [A].
  public var longitudeDelta: CLLocationDegrees

  /// A span of zero by zero degrees.
  public init() {
    self.init(latitudeDelta: 0, longitudeDelta: 0)
  }

  /// The span as given.
  public init(latitudeDelta: CLLocationDegrees, longitudeDelta: CLLocationDegrees) {
    self.latitudeDelta = latitudeDelta
    self.longitudeDelta = longitudeDelta
  }
}

/// A rectangular area of the map around a centre (`MKCoordinateRegion`): its edges are
/// `center ± span/2` [A]. A plain pair, not checked, as on iOS.
///
/// Like Apple's, it is not `Equatable`: compare its fields.
public struct MKCoordinateRegion: Sendable {
  /// The centre of the region.
  public var center: CLLocationCoordinate2D
  /// The extent of the region.
  public var span: MKCoordinateSpan

  /// A region at (0°, 0°) with a zero span.
  public init() {
    self.init(center: CLLocationCoordinate2D(), span: MKCoordinateSpan())
  }

  /// The region as given.
  public init(center: CLLocationCoordinate2D, span: MKCoordinateSpan) {
    self.center = center
    self.span = span
  }

  /// The region `latitudinalMeters` from north to south and `longitudinalMeters` from east to
  /// west, centred on `center` (`MKCoordinateRegionMakeWithDistance`).
  ///
  /// The north–south span is the arc of the centre's meridian that long on the WGS 84
  /// ellipsoid, stopping at a pole; the east–west span is the arc of the centre's parallel
  /// that long, at most 360° [?] (Apple does not document its formula; the two agree to a
  /// fraction of a percent for the spans apps use). Negative distances give negative deltas,
  /// and an invalid centre or a distance that is not a number gives deltas that are not
  /// numbers: regions ``MKMapView/setRegion(_:animated:)`` ignores.
  public init(
    center: CLLocationCoordinate2D, latitudinalMeters: CLLocationDistance,
    longitudinalMeters: CLLocationDistance
  ) {
    self.center = center
    guard let origin = center.coordinate, latitudinalMeters.isFinite, longitudinalMeters.isFinite
    else {
      span = MKCoordinateSpan(latitudeDelta: .nan, longitudeDelta: .nan)
      return
    }
    span = MKCoordinateSpan(
      latitudeDelta: Self.latitudeDelta(spanning: latitudinalMeters, at: origin),
      longitudeDelta: Self.longitudeDelta(spanning: longitudinalMeters, at: origin))
  }

  /// The latitude extent of the meridian arc `meters` long centred on `origin`.
  private static func latitudeDelta(spanning meters: Double, at origin: Coordinate) -> Double {
    let half = abs(meters) / 2
    func edge(towards pole: Double, azimuth: Double) -> Double {
      // Past the pole the meridian comes back down the other side: the region stops there.
      let poleCoordinate = try! Coordinate(latitude: pole, longitude: origin.longitude)
      guard half < Geodesic.wgs84.inverse(from: origin, to: poleCoordinate).distance,
        let end = try? Geodesic.wgs84.direct(from: origin, azimuth: azimuth, distance: half)
      else { return pole }
      return end.coordinate.latitude
    }
    let delta = edge(towards: 90, azimuth: 0) - edge(towards: -90, azimuth: 180)
    return meters < 0 ? -delta : delta
  }

  /// The longitude extent of the parallel arc `meters` long through `origin`, at most 360°.
  private static func longitudeDelta(spanning meters: Double, at origin: Coordinate) -> Double {
    let ellipsoid = Ellipsoid.wgs84
    let f = ellipsoid.flattening
    let phi = origin.latitude * Double.pi / 180
    let e2 = f * (2 - f)
    // The parallel's radius: the prime vertical's radius of curvature times cos φ.
    let radius = ellipsoid.equatorialRadius * cos(phi) / (1 - e2 * sin(phi) * sin(phi)).squareRoot()
    let delta = radius > 0 ? min(360, abs(meters) / radius * 180 / Double.pi) : 360
    return meters < 0 ? -delta : delta
  }
}

/// A point on MapKit's flat map (`MKMapPoint`): spherical Mercator on a world 2²⁸ points wide,
/// `x` east from the antimeridian and `y` south from the top edge, as Apple documents [A] (the
/// phone's `Geo.MapPoint`).
///
/// Like Apple's, it is not `Equatable`: compare its fields.
public struct MKMapPoint: Sendable {
  /// Map points east of the antimeridian, in [0, 2²⁸) for a coordinate.
  public var x: Double
  /// Map points south of the map's top edge (≈ 85.0511° N), in [0, 2²⁸] for a coordinate.
  public var y: Double

  /// The map's top-left corner.
  public init() {
    self.init(x: 0, y: 0)
  }

  /// The point as given.
  public init(x: Double, y: Double) {
    self.x = x
    self.y = y
  }

  /// The map point of `coordinate`; latitudes beyond ±85.0511° land on the map's top or bottom
  /// edge, where MapKit's map ends [A]. An invalid coordinate gives a point whose components
  /// are not numbers [?].
  public init(_ coordinate: CLLocationCoordinate2D) {
    guard let valid = coordinate.coordinate else {
      self.init(x: .nan, y: .nan)
      return
    }
    let point = MapPoint(valid)
    self.init(x: point.x, y: point.y)
  }

  /// The coordinate of the point; `x` wraps around the world and `y` beyond the map's edges
  /// clamps to them. A point that is not finite gives `kCLLocationCoordinate2DInvalid` [?].
  public var coordinate: CLLocationCoordinate2D {
    let w = MapPoint.worldSize
    guard x.isFinite, y.isFinite,
      let c = try? WebMercator.coordinate(of: MapPoint(x: x, y: min(max(y, 0), w)))
    else { return kCLLocationCoordinate2DInvalid }
    return CLLocationCoordinate2D(c)
  }

  /// The distance in metres to `other` (`MKMetersBetweenMapPoints`): the geodesic between the
  /// two coordinates on the WGS 84 ellipsoid [?] (Apple does not say which earth model); NaN if
  /// either point is not finite.
  public func distance(to other: MKMapPoint) -> CLLocationDistance {
    guard let a = coordinate.coordinate, let b = other.coordinate.coordinate else { return .nan }
    return Geodesic.wgs84.inverse(from: a, to: b).distance
  }
}

// swift-format-ignore: AlwaysUseLowerCamelCase
/// The map points covering one metre along the parallel at `latitude`
/// (`MKMapPointsPerMeterAtLatitude`); latitudes beyond ±85.0511° count as that latitude.
public func MKMapPointsPerMeterAtLatitude(_ latitude: CLLocationDegrees) -> Double {
  WebMercator.mapPointsPerMeter(atLatitude: latitude)
}

// swift-format-ignore: AlwaysUseLowerCamelCase
/// The metres one map point covers along the parallel at `latitude`
/// (`MKMetersPerMapPointAtLatitude`): about 0.149 m at the equator.
public func MKMetersPerMapPointAtLatitude(_ latitude: CLLocationDegrees) -> CLLocationDistance {
  WebMercator.metersPerMapPoint(atLatitude: latitude)
}

// MARK: The phone's types

extension MKCoordinateRegion {
  /// The phone's region, if this one is valid: a valid centre and a span within
  /// [0, 180] × [0, 360] degrees.
  var deviceRegion: CoordinateRegion? {
    guard let center = center.coordinate else { return nil }
    return try? CoordinateRegion(
      center: center, latitudeDelta: span.latitudeDelta, longitudeDelta: span.longitudeDelta)
  }

  init(_ region: CoordinateRegion) {
    self.init(
      center: CLLocationCoordinate2D(region.center),
      span: MKCoordinateSpan(
        latitudeDelta: region.span.latitudeDelta, longitudeDelta: region.span.longitudeDelta))
  }
}
