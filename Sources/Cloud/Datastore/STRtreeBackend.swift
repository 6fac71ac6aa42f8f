import Foundation
import Geo

/// GEOS's sort-tile-recursive R-tree (Geo's `STRtree`) in memory.
///
/// Each point is a degenerate envelope at (longitude, latitude). The tree answers planar
/// envelope searches only, so the spherical shapes are decomposed first, as for
/// ``SQLiteBackend``: a radius search looks up the longitude–latitude ranges enclosing the
/// spherical cap (all longitudes when the cap reaches a pole or is wider than a hemisphere, two
/// ranges across the antimeridian) and keeps the candidates within the exact great-circle
/// distance that ``BruteForceBackend`` computes; a box across the antimeridian is searched as
/// two ranges; k-nearest searches widen a cap until it holds k points. The answers are
/// therefore identical to brute force.
///
/// The backend owns its `GEOSContext`, and like the datastore it is used from one thread.
/// The tree is bulk-loaded in O(n log n) whenever the class changes.
public final class STRtreeBackend: SpatialBackend {
  private let context = GEOSContext()
  private var tree: STRtree<Int32>?
  private var points: [Coordinate] = []

  /// An empty backend with its own GEOS context.
  public init() {}

  /// Bulk-loads a new tree over the points' (longitude, latitude) envelopes.
  public func load(_ points: [Coordinate]) throws {
    tree = nil
    self.points = points
    guard !points.isEmpty else { return }
    let items = try points.enumerated().map { row, point in
      (
        envelope: try Envelope(
          minX: point.longitude, minY: point.latitude, maxX: point.longitude,
          maxY: point.latitude),
        element: Int32(row)
      )
    }
    tree = try STRtree(items, context: context)
  }

  /// Every point within `distance` metres: candidates from the cap's ranges, checked exactly.
  public func within(distance: Double, of center: Coordinate) throws -> [SpatialHit] {
    guard let tree else { return [] }
    var seen = Set<Int32>()
    var hits: [SpatialHit] = []
    let angle = distance / GeoDatastore.earthRadius
    for range in LonLatCover.ranges(inCapOf: angle, around: center) {
      for row in try tree.query(Self.envelope(range)) where seen.insert(row).inserted {
        let point = points[Int(row)]
        let d = greatCircleDistance(from: center, to: point, radius: GeoDatastore.earthRadius)
        if d <= distance { hits.append(SpatialHit(row: Int(row), distance: d)) }
      }
    }
    return hits.sorted(by: SpatialHit.precedes)
  }

  /// The `k` nearest points: radius searches widened fourfold until k are found, starting
  /// from the radius that would hold about k points if they were spread evenly.
  public func nearest(_ k: Int, to center: Coordinate) throws -> [SpatialHit] {
    let wanted = min(k, points.count)
    guard wanted > 0 else { return [] }
    // A cap of angle θ covers about θ²/4 of the sphere.
    let angle = 2 * (Double(wanted) / Double(points.count)).squareRoot()
    return try LonLatCover.nearest(wanted, initialDistance: angle * GeoDatastore.earthRadius) {
      try within(distance: $0, of: center)
    }
  }

  /// The rows inside the box: one or two envelope searches, checked exactly.
  public func rows(in bounds: CoordinateBounds) throws -> [Int] {
    guard let tree else { return [] }
    var rows: [Int] = []
    for range in LonLatCover.ranges(in: bounds) {
      for row in try tree.query(Self.envelope(range)) where bounds.contains(points[Int(row)]) {
        rows.append(Int(row))
      }
    }
    // Two ranges may both hold a point on their shared edge.
    return LonLatCover.sortedUnique(rows)
  }

  private static func envelope(_ range: LonLatRange) throws -> Envelope {
    try Envelope(minX: range.west, minY: range.south, maxX: range.east, maxY: range.north)
  }
}
