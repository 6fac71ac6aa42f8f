import Foundation

/// A JSON value: what GeoJSON feature properties (and other free-form JSON) hold.
///
/// Object members are kept in a dictionary; ``jsonText`` writes them with sorted keys so that the
/// same value always gives the same bytes.
public enum JSONValue: Hashable, Sendable {
  /// `null`.
  case null
  /// `true` or `false`.
  case bool(Bool)
  /// A number.
  case number(Double)
  /// A string.
  ///
  /// Held in a box of its own (`indirect`), so that a value takes 16 bytes rather than 24: large
  /// documents are mostly numbers and arrays (coordinates, times), whose memory this decides.
  indirect case string(String)
  /// An array.
  case array([JSONValue])
  /// An object.
  case object([String: JSONValue])

  /// Parses JSON text held in memory (a request body, a logged value) with ``JSONDocument``'s
  /// strict reader, keeping only the value.
  ///
  /// Throws ``JSONSyntaxError`` with the line and column of the first problem and what was
  /// expected there. Input read from a file should go through ``JSONDocument`` instead, so that
  /// later errors can name the place of the value they are about. (The error is not typed in
  /// the signature, so that callers that catch it `as JSONSyntaxError` stay as they are.)
  public init(parsing data: Data) throws {
    self = try JSONDocument.value(parsing: data)
  }

  /// The value as compact JSON text with object keys sorted.
  public var jsonText: String {
    var out = JSONBuffer(capacity: 1 << 10)
    write(to: &out)
    return out.withUnsafeBytes { String(decoding: $0, as: UTF8.self) }
  }

  /// Appends the value as compact JSON text with object keys sorted.
  public func write(to out: inout String) {
    out += jsonText
  }

  /// Appends the value as compact JSON text with object keys sorted, as UTF-8: the bytes of
  /// ``jsonText``.
  public func write(to out: inout JSONBuffer) {
    switch self {
    case .null: out.append("null")
    case .bool(let b): b ? out.append("true") : out.append("false")
    case .number(let n): out.writeNumber(n)
    case .string(let s): out.writeString(s)
    case .array(let values):
      out.append(UInt8(ascii: "["))
      for (i, v) in values.enumerated() {
        if i > 0 { out.append(UInt8(ascii: ",")) }
        v.write(to: &out)
      }
      out.append(UInt8(ascii: "]"))
    case .object(let members):
      out.append(UInt8(ascii: "{"))
      // The members sorted once, with their values: no second look-up (and hash) per key.
      for (i, member) in members.sorted(by: { $0.key < $1.key }).enumerated() {
        if i > 0 { out.append(UInt8(ascii: ",")) }
        out.writeString(member.key)
        out.append(UInt8(ascii: ":"))
        member.value.write(to: &out)
      }
      out.append(UInt8(ascii: "}"))
    }
  }

  /// A short name of the value's JSON type, for error messages (`"a number"`, `"an object"`).
  public var typeName: String {
    switch self {
    case .null: "null"
    case .bool: "a boolean"
    case .number: "a number"
    case .string: "a string"
    case .array: "an array"
    case .object: "an object"
    }
  }
}

/// A JSON document that could not be parsed.
///
/// Errors from ``JSONDocument`` and ``JSONValue/init(parsing:)`` carry the line and column where
/// the syntax broke; an error made elsewhere may know neither.
public struct JSONSyntaxError: Error, Hashable, Sendable, CustomStringConvertible {
  /// What was expected (and what was found instead), without the position.
  public let message: String
  /// The 1-based line where the syntax broke, when known.
  public let line: Int?
  /// The 1-based column (in Unicode scalars) where the syntax broke, when known.
  public let column: Int?

  /// An error saying `message`, at `line` and `column` when they are known.
  public init(message: String, line: Int? = nil, column: Int? = nil) {
    self.message = message
    self.line = line
    self.column = column
  }

  /// An error saying `message` at `location`.
  public init(message: String, at location: JSONSourceLocation) {
    self.init(message: message, line: location.line, column: location.column)
  }

  /// Where the syntax broke, when both line and column are known.
  public var location: JSONSourceLocation? {
    guard let line, let column else { return nil }
    return JSONSourceLocation(line: line, column: column)
  }

  /// `invalid JSON: line L, column C: message`, or `invalid JSON: message` without a position.
  public var description: String {
    guard let location else { return "invalid JSON: \(message)" }
    return "invalid JSON: \(location): \(message)"
  }
}
