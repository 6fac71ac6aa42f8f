import JSON

/// A value in a log entry.
public enum LogValue: Hashable, Sendable {
  /// No value.
  case null
  /// A boolean.
  case bool(Bool)
  /// An integer.
  case int(Int64)
  /// A floating-point number; non-finite values are written as `null`.
  case double(Double)
  /// A string.
  case string(String)
  /// A list of values.
  case array([LogValue])
}

extension LogValue {
  /// The value as JSON, as ``EventLog/jsonLine(_:)`` writes it (non-finite numbers as `null`).
  public var json: JSONValue {
    switch self {
    case .null: .null
    case .bool(let b): .bool(b)
    case .int(let i): .number(Double(i))
    case .double(let d): d.isFinite ? .number(d) : .null
    case .string(let s): .string(s)
    case .array(let values): .array(values.map(\.json))
    }
  }

  /// The number, for an integer or a floating-point value.
  public var doubleValue: Double? {
    switch self {
    case .double(let d): d
    case .int(let i): Double(i)
    default: nil
    }
  }

  /// The integer, for an integer or a floating-point value with no fraction.
  public var intValue: Int? {
    switch self {
    case .int(let i): Int(i)
    case .double(let d) where d == d.rounded() && abs(d) < 1e15: Int(d)
    default: nil
    }
  }

  /// The boolean, for a boolean value.
  public var boolValue: Bool? {
    if case .bool(let b) = self { b } else { nil }
  }

  /// The string, for a string value.
  public var stringValue: String? {
    if case .string(let s) = self { s } else { nil }
  }
}

/// A named value of a log entry; entries keep their fields in the order given.
public struct LogField: Hashable, Sendable {
  /// The field's name.
  public let name: String
  /// The field's value.
  public let value: LogValue

  /// A field.
  public init(_ name: String, _ value: LogValue) {
    self.name = name
    self.value = value
  }
}

/// One thing that happened in a world, at a virtual instant.
///
/// `source` names the component (`"location"`, `"region"`, `"notifications"`, `"app"`, …) and
/// `event` what happened (`"didEnterRegion"`, `"fix"`, …); the fields carry the details.
/// Reports are derived from these records, so components log every observable effect.
public struct LogEntry: Hashable, Sendable {
  /// When it happened.
  public let time: SimTime
  /// Its position in the log, from 0.
  public let sequence: Int
  /// The component that recorded it.
  public let source: String
  /// What happened.
  public let event: String
  /// The details, in order.
  public let fields: [LogField]

  /// The value of the first field called `name`, if any.
  public subscript(name: String) -> LogValue? {
    fields.first { $0.name == name }?.value
  }
}

/// The ordered record of a world: what its kernel and components did, with virtual times.
///
/// Entries are kept in memory and, when a ``sink`` is set, also handed to it one by one as
/// they are recorded (for streaming JSON Lines to a file).
public final class EventLog {
  /// Every entry, in order.
  public private(set) var entries: [LogEntry] = []
  /// Receives each entry as it is recorded.
  public var sink: ((LogEntry) -> Void)?

  /// An empty log.
  public init() {}

  /// Appends an entry.
  public func record(at time: SimTime, source: String, event: String, _ fields: [LogField] = []) {
    let entry = LogEntry(
      time: time, sequence: entries.count, source: source, event: event, fields: fields)
    entries.append(entry)
    sink?(entry)
  }

  /// The entries from `source` (all sources when `nil`) called `event` (all when `nil`).
  public func entries(source: String? = nil, event: String? = nil) -> [LogEntry] {
    entries.filter { (source == nil || $0.source == source) && (event == nil || $0.event == event) }
  }

  /// The whole log as JSON Lines: one ``jsonLine(_:)`` per entry.
  public var jsonLines: String {
    var out = ""
    for entry in entries {
      out += EventLog.jsonLine(entry)
      out += "\n"
    }
    return out
  }

  /// One entry as a single line of JSON with a fixed key order:
  /// `{"t":…,"ns":…,"seq":…,"source":…,"event":…,"fields":{…}}`, where `t` is in seconds and
  /// `ns` the exact integer time. The same entry always gives the same bytes.
  public static func jsonLine(_ entry: LogEntry) -> String {
    var out = "{\"t\":"
    out += JSONText.number(entry.time.seconds)
    out += ",\"ns\":\(entry.time.nanoseconds),\"seq\":\(entry.sequence),\"source\":"
    JSONText.writeString(entry.source, to: &out)
    out += ",\"event\":"
    JSONText.writeString(entry.event, to: &out)
    out += ",\"fields\":{"
    for (i, field) in entry.fields.enumerated() {
      if i > 0 { out += "," }
      JSONText.writeString(field.name, to: &out)
      out += ":"
      write(field.value, to: &out)
    }
    out += "}}"
    return out
  }

  private static func write(_ value: LogValue, to out: inout String) {
    switch value {
    case .null: out += "null"
    case .bool(let b): out += b ? "true" : "false"
    case .int(let i): out += String(i)
    case .double(let d): out += d.isFinite ? JSONText.number(d) : "null"
    case .string(let s): JSONText.writeString(s, to: &out)
    case .array(let values):
      out += "["
      for (i, v) in values.enumerated() {
        if i > 0 { out += "," }
        write(v, to: &out)
      }
      out += "]"
    }
  }
}
