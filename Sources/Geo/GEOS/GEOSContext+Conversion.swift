import CGEOS

// Conversion between ``Geometry`` values and GEOS geometries. GEOS constructors take ownership
// of the coordinate sequences and geometries passed to them (never of the C arrays holding them),
// so everything is validated in Swift first: once construction starts, only allocation can fail.

extension GEOSContext {
  /// Creates a GEOS geometry that the caller owns and must destroy.
  ///
  /// Throws ``GeoErrorCode/invalidGeometry`` for a non-finite coordinate, checked before any
  /// GEOS object is made so that nothing is left half-built.
  func makeGEOS(_ geometry: Geometry) throws -> OpaquePointer {
    var bad: Position?
    geometry.forEachPosition { p in
      if bad == nil, !p.x.isFinite || !p.y.isFinite || !(p.z?.isFinite ?? true) { bad = p }
    }
    if let bad {
      throw GeoError(.invalidGeometry, "\(geometry.typeName) position \(bad) is not finite")
    }
    return try makeValidatedGEOS(geometry)
  }

  private func makeValidatedGEOS(_ geometry: Geometry) throws -> OpaquePointer {
    switch geometry {
    case .point(let p):
      return try check(
        GEOSGeom_createPoint_r(handle, makeSequence([p])), "creating a point")
    case .lineString(let line):
      if line.positions.isEmpty {
        return try check(GEOSGeom_createEmptyLineString_r(handle), "creating an empty line")
      }
      return try check(
        GEOSGeom_createLineString_r(handle, makeSequence(line.positions)),
        "creating a line string")
    case .polygon(let polygon):
      return try makePolygon(polygon)
    case .multiPoint(let points):
      return try makeCollection(
        GEOS_MULTIPOINT,
        points.map { try check(GEOSGeom_createPoint_r(handle, makeSequence([$0])), "point") })
    case .multiLineString(let lines):
      return try makeCollection(
        GEOS_MULTILINESTRING, lines.map { try makeValidatedGEOS(.lineString($0)) })
    case .multiPolygon(let polygons):
      return try makeCollection(GEOS_MULTIPOLYGON, polygons.map(makePolygon))
    case .geometryCollection(let members):
      return try makeCollection(GEOS_GEOMETRYCOLLECTION, members.map(makeValidatedGEOS))
    }
  }

  /// A coordinate sequence holding `positions`, three-dimensional when any has a `z`
  /// (missing `z` values become NaN, GEOS's "no value").
  private func makeSequence(_ positions: [Position]) throws -> OpaquePointer {
    let hasZ = positions.contains { $0.z != nil }
    var buffer: [Double] = []
    buffer.reserveCapacity(positions.count * (hasZ ? 3 : 2))
    for p in positions {
      buffer.append(p.x)
      buffer.append(p.y)
      if hasZ { buffer.append(p.z ?? .nan) }
    }
    return try check(
      GEOSCoordSeq_copyFromBuffer_r(handle, buffer, UInt32(positions.count), hasZ ? 1 : 0, 0),
      "creating a coordinate sequence")
  }

  private func makePolygon(_ polygon: Polygon) throws -> OpaquePointer {
    if polygon.isEmpty {
      return try check(GEOSGeom_createEmptyPolygon_r(handle), "creating an empty polygon")
    }
    let shell = try check(
      GEOSGeom_createLinearRing_r(handle, makeSequence(polygon.exterior.positions)),
      "creating a linear ring")
    var holes: [OpaquePointer?] = []
    holes.reserveCapacity(polygon.holes.count)
    do {
      for hole in polygon.holes {
        holes.append(
          try check(
            GEOSGeom_createLinearRing_r(handle, makeSequence(hole.positions)),
            "creating a linear ring"))
      }
    } catch {
      GEOSGeom_destroy_r(handle, shell)
      for hole in holes { GEOSGeom_destroy_r(handle, hole) }
      throw error
    }
    return try check(
      holes.withUnsafeMutableBufferPointer {
        GEOSGeom_createPolygon_r(handle, shell, $0.baseAddress, UInt32($0.count))
      }, "creating a polygon")
  }

  private func makeCollection(_ type: GEOSGeomTypes, _ members: [OpaquePointer]) throws
    -> OpaquePointer
  {
    if members.isEmpty {
      return try check(
        GEOSGeom_createEmptyCollection_r(handle, Int32(type.rawValue)), "creating a collection")
    }
    var parts: [OpaquePointer?] = members
    return try check(
      parts.withUnsafeMutableBufferPointer {
        GEOSGeom_createCollection_r(
          handle, Int32(type.rawValue), $0.baseAddress, UInt32($0.count))
      }, "creating a collection")
  }

  /// Reads a GEOS geometry (which the caller keeps owning) into a ``Geometry`` value.
  func geometry(from g: OpaquePointer) throws -> Geometry {
    let type = GEOSGeomTypeId_r(handle, g)
    switch type {
    case Int32(GEOS_POINT.rawValue):
      if GEOSisEmpty_r(handle, g) == 1 { return .multiPoint([]) }
      return .point(try positions(of: g)[0])
    case Int32(GEOS_LINESTRING.rawValue), Int32(GEOS_LINEARRING.rawValue):
      return .lineString(LineString(unchecked: try positions(of: g)))
    case Int32(GEOS_POLYGON.rawValue):
      return .polygon(try polygon(from: g))
    case Int32(GEOS_MULTIPOINT.rawValue):
      return .multiPoint(try members(of: g).map { try positions(of: $0)[0] })
    case Int32(GEOS_MULTILINESTRING.rawValue):
      return .multiLineString(
        try members(of: g).map { LineString(unchecked: try positions(of: $0)) })
    case Int32(GEOS_MULTIPOLYGON.rawValue):
      return .multiPolygon(try members(of: g).map(polygon(from:)))
    case Int32(GEOS_GEOMETRYCOLLECTION.rawValue):
      return .geometryCollection(try members(of: g).map(geometry(from:)))
    default:
      throw failure("reading a geometry of GEOS type \(type)")
    }
  }

  private func members(of g: OpaquePointer) throws -> [OpaquePointer] {
    let count = GEOSGetNumGeometries_r(handle, g)
    guard count >= 0 else { throw failure("counting geometries") }
    return try (0..<count).map { try check(GEOSGetGeometryN_r(handle, g, $0), "geometry \($0)") }
  }

  private func polygon(from g: OpaquePointer) throws -> Polygon {
    if GEOSisEmpty_r(handle, g) == 1 {
      return Polygon(unchecked: LinearRing(unchecked: []), holes: [])
    }
    let shell = try check(GEOSGetExteriorRing_r(handle, g), "reading an exterior ring")
    let holeCount = GEOSGetNumInteriorRings_r(handle, g)
    guard holeCount >= 0 else { throw failure("counting interior rings") }
    let holes = try (0..<holeCount).map {
      LinearRing(
        unchecked: try positions(of: try check(GEOSGetInteriorRingN_r(handle, g, $0), "ring")))
    }
    return Polygon(unchecked: LinearRing(unchecked: try positions(of: shell)), holes: holes)
  }

  /// The positions of a point, line string or ring.
  private func positions(of g: OpaquePointer) throws -> [Position] {
    let sequence = try check(GEOSGeom_getCoordSeq_r(handle, g), "reading coordinates")
    var size: UInt32 = 0
    try checkStatus(GEOSCoordSeq_getSize_r(handle, sequence, &size), "reading a sequence size")
    let hasZ = GEOSHasZ_r(handle, g) == 1
    let stride = hasZ ? 3 : 2
    var buffer = [Double](repeating: 0, count: Int(size) * stride)
    try checkStatus(
      GEOSCoordSeq_copyToBuffer_r(handle, sequence, &buffer, hasZ ? 1 : 0, 0),
      "copying coordinates")
    return (0..<Int(size)).map { i in
      let z = hasZ ? buffer[i * 3 + 2] : .nan
      return Position(x: buffer[i * stride], y: buffer[i * stride + 1], z: z.isNaN ? nil : z)
    }
  }
}
