import Geo

/// NCMB's distance semantics, as the service documents them: the referee's own statement,
/// apart from the datastore's.
///
/// NCMB's `nearGeoPoint` queries (`$nearSphere` with `$maxDistanceInKilometers`,
/// `$maxDistanceInMiles` or `$maxDistanceInRadians`, after Parse) measure the central angle
/// between two points on a sphere and convert a distance to it as `km / 6371` or `mi / 3959`.
/// So a point is within `d` kilometres of a centre when the central angle between them is at
/// most `d / 6371` radians; distances in metres are that angle times 6,371 km.
public enum NCMBSphere {
  /// The sphere's radius in metres: 6,371 km.
  public static let radius = 6_371_000.0

  /// The central angle in radians that a distance in kilometres stands for: `km / 6371`.
  public static func radians(kilometers: Double) -> Double { kilometers / 6371 }

  /// The central angle in radians that a distance in statute miles stands for: `mi / 3959`.
  public static func radians(miles: Double) -> Double { miles / 3959 }

  /// The central angle between two points, in radians (latitude and longitude taken as
  /// spherical coordinates).
  public static func centralAngle(from a: Coordinate, to b: Coordinate) -> Double {
    greatCircleDistance(from: a, to: b, radius: 1)
  }

  /// The distance between two points on the 6,371 km sphere, in metres.
  public static func distance(from a: Coordinate, to b: Coordinate) -> Double {
    greatCircleDistance(from: a, to: b, radius: radius)
  }

  /// Whether `point` is within `angle` radians of `centre`, the boundary included.
  public static func contains(_ point: Coordinate, within angle: Double, of centre: Coordinate)
    -> Bool
  {
    centralAngle(from: centre, to: point) <= angle
  }
}
