import Geo
import SimKernel

/// What a geocoding request asked.
public enum GeocodeQuery: Hashable, Sendable {
  /// The address of a position (`reverseGeocodeLocation`).
  case reverse(Coordinate)
  /// The places matching a text (`geocodeAddressString`).
  case forward(String)

  /// `"reverse"` or `"forward"`, as the log writes it.
  public var kind: String {
    switch self {
    case .reverse: "reverse"
    case .forward: "forward"
    }
  }
}

/// The on-device geocoder (source `"geocoder"`).
public enum GeocoderEvent: LogEvent, Hashable {
  /// A request started (cancelling the one in flight, if any).
  case request(GeocodeQuery)
  /// A request was answered: `count` placemarks, the first called `firstName`.
  case reply(kind: String, count: Int, firstName: String?)
  /// A request failed.
  case failure(kind: String, code: GeocodeErrorCode, reason: String)

  /// The component that records these events.
  public static let source = "geocoder"
  /// Every event this type records.
  public static let declarations = [
    LogEventDeclaration(
      source, "request", fields: ["kind", "latitude", "longitude", "text"],
      "A reverse (latitude, longitude) or forward (text) request started."),
    LogEventDeclaration(
      source, "reply", fields: ["kind", "count", "name"],
      "A request was answered; `name` is the first placemark's."),
    LogEventDeclaration(
      source, "failure", fields: ["kind", "error", "reason"], "A request failed."),
  ]
  /// The event's name in the log.
  public var name: String {
    switch self {
    case .request: "request"
    case .reply: "reply"
    case .failure: "failure"
    }
  }
  /// The event's fields, in the log's order.
  public var fields: [LogField] {
    switch self {
    case .request(let query):
      let (latitude, longitude, text): (LogValue, LogValue, LogValue) =
        switch query {
        case .reverse(let c): (.double(c.latitude), .double(c.longitude), .null)
        case .forward(let text): (.null, .null, .string(text))
        }
      return [
        LogField("kind", .string(query.kind)), LogField("latitude", latitude),
        LogField("longitude", longitude), LogField("text", text),
      ]
    case .reply(let kind, let count, let firstName):
      return [
        LogField("kind", .string(kind)), LogField("count", .int(Int64(count))),
        LogField("name", firstName.map(LogValue.string) ?? .null),
      ]
    case .failure(let kind, let code, let reason):
      return [
        LogField("kind", .string(kind)), LogField("error", .string(code.description)),
        LogField("reason", .string(reason)),
      ]
    }
  }
}

/// The app's key-value store (source `"defaults"`).
public enum DefaultsEvent: LogEvent, Hashable {
  /// A value was stored under `key` in `domain`.
  case set(key: String, value: StoredValue, domain: String)
  /// `key` was removed; `existed` says whether it had a value.
  case remove(key: String, existed: Bool, domain: String)
  /// The app tried to store something that is not a property-list value under `key`.
  case refused(key: String, type: String, domain: String)

  /// The component that records these events.
  public static let source = "defaults"
  /// Every event this type records.
  public static let declarations = [
    LogEventDeclaration(
      source, "set", fields: ["key", "type", "value", "domain"], "A value was stored."),
    LogEventDeclaration(
      source, "remove", fields: ["key", "existed", "domain"], "A key was removed."),
    LogEventDeclaration(
      source, "refused", fields: ["key", "type", "domain"],
      "A value that is not a property-list value was not stored (on a device the app stops)."),
  ]
  /// The event's name in the log.
  public var name: String {
    switch self {
    case .set: "set"
    case .remove: "remove"
    case .refused: "refused"
    }
  }
  /// The event's fields, in the log's order.
  public var fields: [LogField] {
    switch self {
    case .set(let key, let value, let domain):
      [
        LogField("key", .string(key)), LogField("type", .string(value.typeName)),
        LogField("value", value.logValue), LogField("domain", .string(domain)),
      ]
    case .remove(let key, let existed, let domain):
      [
        LogField("key", .string(key)), LogField("existed", .bool(existed)),
        LogField("domain", .string(domain)),
      ]
    case .refused(let key, let type, let domain):
      [
        LogField("key", .string(key)), LogField("type", .string(type)),
        LogField("domain", .string(domain)),
      ]
    }
  }
}

/// Every event type the simulated phone records, for the event table and scenario checks.
public enum DeviceEvents {
  /// The types, in the order the docs list them.
  public static let types: [any LogEvent.Type] = [
    PhoneEvent.self, AppLifecycleEvent.self, PromptEvent.self, AuthorizationEvent.self,
    SettingsEvent.self, LocationEvent.self, LiveLocationEvent.self, SignificantChangeEvent.self,
    VisitEvent.self, RegionEvent.self, MonitorEvent.self, NotificationEvent.self,
    TouchEvent.self, GestureEvent.self, MapEvent.self, GeocoderEvent.self, DefaultsEvent.self,
    AssumptionEvent.self,
  ]
}
