import Cloud
import Device
import SimKernel

/// The scenario's timeline as the world applies it (source `"timeline"`): each event when it
/// happens, named as in the scenario document, and each that could not happen.
public enum TimelineLogEvent: LogEvent, Hashable {
  /// Timeline event `index` (its position in the scenario's `timeline`) is applied.
  case applied(TimelineEvent.Action, index: Int)
  /// Timeline event `index` could not happen; the run reports it as a timeline error.
  case failed(index: Int, message: String)

  /// The timeline actions' names, in the order of ``TimelineEvent/Action``.
  static let actionNames = [
    "launch", "background", "foreground", "terminate", "relaunch", "reboot", "answerPrompt",
    "locationSetting", "preciseLocation", "locationServices", "airplaneMode", "network", "tap",
    "doubleTap", "longPress", "drag", "touches", "enterText", "tapButton", "trace",
  ]

  /// The component that records these events.
  public static let source = "timeline"
  /// Every event this type records.
  public static let declarations =
    actionNames.map {
      LogEventDeclaration(source, $0, fields: ["index"], "The timeline event at `index` happens.")
    } + [
      LogEventDeclaration(
        source, "failed", fields: ["index", "message"],
        "The timeline event at `index` could not happen.")
    ]
  /// The event's name in the log.
  public var name: String {
    switch self {
    case .applied(let action, _): action.name
    case .failed: "failed"
    }
  }
  /// The event's fields, in the log's order.
  public var fields: [LogField] {
    switch self {
    case .applied(_, let index): [LogField("index", .int(Int64(index)))]
    case .failed(let index, let message):
      [LogField("index", .int(Int64(index))), LogField("message", .string(message))]
    }
  }

  // A Hashable conformance by storage form: actions carry traces and touch lists.
  /// Equal when the storage forms are.
  public static func == (a: TimelineLogEvent, b: TimelineLogEvent) -> Bool {
    a.name == b.name && a.fields == b.fields
  }
  /// Hashes the storage form.
  public func hash(into hasher: inout Hasher) {
    hasher.combine(name)
    hasher.combine(fields)
  }
}

/// Every event a world can record: the phone's, the cloud's and the timeline's, plus the events
/// each app declares as its own (source `"app"`). Scenario `count` expectations are checked
/// against this set, and docs/EVENTS.md is generated from it.
public enum LoggedEvents {
  /// The declared event types, in the order the docs list them.
  public static let types: [any LogEvent.Type] =
    DeviceEvents.types + CloudEvents.types + [TimelineLogEvent.self]

  /// Every declaration of ``types``, made once (each `count` expectation of every scenario
  /// checked looks its event up here).
  public static let declarations: [LogEventDeclaration] = types.flatMap { $0.declarations }

  /// Why `source`.`event` is not an event a world with an app declaring `appEvents` can record
  /// — the member at fault (`"source"` or `"event"`) and what was expected — or `nil` when it
  /// is one.
  static func problem(source: String, event: String, appEvents: [String], appName: String)
    -> (member: String, message: String)?
  {
    let known =
      declarations.filter { $0.source == source }.map(\.name)
      + (source == AppEvent.source ? appEvents : [])
    if known.isEmpty {
      let sources = Set(declarations.map(\.source)).sorted()
      return (
        "source", "expected one of the sources \(sources.joined(separator: ", ")), got '\(source)'"
      )
    }
    guard !known.contains(event) else { return nil }
    var message =
      "expected one of the \(source) events \(known.joined(separator: ", ")), got '\(event)'"
    if source == AppEvent.source {
      message +=
        appEvents.isEmpty
        ? " (the app '\(appName)' declares no events of its own: pass them as `events:` when registering it)"
        : " (the app '\(appName)' declares its own events when it is registered)"
    }
    return ("event", message)
  }
}

extension LoggedEvents {
  /// The event table of docs/EVENTS.md, generated from ``declarations``: one row per event with
  /// its source, name, fields and meaning.
  public static var markdownTable: String {
    var out = "| source | event | fields | what it records |\n|---|---|---|---|\n"
    for d in declarations {
      let fields = d.fields.map { "`\($0)`" }.joined(separator: ", ")
      out += "| `\(d.source)` | `\(d.name)` | \(fields) | \(d.summary) |\n"
    }
    return out
  }
}
