import Foundation
import JSON
import SimKernel

/// The NCMB datastore as a service on the simulated network: its REST interface,
/// `GET /2013-09-01/classes/{className}?where=…&limit=…&skip=…&order=…&count=1`.
///
/// `where` is URL-decoded JSON, as the SDK sends it; the answer is NCMB's body,
/// `{"results":[…]}` (with `"count"` when asked) or `{"code":"E…","error":"…"}` with the HTTP
/// status of its code (E403006 → 403). Other paths get E404001 ("No data available.").
public final class NCMBEndpoint: SimulatedService {
  /// `"ncmb"`.
  public let serviceName = "ncmb"
  /// The datastore behind the endpoint.
  public let datastore: GeoDatastore
  /// The server's own time per request: 20 ms [?] (NCMB published no figure).
  public var serviceTime = SimDuration.milliseconds(20)

  /// Serves `datastore`.
  public init(datastore: GeoDatastore) {
    self.datastore = datastore
  }

  /// Answers one REST request.
  public func respond(to request: HTTPRequest) -> (response: HTTPResponse, serviceTime: SimDuration)
  {
    (answer(request), serviceTime)
  }

  private func answer(_ request: HTTPRequest) -> HTTPResponse {
    let parts = request.path.split(separator: "/").map(String.init)
    guard request.method == "GET", parts.count == 3, parts[0] == "2013-09-01",
      parts[1] == "classes"
    else {
      return Self.response(NCMBError.noData.body)
    }
    var members: [String: JSONValue] = [:]
    if let text = request.queryValue("where") {
      guard let value = try? JSONValue(parsing: Data(text.utf8)) else {
        return Self.response(NCMBError.invalidJSON.body)
      }
      members["where"] = value
    }
    for name in ["limit", "skip"] {
      if let text = request.queryValue(name) {
        guard let n = Int(text) else { return Self.response(NCMBError.invalidType(name).body) }
        members[name] = .number(Double(n))
      }
    }
    if let order = request.queryValue("order") { members["order"] = .string(order) }
    let body = datastore.respond(
      className: parts[2], restJSON: .object(members),
      withCount: request.queryValue("count") == "1")
    return Self.response(body)
  }

  /// The HTTP status of an NCMB body: 200 for results, else the three digits after the `E`.
  static func response(_ body: JSONValue) -> HTTPResponse {
    if case .object(let members) = body, case .string(let code)? = members["code"],
      code.count >= 4, let status = Int(code.dropFirst().prefix(3))
    {
      return HTTPResponse(status: status, body: body)
    }
    return HTTPResponse(status: 200, body: body)
  }
}

/// The three-word address service on the simulated network: `GET /v3/{endpoint}?…`.
public final class ThreeWordEndpoint: SimulatedService {
  /// `"threewords"`.
  public let serviceName = "threewords"
  /// The service behind the endpoint (it counts requests against its quota).
  public private(set) var service: ThreeWordAddressService
  /// The server's own time per request: 10 ms [?].
  public var serviceTime = SimDuration.milliseconds(10)

  /// Serves `service`.
  public init(service: ThreeWordAddressService) {
    self.service = service
  }

  /// Answers one REST request.
  public func respond(to request: HTTPRequest) -> (response: HTTPResponse, serviceTime: SimDuration)
  {
    var query: [String: String] = [:]
    for (name, value) in request.query where query[name] == nil { query[name] = value }
    let answer = service.respond(to: request.path, query: query)
    return (HTTPResponse(status: answer.status, body: answer.body), serviceTime)
  }
}
