import CLibPQ
import Foundation

/// One libpq connection: the only place C is called for the PostGIS backend.
///
/// It owns the `PGconn` and closes it in `deinit`; every result is cleared before its call
/// returns. Failures become ``CloudError`` with code ``CloudErrorCode/database`` whose message
/// starts with the database's name (its URL without the password) and says what was expected.
/// Like the datastore it is used from one thread.
final class PostgresConnection {
  private let pq: LibPQ
  private var connection: OpaquePointer?
  /// The URL without its password, for messages.
  let name: String
  /// The server's limit per statement, in milliseconds (0: none).
  let statementTimeout: Int

  /// The rows of a result, as text (`nil` for SQL NULL).
  struct Rows {
    var values: [[String?]] = []
    var count: Int { values.count }
  }

  /// Connects to `url` (a `postgresql://` URL or a libpq `key=value` string) and sets the
  /// statement timeout.
  init(url: String, statementTimeout: Int) throws(CloudError) {
    name = PostgresConnection.redacted(url)
    self.statementTimeout = statementTimeout
    pq = try LibPQ.loaded()
    // Defaults come first: expand_dbname lets the URL's own values override them.
    let keywords = ["connect_timeout", "application_name", "dbname"]
    let values = ["10", "geosim", url]
    connection = PostgresConnection.withCStrings(keywords) { k in
      PostgresConnection.withCStrings(values) { [pq] v in pq.connectdbParams(k, v, 1) }
    }
    // PQconnectdbParams returns NULL only when libpq cannot allocate; else check PQstatus.
    guard let connection, pq.status(connection) == CONNECTION_OK else {
      let detail = connection.map { Self.firstLine(String(cString: pq.errorMessage($0))) }
      pq.finish(connection)
      connection = nil
      throw CloudError(
        .database,
        "\(name): cannot connect: \(detail ?? "out of memory"); expected a reachable "
          + "PostgreSQL server accepting these credentials")
    }
    try execute("SET statement_timeout = \(statementTimeout)", what: "set statement_timeout")
    // Shortest exact float8 text (the default since PostgreSQL 12), whatever the server says.
    try execute("SET extra_float_digits = 1", what: "set extra_float_digits")
  }

  deinit { pq.finish(connection) }

  /// Runs one statement with text parameters (`$1`, `$2`, …) and returns its rows.
  ///
  /// `what` names the step in error messages ("near query", "load").
  @discardableResult
  func execute(_ sql: String, _ parameters: [String] = [], what: String) throws(CloudError)
    -> Rows
  {
    let result = PostgresConnection.withCStrings(parameters) { values in
      pq.execParams(connection, sql, Int32(parameters.count), nil, values, nil, nil, 0)
    }
    defer { pq.clear(result) }
    try check(result, what: what)
    var rows = Rows()
    // PQntuples and PQnfields are 0 for a command without rows.
    let (count, columns) = (pq.ntuples(result), pq.nfields(result))
    rows.values.reserveCapacity(Int(count))
    for row in 0..<count {
      var values: [String?] = []
      values.reserveCapacity(Int(columns))
      for column in 0..<columns {
        // PQgetisnull returns 1 for NULL; PQgetvalue then returns an empty string.
        values.append(
          pq.getisnull(result, row, column) == 1
            ? nil : String(cString: pq.getvalue(result, row, column)))
      }
      rows.values.append(values)
    }
    return rows
  }

  /// Runs `COPY … FROM STDIN` (text format) with `lines`, each ending in a newline.
  func copy(_ sql: String, lines: [String], what: String) throws(CloudError) {
    let start = pq.exec(connection, sql)
    // PQexec returns PGRES_COPY_IN when the server is ready for the data.
    guard pq.resultStatus(start) == PGRES_COPY_IN else {
      defer { pq.clear(start) }
      try check(start, what: what)
      throw CloudError(.database, "\(name): \(what): the server did not start COPY")
    }
    pq.clear(start)
    var chunk = ""
    func send(_ text: String) -> Bool {
      var text = text
      // PQputCopyData returns 1 when queued, 0 (non-blocking only) or -1 on error.
      return text.withUTF8 { bytes in
        bytes.withMemoryRebound(to: CChar.self) {
          pq.putCopyData(connection, $0.baseAddress, Int32($0.count)) == 1
        }
      }
    }
    var sent = true
    for line in lines {
      chunk += line
      if chunk.utf8.count >= 1 << 20 {
        sent = send(chunk)
        chunk = ""
        if !sent { break }
      }
    }
    if sent && !chunk.isEmpty { sent = send(chunk) }
    // PQputCopyEnd with an error message aborts the COPY; it returns 1 when queued.
    _ = pq.putCopyEnd(connection, sent ? nil : "client failed to send data")
    var failure: CloudError?
    // The COPY's own result, then NULL.
    while let result = pq.getResult(connection) {
      if failure == nil {
        do throws(CloudError) { try check(result, what: what) } catch { failure = error }
      }
      pq.clear(result)
    }
    if let failure { throw failure }
    guard sent else {
      throw CloudError(
        .database,
        "\(name): \(what): \(Self.firstLine(String(cString: pq.errorMessage(connection))))"
      )
    }
  }

  /// Throws unless `result` reports success (a command or rows).
  private func check(_ result: OpaquePointer?, what: String) throws(CloudError) {
    // PQresultStatus of NULL (out of memory, lost connection) is PGRES_FATAL_ERROR.
    let status = pq.resultStatus(result)
    if status == PGRES_COMMAND_OK || status == PGRES_TUPLES_OK { return }
    let detail = Self.firstLine(
      result.map { String(cString: pq.resultErrorMessage($0)) }
        ?? String(cString: pq.errorMessage(connection)))
    // PQresultErrorField returns NULL when the field is absent (a client-side failure).
    let state = result.flatMap { pq.resultErrorField($0, Int32(UInt8(ascii: "C"))) }.map {
      String(cString: $0)
    }
    if state == "57014" {
      throw CloudError(
        .database,
        "\(name): \(what): the statement ran longer than the statement timeout of "
          + "\(statementTimeout) ms; expected an answer in time (raise the timeout, or check "
          + "that the column has a GiST index)")
    }
    throw CloudError(.database, "\(name): \(what) failed: \(detail)")
  }

  // MARK: Text

  /// `url` without its password, so that it can be printed.
  static func redacted(_ url: String) -> String {
    var text = url
    if let scheme = text.range(of: "://") {
      let rest = text[scheme.upperBound...]
      let authorityEnd = rest.firstIndex(where: { "/?#".contains($0) }) ?? rest.endIndex
      if let at = rest[..<authorityEnd].lastIndex(of: "@"),
        let colon = rest[..<at].firstIndex(of: ":")
      {
        text.replaceSubrange(colon..<at, with: "")
      }
    }
    // password=… in a query string or a key=value string.
    while let range = text.range(of: #"password=[^&\s]*"#, options: .regularExpression) {
      text.replaceSubrange(range, with: "password-redacted")
    }
    return text
  }

  /// A double-quoted SQL identifier.
  static func identifier(_ name: String) -> String {
    "\"" + name.replacingOccurrences(of: "\"", with: "\"\"") + "\""
  }

  private static func firstLine(_ message: String) -> String {
    // libpq's messages span lines and indent with tabs; one line reads better in an error.
    message.split(whereSeparator: \.isWhitespace).joined(separator: " ")
  }

  /// Calls `body` with a NULL-terminated array of C strings that live for the call.
  private static func withCStrings<R>(
    _ strings: [String], _ body: (UnsafePointer<UnsafePointer<CChar>?>) -> R
  ) -> R {
    let copies = strings.map { strdup($0) }
    defer { for copy in copies { free(copy) } }
    let pointers = copies.map { UnsafePointer($0) } + [nil]
    return pointers.withUnsafeBufferPointer { body($0.baseAddress!) }
  }
}

extension PostGISBackend {
  /// Runs SQL statements on a server, in order, on a connection of their own: for tests that
  /// set up a user's table.
  package static func run(_ statements: [String], on target: PostGISTarget) throws(CloudError) {
    let connection = try PostgresConnection(
      url: target.url, statementTimeout: target.statementTimeoutMilliseconds)
    for statement in statements { try connection.execute(statement, what: "run") }
  }
}
