import Foundation

/// A place in JSON text: a 1-based line and a 1-based column.
///
/// Columns count Unicode scalars from the start of the line (a tab counts as one), so `é` or `漢`
/// advance the column by one however many UTF-8 bytes they take. A line ends at a line feed, a
/// carriage return or a carriage return followed by a line feed. A byte order mark at the start of
/// the text is not counted.
public struct JSONSourceLocation: Hashable, Sendable, Comparable, CustomStringConvertible {
  /// The 1-based line.
  public let line: Int
  /// The 1-based column, in Unicode scalars.
  public let column: Int

  /// The location at `line` and `column` (both 1-based).
  public init(line: Int, column: Int) {
    self.line = line
    self.column = column
  }

  /// `line L, column C`.
  public var description: String { "line \(line), column \(column)" }

  /// Earlier in the text comes first.
  public static func < (a: JSONSourceLocation, b: JSONSourceLocation) -> Bool {
    (a.line, a.column) < (b.line, b.column)
  }
}

/// A parsed JSON document that remembers where each of its values starts.
///
/// The parser is strict RFC 8259 over UTF-8: no comments, no trailing commas, no `NaN` or
/// `Infinity`, no leading zeros, no unpaired surrogate escapes, no control characters in strings
/// and no duplicate keys in an object. Numbers become ``JSONValue/number(_:)`` doubles; a number
/// too large for a double is an error. Arrays and objects may nest ``maximumDepth`` deep.
/// ``JSONValue/init(parsing:)`` is this reader without the positions.
///
/// ```swift
/// let document = try JSONDocument(parsing: data)
/// document.location(of: ["timeline", 3, "at"])  // line 12, column 13
/// ```
public struct JSONDocument: Sendable {
  /// How deeply arrays and objects may nest; deeper text is a ``JSONSyntaxError``.
  public static let maximumDepth = 512

  /// The document's value.
  public let root: JSONValue

  private let tree: LocationNode
  private let lines: LineTable

  /// Parses UTF-8 JSON text (a leading byte order mark is skipped).
  ///
  /// Throws a ``JSONSyntaxError`` with the line and column of the first problem and what was
  /// expected there.
  public init(parsing data: Data) throws(JSONSyntaxError) {
    var parser = JSONParser(bytes: [UInt8](data), keepsLocations: true)
    let (root, tree) = try parser.parseDocument()
    self.root = root
    self.tree = tree
    self.lines = parser.lines
  }

  /// Parses UTF-8 JSON text as ``init(parsing:)-(Data)`` does, without keeping where each value
  /// starts.
  static func value(parsing data: Data) throws(JSONSyntaxError) -> JSONValue {
    var parser = JSONParser(bytes: [UInt8](data), keepsLocations: false)
    return try parser.parseDocument().0
  }

  /// Parses JSON text.
  public init(parsing text: String) throws(JSONSyntaxError) {
    try self.init(parsing: Data(text.utf8))
  }

  /// The value at `path`, or `nil` when there is none.
  public func value(at path: JSONPath) -> JSONValue? {
    root[path]
  }

  /// Where the value at `path` starts (its first character), or `nil` when there is no value
  /// there. For an object member this is where the member's value starts, not its key.
  public func location(of path: JSONPath) -> JSONSourceLocation? {
    node(at: path).map { lines.location(ofOffset: $0.start) }
  }

  /// Where the key of the object member at `path` starts (its opening quote), or `nil` when the
  /// path is the root, ends in an array index or leads nowhere.
  public func keyLocation(of path: JSONPath) -> JSONSourceLocation? {
    guard let node = node(at: path), node.keyStart >= 0 else { return nil }
    return lines.location(ofOffset: node.keyStart)
  }

  private func node(at path: JSONPath) -> LocationNode? {
    var node = tree
    for component in path.components {
      switch (component, node.children) {
      case (.key(let key), .object(let members)):
        guard let member = members[key] else { return nil }
        node = member
      case (.index(let i), .array(let elements)):
        guard elements.indices.contains(i) else { return nil }
        node = elements[i]
      default: return nil
      }
    }
    return node
  }
}

/// Where one value starts, and where its children do.
private struct LocationNode: Sendable {
  enum Children: Sendable {
    case none
    case array([LocationNode])
    case object([String: LocationNode])
  }

  /// Byte offset of the value's first character.
  var start: Int
  /// Byte offset of the member's key (its opening quote), or -1 outside objects.
  var keyStart: Int
  var children: Children
}

/// The byte offsets where lines start, for turning offsets into lines and columns.
private struct LineTable: Sendable {
  var bytes: [UInt8]
  /// Offsets of the first byte of each line, ascending; the first is 0 (or 3 after a BOM).
  var starts: [Int]

  func location(ofOffset offset: Int) -> JSONSourceLocation {
    var low = 0
    var high = starts.count
    while high - low > 1 {
      let mid = (low + high) / 2
      if starts[mid] <= offset { low = mid } else { high = mid }
    }
    var column = 1
    var i = starts[low]
    let end = min(offset, bytes.count)
    while i < end {
      if bytes[i] & 0xC0 != 0x80 { column += 1 }
      i += 1
    }
    return JSONSourceLocation(line: low + 1, column: column)
  }
}

/// A recursive-descent parser over UTF-8 bytes.
private struct JSONParser {
  let bytes: [UInt8]
  /// Whether arrays and objects record their children's locations (``JSONValue/init(parsing:)``
  /// does without them).
  let keepsLocations: Bool
  var i = 0
  var depth = 0
  var lines: LineTable

  init(bytes: [UInt8], keepsLocations: Bool) {
    self.bytes = bytes
    self.keepsLocations = keepsLocations
    let bom = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
    self.i = bom
    self.lines = LineTable(bytes: bytes, starts: [bom])
  }

  // MARK: Errors

  func error(_ message: String, at offset: Int) -> JSONSyntaxError {
    JSONSyntaxError(message: message, at: lines.location(ofOffset: offset))
  }

  /// `expected X, found Y` at the current byte.
  func unexpected(_ expected: String) -> JSONSyntaxError {
    var message = "expected \(expected), found \(foundDescription(at: i))"
    if i < bytes.count {
      switch bytes[i] {
      case UInt8(ascii: "/"): message += " (comments are not allowed)"
      case UInt8(ascii: "N"), UInt8(ascii: "I"):
        message += " (NaN and Infinity are not JSON numbers)"
      case UInt8(ascii: "'"): message += " (strings take double quotes)"
      default: break
      }
    }
    return error(message, at: i)
  }

  func foundDescription(at offset: Int) -> String {
    guard offset < bytes.count else { return "the end of the text" }
    let byte = bytes[offset]
    switch byte {
    case UInt8(ascii: "\n"), UInt8(ascii: "\r"): return "a line break"
    case UInt8(ascii: "\t"): return "a tab"
    case 0x20: return "a space"
    case 0x21..<0x7F: return "'\(Character(Unicode.Scalar(byte)))'"
    case 0..<0x20, 0x7F: return "control character \(Self.hex(UInt32(byte)))"
    default:
      let tail = bytes[offset..<min(offset + 4, bytes.count)]
      var iterator = tail.makeIterator()
      var decoder = UTF8()
      if case .scalarValue(let scalar) = decoder.decode(&iterator) {
        return "'\(Character(scalar))' (\(Self.hex(scalar.value)))"
      }
      return "a byte that is not UTF-8"
    }
  }

  static func hex(_ value: UInt32) -> String {
    let digits = String(value, radix: 16, uppercase: true)
    return "U+" + String(repeating: "0", count: max(0, 4 - digits.count)) + digits
  }

  // MARK: Structure

  mutating func parseDocument() throws(JSONSyntaxError) -> (JSONValue, LocationNode) {
    skipWhitespace()
    let result = try parseValue(keyStart: -1)
    skipWhitespace()
    guard i == bytes.count else {
      throw unexpected("the end of the text after the top-level value")
    }
    return result
  }

  mutating func skipWhitespace() {
    while i < bytes.count {
      switch bytes[i] {
      case 0x20, 0x09: i += 1
      case 0x0A:
        i += 1
        lines.starts.append(i)
      case 0x0D:
        i += 1
        if i < bytes.count, bytes[i] == 0x0A { i += 1 }
        lines.starts.append(i)
      default: return
      }
    }
  }

  mutating func parseValue(keyStart: Int) throws(JSONSyntaxError) -> (JSONValue, LocationNode) {
    let start = i
    func leaf(_ value: JSONValue) -> (JSONValue, LocationNode) {
      (value, LocationNode(start: start, keyStart: keyStart, children: .none))
    }
    guard i < bytes.count else {
      throw unexpected("a value (object, array, string, number, true, false or null)")
    }
    switch bytes[i] {
    case UInt8(ascii: "{"): return try parseObject(keyStart: keyStart)
    case UInt8(ascii: "["): return try parseArray(keyStart: keyStart)
    case UInt8(ascii: "\""): return leaf(.string(try parseString()))
    case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
      return leaf(.number(try parseNumber()))
    case UInt8(ascii: "t"):
      try literal("true")
      return leaf(.bool(true))
    case UInt8(ascii: "f"):
      try literal("false")
      return leaf(.bool(false))
    case UInt8(ascii: "n"):
      try literal("null")
      return leaf(.null)
    default:
      throw unexpected("a value (object, array, string, number, true, false or null)")
    }
  }

  mutating func literal(_ word: StaticString) throws(JSONSyntaxError) {
    let start = i
    let text = word.withUTF8Buffer { Array($0) }
    guard bytes[i...].starts(with: text) else {
      var end = i
      while end < bytes.count, end - i < 20,
        (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(bytes[end] | 0x20)
      {
        end += 1
      }
      let found = String(decoding: bytes[start..<end], as: UTF8.self)
      throw error("expected '\(word)', found '\(found)'", at: start)
    }
    i += text.count
  }

  mutating func enter() throws(JSONSyntaxError) {
    depth += 1
    guard depth <= JSONDocument.maximumDepth else {
      throw error(
        "arrays and objects nest more than \(JSONDocument.maximumDepth) deep", at: i)
    }
  }

  mutating func parseArray(keyStart: Int) throws(JSONSyntaxError) -> (JSONValue, LocationNode) {
    let start = i
    try enter()
    i += 1
    var values: [JSONValue] = []
    var nodes: [LocationNode] = []
    skipWhitespace()
    if i < bytes.count, bytes[i] == UInt8(ascii: "]") {
      i += 1
    } else {
      while true {
        skipWhitespace()
        if i < bytes.count, bytes[i] == UInt8(ascii: "]"), !values.isEmpty {
          throw unexpected("a value after ',' (trailing commas are not allowed)")
        }
        let (value, node) = try parseValue(keyStart: -1)
        values.append(value)
        if keepsLocations { nodes.append(node) }
        skipWhitespace()
        guard i < bytes.count else { throw unexpected("',' or ']'") }
        if bytes[i] == UInt8(ascii: ",") {
          i += 1
        } else if bytes[i] == UInt8(ascii: "]") {
          i += 1
          break
        } else {
          throw unexpected("',' or ']'")
        }
      }
    }
    depth -= 1
    return (.array(values), LocationNode(start: start, keyStart: keyStart, children: .array(nodes)))
  }

  mutating func parseObject(keyStart: Int) throws(JSONSyntaxError) -> (JSONValue, LocationNode) {
    let start = i
    try enter()
    i += 1
    var members: [String: JSONValue] = [:]
    var nodes: [String: LocationNode] = [:]
    skipWhitespace()
    if i < bytes.count, bytes[i] == UInt8(ascii: "}") {
      i += 1
    } else {
      while true {
        skipWhitespace()
        guard i < bytes.count, bytes[i] == UInt8(ascii: "\"") else {
          if members.isEmpty {
            throw unexpected("a member name in double quotes")
          }
          if i < bytes.count, bytes[i] == UInt8(ascii: "}") {
            throw unexpected("a member name after ',' (trailing commas are not allowed)")
          }
          throw unexpected("a member name in double quotes after ','")
        }
        let memberKeyStart = i
        let key = try parseString()
        if members[key] != nil {
          throw duplicate(key, at: memberKeyStart, in: start)
        }
        skipWhitespace()
        guard i < bytes.count, bytes[i] == UInt8(ascii: ":") else {
          throw unexpected("':' after the member name \(Self.quoted(key))")
        }
        i += 1
        skipWhitespace()
        let (value, node) = try parseValue(keyStart: memberKeyStart)
        members[key] = value
        if keepsLocations { nodes[key] = node }
        skipWhitespace()
        guard i < bytes.count else { throw unexpected("',' or '}'") }
        if bytes[i] == UInt8(ascii: ",") {
          i += 1
        } else if bytes[i] == UInt8(ascii: "}") {
          i += 1
          break
        } else {
          throw unexpected("',' or '}'")
        }
      }
    }
    depth -= 1
    return (
      .object(members), LocationNode(start: start, keyStart: keyStart, children: .object(nodes))
    )
  }

  /// The error for a second member `key` at `offset` in the object that starts at `objectStart`,
  /// naming where the first one is.
  func duplicate(_ key: String, at offset: Int, in objectStart: Int) -> JSONSyntaxError {
    let first = firstKeyOffset(key, in: objectStart)
    return error(
      "duplicate key \(Self.quoted(key)) in an object (first at "
        + "\(lines.location(ofOffset: first)))", at: offset)
  }

  /// The offset of the first member named `key` in the object that starts at `objectStart`,
  /// found by reading the object again from its start (only when reporting a duplicate).
  func firstKeyOffset(_ key: String, in objectStart: Int) -> Int {
    var again = JSONParser(bytes: bytes, keepsLocations: false)
    again.i = objectStart + 1
    again.depth = depth
    while true {
      again.skipWhitespace()
      let keyStart = again.i
      guard let name = try? again.parseString() else { return keyStart }
      if name == key { return keyStart }
      again.skipWhitespace()
      again.i += 1  // ':'
      again.skipWhitespace()
      guard (try? again.parseValue(keyStart: keyStart)) != nil else { return keyStart }
      again.skipWhitespace()
      again.i += 1  // ','
    }
  }

  static func quoted(_ s: String) -> String {
    var out = ""
    JSONText.writeString(s, to: &out)
    return out
  }

  // MARK: Strings

  /// Parses a string starting at its opening quote.
  mutating func parseString() throws(JSONSyntaxError) -> String {
    let start = i
    i += 1
    var nonASCII = false
    // Fast path: no escapes.
    while i < bytes.count {
      let byte = bytes[i]
      if byte == UInt8(ascii: "\"") {
        let slice = bytes[(start + 1)..<i]
        i += 1
        return try makeString(slice, nonASCII: nonASCII, start: start)
      }
      if byte == UInt8(ascii: "\\") || byte < 0x20 { break }
      if byte >= 0x80 { nonASCII = true }
      i += 1
    }
    var buffer = Array(bytes[(start + 1)..<i])
    while true {
      guard i < bytes.count else {
        throw error("expected '\"' to close the string that starts here", at: start)
      }
      let byte = bytes[i]
      switch byte {
      case UInt8(ascii: "\""):
        i += 1
        return try makeString(buffer[...], nonASCII: nonASCII, start: start)
      case UInt8(ascii: "\\"):
        try parseEscape(into: &buffer)
      case 0..<0x20:
        throw error(
          "expected '\"' to close the string or an escape, found "
            + "\(foundDescription(at: i)) (control characters must be escaped, like \\n or "
            + "\\u001F)", at: i)
      default:
        if byte >= 0x80 { nonASCII = true }
        buffer.append(byte)
        i += 1
      }
    }
  }

  func makeString(_ utf8: ArraySlice<UInt8>, nonASCII: Bool, start: Int) throws(JSONSyntaxError)
    -> String
  {
    guard nonASCII else { return String(decoding: utf8, as: UTF8.self) }
    guard let string = String(validating: utf8, as: UTF8.self) else {
      throw error("expected UTF-8 text in the string that starts here", at: start)
    }
    return string
  }

  mutating func parseEscape(into buffer: inout [UInt8]) throws(JSONSyntaxError) {
    let escapeStart = i
    i += 1
    guard i < bytes.count else {
      throw error("expected an escape after '\\', found the end of the text", at: i)
    }
    let byte = bytes[i]
    i += 1
    switch byte {
    case UInt8(ascii: "\""): buffer.append(UInt8(ascii: "\""))
    case UInt8(ascii: "\\"): buffer.append(UInt8(ascii: "\\"))
    case UInt8(ascii: "/"): buffer.append(UInt8(ascii: "/"))
    case UInt8(ascii: "b"): buffer.append(0x08)
    case UInt8(ascii: "f"): buffer.append(0x0C)
    case UInt8(ascii: "n"): buffer.append(0x0A)
    case UInt8(ascii: "r"): buffer.append(0x0D)
    case UInt8(ascii: "t"): buffer.append(0x09)
    case UInt8(ascii: "u"):
      let unit = try hex4()
      let scalarValue: UInt32
      switch unit {
      case 0xD800...0xDBFF:
        let lowStart = i
        guard i + 1 < bytes.count, bytes[i] == UInt8(ascii: "\\"), bytes[i + 1] == UInt8(ascii: "u")
        else {
          throw error(
            "expected a low surrogate escape \\uDC00-\\uDFFF after the high surrogate "
              + "\\u\(Self.hexDigits(unit))", at: lowStart)
        }
        i += 2
        let low = try hex4()
        guard (0xDC00...0xDFFF).contains(low) else {
          throw error(
            "expected a low surrogate escape \\uDC00-\\uDFFF after the high surrogate "
              + "\\u\(Self.hexDigits(unit)), found \\u\(Self.hexDigits(low))", at: lowStart)
        }
        scalarValue = 0x10000 + ((unit - 0xD800) << 10) + (low - 0xDC00)
      case 0xDC00...0xDFFF:
        throw error(
          "expected a high surrogate escape \\uD800-\\uDBFF before the low surrogate "
            + "\\u\(Self.hexDigits(unit))", at: escapeStart)
      default:
        scalarValue = unit
      }
      buffer.append(contentsOf: UTF8.encode(Unicode.Scalar(scalarValue)!)!)
    default:
      throw error(
        "expected an escape (\\\", \\\\, \\/, \\b, \\f, \\n, \\r, \\t or \\uXXXX) after '\\', "
          + "found \(foundDescription(at: i - 1))", at: escapeStart)
    }
  }

  static func hexDigits(_ unit: UInt32) -> String {
    let digits = String(unit, radix: 16, uppercase: true)
    return String(repeating: "0", count: max(0, 4 - digits.count)) + digits
  }

  mutating func hex4() throws(JSONSyntaxError) -> UInt32 {
    var value: UInt32 = 0
    for _ in 0..<4 {
      guard i < bytes.count else {
        throw error("expected 4 hexadecimal digits after \\u, found the end of the text", at: i)
      }
      let byte = bytes[i]
      let digit: UInt8
      switch byte {
      case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
      case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
      case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
      default:
        throw error(
          "expected 4 hexadecimal digits after \\u, found \(foundDescription(at: i))", at: i)
      }
      value = value << 4 | UInt32(digit)
      i += 1
    }
    return value
  }

  // MARK: Numbers

  /// Parses `-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?`.
  mutating func parseNumber() throws(JSONSyntaxError) -> Double {
    let start = i
    var negative = false
    if bytes[i] == UInt8(ascii: "-") {
      negative = true
      i += 1
    }
    func isDigit(_ at: Int) -> Bool {
      at < bytes.count && (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[at])
    }
    guard isDigit(i) else {
      throw unexpected("a digit after '-'")
    }
    var integer: Int64 = 0
    var digits = 0
    if bytes[i] == UInt8(ascii: "0") {
      i += 1
      if isDigit(i) {
        throw error(
          "expected '.', 'e' or the end of the number after a leading 0, found "
            + "\(foundDescription(at: i)) (leading zeros are not allowed)", at: i)
      }
    } else {
      while isDigit(i) {
        if digits < 18 { integer = integer * 10 + Int64(bytes[i] - UInt8(ascii: "0")) }
        digits += 1
        i += 1
      }
    }
    var simple = digits <= 15
    if i < bytes.count, bytes[i] == UInt8(ascii: ".") {
      simple = false
      i += 1
      guard isDigit(i) else { throw unexpected("a digit after the decimal point") }
      while isDigit(i) { i += 1 }
    }
    if i < bytes.count, bytes[i] == UInt8(ascii: "e") || bytes[i] == UInt8(ascii: "E") {
      simple = false
      i += 1
      if i < bytes.count, bytes[i] == UInt8(ascii: "+") || bytes[i] == UInt8(ascii: "-") {
        i += 1
      }
      guard isDigit(i) else { throw unexpected("a digit in the exponent") }
      while isDigit(i) { i += 1 }
    }
    if simple {
      let value = Double(integer)
      return negative ? -value : value
    }
    let text = String(decoding: bytes[start..<i], as: UTF8.self)
    guard let value = Double(text), value.isFinite else {
      throw error("expected a number that fits a double, found \(text)", at: start)
    }
    return value
  }
}
