import JSON
import SimKernel

/// A request to a simulated service, shaped like the HTTP request the real app sends.
public struct HTTPRequest: Hashable, Sendable {
  /// `GET`, `POST`, `PUT`, `DELETE`.
  public var method: String
  /// The path, for example `/2013-09-01/classes/Station`.
  public var path: String
  /// Query parameters, in the order given.
  public var query: [(name: String, value: String)]
  /// The JSON body, if any.
  public var body: JSONValue?

  /// Creates a request.
  public init(
    method: String = "GET", path: String, query: [(name: String, value: String)] = [],
    body: JSONValue? = nil
  ) {
    self.method = method
    self.path = path
    self.query = query
    self.body = body
  }

  /// The first query parameter called `name`.
  public func queryValue(_ name: String) -> String? {
    query.first { $0.name == name }?.value
  }

  /// Whether two requests are the same, query order included.
  public static func == (a: HTTPRequest, b: HTTPRequest) -> Bool {
    a.method == b.method && a.path == b.path && a.body == b.body
      && a.query.map(\.name) == b.query.map(\.name) && a.query.map(\.value) == b.query.map(\.value)
  }

  /// Hashes every part of the request.
  public func hash(into hasher: inout Hasher) {
    hasher.combine(method)
    hasher.combine(path)
    for (name, value) in query {
      hasher.combine(name)
      hasher.combine(value)
    }
    hasher.combine(body)
  }

  /// Reads a request back from its ``summary`` (`GET /path?a=1&b=2`), without a body. The
  /// summary writes values unencoded, so an `&` belongs to the value before it unless a
  /// `name=` follows.
  public init(summary: String) {
    var rest = Substring(summary)
    var method = "GET"
    if let space = rest.firstIndex(of: " ") {
      method = String(rest[..<space])
      rest = rest[rest.index(after: space)...]
    }
    guard let mark = rest.firstIndex(of: "?") else {
      self.init(method: method, path: String(rest))
      return
    }
    var query: [(name: String, value: String)] = []
    for piece in rest[rest.index(after: mark)...].split(
      separator: "&", omittingEmptySubsequences: false)
    {
      if let equals = piece.firstIndex(of: "="), !piece[..<equals].isEmpty,
        piece[..<equals].allSatisfy({ $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" })
      {
        query.append((String(piece[..<equals]), String(piece[piece.index(after: equals)...])))
      } else if let last = query.indices.last {
        query[last].value += "&" + piece
      }
    }
    self.init(method: method, path: String(rest[..<mark]), query: query)
  }

  /// `GET /path?a=1&b=2`, for logs.
  public var summary: String {
    let q = query.map { "\($0.name)=\($0.value)" }.joined(separator: "&")
    return "\(method) \(path)" + (q.isEmpty ? "" : "?\(q)")
  }
}

/// A service's reply: an HTTP status and a JSON body.
public struct HTTPResponse: Hashable, Sendable {
  /// The HTTP status code.
  public var status: Int
  /// The JSON body.
  public var body: JSONValue

  /// Creates a response.
  public init(status: Int, body: JSONValue) {
    self.status = status
    self.body = body
  }
}

/// Why a request got no HTTP response, with URLSession's error codes (`URLError.Code`) [A].
public enum NetworkFailure: Int, Error, Hashable, Sendable, CustomStringConvertible {
  /// The request took longer than the timeout (`NSURLErrorTimedOut`, −1001).
  case timedOut = -1001
  /// The phone is offline or in Airplane mode (`NSURLErrorNotConnectedToInternet`, −1009).
  case notConnectedToInternet = -1009

  /// The Swift case name.
  public var description: String {
    switch self {
    case .timedOut: "timedOut"
    case .notConnectedToInternet: "notConnectedToInternet"
    }
  }
}

/// A service on the simulated network: answers a request and says how long the server took.
public protocol SimulatedService: AnyObject {
  /// The name used in logs and network profiles, for example `"ncmb"` or `"weather"`.
  var serviceName: String { get }
  /// Answers `request` at the current virtual time; `serviceTime` is the server's own time.
  func respond(to request: HTTPRequest) -> (response: HTTPResponse, serviceTime: SimDuration)
}
