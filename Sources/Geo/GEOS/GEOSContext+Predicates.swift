import CGEOS

extension GEOSContext {
  /// Whether `a` and `b` share at least one point.
  public func intersects(_ a: Geometry, _ b: Geometry) throws -> Bool {
    try withGEOS(a, b) { try checkPredicate(GEOSIntersects_r(handle, $0, $1), "intersects") }
  }

  /// Whether every point of `b` lies in `a` and the interiors meet (a boundary point is not
  /// contained: a polygon does not contain a point on its edge).
  public func contains(_ a: Geometry, _ b: Geometry) throws -> Bool {
    try withGEOS(a, b) { try checkPredicate(GEOSContains_r(handle, $0, $1), "contains") }
  }

  /// Whether every point of `b` lies in `a`, boundary included.
  public func covers(_ a: Geometry, _ b: Geometry) throws -> Bool {
    try withGEOS(a, b) { try checkPredicate(GEOSCovers_r(handle, $0, $1), "covers") }
  }

  /// Whether `a` lies within `b` (the converse of ``contains(_:_:)``).
  public func within(_ a: Geometry, _ b: Geometry) throws -> Bool {
    try withGEOS(a, b) { try checkPredicate(GEOSWithin_r(handle, $0, $1), "within") }
  }

  /// Whether the planar distance between `a` and `b` is at most `distance`.
  public func isWithinDistance(_ a: Geometry, _ b: Geometry, distance: Double) throws -> Bool {
    try requireNonNegative(distance, "distance")
    return try withGEOS(a, b) {
      try checkPredicate(GEOSDistanceWithin_r(handle, $0, $1, distance), "distance-within")
    }
  }

  /// Whether the geometry is topologically valid (closed, non-self-intersecting rings, holes
  /// inside their shell, …).
  public func isValid(_ geometry: Geometry) throws -> Bool {
    try withGEOS(geometry) { try checkPredicate(GEOSisValid_r(handle, $0), "isValid") }
  }

  /// GEOS's explanation of why a geometry is invalid, or `"Valid Geometry"`.
  public func validityReason(_ geometry: Geometry) throws -> String {
    try withGEOS(geometry) { g in
      let reason = try check(GEOSisValidReason_r(handle, g), "isValidReason")
      defer { GEOSFree_r(handle, reason) }
      return String(cString: reason)
    }
  }

  func requireNonNegative(_ value: Double, _ name: String) throws {
    guard value.isFinite, value >= 0 else {
      throw GeoError(.invalidArgument, "\(name) must be a finite number ≥ 0, got \(value)")
    }
  }
}
