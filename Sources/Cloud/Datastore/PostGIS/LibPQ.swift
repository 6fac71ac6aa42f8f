import CLibPQ
import Foundation

/// The functions of the system's libpq (PostgreSQL's C client library) that
/// ``PostgresConnection`` calls, loaded when the first connection is made.
///
/// The tool does not link libpq: it would load it, and the twenty libraries libpq links
/// (TLS, Kerberos, LDAP…), into every process at start, some 3 ms each time, whether or not a
/// scenario asks for the PostGIS backend. The header still gives the types and constants.
struct LibPQ: @unchecked Sendable {
  // Each the C function of the same name (libpq-fe.h), as Swift imports it.
  let connectdbParams:
    @convention(c) (
      UnsafePointer<UnsafePointer<CChar>?>?, UnsafePointer<UnsafePointer<CChar>?>?, Int32
    ) -> OpaquePointer?
  let status: @convention(c) (OpaquePointer?) -> ConnStatusType
  // (The messages and values are never NULL: libpq returns an empty string instead.)
  let errorMessage: @convention(c) (OpaquePointer?) -> UnsafeMutablePointer<CChar>
  let finish: @convention(c) (OpaquePointer?) -> Void
  let execParams:
    @convention(c) (
      OpaquePointer?, UnsafePointer<CChar>?, Int32, UnsafePointer<Oid>?,
      UnsafePointer<UnsafePointer<CChar>?>?, UnsafePointer<Int32>?, UnsafePointer<Int32>?, Int32
    ) -> OpaquePointer?
  let exec: @convention(c) (OpaquePointer?, UnsafePointer<CChar>?) -> OpaquePointer?
  let clear: @convention(c) (OpaquePointer?) -> Void
  let ntuples: @convention(c) (OpaquePointer?) -> Int32
  let nfields: @convention(c) (OpaquePointer?) -> Int32
  let getisnull: @convention(c) (OpaquePointer?, Int32, Int32) -> Int32
  let getvalue: @convention(c) (OpaquePointer?, Int32, Int32) -> UnsafeMutablePointer<CChar>
  let resultStatus: @convention(c) (OpaquePointer?) -> ExecStatusType
  let putCopyData: @convention(c) (OpaquePointer?, UnsafePointer<CChar>?, Int32) -> Int32
  let putCopyEnd: @convention(c) (OpaquePointer?, UnsafePointer<CChar>?) -> Int32
  let getResult: @convention(c) (OpaquePointer?) -> OpaquePointer?
  let resultErrorMessage: @convention(c) (OpaquePointer?) -> UnsafeMutablePointer<CChar>
  let resultErrorField: @convention(c) (OpaquePointer?, Int32) -> UnsafeMutablePointer<CChar>?

  /// The library's file: major version 5 since PostgreSQL 8.2 (Debian's `libpq5`). Elsewhere
  /// the package links libpq (Homebrew's is not on the loader's path) and `nil` names the
  /// process itself.
  #if os(Linux)
    static let fileName: String? = "libpq.so.5"
  #else
    static let fileName: String? = nil
  #endif

  /// libpq, loaded once per process on first use.
  static func loaded() throws(CloudError) -> LibPQ { try shared.get() }

  private static let shared = Result { () throws(CloudError) -> LibPQ in try load(fileName) }

  /// libpq from the library `fileName`, loaded now.
  ///
  /// - Throws: ``CloudError`` with code ``CloudErrorCode/database`` naming the library and why
  ///   it cannot be loaded, or the function it lacks.
  static func load(_ fileName: String?) throws(CloudError) -> LibPQ {
    let name = fileName ?? "libpq"
    guard let handle = dlopen(fileName, RTLD_NOW | RTLD_LOCAL) else {
      let reason = dlerror().map { String(cString: $0) } ?? "unknown reason"
      throw CloudError(
        .database,
        "the PostGIS backend needs PostgreSQL's client library (\(name), Debian's libpq5), "
          + "which cannot be loaded: \(reason)")
    }
    func function<F>(_ function: String) throws(CloudError) -> F {
      guard let address = dlsym(handle, function) else {
        throw CloudError(
          .database, "\(name) has no function \(function); expected libpq 9.1 or later")
      }
      return unsafeBitCast(address, to: F.self)
    }
    return LibPQ(
      connectdbParams: try function("PQconnectdbParams"),
      status: try function("PQstatus"),
      errorMessage: try function("PQerrorMessage"),
      finish: try function("PQfinish"),
      execParams: try function("PQexecParams"),
      exec: try function("PQexec"),
      clear: try function("PQclear"),
      ntuples: try function("PQntuples"),
      nfields: try function("PQnfields"),
      getisnull: try function("PQgetisnull"),
      getvalue: try function("PQgetvalue"),
      resultStatus: try function("PQresultStatus"),
      putCopyData: try function("PQputCopyData"),
      putCopyEnd: try function("PQputCopyEnd"),
      getResult: try function("PQgetResult"),
      resultErrorMessage: try function("PQresultErrorMessage"),
      resultErrorField: try function("PQresultErrorField"))
  }
}
