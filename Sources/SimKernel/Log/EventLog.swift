import Foundation
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
/// The entry carries the typed event its component declared (``payload``); `source`, `event`
/// and `fields` are that event's storage form, as the JSON Lines file writes them. Readers in
/// the same process match the typed payload (`entry.payload as? RegionEvent`); the strings are
/// for storage, for scenario `count` expectations and for people.
public struct LogEntry: Sendable {
  /// When it happened.
  public let time: SimTime
  /// Its position in the log, from 0.
  public let sequence: Int
  /// What happened, as its component declared it.
  public let payload: any LogEvent

  /// An entry recording `payload`.
  public init(time: SimTime, sequence: Int, payload: any LogEvent) {
    self.time = time
    self.sequence = sequence
    self.payload = payload
  }

  /// The component that recorded it (the payload type's ``LogEvent/source``).
  public var source: String { type(of: payload).source }
  /// What happened (the payload's ``LogEvent/name``).
  public var event: String { payload.name }
  /// The details, in order (the payload's ``LogEvent/fields``).
  public var fields: [LogField] { payload.fields }

  /// The value of the first field called `name`, if any.
  public subscript(name: String) -> LogValue? {
    fields.first { $0.name == name }?.value
  }
}

extension LogEntry: Hashable {
  /// Entries are equal when they record the same thing at the same place: time, sequence,
  /// source, event and fields.
  public static func == (a: LogEntry, b: LogEntry) -> Bool {
    a.time == b.time && a.sequence == b.sequence && a.source == b.source && a.event == b.event
      && a.fields == b.fields
  }

  /// Hashes what equality compares.
  public func hash(into hasher: inout Hasher) {
    hasher.combine(time)
    hasher.combine(sequence)
    hasher.combine(source)
    hasher.combine(event)
    hasher.combine(fields)
  }
}

/// A few event types, to pass over the entries whose payload is of none of them before casting:
/// comparing a payload's type with a few costs a comparison each, while a cast that fails costs
/// as much as one that succeeds, and a reader of the log tries every case it has on every
/// entry.
///
/// ```swift
/// static let cases = LogEventTypes(RegionEvent.self, MonitorEvent.self)
/// for entry in log.entries where Self.cases.contains(entry) {
///   switch entry.payload { case let r as RegionEvent: … }
/// }
/// ```
public struct LogEventTypes: Sendable {
  private let identifiers: [ObjectIdentifier]
  /// Those of the types that are classes: a payload of a subclass is one of them too.
  private let classes: [ObjectIdentifier]

  /// The types given.
  public init(_ types: any LogEvent.Type...) {
    identifiers = types.map { ObjectIdentifier($0) }
    classes = types.compactMap { $0 as? AnyClass }.map { ObjectIdentifier($0) }
  }

  /// Whether `entry`'s payload is of one of the types (or of a subclass of one that is a
  /// class): whether a cast to one of them would succeed.
  public func contains(_ entry: LogEntry) -> Bool {
    let own = type(of: entry.payload)
    if identifiers.contains(ObjectIdentifier(own)) { return true }
    guard !classes.isEmpty, var type = own as? AnyClass else { return false }
    while let superclass = _getSuperclass(type) {
      if classes.contains(ObjectIdentifier(superclass)) { return true }
      type = superclass
    }
    return false
  }
}

/// The ordered record of a world: what its kernel and components did, with virtual times.
///
/// Entries are kept in memory and, when a ``sink`` is set, also handed to it one by one as
/// they are recorded (for streaming JSON Lines to a file).
public final class EventLog {
  // Appended to for every entry and never held across a call: without the runtime's
  // exclusivity check.
  /// Every entry, in order.
  @exclusivity(unchecked) public private(set) var entries: [LogEntry] = []
  /// Receives each entry as it is recorded.
  public var sink: ((LogEntry) -> Void)?
  /// Whether the log is closed: the world is over, and nothing more is recorded.
  public private(set) var isClosed = false

  /// An empty log.
  public init() {}

  /// Closes the log: what happens after the world is over (its app's tasks winding down) is
  /// not part of its record.
  public func close() {
    isClosed = true
  }

  /// Appends an entry recording `event` at `time`, unless the log is closed.
  public func record(_ event: some LogEvent, at time: SimTime) {
    guard !isClosed else { return }
    let entry = LogEntry(time: time, sequence: entries.count, payload: event)
    entries.append(entry)
    sink?(entry)
  }

  /// The payloads of type `Event`, with the entries that carry them, in order.
  public func events<Event: LogEvent>(_ type: Event.Type) -> [(entry: LogEntry, event: Event)] {
    // The log is searched by type many times, mostly for types few entries have: the types are
    // compared before anything is cast (a dynamic cast of every entry was most of it).
    let wanted = LogEventTypes(Event.self)
    var found: [(entry: LogEntry, event: Event)] = []
    for entry in entries where wanted.contains(entry) {
      if let event = entry.payload as? Event { found.append((entry, event)) }
    }
    return found
  }

  /// The entries from `source` (all sources when `nil`) called `event` (all when `nil`).
  public func entries(source: String? = nil, event: String? = nil) -> [LogEntry] {
    entries.filter { (source == nil || $0.source == source) && (event == nil || $0.event == event) }
  }

  /// The whole log as JSON Lines: one ``jsonLine(_:)`` per entry.
  public var jsonLines: String {
    String(decoding: jsonLinesData, as: UTF8.self)
  }

  /// The bytes of ``jsonLines``, UTF-8, made without building the text or copying it: what a
  /// file of the log is written from.
  public var jsonLinesData: Data {
    // Lines are 100 to 300 bytes; one guess saves most of the growing.
    var out = JSONBuffer(capacity: entries.count * 256)
    for entry in entries {
      EventLog.writeJSONLine(entry, to: &out)
    }
    return out.data()
  }

  /// One entry as a single line of JSON with a fixed key order:
  /// `{"t":…,"ns":…,"seq":…,"source":…,"event":…,"fields":{…}}`, where `t` is in seconds and
  /// `ns` the exact integer time. The same entry always gives the same bytes.
  public static func jsonLine(_ entry: LogEntry) -> String {
    var out = JSONBuffer(capacity: 512)
    writeJSONLine(entry, to: &out)
    out.removeLast(1)
    return out.withUnsafeBytes { String(decoding: $0, as: UTF8.self) }
  }

  /// Appends ``jsonLine(_:)``'s line for `entry` and a newline to `out`, as UTF-8.
  public static func writeJSONLine(_ entry: LogEntry, to out: inout JSONBuffer) {
    entry.payload.writeJSONLine(time: entry.time, sequence: entry.sequence, to: &out)
  }

  /// Appends `fields` as the members of a JSON object, without its braces
  /// (`"name":value,…`): what ``LogEvent/writeFields(to:)`` writes by default.
  public static func writeFields(_ fields: [LogField], to out: inout JSONBuffer) {
    for (i, field) in fields.enumerated() {
      if i > 0 { out.append(UInt8(ascii: ",")) }
      out.writeString(field.name)
      out.append(UInt8(ascii: ":"))
      writeValue(field.value, to: &out)
    }
  }

  /// Appends the `"source":…,"event":…` members of a line, `source` and `name` written as
  /// JSON strings: what ``LogEvent/writeSourceAndName(to:)`` writes by default.
  public static func writeSourceAndName(
    _ source: String, _ name: String, to out: inout JSONBuffer
  ) {
    out.append("\"source\":")
    out.writeString(source)
    out.append(",\"event\":")
    out.writeString(name)
  }

  /// Appends `value` as the log writes it (a non-finite number as `null`).
  public static func writeValue(_ value: LogValue, to out: inout JSONBuffer) {
    switch value {
    case .null: out.append("null")
    case .bool(let b): b ? out.append("true") : out.append("false")
    case .int(let i): out.writeInteger(i)
    case .double(let d):
      if d.isFinite { out.writeNumber(d) } else { out.append("null") }
    case .string(let s): out.writeString(s)
    case .array(let values):
      out.append("[")
      for (i, v) in values.enumerated() {
        if i > 0 { out.append(UInt8(ascii: ",")) }
        writeValue(v, to: &out)
      }
      out.append("]")
    }
  }
}

extension LogEvent {
  /// Appends ``EventLog/jsonLine(_:)``'s line for an entry of this payload and a newline to
  /// `out`: with the payload's type known, its source, name and fields are read in place.
  fileprivate func writeJSONLine(time: SimTime, sequence: Int, to out: inout JSONBuffer) {
    out.append("{\"t\":")
    out.writeDecimal(time.nanoseconds, scale: 9)
    out.append(",\"ns\":")
    out.writeInteger(time.nanoseconds)
    out.append(",\"seq\":")
    out.writeInteger(Int64(sequence))
    out.append(UInt8(ascii: ","))
    writeSourceAndName(to: &out)
    out.append(",\"fields\":{")
    writeFields(to: &out)
    out.append("}}\n")
  }
}
