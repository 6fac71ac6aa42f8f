import CGEOS

extension GEOSContext {
  /// Reads a geometry from Well-Known Text, for example `POLYGON ((0 0, 1 0, 1 1, 0 0))`.
  ///
  /// Throws ``GeoError`` with code ``GeoErrorCode/invalidFormat`` carrying GEOS's parse message
  /// (which names the unexpected token) when the text is not valid WKT.
  public func geometry(fromWKT text: String) throws -> Geometry {
    let reader = try reusableWKTReader
    guard let g = GEOSWKTReader_read_r(handle, reader, text) else {
      throw GeoError(.invalidFormat, "invalid WKT: \(failure("reading WKT").message)")
    }
    defer { GEOSGeom_destroy_r(handle, g) }
    return try geometry(from: g)
  }

  /// Reads a geometry from Well-Known Binary (ISO or extended, either byte order).
  ///
  /// Throws ``GeoError`` with code ``GeoErrorCode/invalidFormat`` carrying GEOS's message for
  /// truncated or malformed input.
  public func geometry(fromWKB bytes: [UInt8]) throws -> Geometry {
    let reader = try reusableWKBReader
    let g = bytes.withUnsafeBufferPointer {
      GEOSWKBReader_read_r(handle, reader, $0.baseAddress, $0.count)
    }
    guard let g else {
      throw GeoError(.invalidFormat, "invalid WKB: \(failure("reading WKB").message)")
    }
    defer { GEOSGeom_destroy_r(handle, g) }
    return try geometry(from: g)
  }

  /// Writes a geometry as ISO Well-Known Binary, little-endian.
  public func wkb(_ geometry: Geometry) throws -> [UInt8] {
    let writer = try check(GEOSWKBWriter_create_r(handle), "creating a WKB writer")
    defer { GEOSWKBWriter_destroy_r(handle, writer) }
    GEOSWKBWriter_setOutputDimension_r(handle, writer, 3)
    GEOSWKBWriter_setByteOrder_r(handle, writer, Int32(GEOS_WKB_NDR.rawValue))
    GEOSWKBWriter_setFlavor_r(handle, writer, Int32(GEOS_WKB_ISO.rawValue))
    return try withGEOS(geometry) { g in
      var size = 0
      let bytes = try check(GEOSWKBWriter_write_r(handle, writer, g, &size), "writing WKB")
      defer { GEOSFree_r(handle, bytes) }
      return Array(UnsafeBufferPointer(start: bytes, count: size))
    }
  }
}
