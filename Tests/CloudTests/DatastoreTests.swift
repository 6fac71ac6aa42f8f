import Cloud
import Foundation
import Geo
import JSON
import SimKernel
import Testing

private func point(_ latitude: Double, _ longitude: Double) -> GeoPoint {
  (try? GeoPoint(latitude: latitude, longitude: longitude))!
}

private let datasetURL = URL(fileURLWithPath: #filePath)
  .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
  .appendingPathComponent("Scenarios/station-finder/datasets/yamanote-stations.json")

private func yamanote(_ datastore: GeoDatastore) throws {
  let text = try String(contentsOf: datasetURL, encoding: .utf8)
  try datastore.importStations(GeoDatastore.stations(json: text, file: "yamanote-stations.json"))
}

@Suite struct DatastoreDatasetTests {
  @Test func theYamanoteDatasetHasThirtyStationsSpacedLikeTheLoop() throws {
    let text = try String(contentsOf: datasetURL, encoding: .utf8)
    let stations = try GeoDatastore.stations(json: text, file: "yamanote-stations.json")
    #expect(stations.count == 30)
    #expect(Set(stations.map(\.name)).count == 30)
    #expect(stations.contains { $0.name == "高輪ゲートウェイ" })
    var loop = 0.0
    for (i, station) in stations.enumerated() {
      let next = stations[(i + 1) % stations.count]
      let d = greatCircleDistance(
        from: station.point.coordinate, to: next.point.coordinate, radius: 6_371_000)
      #expect(d > 400 && d < 2_500, "\(station.name) → \(next.name): \(d) m")
      loop += d
    }
    #expect(loop > 30_000 && loop < 34_500)
  }

  @Test func syntheticStationsAreReproducible() {
    let a = SyntheticStations.generate(count: 1_000, seed: 7)
    #expect(a == SyntheticStations.generate(count: 1_000, seed: 7))
    #expect(a != SyntheticStations.generate(count: 1_000, seed: 8))
    #expect(a[42].name == "S000042")
  }
}

@Suite struct DatastoreObjectTests {
  @Test func objectsAreCreatedUpdatedAndDeletedWithDeterministicIds() throws {
    let a = GeoDatastore(seed: 1)
    let b = GeoDatastore(seed: 1)
    let x = try a.create(className: "Station", fields: ["name": .string("東京")])
    let y = try b.create(className: "Station", fields: ["name": .string("東京")])
    #expect(x.objectId == y.objectId && x.objectId.count == 16)
    let updated = try a.update(
      className: "Station", objectId: x.objectId, fields: ["name": .string("神田")])
    #expect(updated.fields["name"] == .string("神田"))
    #expect(try a.get(className: "Station", objectId: x.objectId) == updated)
    try a.delete(className: "Station", objectId: x.objectId)
    #expect(throws: NCMBError.noData) { try a.get(className: "Station", objectId: x.objectId) }
  }

  @Test func badGeoPointsAreE403006() {
    let store = GeoDatastore()
    let bad: [JSONValue] = [
      .object(["__type": .string("GeoPoint"), "latitude": .number(91), "longitude": .number(0)]),
      .object(["__type": .string("GeoPoint"), "latitude": .number(0), "longitude": .number(181)]),
      .object(["__type": .string("GeoPoint"), "latitude": .string("35"), "longitude": .number(0)]),
      .object(["__type": .string("GeoPoint"), "latitude": .number(0)]),
    ]
    for value in bad {
      #expect(throws: NCMBError.invalidGeoPoint) {
        try store.create(className: "Station", fields: ["geo": value])
      }
    }
    #expect(NCMBError.invalidGeoPoint.body.jsonText.contains("\"E403006\""))
  }

  @Test func datesAreNCMBStyleISOStrings() throws {
    let simulation = Simulation(epoch: Date(timeIntervalSince1970: 1_380_083_360), seed: 1)
    let store = GeoDatastore(simulation: simulation)
    let object = try store.create(className: "Station", fields: [:])
    guard case .object(let json) = object.json(epoch: store.epoch) else { return }
    #expect(json["createDate"] == .string("2013-09-25T04:29:20.000Z"))
  }
}

@Suite struct DatastoreImportTests {
  @Test func csvImportsWithQuotesAndExtraColumns() throws {
    let csv = "name,latitude,longitude,line\n\"Tokyo, Marunouchi\",35.681236,139.767125,JY\r\n"
    let stations = try GeoDatastore.stations(csv: csv, file: "s.csv")
    #expect(stations.count == 1)
    #expect(stations[0].name == "Tokyo, Marunouchi")
    #expect(stations[0].extra["line"] == .string("JY"))
  }

  /// The message of the error `read` throws, or `nil` when it throws none.
  private func message(_ read: () throws(CloudError) -> [StationRecord]) -> String? {
    do {
      _ = try read()
      return nil
    } catch {
      #expect(error.code == .invalidData)
      return error.message
    }
  }

  @Test func malformedImportsNameTheFileAndLine() {
    let csv = "name,latitude,longitude\nTokyo,35.68,139.76\nKanda,north,139.77\n"
    #expect(
      message { () throws(CloudError) in try GeoDatastore.stations(csv: csv, file: "s.csv") }
        == "s.csv:3: latitude: expected a number in -90...90, found 'north'")
    #expect(
      message { () throws(CloudError) in
        try GeoDatastore.stations(csv: "title,lat\n", file: "s.csv")
      } == "s.csv:1: expected a header row naming name, latitude and longitude, found: title, lat")
    let json =
      "[\n {\"name\":\"a\",\"latitude\":1,\"longitude\":2},\n {\"name\":\"b\",\"latitude\":95,\"longitude\":2}\n]"
    #expect(
      message { () throws(CloudError) in try GeoDatastore.stations(json: json, file: "s.json") }
        == "s.json:3:25: [1].latitude: 95 is outside -90...90")
    #expect(
      message { () throws(CloudError) in try GeoDatastore.stations(json: "[{", file: "s.json") }
        == "s.json:1:3: expected a member name in double quotes, found the end of the text")
  }

  @Test(arguments: [
    (
      "[\n {\"name\": \"a\", \"latitude\": 35.6, \"longitude\": 139.7},\n]",
      "stations.json:3:1: expected a value after ',' (trailing commas are not allowed), found ']'"
    ),
    (
      "[\n {\"name\": \"a\", \"latitude\": 35.6,\n  \"latitude\": 35.7, \"longitude\": 139.7}\n]",
      "stations.json:3:3: duplicate key \"latitude\" in an object (first at line 2, column 16)"
    ),
    (
      "[\n {\"name\": \"a\", \"latitude\": 035.61, \"longitude\": 139.7}\n]",
      "stations.json:2:29: expected '.', 'e' or the end of the number after a leading 0, found '3' "
        + "(leading zeros are not allowed)"
    ),
    (
      "[\n {\"name\": \"a\", \"latitude\": 35.6, \"longitude\": 139.7},\n {\"name\": \"b\",\n"
        + "  \"latitude\": \"35.6\", \"longitude\": 139.7}\n]",
      "stations.json:4:15: [1].latitude: expected a number, found a string"
    ),
  ])
  func aBadJSONDatasetNamesTheFileLineColumnAndPath(json: String, expected: String) {
    #expect(
      message { () throws(CloudError) in
        try GeoDatastore.stations(json: json, file: "stations.json")
      } == expected)
  }

  @Test func aCSVDatasetReadsQuotedNewlinesAndDoubledQuotes() throws {
    let csv =
      "name,latitude,longitude,note\r\n\"Tokyo \"\"Marunouchi\"\"\",35.681236,139.767125,\"two\r\nlines\"\r\n"
      + "Kanda,35.69169,139.770883,\n"
    let stations = try GeoDatastore.stations(csv: csv, file: "s.csv")
    #expect(stations.map(\.name) == ["Tokyo \"Marunouchi\"", "Kanda"])
    #expect(stations[0].extra["note"] == .string("two\r\nlines"))
    #expect(stations[1].point.latitude == 35.69169)
    // The record after a quoted line break is counted from its own first line.
    let bad = "name,latitude,longitude\n\"a\nb\",1,2\nc,x,2\n"
    #expect(
      message { () throws(CloudError) in try GeoDatastore.stations(csv: bad, file: "s.csv") }
        == "s.csv:4: latitude: expected a number in -90...90, found 'x'")
  }

  @Test func anUnterminatedQuoteInACSVDatasetNamesTheLine() {
    let csv =
      "name,latitude,longitude\nTokyo,35.68,139.76\n\"Kanda,35.69,139.77\nAkihabara,35.69,139.77\n"
    #expect(
      message { () throws(CloudError) in try GeoDatastore.stations(csv: csv, file: "s.csv") }
        == "s.csv:3:1: expected '\"' to close the quoted field that starts here")
  }

  @Test func aCSVDatasetMayUseSemicolons() throws {
    let stations = try GeoDatastore.stations(
      csv: "name;latitude;longitude\n\"Tokyo; Marunouchi\";35.681236;139.767125\n", file: "s.csv")
    #expect(stations.map(\.name) == ["Tokyo; Marunouchi"])
  }
}

@Suite struct DatastoreQueryTests {
  @Test func theSeedAppsNearQueryFindsStationsNearestFirst() throws {
    let store = GeoDatastore(seed: 3)
    try yamanote(store)
    var query = DatastoreQuery.getQuery(className: "Station")
    query.where(field: "geo", nearGeoPoint: point(35.681236, 139.767125), withinKilometers: 3.0)
    let result = try store.find(query)
    #expect(result.objects.first?.fields["name"] == .string("東京"))
    let distances = result.objects.map {
      greatCircleDistance(
        from: $0.geoPoint("geo")!.coordinate, to: point(35.681236, 139.767125).coordinate,
        radius: 6_371_000)
    }
    #expect(distances == distances.sorted() && distances.allSatisfy { $0 <= 3_000 })
    #expect(result.count == result.objects.count && result.count >= 5)
  }

  @Test func limitCapsResultsWhileCountStaysTheTotal() throws {
    let store = GeoDatastore()
    try yamanote(store)
    var query = DatastoreQuery.getQuery(className: "Station")
    query.where(field: "geo", nearGeoPoint: point(35.68, 139.73))
    query.limit = 5
    query.skip = 2
    let result = try store.find(query)
    #expect(result.objects.count == 5 && result.count == 30)
    query.limit = 0
    #expect(throws: NCMBError.notValidValue("limit")) { try store.find(query) }
    query.limit = 5_000
    #expect(throws: NCMBError.notValidValue("limit")) { try store.find(query) }
    query.limit = 10
    query.skip = -1
    #expect(throws: NCMBError.notValidValue("skip")) { try store.find(query) }
  }

  @Test func boxQueriesReturnNewestFirstAndFlagInvertedCorners() throws {
    let simulation = Simulation(seed: 1)
    let store = GeoDatastore(simulation: simulation)
    for i in 0..<5 {
      try simulation.run(until: .seconds(Double(i)))
      try store.create(
        className: "Station",
        fields: ["i": .number(Double(i)), "geo": point(35.6 + 0.01 * Double(i), 139.7).json])
    }
    var query = DatastoreQuery.getQuery(className: "Station")
    query.where(
      field: "geo", withinGeoBoxFromSouthwest: point(35.5, 139.6), toNortheast: point(35.7, 139.8))
    let straight = try store.find(query)
    #expect(straight.objects.map { $0.fields["i"] } == [4, 3, 2, 1, 0].map { .number($0) })
    #expect(straight.boxNormalization?.isInverted == false)
    // The seed app's taps in the other order: north-east first.
    query.where(
      field: "geo", withinGeoBoxFromSouthwest: point(35.7, 139.8), toNortheast: point(35.5, 139.6))
    let inverted = try store.find(query)
    #expect(inverted.objects == straight.objects)
    #expect(
      inverted.boxNormalization == BoxNormalization(swappedLatitudes: true, swappedLongitudes: true)
    )
    #expect(simulation.log.entries(source: "ncmb").last?["invertedBox"] == .bool(true))
    query.order = ["i"]
    #expect(try store.find(query).objects.first?.fields["i"] == .number(0))
  }

  @Test func boxesAcrossTheAntimeridianAreKept() throws {
    let store = GeoDatastore()
    for longitude in [179.5, -179.5, 0.0] {
      try store.create(className: "P", fields: ["geo": point(0, longitude).json])
    }
    var query = DatastoreQuery.getQuery(className: "P")
    query.where(
      field: "geo", withinGeoBoxFromSouthwest: point(-1, 179), toNortheast: point(1, -179))
    let result = try store.find(query)
    #expect(result.count == 2 && result.boxNormalization?.isInverted == false)
  }

  @Test func plainFieldConditionsNarrowAGeoQuery() throws {
    let store = GeoDatastore()
    try yamanote(store)
    var query = DatastoreQuery.getQuery(className: "Station")
    query.where(field: "geo", nearGeoPoint: point(35.681236, 139.767125))
    query.where(field: "code", greaterThanOrEqualTo: .string("JY28"))
    query.where(field: "code", lessThan: .string("JY30"))
    let names = try store.find(query).objects.map { $0.fields["nameRomaji"] }
    #expect(names == [.string("Shimbashi"), .string("Hamamatsucho")])
    query.where(field: "nameRomaji", equalTo: .string("Shimbashi"))
    #expect(try store.count(query) == 1)
  }

  @Test func queriesRoundTripThroughRestJSON() throws {
    var near = DatastoreQuery.getQuery(className: "Station")
    near.where(field: "geo", nearGeoPoint: point(35.6, 139.7), withinMiles: 2)
    near.where(field: "name", equalTo: .string("東京"))
    near.limit = 20
    near.order = ["-createDate"]
    var box = DatastoreQuery.getQuery(className: "Station")
    box.where(
      field: "geo", withinGeoBoxFromSouthwest: point(35.7, 139.8), toNortheast: point(35.5, 139.6))
    try box.where(field: "rank", comparison: "$gte", .number(3))
    for query in [near, box] {
      let text = query.restJSON.jsonText
      let parsed = try DatastoreQuery(
        className: "Station", restJSON: JSONValue(parsing: Data(text.utf8)))
      #expect(parsed == query, "\(text)")
    }
    #expect(near.whereJSON.jsonText.contains("\"$maxDistanceInMiles\":2"))
    #expect(box.whereJSON.jsonText.contains("\"$within\":{\"$box\":["))
  }

  @Test func malformedRequestsGetNCMBErrorBodies() throws {
    let store = GeoDatastore()
    let bad = try JSONValue(
      parsing: Data(
        #"{"where":{"geo":{"$nearSphere":{"__type":"GeoPoint","latitude":100,"longitude":0}}}}"#
          .utf8))
    #expect(store.respond(className: "Station", restJSON: bad) == NCMBError.invalidGeoPoint.body)
    let limit = try JSONValue(parsing: Data(#"{"where":{},"limit":5000}"#.utf8))
    guard case .object(let body) = store.respond(className: "Station", restJSON: limit) else {
      return
    }
    #expect(body["code"] == .string("E400005"))
  }

  @Test func radiiUpToHalfTheGlobeAndPolesAreCorrect() throws {
    let store = GeoDatastore()
    try store.create(className: "P", fields: ["geo": point(90, 0).json])
    try store.create(className: "P", fields: ["geo": point(-90, 0).json])
    var query = DatastoreQuery.getQuery(className: "P")
    query.where(field: "geo", nearGeoPoint: point(89.9, 120), withinKilometers: 20_015.1)
    #expect(try store.find(query).count == 2)
    query.where(field: "geo", nearGeoPoint: point(89.9, 120), withinKilometers: 100)
    #expect(try store.find(query).count == 1)
  }
}
