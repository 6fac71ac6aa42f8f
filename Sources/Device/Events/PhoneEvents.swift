import SimKernel

/// What the phone itself records (source `"phone"`).
public enum PhoneEvent: LogEvent, Hashable {
  /// The phone restarted: the app was terminated and every watched region forgotten.
  case reboot

  /// The component that records these events.
  public static let source = "phone"
  /// Every event this type records.
  public static let declarations = [
    LogEventDeclaration(
      source, "reboot",
      "The phone restarted; monitored regions and location triggers are forgotten.")
  ]
  /// The event's name in the log.
  public var name: String { "reboot" }
  /// The event's fields, in the log's order.
  public var fields: [LogField] { [] }
}

/// The app's lifecycle as the phone drives it (source `"app"`, event `"state"`).
///
/// The app's own observable changes share the source: see ``AppEvent``.
public enum AppLifecycleEvent: LogEvent, Hashable {
  /// The app entered `state`; `reason` is set when the process was started.
  case state(AppState, reason: LaunchReason?)
  /// The process ended with `count` pieces of its code's work still queued (timers, blocks,
  /// tasks), which ended with it.
  case workDropped(count: Int)

  /// The component that records these events.
  public static let source = "app"
  /// Every event this type records.
  public static let declarations = [
    LogEventDeclaration(
      source, "state", fields: ["state", "reason"],
      "The app entered a state (foreground, background, suspended, notRunning); `reason` when it was launched."
    ),
    LogEventDeclaration(
      source, "workDropped", fields: ["count"],
      "The app's process ended with work its code had queued (timers, main-queue blocks, tasks); it ended with the process."
    ),
  ]
  /// The event's name in the log.
  public var name: String {
    switch self {
    case .state: "state"
    case .workDropped: "workDropped"
    }
  }
  /// The event's fields, in the log's order.
  public var fields: [LogField] {
    switch self {
    case .state(let state, let reason):
      return [
        LogField("state", .string(state.rawValue)),
        LogField("reason", reason.map { .string($0.rawValue) } ?? .null),
      ]
    case .workDropped(let count): return [LogField("count", .int(Int64(count)))]
    }
  }
}

/// One of the app's own observable changes, named by the app (source `"app"`): a search sent,
/// a label shown, an alarm set. The names an app records are declared with the app, so that a
/// scenario's `count` expectation can be checked against them.
public struct AppEvent: LogEvent, Hashable {
  /// What happened, in the app's words (`"search.near"`).
  public let name: String
  /// The details.
  public let fields: [LogField]

  /// An app event.
  public init(_ name: String, _ fields: [LogField] = []) {
    self.name = name
    self.fields = fields
  }

  /// The component that records these events.
  public static let source = "app"
  /// Empty: each app declares its own events.
  public static let declarations: [LogEventDeclaration] = []
}

extension Phone {
  /// Records one of the app's observable changes in the event log (source `"app"`).
  public func recordAppEvent(_ name: String, _ fields: [LogField] = []) {
    record(AppEvent(name, fields))
  }
}

/// A permission prompt (source `"prompt"`).
public enum PromptEvent: LogEvent, Hashable {
  /// A prompt appeared.
  case shown(PromptKind)
  /// A prompt was asked for but could not be shown (another is on screen, or the app is not
  /// in the foreground).
  case notShown(PromptKind)
  /// The user answered.
  case answered(PromptKind, PromptAnswer)

  /// The component that records these events.
  public static let source = "prompt"
  /// Every event this type records.
  public static let declarations = [
    LogEventDeclaration(source, "shown", fields: ["kind"], "A permission prompt appeared."),
    LogEventDeclaration(
      source, "notShown", fields: ["kind"],
      "A prompt was asked for while another was on screen or the app was not in the foreground."),
    LogEventDeclaration(
      source, "answered", fields: ["kind", "answer"], "The user answered the prompt."),
  ]
  /// The event's name in the log.
  public var name: String {
    switch self {
    case .shown: "shown"
    case .notShown: "notShown"
    case .answered: "answered"
    }
  }
  /// The event's fields, in the log's order.
  public var fields: [LogField] {
    switch self {
    case .shown(let kind), .notShown(let kind): [LogField("kind", .string(kind.rawValue))]
    case .answered(let kind, let answer):
      [LogField("kind", .string(kind.rawValue)), LogField("answer", .string(answer.rawValue))]
    }
  }
}

/// The app's location permission as its managers report it (source `"authorization"`).
public enum AuthorizationEvent: LogEvent, Hashable {
  /// The status or the accuracy the managers report changed.
  case changed(status: AuthorizationStatus, accuracy: AccuracyAuthorization)
  /// The app asked for temporary full accuracy with `purposeKey`.
  case temporaryFullAccuracy(purposeKey: String, outcome: TemporaryFullAccuracyOutcome)

  /// The component that records these events.
  public static let source = "authorization"
  /// Every event this type records.
  public static let declarations = [
    LogEventDeclaration(
      source, "changed", fields: ["status", "accuracy"],
      "The location authorization status or accuracy the app sees changed."),
    LogEventDeclaration(
      source, "temporaryFullAccuracy", fields: ["purposeKey", "outcome"],
      "The app asked for temporary full accuracy: `prompted`, `alreadyFullAccuracy`, or refused (`unknownPurposeKey`, `notAuthorized`, `notShown`)."
    ),
  ]
  /// The event's name in the log.
  public var name: String {
    switch self {
    case .changed: "changed"
    case .temporaryFullAccuracy: "temporaryFullAccuracy"
    }
  }
  /// The event's fields, in the log's order.
  public var fields: [LogField] {
    switch self {
    case .changed(let status, let accuracy):
      [
        LogField("status", .string(status.description)),
        LogField("accuracy", .string(accuracy.description)),
      ]
    case .temporaryFullAccuracy(let purposeKey, let outcome):
      [LogField("purposeKey", .string(purposeKey)), LogField("outcome", .string(outcome.rawValue))]
    }
  }
}

/// What became of a request for temporary full accuracy.
public enum TemporaryFullAccuracyOutcome: String, Hashable, Sendable, CaseIterable {
  /// The prompt was shown.
  case prompted
  /// The app already had full accuracy: nothing to ask.
  case alreadyFullAccuracy
  /// The purpose key is not in the app's `NSLocationTemporaryUsageDescriptionDictionary`.
  case unknownPurposeKey
  /// The app has no location authorization to make precise.
  case notAuthorized
  /// The app was not in the foreground, or another prompt was on screen.
  case notShown
}

/// A change the user made in Settings (source `"settings"`).
public enum SettingsEvent: LogEvent, Hashable {
  /// The app's location permission.
  case location(LocationSetting)
  /// Precise Location for the app.
  case preciseLocation(Bool)
  /// Location Services for the phone.
  case locationServices(Bool)
  /// Airplane mode.
  case airplaneMode(Bool)
  /// A restriction on location for the app.
  case restricted(Bool)

  /// The component that records these events.
  public static let source = "settings"
  /// Every event this type records.
  public static let declarations = [
    LogEventDeclaration(source, "location", fields: ["value"], "The app's location permission."),
    LogEventDeclaration(
      source, "preciseLocation", fields: ["value"], "Precise Location on or off for the app."),
    LogEventDeclaration(
      source, "locationServices", fields: ["value"], "Location Services on or off."),
    LogEventDeclaration(source, "airplaneMode", fields: ["value"], "Airplane mode on or off."),
    LogEventDeclaration(
      source, "restricted", fields: ["value"], "Location restricted for the app, or not."),
  ]
  /// The event's name in the log.
  public var name: String {
    switch self {
    case .location: "location"
    case .preciseLocation: "preciseLocation"
    case .locationServices: "locationServices"
    case .airplaneMode: "airplaneMode"
    case .restricted: "restricted"
    }
  }
  /// The event's fields, in the log's order.
  public var fields: [LogField] {
    switch self {
    case .location(let setting): [LogField("value", .string(setting.rawValue))]
    case .preciseLocation(let on), .locationServices(let on), .airplaneMode(let on),
      .restricted(let on):
      [LogField("value", .bool(on))]
    }
  }
}
