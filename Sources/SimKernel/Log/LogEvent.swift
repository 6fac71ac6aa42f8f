import JSON

/// Something a component can record in the event log: a Swift value with typed details,
/// written to the log's storage form (`source`, `event`, `fields`) by the type that declares it.
///
/// Each component declares what it logs as one type conforming to this protocol (an enum with
/// a case per event), so the names a reader may meet are in one declaration, and readers match
/// typed values instead of strings. ``declarations`` lists every event of the type with its
/// fields; scenario checks and the event table in the docs are read from it.
public protocol LogEvent: Sendable {
  /// The component that records these events, as the log writes it (`"region"`).
  static var source: String { get }
  /// Every event this type records, in the order the docs list them.
  static var declarations: [LogEventDeclaration] { get }
  /// What happened, as the log writes it (`"didEnterRegion"`).
  var name: String { get }
  /// The details, in the order the log writes them.
  var fields: [LogField] { get }
  /// Appends ``fields`` to a line of the log: the members of a JSON object without its braces
  /// (`"name":value,…`). The default writes ``fields`` (``EventLog/writeFields(_:to:)``); a
  /// type with an event recorded at a high rate (a fix a second) may write that one directly,
  /// and must give the same bytes.
  func writeFields(to out: inout JSONBuffer)
  /// Appends the `"source":…,"event":…` members of a line of the log. The default writes
  /// ``source`` and ``name`` as JSON strings (``EventLog/writeSourceAndName(_:_:to:)``); a type
  /// with an event recorded at a high rate may write that one's as a constant, and must give
  /// the same bytes.
  func writeSourceAndName(to out: inout JSONBuffer)
}

/// One declared event: its source and name, the fields it carries and what it means.
public struct LogEventDeclaration: Hashable, Sendable {
  /// The recording component.
  public let source: String
  /// The event's name.
  public let name: String
  /// The names of the fields it may carry, in order (optional ones included).
  public let fields: [String]
  /// What it records, in one sentence.
  public let summary: String

  /// A declaration.
  public init(_ source: String, _ name: String, fields: [String] = [], _ summary: String) {
    self.source = source
    self.name = name
    self.fields = fields
    self.summary = summary
  }
}

extension LogEvent {
  /// Writes ``fields`` (``EventLog/writeFields(_:to:)``).
  public func writeFields(to out: inout JSONBuffer) {
    EventLog.writeFields(fields, to: &out)
  }

  /// Writes ``source`` and ``name`` (``EventLog/writeSourceAndName(_:_:to:)``).
  public func writeSourceAndName(to out: inout JSONBuffer) {
    EventLog.writeSourceAndName(Self.source, name, to: &out)
  }

  /// The declared event names of this type.
  public static var names: [String] { declarations.map(\.name) }
}
