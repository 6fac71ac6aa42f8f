import CGEOS

/// The one door to GEOS: an owned GEOS context handle and the operations that need it.
///
/// Create one context per owner — a simulated world or a worker thread — and never share it
/// between threads: GEOS contexts are not thread-safe, so `GEOSContext` is deliberately not
/// `Sendable`. Everything GEOS allocates through it is freed before the call returns, except the
/// handles owned by ``PreparedGeometry`` and ``STRtree``, which keep their context alive and free
/// their handles in `deinit`. GEOS errors are collected per context (never printed, never stored
/// globally) and rethrown as ``GeoError`` with code ``GeoErrorCode/geos`` carrying GEOS's message.
public final class GEOSContext {
  let handle: GEOSContextHandle_t
  private let errors: ErrorBuffer
  private var wktReader: OpaquePointer?
  private var wkbReader: OpaquePointer?

  /// The GEOS library version this context runs on, for example `"3.11.1-CAPI-1.17.1"`.
  public var geosVersion: String { String(cString: GEOSversion()) }

  /// Creates a context with its own GEOS handle and error buffer.
  public init() {
    guard let handle = GEOS_init_r() else {
      // GEOS_init_r fails only when `new` does, and Swift treats allocation failure as fatal too.
      fatalError("GEOS could not allocate a context")
    }
    self.handle = handle
    self.errors = ErrorBuffer()
    let handler: GEOSMessageHandler_r = { message, userdata in
      guard let message, let userdata else { return }
      Unmanaged<ErrorBuffer>.fromOpaque(userdata).takeUnretainedValue().last = String(
        cString: message)
    }
    _ = GEOSContext_setErrorMessageHandler_r(
      handle, handler, Unmanaged.passUnretained(errors).toOpaque())
  }

  deinit {
    if let wktReader { GEOSWKTReader_destroy_r(handle, wktReader) }
    if let wkbReader { GEOSWKBReader_destroy_r(handle, wkbReader) }
    GEOS_finish_r(handle)
  }

  // MARK: Checking GEOS's return conventions

  /// The error for a failed GEOS call, carrying (and clearing) GEOS's last message.
  func failure(_ operation: String) -> GeoError {
    let message = errors.last ?? "GEOS reported no message"
    errors.last = nil
    return GeoError(.geos, "\(operation) failed: \(message)")
  }

  /// Unwraps a GEOS result that is NULL on exception.
  func check<T>(_ result: T?, _ operation: String) throws -> T {
    guard let result else { throw failure(operation) }
    return result
  }

  /// Interprets a GEOS predicate result: 0 false, 1 true, 2 exception.
  func checkPredicate(_ result: CChar, _ operation: String) throws -> Bool {
    switch result {
    case 0: return false
    case 1: return true
    default: throw failure(operation)
    }
  }

  /// Interprets a GEOS status result: 0 on exception, anything else success.
  func checkStatus(_ result: Int32, _ operation: String) throws {
    if result == 0 { throw failure(operation) }
  }

  // MARK: Owned temporaries

  /// Runs `body` with a GEOS copy of `geometry`, destroying it afterwards.
  func withGEOS<T>(_ geometry: Geometry, _ body: (OpaquePointer) throws -> T) throws -> T {
    let g = try makeGEOS(geometry)
    defer { GEOSGeom_destroy_r(handle, g) }
    return try body(g)
  }

  /// Runs `body` with GEOS copies of two geometries.
  func withGEOS<T>(
    _ a: Geometry, _ b: Geometry, _ body: (OpaquePointer, OpaquePointer) throws -> T
  ) throws -> T {
    try withGEOS(a) { ga in try withGEOS(b) { gb in try body(ga, gb) } }
  }

  /// Takes ownership of a GEOS result geometry, converting it and destroying the original.
  func consume(_ result: OpaquePointer?, _ operation: String) throws -> Geometry {
    let g = try check(result, operation)
    defer { GEOSGeom_destroy_r(handle, g) }
    return try geometry(from: g)
  }

  var reusableWKTReader: OpaquePointer {
    get throws {
      if let wktReader { return wktReader }
      let reader = try check(GEOSWKTReader_create_r(handle), "creating a WKT reader")
      wktReader = reader
      return reader
    }
  }

  var reusableWKBReader: OpaquePointer {
    get throws {
      if let wkbReader { return wkbReader }
      let reader = try check(GEOSWKBReader_create_r(handle), "creating a WKB reader")
      wkbReader = reader
      return reader
    }
  }
}

/// Where a context's error handler leaves GEOS's last message.
private final class ErrorBuffer {
  var last: String?
}
