import Cloud
import Foundation
import Geo
import JSON
import SimKernel
import Testing

/// A network with the NCMB endpoint over three stations, and a helper to send one request.
private final class NCMBWorld {
  let simulation = Simulation(seed: 1)
  let network: SimulatedNetwork
  let datastore: GeoDatastore

  init() throws {
    network = SimulatedNetwork(simulation: simulation)
    datastore = GeoDatastore(seed: 1, simulation: simulation)
    for (name, lat, lon) in [
      ("東京", 35.681236, 139.767125), ("有楽町", 35.675069, 139.763328),
      ("新宿", 35.689592, 139.700413),
    ] {
      try datastore.create(
        className: "Station",
        fields: [
          "name": .string(name),
          "geo": .object([
            "__type": .string("GeoPoint"), "latitude": .number(lat), "longitude": .number(lon),
          ]),
        ])
    }
    try network.register(NCMBEndpoint(datastore: datastore))
  }

  func get(_ path: String, _ query: [(name: String, value: String)]) throws -> HTTPResponse? {
    var result: HTTPResponse?
    try network.send(HTTPRequest(path: path, query: query), to: "ncmb") { result = try? $0.get() }
    try simulation.run()
    return result
  }
}

@Suite struct NCMBEndpointTests {
  @Test func aNearQueryTravelsAsRESTAndComesBackNearestFirst() throws {
    let world = try NCMBWorld()
    let near =
      #"{"geo":{"$nearSphere":{"__type":"GeoPoint","latitude":35.681,"longitude":139.767},"$maxDistanceInKilometers":3}}"#
    let response = try #require(
      try world.get(
        "/2013-09-01/classes/Station", [("where", near), ("limit", "100"), ("count", "1")]))
    #expect(response.status == 200)
    guard case .object(let body) = response.body, case .array(let results)? = body["results"] else {
      Issue.record("no results in \(response.body)")
      return
    }
    let names = results.compactMap { r -> String? in
      if case .object(let o) = r, case .string(let n)? = o["name"] { return n }
      return nil
    }
    #expect(names == ["東京", "有楽町"])
    #expect(body["count"] == .number(2))
    // The request and its simulated latency are in the log for the search report.
    let logged = world.simulation.log.entries(source: "network", event: "response")
    #expect(logged.first?["status"] == .int(200))
  }

  @Test func serviceErrorsKeepNCMBsBodyAndStatus() throws {
    let world = try NCMBWorld()
    let badPoint = #"{"geo":{"$nearSphere":{"__type":"GeoPoint","latitude":95,"longitude":0}}}"#
    let invalid = try #require(try world.get("/2013-09-01/classes/Station", [("where", badPoint)]))
    #expect(invalid.status == 403)
    #expect(invalid.body == NCMBError.invalidGeoPoint.body)
    let tooMany = try #require(
      try world.get("/2013-09-01/classes/Station", [("limit", "5000")]))
    #expect(tooMany.status == 400)
    let garbled = try #require(try world.get("/2013-09-01/classes/Station", [("where", "{")]))
    #expect(garbled.body == NCMBError.invalidJSON.body)
    let nowhere = try #require(try world.get("/2013-09-01/users", []))
    #expect(nowhere.status == 404)
  }
}

@Suite struct ThreeWordEndpointTests {
  @Test func convertToThreeWordsAndBackThroughTheNetwork() throws {
    let simulation = Simulation(seed: 1)
    let network = SimulatedNetwork(simulation: simulation)
    let service = ThreeWordAddressService(languages: try ThreeWordLanguages.bundled())
    try network.register(ThreeWordEndpoint(service: service))
    var words: String?
    try network.send(
      HTTPRequest(
        path: "/v3/convert-to-3wa",
        query: [("coordinates", "35.681236,139.767125"), ("language", "ja")]),
      to: "threewords"
    ) { result in
      if case .success(let r) = result, case .object(let body) = r.body,
        case .string(let w)? = body["words"]
      {
        words = w
      }
    }
    try simulation.run()
    let address = try #require(words)
    var status: Int?
    try network.send(
      HTTPRequest(path: "/v3/convert-to-coordinates", query: [("words", address)]),
      to: "threewords"
    ) { status = try? $0.get().status }
    try simulation.run()
    #expect(status == 200)
    // A space-separated input is not an address (the app must turn spaces into dots itself).
    try network.send(
      HTTPRequest(
        path: "/v3/convert-to-coordinates",
        query: [("words", address.replacingOccurrences(of: ".", with: " "))]),
      to: "threewords"
    ) { status = try? $0.get().status }
    try simulation.run()
    #expect(status == 400)
  }
}
