import Foundation
import Geo

/// Small displacements in metres applied directly in latitude and longitude.
///
/// An offset of `north` and `east` metres becomes `north / M` radians of latitude and
/// `east / (N cos φ)` radians of longitude, with M and N the WGS84 meridional and prime-vertical
/// radii of curvature at the starting latitude φ. This is the first-order (tangent-plane) step;
/// its error grows with the square of the offset, about d² tan φ / 2R — under a millimetre for
/// GNSS-sized offsets and about 2 m for a 6 km cell-tower error at 35° — far below the errors it
/// applies, and it needs no geodesic solution and no projection per fix. Latitude is clamped to
/// the poles; longitude wraps across the antimeridian.
enum MetricOffset {
  private static let a = Ellipsoid.wgs84.equatorialRadius
  private static let e2 = Ellipsoid.wgs84.flattening * (2 - Ellipsoid.wgs84.flattening)
  private static let degreesPerRadian = 180 / Double.pi

  /// `coordinate` moved `east` and `north` metres.
  @inline(__always)
  static func apply(east: Double, north: Double, to coordinate: Coordinate) -> Coordinate {
    let phi = coordinate.latitude / degreesPerRadian
    let s = sin(phi)
    let c = cos(phi)
    let w2 = 1 - e2 * s * s
    let w = w2.squareRoot()
    let meridional = a * (1 - e2) / (w2 * w)
    let primeVertical = a / w
    let latitude = coordinate.latitude + north / meridional * degreesPerRadian
    let longitude =
      coordinate.longitude + east / (primeVertical * max(c, 1e-12)) * degreesPerRadian
    // Both values are finite; the latitude is clamped and the initializer wraps the longitude.
    return (try? Coordinate(latitude: min(90, max(-90, latitude)), longitude: longitude))
      ?? coordinate
  }
}

/// The predefined regions that approximate (reduced-accuracy) locations snap to.
///
/// Bands of `size` degrees of latitude, each cut into cells of about `size / cos φ` degrees of
/// longitude (a whole number of cells per band), so cells are nearly square, about 11 km on a
/// side for 0.1°, from the equator to the poles. iOS carves the world into regions so that an
/// approximate location keeps the user's city where it can [3P Radar 2020]; GeoSim's regions are
/// a plain grid [?].
enum ApproximateLocationGrid {
  /// The centre of the cell holding `coordinate`.
  static func centre(of coordinate: Coordinate, size: Double) -> Coordinate {
    let bands = Int((180 / size).rounded(.up))
    let band = min(bands - 1, Int((coordinate.latitude + 90) / size))
    let south = -90 + Double(band) * size
    let north = min(90, south + size)
    let latitude = (south + north) / 2
    let cells = max(1, Int((360 * cos(latitude * .pi / 180) / size).rounded()))
    let width = 360 / Double(cells)
    let column = min(cells - 1, Int((coordinate.longitude + 180) / width))
    let longitude = -180 + (Double(column) + 0.5) * width
    return (try? Coordinate(latitude: latitude, longitude: longitude)) ?? coordinate
  }
}
