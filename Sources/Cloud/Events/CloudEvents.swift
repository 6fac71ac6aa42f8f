import JSON
import SimKernel

/// The simulated network (source `"network"`).
public enum NetworkEvent: LogEvent, Hashable {
  /// The phone went offline (an outage window, Airplane mode).
  case offline
  /// The phone came back online.
  case online
  /// A request was sent; `id` numbers the world's requests from 1.
  case request(id: Int, service: String, request: HTTPRequest)
  /// A request was answered or failed, with the simulated time spent on the network and in
  /// the service, and in all since it was sent.
  case response(
    id: Int, service: String, networkTime: SimDuration, serviceTime: SimDuration,
    totalTime: SimDuration, result: Result<HTTPResponse, NetworkFailure>)

  /// The component that records these events.
  public static let source = "network"
  /// Every event this type records.
  public static let declarations = [
    LogEventDeclaration(source, "offline", "The phone went offline."),
    LogEventDeclaration(source, "online", "The phone came back online."),
    LogEventDeclaration(
      source, "request", fields: ["id", "service", "request", "body"],
      "A request was sent: `request` is `METHOD /path?query`, `body` its JSON text or null."),
    LogEventDeclaration(
      source, "response",
      fields: [
        "id", "service", "networkSeconds", "serviceSeconds", "totalSeconds", "status", "body",
        "failure",
      ],
      "A request was answered (`status`, `body`) or failed (`failure`: notConnectedToInternet, timedOut)."
    ),
  ]
  /// The event's name in the log.
  public var name: String {
    switch self {
    case .offline: "offline"
    case .online: "online"
    case .request: "request"
    case .response: "response"
    }
  }
  /// The event's fields, in the log's order.
  public var fields: [LogField] {
    switch self {
    case .offline, .online:
      return []
    case .request(let id, let service, let request):
      return [
        LogField("id", .int(Int64(id))), LogField("service", .string(service)),
        LogField("request", .string(request.summary)),
        LogField("body", request.body.map { .string($0.jsonText) } ?? .null),
      ]
    case .response(let id, let service, let network, let serviceTime, let total, let result):
      var fields = [
        LogField("id", .int(Int64(id))), LogField("service", .string(service)),
        LogField("networkSeconds", .double(network.seconds)),
        LogField("serviceSeconds", .double(serviceTime.seconds)),
        LogField("totalSeconds", .double(total.seconds)),
      ]
      switch result {
      case .success(let response):
        fields += [
          LogField("status", .int(Int64(response.status))),
          LogField("body", .string(response.body.jsonText)), LogField("failure", .null),
        ]
      case .failure(let failure):
        fields += [
          LogField("status", .null), LogField("body", .null),
          LogField("failure", .string(failure.description)),
        ]
      }
      return fields
    }
  }
}

/// The NCMB-compatible datastore (source `"ncmb"`).
public enum DatastoreEvent: LogEvent, Hashable {
  /// A query ran: `count` objects matched, `returned` came back after skip and limit;
  /// `invertedBox` when a box's corners were not south-west and north-east.
  case query(
    className: String, where: JSONValue, limit: Int, skip: Int, count: Int, returned: Int,
    invertedBox: Bool)

  /// The component that records these events.
  public static let source = "ncmb"
  /// Every event this type records.
  public static let declarations = [
    LogEventDeclaration(
      source, "query",
      fields: ["className", "where", "limit", "skip", "count", "returned", "invertedBox"],
      "A query ran; `where` is its JSON text, `count` the matches, `returned` the page.")
  ]
  /// The event's name in the log.
  public var name: String { "query" }
  /// The event's fields, in the log's order.
  public var fields: [LogField] {
    switch self {
    case .query(
      let className, let whereClause, let limit, let skip, let count, let returned,
      let inverted):
      [
        LogField("className", .string(className)),
        LogField("where", .string(whereClause.jsonText)),
        LogField("limit", .int(Int64(limit))), LogField("skip", .int(Int64(skip))),
        LogField("count", .int(Int64(count))), LogField("returned", .int(Int64(returned))),
        LogField("invertedBox", .bool(inverted)),
      ]
    }
  }
}

/// The weather service (source `"weather"`).
public enum WeatherEvent: LogEvent, Hashable {
  /// A forecast was asked for, with the `lat` and `lon` parameters as sent.
  case request(lat: String?, lon: String?)

  /// The component that records these events.
  public static let source = "weather"
  /// Every event this type records.
  public static let declarations = [
    LogEventDeclaration(
      source, "request", fields: ["lat", "lon"],
      "A forecast was asked for, with the coordinates as sent (text).")
  ]
  /// The event's name in the log.
  public var name: String { "request" }
  /// The event's fields, in the log's order.
  public var fields: [LogField] {
    switch self {
    case .request(let lat, let lon):
      [
        LogField("lat", lat.map(LogValue.string) ?? .null),
        LogField("lon", lon.map(LogValue.string) ?? .null),
      ]
    }
  }
}

/// Every event type the simulated cloud records, for the event table and scenario checks.
public enum CloudEvents {
  /// The types, in the order the docs list them.
  public static let types: [any LogEvent.Type] = [
    NetworkEvent.self, DatastoreEvent.self, WeatherEvent.self,
  ]
}
