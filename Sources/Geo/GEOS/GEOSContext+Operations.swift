import CGEOS

extension GEOSContext {
  /// The points within `distance` of the geometry (planar units), with round joins and caps.
  ///
  /// A negative distance shrinks polygons. For a buffer in metres around geographic data use
  /// ``GeographicShapes/buffer(_:meters:quadrantSegments:context:geodesic:)``.
  ///
  /// - Parameters:
  ///   - geometry: the shape, in planar units.
  ///   - distance: the distance, in the geometry's units; negative to shrink polygons.
  ///   - quadrantSegments: segments per quarter circle (GEOS's default is 8).
  public func buffer(_ geometry: Geometry, distance: Double, quadrantSegments: Int = 8) throws
    -> Geometry
  {
    guard distance.isFinite else {
      throw GeoError(.invalidArgument, "buffer distance must be finite, got \(distance)")
    }
    guard quadrantSegments >= 1 else {
      throw GeoError(.invalidArgument, "quadrantSegments must be ≥ 1, got \(quadrantSegments)")
    }
    return try withGEOS(geometry) {
      try consume(GEOSBuffer_r(handle, $0, distance, Int32(quadrantSegments)), "buffer")
    }
  }

  /// The points common to `a` and `b`.
  public func intersection(_ a: Geometry, _ b: Geometry) throws -> Geometry {
    try withGEOS(a, b) { try consume(GEOSIntersection_r(handle, $0, $1), "intersection") }
  }

  /// The points in `a`, `b` or both.
  public func union(_ a: Geometry, _ b: Geometry) throws -> Geometry {
    try withGEOS(a, b) { try consume(GEOSUnion_r(handle, $0, $1), "union") }
  }

  /// The union of all members of `geometry` (dissolving overlapping polygons of a collection).
  public func unaryUnion(_ geometry: Geometry) throws -> Geometry {
    try withGEOS(geometry) { try consume(GEOSUnaryUnion_r(handle, $0), "unary union") }
  }

  /// The points of `a` that are not in `b`.
  public func difference(_ a: Geometry, _ b: Geometry) throws -> Geometry {
    try withGEOS(a, b) { try consume(GEOSDifference_r(handle, $0, $1), "difference") }
  }

  /// The centroid, or `nil` for an empty geometry.
  public func centroid(_ geometry: Geometry) throws -> Position? {
    try withGEOS(geometry) {
      switch try consume(GEOSGetCentroid_r(handle, $0), "centroid") {
      case .point(let p): p
      default: nil
      }
    }
  }

  /// The length of a lineal geometry, or the perimeter of a polygonal one (planar units).
  public func length(_ geometry: Geometry) throws -> Double {
    try withGEOS(geometry) { g in
      var length = 0.0
      try checkStatus(GEOSLength_r(handle, g, &length), "length")
      return length
    }
  }

  /// The area of a polygonal geometry (planar units squared; 0 for points and lines).
  public func area(_ geometry: Geometry) throws -> Double {
    try withGEOS(geometry) { g in
      var area = 0.0
      try checkStatus(GEOSArea_r(handle, g, &area), "area")
      return area
    }
  }

  /// The smallest planar distance between `a` and `b`.
  ///
  /// Throws when either geometry is empty: an empty set has no distance.
  public func distance(_ a: Geometry, _ b: Geometry) throws -> Double {
    guard !a.isEmpty, !b.isEmpty else {
      throw GeoError(.invalidArgument, "distance to an empty geometry is undefined")
    }
    return try withGEOS(a, b) { ga, gb in
      var distance = 0.0
      try checkStatus(GEOSDistance_r(handle, ga, gb, &distance), "distance")
      return distance
    }
  }
}
