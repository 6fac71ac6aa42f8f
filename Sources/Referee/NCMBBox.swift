import Geo

/// The box an NCMB box query means: the truth a report or an expectation judges the datastore's
/// answer against, written from the service's documented semantics and GeoSim's documented
/// reading of inverted corners, not from the datastore's code.
///
/// ## The specification
/// NCMB's `withinGeoBox(southWest, northEast)` sends `{"$within": {"$box": [sw, ne]}}`, which
/// the service passes to MongoDB's `$box`: a flat longitude/latitude rectangle with the two
/// corners opposite, edges included. NCMB does not document corners given in the wrong order.
/// GeoSim reads them as docs/REPORTS.md states ("the box spanned by the two corners whatever
/// their order"):
///
/// - **Latitudes** run from the smaller to the larger; the corners were inverted in latitude
///   when the "southwest" one is north of the "northeast" one.
/// - **Longitudes** run the short way round. Going east from the "southwest" longitude to the
///   "northeast" one covers some span in [0°, 360°]: a span of at most 180° is the box as sent
///   (a box across the antimeridian, 170° → −170°, spans 20° and stays one); a span over 180°
///   means the corners were swapped, and the box runs east from the "northeast" longitude to
///   the "southwest" one instead. The one exception is −180° → 180°, the whole circle of
///   longitude, which is taken as sent.
///
/// A point is inside when its latitude lies between the south and north edges and its
/// longitude between the west and east edges going east, edges included. The meridians −180°
/// and 180° are one. As in MongoDB's flat `$box`, a point at a pole is judged by the longitude
/// it was given.
public struct NCMBBox: Hashable, Sendable {
  /// The southern edge in degrees.
  public let south: Double
  /// The northern edge in degrees.
  public let north: Double
  /// The western edge in degrees, in [−180, 180]: where the box starts going east.
  public let west: Double
  /// The eastern edge in degrees, in [−180, 180]: where it ends; less than ``west`` when the
  /// box crosses the antimeridian.
  public let east: Double
  /// The "southwest" corner as sent was north of the "northeast" one.
  public let swappedLatitudes: Bool
  /// The eastward span from the "southwest" longitude to the "northeast" one was over 180°, so
  /// the box runs the other way round.
  public let swappedLongitudes: Bool

  /// The box meant by corners sent as `southwest` and `northeast`, each a latitude in
  /// [−90, 90] and a longitude in [−180, 180] (the raw values sent, so that 180° and −180° stay
  /// apart as corners).
  ///
  /// - Precondition: the values are within those ranges (the datastore refuses any other).
  public init(
    southwestLatitude: Double, southwestLongitude: Double, northeastLatitude: Double,
    northeastLongitude: Double
  ) {
    precondition(
      abs(southwestLatitude) <= 90 && abs(northeastLatitude) <= 90
        && abs(southwestLongitude) <= 180 && abs(northeastLongitude) <= 180,
      "box corners outside ±90° latitude or ±180° longitude")
    swappedLatitudes = southwestLatitude > northeastLatitude
    south = swappedLatitudes ? northeastLatitude : southwestLatitude
    north = swappedLatitudes ? southwestLatitude : northeastLatitude
    let wholeCircle = southwestLongitude == -180 && northeastLongitude == 180
    let eastward =
      northeastLongitude >= southwestLongitude
      ? northeastLongitude - southwestLongitude : northeastLongitude - southwestLongitude + 360
    swappedLongitudes = !wholeCircle && eastward > 180
    west = swappedLongitudes ? northeastLongitude : southwestLongitude
    east = swappedLongitudes ? southwestLongitude : northeastLongitude
  }

  /// The box meant by two corners given as coordinates (longitudes already in [−180, 180)).
  public init(southwest: Coordinate, northeast: Coordinate) {
    self.init(
      southwestLatitude: southwest.latitude, southwestLongitude: southwest.longitude,
      northeastLatitude: northeast.latitude, northeastLongitude: northeast.longitude)
  }

  /// Whether the corners as sent needed either correction.
  public var isInverted: Bool { swappedLatitudes || swappedLongitudes }

  /// Whether the box runs across the antimeridian (its west edge east of its east edge).
  public var crossesAntimeridian: Bool { west > east }

  /// Whether `point` lies in the box, edges included.
  public func contains(_ point: Coordinate) -> Bool {
    guard point.latitude >= south, point.latitude <= north else { return false }
    // A coordinate's longitude is in [−180, 180): −180 is also the meridian 180.
    let longitudes = point.longitude == -180 ? [-180.0, 180.0] : [point.longitude]
    return longitudes.contains { longitude in
      crossesAntimeridian
        ? longitude >= west || longitude <= east : longitude >= west && longitude <= east
    }
  }

  /// The same box as Geo's bounds, for maps and JSON.
  public var bounds: CoordinateBounds {
    // The edges are the corners' values, which the initializer checked.
    (try? CoordinateBounds(south: south, west: west, north: north, east: east))!
  }
}
