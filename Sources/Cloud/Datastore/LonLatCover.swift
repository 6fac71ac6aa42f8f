import Foundation
import Geo

/// A latitude–longitude box that never crosses the antimeridian: `west ≤ east`, both in
/// [−180, 180], and `south ≤ north` (possibly reaching a little past ±90).
struct LonLatRange {
  var south: Double
  var north: Double
  var west: Double
  var east: Double
}

/// The planar decompositions shared by the backends that index points as longitude–latitude
/// rectangles (``SQLiteBackend``, ``STRtreeBackend``): spherical caps and antimeridian boxes as
/// ranges that a rectangle search can answer, and the k-nearest search built on radius
/// searches. The ranges only choose candidates; callers check each one exactly.
enum LonLatCover {
  /// The ranges enclosing the spherical cap of `angle` radians around `center`: all
  /// longitudes when the cap reaches a pole or is wider than a hemisphere, two ranges across
  /// the antimeridian. The ranges may overlap, so a point can be found more than once.
  static func ranges(inCapOf angle: Double, around center: Coordinate) -> [LonLatRange] {
    // A margin of 1e-9° (0.1 mm) covers rounding; the exact check removes the extras.
    let margin = 1e-9
    let degrees = angle * 180 / .pi
    let south = center.latitude - degrees - margin
    let north = center.latitude + degrees + margin
    if angle >= .pi / 2 || south <= -90 || north >= 90 {
      return [LonLatRange(south: max(-90, south), north: min(90, north), west: -180, east: 180)]
    }
    let ratio = sin(angle) / cos(center.latitude * .pi / 180)
    guard ratio < 1 else {
      return [LonLatRange(south: south, north: north, west: -180, east: 180)]
    }
    let halfWidth = asin(ratio) * 180 / .pi + margin
    let west = center.longitude - halfWidth
    let east = center.longitude + halfWidth
    var ranges = [
      LonLatRange(south: south, north: north, west: max(-180, west), east: min(180, east))
    ]
    if west < -180 {
      ranges.append(LonLatRange(south: south, north: north, west: west + 360, east: 180))
    }
    if east >= 180 {
      ranges.append(LonLatRange(south: south, north: north, west: -180, east: east - 360))
    }
    return ranges
  }

  /// The ranges covering `bounds`: two across the antimeridian, and a sliver at −180 when the
  /// east edge is 180, because coordinates normalize longitude 180 to −180. The ranges may
  /// share an edge, so a point can be found more than once.
  static func ranges(in bounds: CoordinateBounds) -> [LonLatRange] {
    let (south, north) = (bounds.south, bounds.north)
    if bounds.crossesAntimeridian {
      return [
        LonLatRange(south: south, north: north, west: bounds.west, east: 180),
        LonLatRange(south: south, north: north, west: -180, east: bounds.east),
      ]
    }
    var ranges = [LonLatRange(south: south, north: north, west: bounds.west, east: bounds.east)]
    if bounds.east == 180 {
      ranges.append(LonLatRange(south: south, north: north, west: -180, east: -180))
    }
    return ranges
  }

  /// The `wanted` nearest hits, by radius searches from `initialDistance` metres widened
  /// fourfold until they hold `wanted` points (or reach the whole sphere).
  ///
  /// Exact as long as `within` is: a radius search returns every point within its radius, so
  /// once it holds `wanted` points, no point outside it can be nearer than its first `wanted`.
  static func nearest(
    _ wanted: Int, initialDistance: Double, within: (Double) throws -> [SpatialHit]
  ) rethrows -> [SpatialHit] {
    guard wanted > 0 else { return [] }
    var distance = initialDistance
    while true {
      let reachesEverything = distance >= Double.pi * GeoDatastore.earthRadius
      let hits = try within(reachesEverything ? .infinity : distance)
      if hits.count >= wanted || reachesEverything { return Array(hits.prefix(wanted)) }
      distance *= 4
    }
  }

  /// Sorted rows with duplicates removed.
  static func sortedUnique(_ rows: [Int]) -> [Int] {
    let rows = rows.sorted()
    return rows.enumerated().filter { $0.offset == 0 || rows[$0.offset - 1] != $0.element }.map(
      \.element)
  }
}
