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

  /// Where each value starts in the text; `nil` for a document made from a value.
  private let locations: (table: LocationTable, lines: LineTable)?

  /// Parses UTF-8 JSON text (a leading byte order mark is skipped).
  ///
  /// Throws a ``JSONSyntaxError`` with the line and column of the first problem and what was
  /// expected there, and for text of ``maximumSize`` bytes or more.
  public init(parsing data: Data) throws(JSONSyntaxError) {
    guard data.count < JSONDocument.maximumSize else {
      throw JSONSyntaxError(
        message: "the text is \(data.count) bytes: expected less than 4 GiB "
          + "(\(JSONDocument.maximumSize) bytes)")
    }
    var parser = JSONParser(bytes: [UInt8](data), keepsLocations: true)
    self.root = try parser.parseDocument()
    self.locations = (parser.table, parser.lines)
  }

  /// A document of `root`, made in memory rather than read from text: it has no places, so
  /// ``location(of:)`` and ``keyLocation(of:)`` are `nil` for every path. (A document made by
  /// changing another, such as a sweep's point, is read this way instead of being written out
  /// and parsed again, which would give places in text nobody sees.)
  public init(value root: JSONValue) {
    self.root = root
    self.locations = nil
  }

  /// How large a document may be, in bytes (exclusive): its offsets are kept in 32 bits.
  public static let maximumSize = Int(UInt32.max)

  /// Parses UTF-8 JSON text as ``init(parsing:)-(Data)`` does, without keeping where each value
  /// starts.
  static func value(parsing data: Data) throws(JSONSyntaxError) -> JSONValue {
    var parser = JSONParser(bytes: [UInt8](data), keepsLocations: false)
    return try parser.parseDocument()
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
    guard let (table, lines) = locations else { return nil }
    return slot(at: path, in: table, lines).map {
      lines.location(ofOffset: Int(table.starts[$0]))
    }
  }

  /// Where the key of the object member at `path` starts (its opening quote), or `nil` when the
  /// path is the root, ends in an array index or leads nowhere.
  public func keyLocation(of path: JSONPath) -> JSONSourceLocation? {
    guard let (table, lines) = locations, let slot = slot(at: path, in: table, lines),
      table.keyStarts[slot] != LocationTable.none
    else { return nil }
    return lines.location(ofOffset: Int(table.keyStarts[slot]))
  }

  /// The table slot of the value at `path`.
  private func slot(at path: JSONPath, in table: LocationTable, _ lines: LineTable) -> Int? {
    var slot = 0
    var value = root
    for component in path.components {
      switch (component, value) {
      case (.key(let key), .object(let members)):
        guard let member = members[key], let child = table.member(key, of: slot, in: lines.bytes)
        else { return nil }
        (slot, value) = (child, member)
      case (.index(let i), .array(let elements)):
        guard elements.indices.contains(i) else { return nil }
        (slot, value) = (table.element(i, of: slot), elements[i])
      default: return nil
      }
    }
    return slot
  }
}

/// Where each value of a document starts, in 12 bytes a value.
///
/// Values are numbered in document order (a value, then the values inside it), and each number
/// (a slot) indexes three columns: where the value starts, where its member key starts, and the
/// slot after the last value inside it. The children of a value are found by hopping from one
/// child's subtree to the next; arrays whose elements hold values of their own also keep their
/// elements' slots, and large objects their members', so that a lookup never walks a long list.
private struct LocationTable: Sendable {
  /// The key start of a value that is not an object member.
  static let none = UInt32.max
  /// Objects with more members than this keep a table of their members' slots.
  static let memberTableThreshold = 16

  var starts: [UInt32] = []
  var keyStarts: [UInt32] = []
  var ends: [UInt32] = []
  /// The element slots of arrays whose elements are not all scalars, by the array's slot.
  var elementSlots: [Int: [UInt32]] = [:]
  /// The member slots of objects with many members, by the object's slot.
  var memberSlots: [Int: [String: UInt32]] = [:]

  mutating func reserve(_ count: Int) {
    starts.reserveCapacity(count)
    keyStarts.reserveCapacity(count)
    ends.reserveCapacity(count)
  }

  /// Adds a value that starts at `start` (a member's key at `keyStart`, or −1), returning its slot.
  mutating func open(start: Int, keyStart: Int) -> Int {
    starts.append(UInt32(start))
    keyStarts.append(keyStart < 0 ? LocationTable.none : UInt32(keyStart))
    ends.append(0)
    return starts.count - 1
  }

  /// Ends the value at `slot`: the values added since are inside it.
  mutating func close(_ slot: Int) {
    ends[slot] = UInt32(starts.count)
  }

  /// The slots of the values directly inside the one at `slot`, which is complete up to the
  /// table's end.
  func children(of slot: Int) -> [Int] {
    var result: [Int] = []
    var child = slot + 1
    while child < starts.count {
      result.append(child)
      child = Int(ends[child])
    }
    return result
  }

  /// The slot of element `index` of the array at `slot`.
  func element(_ index: Int, of slot: Int) -> Int {
    if let slots = elementSlots[slot] { return Int(slots[index]) }
    return slot + 1 + index  // every element is a scalar: one slot each
  }

  /// The slot of the member `key` of the object at `slot`, reading member keys from `bytes`.
  func member(_ key: String, of slot: Int, in bytes: [UInt8]) -> Int? {
    if let slots = memberSlots[slot] { return slots[key].map(Int.init) }
    var child = slot + 1
    let end = Int(ends[slot])
    while child < end {
      if JSONParser.key(at: Int(keyStarts[child]), in: bytes) == key { return child }
      child = Int(ends[child])
    }
    return nil
  }
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
  var table = LocationTable()

  init(bytes: [UInt8], keepsLocations: Bool) {
    self.bytes = bytes
    self.keepsLocations = keepsLocations
    let bom = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
    self.i = bom
    self.lines = LineTable(bytes: bytes, starts: [bom])
    if keepsLocations {
      // At most one value per two bytes (`1,1,…`): reserved once (up to 16 M values), so the
      // columns do not regrow; pages that are never written are never resident.
      table.reserve(min(bytes.count / 2 + 1, 1 << 24))
    }
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

  mutating func parseDocument() throws(JSONSyntaxError) -> JSONValue {
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

  /// Parses the value at the current byte, a member's whose key starts at `keyStart` (or −1),
  /// recording where it and the values inside it start.
  mutating func parseValue(keyStart: Int) throws(JSONSyntaxError) -> JSONValue {
    let slot = keepsLocations ? table.open(start: i, keyStart: keyStart) : 0
    let value = try parseBareValue(slot: slot)
    if keepsLocations { table.close(slot) }
    return value
  }

  mutating func parseBareValue(slot: Int) throws(JSONSyntaxError) -> JSONValue {
    guard i < bytes.count else {
      throw unexpected("a value (object, array, string, number, true, false or null)")
    }
    switch bytes[i] {
    case UInt8(ascii: "{"): return try parseObject(slot: slot)
    case UInt8(ascii: "["): return try parseArray(slot: slot)
    case UInt8(ascii: "\""): return .string(try parseString())
    case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
      return .number(try parseNumber())
    case UInt8(ascii: "t"):
      try literal("true")
      return .bool(true)
    case UInt8(ascii: "f"):
      try literal("false")
      return .bool(false)
    case UInt8(ascii: "n"):
      try literal("null")
      return .null
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

  mutating func parseArray(slot: Int) throws(JSONSyntaxError) -> JSONValue {
    try enter()
    i += 1
    var values: [JSONValue] = []
    skipWhitespace()
    if i < bytes.count, bytes[i] == UInt8(ascii: "]") {
      i += 1
    } else {
      while true {
        skipWhitespace()
        if i < bytes.count, bytes[i] == UInt8(ascii: "]"), !values.isEmpty {
          throw unexpected("a value after ',' (trailing commas are not allowed)")
        }
        values.append(try parseValue(keyStart: -1))
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
    if keepsLocations, table.starts.count - slot - 1 != values.count {
      table.elementSlots[slot] = table.children(of: slot).map(UInt32.init)
    }
    return .array(values)
  }

  mutating func parseObject(slot: Int) throws(JSONSyntaxError) -> JSONValue {
    let start = i
    try enter()
    i += 1
    var members: [String: JSONValue] = [:]
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
        members[key] = try parseValue(keyStart: memberKeyStart)
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
    if keepsLocations, members.count > LocationTable.memberTableThreshold {
      var slots: [String: UInt32] = [:]
      for child in table.children(of: slot) {
        if let key = Self.key(at: Int(table.keyStarts[child]), in: bytes) {
          slots[key] = UInt32(child)
        }
      }
      table.memberSlots[slot] = slots
    }
    return .object(members)
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

  /// The member key whose opening quote is at `offset` in `bytes` (text already parsed once).
  static func key(at offset: Int, in bytes: [UInt8]) -> String? {
    var parser = JSONParser(bytes: bytes, keepsLocations: false)
    parser.i = offset
    return try? parser.parseString()
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
