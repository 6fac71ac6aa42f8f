import Foundation
import Geo

/// One answer of a ``SpatialBackend`` distance query: a row and its distance.
public struct SpatialHit: Hashable, Sendable {
  /// The point's position in the array given to ``SpatialBackend/load(_:)``.
  public let row: Int
  /// The great-circle distance in metres on the datastore's sphere (R = 6,371 km).
  public let distance: Double

  /// A hit.
  public init(row: Int, distance: Double) {
    self.row = row
    self.distance = distance
  }
}

/// A spatial index over one GeoPoint field of one class, answering the three shapes of NCMB
/// geo query. Every backend must return exactly what ``BruteForceBackend`` returns.
///
/// Distances are great-circle distances on a sphere of radius ``GeoDatastore/earthRadius``
/// computed by `greatCircleDistance(from:to:radius:)`; a point at exactly the limit is
/// inside. Equal distances are ordered by row, so all answers are deterministic.
public protocol SpatialBackend: AnyObject {
  /// Replaces the indexed points; a point's row is its position in `points`.
  func load(_ points: [Coordinate]) throws
  /// Every point within `distance` metres of `center`, nearest first (ties by row).
  func within(distance: Double, of center: Coordinate) throws -> [SpatialHit]
  /// The `k` (≥ 1) points nearest to `center`, nearest first (ties by row).
  func nearest(_ k: Int, to center: Coordinate) throws -> [SpatialHit]
  /// The rows of every point inside the box (edges included), ascending.
  func rows(in bounds: CoordinateBounds) throws -> [Int]
}

/// Which ``SpatialBackend`` a ``GeoDatastore`` builds for its GeoPoint fields.
public enum SpatialBackendKind: Hashable, Sendable, CustomStringConvertible {
  /// ``BruteForceBackend``: compares every point; the reference the others are tested against.
  case bruteForce
  /// ``STRtreeBackend``: GEOS's STRtree over longitude–latitude envelopes, in memory.
  case strtree
  /// ``InMemoryIndexBackend``: Geo's `PointIndex` k-d tree over unit vectors, in memory (the
  /// default: the fastest of the exact backends, `geosim bench cloud`).
  case inMemory
  /// ``SQLiteBackend``: an R*Tree in a database file per class and field, named
  /// `<class>.<field>.sqlite` in `directory` (`nil` keeps the database in memory).
  case sqlite(directory: String?)
  /// ``PostGISBackend``: a PostGIS server through libpq, on GeoSim's own temporary table or,
  /// read-only, on the user's table that the target names.
  case postgis(PostGISTarget)

  /// The backend's name in benchmarks and logs.
  public var description: String {
    switch self {
    case .bruteForce: "bruteForce"
    case .strtree: "strtree"
    case .inMemory: "inMemory"
    case .sqlite: "sqlite"
    case .postgis: "postgis"
    }
  }

  func make(className: String, field: String) throws -> any SpatialBackend {
    switch self {
    case .sqlite(let directory?):
      try SQLiteBackend(
        path: URL(fileURLWithPath: directory).appendingPathComponent("\(className).\(field).sqlite")
          .path)
    case .sqlite(nil): try SQLiteBackend(path: ":memory:")
    case .bruteForce: BruteForceBackend()
    case .strtree: STRtreeBackend()
    case .inMemory: InMemoryIndexBackend()
    case .postgis(let target): try PostGISBackend(target: target)
    }
  }
}

/// Compares the query with every point: O(n) per query, and the truth for parity tests.
public final class BruteForceBackend: SpatialBackend {
  private var points: [Coordinate] = []

  /// An empty backend.
  public init() {}

  /// Keeps the points.
  public func load(_ points: [Coordinate]) { self.points = points }

  /// Every point within `distance` metres, by a full scan.
  public func within(distance: Double, of center: Coordinate) -> [SpatialHit] {
    var hits: [SpatialHit] = []
    for (row, point) in points.enumerated() {
      let d = greatCircleDistance(from: center, to: point, radius: GeoDatastore.earthRadius)
      if d <= distance { hits.append(SpatialHit(row: row, distance: d)) }
    }
    return hits.sorted(by: SpatialHit.precedes)
  }

  /// The `k` nearest points, by sorting every distance.
  public func nearest(_ k: Int, to center: Coordinate) -> [SpatialHit] {
    Array(within(distance: .infinity, of: center).prefix(k))
  }

  /// The rows inside the box, by a full scan.
  public func rows(in bounds: CoordinateBounds) -> [Int] {
    points.indices.filter { bounds.contains(points[$0]) }
  }
}

/// The default backend: Geo's `PointIndex` with the spherical metric, in memory.
///
/// Its 3D unit-vector tree needs no special cases for the poles or the antimeridian and answers
/// exact radius, k-nearest and box queries directly. It is rebuilt in O(n log n) when the class
/// changes.
public final class InMemoryIndexBackend: SpatialBackend {
  private var index = PointIndex<Int32>([])
  private let metric = DistanceMetric.sphere(radius: GeoDatastore.earthRadius)

  /// An empty backend.
  public init() {}

  /// Bulk-loads a new index.
  public func load(_ points: [Coordinate]) {
    index = PointIndex(points.enumerated().map { ($0.element, Int32($0.offset)) })
  }

  /// Every point within `distance` metres, from the index.
  public func within(distance: Double, of center: Coordinate) throws -> [SpatialHit] {
    try index.within(radius: distance, of: center, metric: metric).map {
      SpatialHit(row: Int($0.element), distance: $0.distance)
    }
  }

  /// The `k` nearest points, from the index.
  public func nearest(_ k: Int, to center: Coordinate) throws -> [SpatialHit] {
    try index.nearest(to: center, k: k, metric: metric).map {
      SpatialHit(row: Int($0.element), distance: $0.distance)
    }
  }

  /// The rows inside the box, from the index (already in row order).
  public func rows(in bounds: CoordinateBounds) -> [Int] {
    index.elements(in: bounds).map(Int.init)
  }
}

extension SpatialHit {
  /// Nearer first, then lower row.
  static func precedes(_ a: SpatialHit, _ b: SpatialHit) -> Bool {
    a.distance < b.distance || (a.distance == b.distance && a.row < b.row)
  }
}
