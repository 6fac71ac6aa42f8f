import CGEOS

/// A geometry prepared once for many fast predicate tests against it.
///
/// Preparing builds GEOS's indexes over the geometry's segments, so each later `contains` or
/// `intersects` costs O(log *n*) instead of O(*n*). A fence, a gazetteer polygon or a search box
/// is prepared once per world and tested against every fix. Like its ``GEOSContext`` it must stay
/// on one thread.
public final class PreparedGeometry {
  /// The geometry that was prepared.
  public let geometry: Geometry
  private let context: GEOSContext
  private let base: OpaquePointer
  private let prepared: OpaquePointer

  /// Prepares `geometry` in `context`.
  public init(_ geometry: Geometry, context: GEOSContext) throws {
    let base = try context.makeGEOS(geometry)
    guard let prepared = GEOSPrepare_r(context.handle, base) else {
      GEOSGeom_destroy_r(context.handle, base)
      throw context.failure("prepare")
    }
    self.geometry = geometry
    self.context = context
    self.base = base
    self.prepared = prepared
  }

  deinit {
    GEOSPreparedGeom_destroy_r(context.handle, prepared)
    GEOSGeom_destroy_r(context.handle, base)
  }

  /// Whether the prepared geometry contains `position` (a point on the boundary is not
  /// contained).
  ///
  /// - Complexity: O(log *n*) in the number of the prepared geometry's vertices.
  public func contains(_ position: Position) throws -> Bool {
    try withPoint(position) {
      try context.checkPredicate(GEOSPreparedContains_r(context.handle, prepared, $0), "contains")
    }
  }

  /// Whether the prepared geometry covers `position` (boundary included).
  public func covers(_ position: Position) throws -> Bool {
    try withPoint(position) {
      try context.checkPredicate(GEOSPreparedCovers_r(context.handle, prepared, $0), "covers")
    }
  }

  /// Whether the prepared geometry contains `other`; see ``GEOSContext/contains(_:_:)``.
  public func contains(_ other: Geometry) throws -> Bool {
    try context.withGEOS(other) {
      try context.checkPredicate(GEOSPreparedContains_r(context.handle, prepared, $0), "contains")
    }
  }

  /// Whether the prepared geometry covers `other`; see ``GEOSContext/covers(_:_:)``.
  public func covers(_ other: Geometry) throws -> Bool {
    try context.withGEOS(other) {
      try context.checkPredicate(GEOSPreparedCovers_r(context.handle, prepared, $0), "covers")
    }
  }

  /// Whether the prepared geometry and `other` share a point.
  public func intersects(_ other: Geometry) throws -> Bool {
    try context.withGEOS(other) {
      try context.checkPredicate(
        GEOSPreparedIntersects_r(context.handle, prepared, $0), "intersects")
    }
  }

  /// Whether the prepared geometry lies within `other`.
  public func within(_ other: Geometry) throws -> Bool {
    try context.withGEOS(other) {
      try context.checkPredicate(GEOSPreparedWithin_r(context.handle, prepared, $0), "within")
    }
  }

  /// Whether `other` is within `distance` (planar units) of the prepared geometry.
  public func isWithinDistance(_ other: Geometry, distance: Double) throws -> Bool {
    try context.requireNonNegative(distance, "distance")
    return try context.withGEOS(other) {
      try context.checkPredicate(
        GEOSPreparedDistanceWithin_r(context.handle, prepared, $0, distance), "distance-within")
    }
  }

  private func withPoint<T>(_ p: Position, _ body: (OpaquePointer) throws -> T) throws -> T {
    guard p.x.isFinite, p.y.isFinite else {
      throw GeoError(.invalidGeometry, "point \(p) is not finite")
    }
    let point = try context.check(
      GEOSGeom_createPointFromXY_r(context.handle, p.x, p.y), "creating a point")
    defer { GEOSGeom_destroy_r(context.handle, point) }
    return try body(point)
  }
}
