/// The character between the fields of a record.
public enum CSVDelimiter: UInt8, CaseIterable, Hashable, Sendable {
  /// `,`, RFC 4180's.
  case comma = 0x2C
  /// `;`, as spreadsheets write CSV where the comma is the decimal separator.
  case semicolon = 0x3B
  /// A tab, for tab-separated values.
  case tab = 0x09

  /// Whichever of comma, semicolon and tab occurs most often in `line` outside double quotes;
  /// comma when there is a tie or none occurs.
  public static func mostFrequent(in line: some Sequence<UInt8>) -> CSVDelimiter {
    var counts: [CSVDelimiter: Int] = [:]
    var quoted = false
    for byte in line {
      if byte == UInt8(ascii: "\"") {
        quoted.toggle()
      } else if !quoted, let delimiter = CSVDelimiter(rawValue: byte) {
        counts[delimiter, default: 0] += 1
      }
    }
    // `max(by:)` keeps the first of equals, so the order of `allCases` breaks ties.
    return allCases.max { counts[$0, default: 0] < counts[$1, default: 0] } ?? .comma
  }
}

/// One record of delimited text: its fields and the line it starts on.
public struct CSVRecord: Hashable, Sendable {
  /// The fields in order. A quoted field is its text between the quotes with each `""` read
  /// as one `"` (line breaks inside are kept as written); an unquoted field is exactly what
  /// stands between the delimiters, spaces included.
  public var fields: [String]
  /// The 1-based line on which the record starts (a quoted field may carry it over more lines).
  public var line: Int

  /// A record of `fields` starting on `line`.
  public init(fields: [String], line: Int) {
    self.fields = fields
    self.line = line
  }
}

/// Delimited text that breaks RFC 4180's rules: a quote that is never closed, or text after a
/// closing quote.
public struct CSVSyntaxError: Error, Hashable, Sendable, CustomStringConvertible {
  /// What was expected, and what was found.
  public let message: String
  /// The 1-based line of the problem.
  public let line: Int
  /// The 1-based column of the problem, in Unicode scalars.
  public let column: Int

  /// An error saying `message` at `line` and `column`.
  public init(message: String, line: Int, column: Int) {
    self.message = message
    self.line = line
    self.column = column
  }

  /// The error as a message about `file`: `file:line:column: what was expected`.
  public func message(in file: String) -> String { "\(file):\(line):\(column): \(message)" }

  /// `line L, column C: what was expected`.
  public var description: String { "line \(line), column \(column): \(message)" }
}

/// Reads delimited text (RFC 4180) one record at a time, keeping the line each record starts on.
///
/// - Records end at a line feed, a carriage return or both (CR LF); the last one needs no line
///   break. A UTF-8 byte order mark at the start is skipped.
/// - A field that starts with `"` is quoted: it runs to the next `"` that is not doubled, and may
///   hold delimiters, `""` (one quote) and line breaks. Spaces (and tabs, unless tab is the
///   delimiter) before the opening and after the closing quote are not part of the field;
///   anything else after the closing quote, or a quote that is never closed, is a
///   ``CSVSyntaxError`` with its line and column. A `"` inside an unquoted field is an
///   ordinary character.
/// - Lines that hold nothing but spaces and tabs are skipped, and with `skipsComments` so are
///   lines whose first character other than a space or tab is `#`.
/// - Without a delimiter given, the reader takes whichever of comma, semicolon and tab occurs most
///   often in the first line it would read (``CSVDelimiter/mostFrequent(in:)``).
///
/// ```swift
/// var reader = CSVReader(Array(text.utf8))
/// while let record = try reader.next() { print(record.line, record.fields) }
/// ```
public struct CSVReader: Sendable {
  /// The delimiter, given or detected.
  public let delimiter: CSVDelimiter
  /// Whether lines starting with `#` are skipped.
  public let skipsComments: Bool

  private let bytes: [UInt8]
  private var i: Int
  /// The 1-based line at `i`, and the offset where that line starts.
  private var line = 1
  private var lineStart: Int

  /// A reader of `bytes` (UTF-8 text), with `delimiter` or else the one its first line uses most.
  public init(
    _ bytes: some Sequence<UInt8>, delimiter: CSVDelimiter? = nil, skipsComments: Bool = false
  ) {
    let bytes = Array(bytes)
    let start = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
    self.bytes = bytes
    self.i = start
    self.lineStart = start
    self.skipsComments = skipsComments
    self.delimiter =
      delimiter
      ?? CSVDelimiter.mostFrequent(
        in: Self.firstLine(bytes, from: start, skipsComments: skipsComments))
  }

  /// A reader of `text`.
  public init(_ text: String, delimiter: CSVDelimiter? = nil, skipsComments: Bool = false) {
    self.init(Array(text.utf8), delimiter: delimiter, skipsComments: skipsComments)
  }

  /// The next record, or `nil` at the end of the text.
  public mutating func next() throws(CSVSyntaxError) -> CSVRecord? {
    var fields: [String] = []
    guard
      let line = try nextRecord({ _, bytes in fields.append(String(decoding: bytes, as: UTF8.self))
      })
    else { return nil }
    return CSVRecord(fields: fields, line: line)
  }

  /// The records from here to the end of the text.
  public mutating func records() throws(CSVSyntaxError) -> [CSVRecord] {
    var records: [CSVRecord] = []
    while let record = try next() { records.append(record) }
    return records
  }

  // MARK: Reading

  private func isLineBreak(_ byte: UInt8) -> Bool {
    byte == 0x0A || byte == 0x0D
  }

  private func isSpace(_ byte: UInt8) -> Bool {
    byte == 0x20 || (byte == 0x09 && delimiter != .tab)
  }

  private func skipSpaces(from offset: Int) -> Int {
    var j = offset
    while j < bytes.count, isSpace(bytes[j]) { j += 1 }
    return j
  }

  /// Moves past the line break at `i` (CR, LF or CR LF), counting the line.
  private mutating func takeLineBreak() {
    if bytes[i] == 0x0D, i + 1 < bytes.count, bytes[i + 1] == 0x0A { i += 1 }
    i += 1
    line += 1
    lineStart = i
  }

  private mutating func skipLine() {
    while i < bytes.count, !isLineBreak(bytes[i]) { i += 1 }
    if i < bytes.count { takeLineBreak() }
  }

  /// Reads the next record without making a string of each field: `visit` is given each
  /// field's position in the record (0-based) and its bytes, as ``next()`` would decode them
  /// (a quoted field's quotes undone), valid only during the call.
  ///
  /// - Returns: the 1-based line the record starts on, or `nil` at the end of the text.
  /// - Throws: ``CSVSyntaxError`` as ``next()`` does.
  public mutating func nextRecord(
    _ visit: (_ field: Int, _ bytes: UnsafeBufferPointer<UInt8>) -> Void
  ) throws(CSVSyntaxError) -> Int? {
    while i < bytes.count {
      let first = skipSpaces(from: i)
      if first == bytes.count || isLineBreak(bytes[first])
        || (skipsComments && bytes[first] == UInt8(ascii: "#"))
      {
        skipLine()
        continue
      }
      return try fieldsOfRecord(visit)
    }
    return nil
  }

  /// Reads the record at `i`, giving `visit` each field's bytes; returns its line.
  private mutating func fieldsOfRecord(
    _ visit: (_ field: Int, _ bytes: UnsafeBufferPointer<UInt8>) -> Void
  ) throws(CSVSyntaxError) -> Int {
    let recordLine = line
    let text = bytes
    var quoted: [UInt8] = []
    var index = 0
    while true {
      if let range = try field(unquotingInto: &quoted) {
        text.withUnsafeBufferPointer { visit(index, UnsafeBufferPointer(rebasing: $0[range])) }
      } else {
        quoted.withUnsafeBufferPointer { visit(index, $0) }
      }
      index += 1
      guard i < bytes.count else { break }
      if bytes[i] == delimiter.rawValue {
        i += 1
      } else {
        takeLineBreak()
        break
      }
    }
    return recordLine
  }

  /// Reads one field, leaving `i` at the delimiter, the line break or the end that follows it.
  ///
  /// - Returns: the range of an unquoted field's bytes; `nil` for a quoted field, whose bytes
  ///   (its quotes undone) are then in `text`.
  private mutating func field(unquotingInto text: inout [UInt8]) throws(CSVSyntaxError)
    -> Range<Int>?
  {
    let start = i
    let afterSpaces = skipSpaces(from: i)
    guard afterSpaces < bytes.count, bytes[afterSpaces] == UInt8(ascii: "\"") else {
      while i < bytes.count, bytes[i] != delimiter.rawValue, !isLineBreak(bytes[i]) { i += 1 }
      return start..<i
    }
    let openingLine = line
    let openingColumn = column(of: afterSpaces)
    i = afterSpaces + 1
    text.removeAll(keepingCapacity: true)
    while true {
      guard i < bytes.count else {
        throw CSVSyntaxError(
          message: "expected '\"' to close the quoted field that starts here",
          line: openingLine, column: openingColumn)
      }
      let byte = bytes[i]
      if byte == UInt8(ascii: "\"") {
        if i + 1 < bytes.count, bytes[i + 1] == UInt8(ascii: "\"") {
          text.append(byte)
          i += 2
          continue
        }
        i += 1
        break
      }
      if isLineBreak(byte) {
        let breakStart = i
        takeLineBreak()
        text += bytes[breakStart..<i]
        continue
      }
      text.append(byte)
      i += 1
    }
    i = skipSpaces(from: i)
    if i < bytes.count, bytes[i] != delimiter.rawValue, !isLineBreak(bytes[i]) {
      throw CSVSyntaxError(
        message: "expected \(delimiter.name) or the end of the line after the closing quote, "
          + "found \(Self.describe(bytes, at: i)) (a quote inside a quoted field is written \"\")",
        line: line, column: column(of: i))
    }
    return nil
  }

  /// The 1-based column of `offset` on the current line, in Unicode scalars.
  private func column(of offset: Int) -> Int {
    var column = 1
    for j in lineStart..<offset where bytes[j] & 0xC0 != 0x80 { column += 1 }
    return column
  }

  /// The bytes of the first line a reader starting at `start` would read.
  private static func firstLine(_ bytes: [UInt8], from start: Int, skipsComments: Bool)
    -> ArraySlice<UInt8>
  {
    var lineStart = start
    while lineStart < bytes.count {
      var end = lineStart
      while end < bytes.count, bytes[end] != 0x0A, bytes[end] != 0x0D { end += 1 }
      let line = bytes[lineStart..<end]
      let first = line.first { $0 != 0x20 && $0 != 0x09 }
      if let first, !(skipsComments && first == UInt8(ascii: "#")) { return line }
      lineStart = end + 1
    }
    return []
  }

  private static func describe(_ bytes: [UInt8], at offset: Int) -> String {
    var end = offset + 1
    while end < bytes.count, bytes[end] & 0xC0 == 0x80 { end += 1 }
    return "'\(String(decoding: bytes[offset..<end], as: UTF8.self))'"
  }
}

extension CSVDelimiter {
  /// How messages name the delimiter: `','`, `';'` or `a tab`.
  var name: String {
    switch self {
    case .comma: "','"
    case .semicolon: "';'"
    case .tab: "a tab"
    }
  }
}
