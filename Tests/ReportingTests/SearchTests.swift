import Cloud
import Device
import Foundation
import Geo
import JSON
import ReferenceAppCatalog
import Reporting
import SimKernel
import Testing

@testable import Replay

/// Builds the logs a world would record, one entry at a time.
private final class SearchLogBuilder {
  let log = EventLog()
  var stations: [StationRecord] = []
  let datastore = GeoDatastore()

  func station(_ name: String, _ latitude: Double, _ longitude: Double) throws {
    let record = StationRecord(
      name: name, point: try GeoPoint(latitude: latitude, longitude: longitude))
    stations.append(record)
    try datastore.importStations([record])
  }

  func request(at t: Double, id: Int, service: String, _ summary: String) {
    log.record(
      NetworkEvent.request(id: id, service: service, request: HTTPRequest(summary: summary)),
      at: .seconds(t))
  }

  func response(
    at t: Double, id: Int, service: String, sentAt: Double, status: Int, body: JSONValue
  ) {
    log.record(
      NetworkEvent.response(
        id: id, service: service, networkTime: .seconds(t - sentAt - 0.02),
        serviceTime: .seconds(0.02), totalTime: .seconds(t - sentAt),
        result: .success(HTTPResponse(status: status, body: body))),
      at: .seconds(t))
  }

  func failure(
    at t: Double, id: Int, service: String, sentAt: Double, _ failure: NetworkFailure
  ) {
    log.record(
      NetworkEvent.response(
        id: id, service: service, networkTime: .zero, serviceTime: .zero,
        totalTime: .seconds(t - sentAt), result: .failure(failure)),
      at: .seconds(t))
  }

  /// Sends `query` at `t` and answers it with the datastore (or `body`) 0.1 s later.
  func ncmb(_ query: DatastoreQuery, id: Int, at t: Double, body: JSONValue? = nil) {
    var summary = "GET /2013-09-01/classes/\(query.className)?where=\(query.whereJSON.jsonText)"
    if query.limit != 100 { summary += "&limit=\(query.limit)" }
    request(at: t, id: id, service: "ncmb", summary)
    let answer =
      body ?? datastore.respond(className: query.className, restJSON: query.restJSON)
    response(at: t + 0.1, id: id, service: "ncmb", sentAt: t, status: 200, body: answer)
  }

  func report() -> SearchReport {
    let scenario = Scenario(
      name: "constructed", start: Date(timeIntervalSince1970: 0), duration: 60,
      app: AppSelection(name: "StationFinder"))
    let input = ReportInput(
      scenario: scenario, result: ReplayResult(scenario: scenario), events: log.entries,
      trueSamples: [], stations: stations)
    return SearchReport(input: input, resources: searchTestResources)
  }
}

/// One set of three-word languages for the whole suite (loading them takes seconds).
private let searchTestResources = ReplayResources()

private func near(_ lat: Double, _ lon: Double, km: Double, limit: Int = 100) throws
  -> DatastoreQuery
{
  var query = DatastoreQuery.getQuery(className: "Station")
  query.where(
    field: "geo", nearGeoPoint: try GeoPoint(latitude: lat, longitude: lon), withinKilometers: km)
  query.limit = limit
  return query
}

private func box(_ sw: (Double, Double), _ ne: (Double, Double)) throws -> DatastoreQuery {
  var query = DatastoreQuery.getQuery(className: "Station")
  query.where(
    field: "geo", withinGeoBoxFromSouthwest: try GeoPoint(latitude: sw.0, longitude: sw.1),
    toNortheast: try GeoPoint(latitude: ne.0, longitude: ne.1))
  return query
}

/// Five stations due north of (35, 139), about 111 m apart, and one far away.
private func lineOfStations() throws -> SearchLogBuilder {
  let log = SearchLogBuilder()
  for k in 1...5 { try log.station("S\(k)", 35 + 0.001 * Double(k), 139) }
  try log.station("Far", 36, 139)
  return log
}

@Suite struct SearchTests {
  @Test func aNearQueryWhoseLimitCutsTheTrueSetCountsWhatWasLost() throws {
    let log = try lineOfStations()
    // 0.5 km holds S1…S4 (111, 222, 333, 444 m); a limit of 2 returns S1 and S2.
    log.ncmb(try near(35, 139, km: 0.5, limit: 2), id: 1, at: 1)
    let report = log.report()
    let record = try #require(report.requests.first)
    #expect(record.kind == .ncmbNear)
    let analysis = try #require(record.ncmb)
    #expect(analysis.truth?.map(\.name) == ["S1", "S2", "S3", "S4"])
    #expect(analysis.returned.map(\.name) == ["S1", "S2"])
    #expect(analysis.lostToLimit == 2)
    #expect(analysis.lostToLimitNames == ["S3", "S4"])
    #expect(analysis.recall == 0.5)
    #expect(analysis.recallWithinLimit == 1)
    #expect(analysis.precision == 1)
    #expect(analysis.missed.isEmpty && analysis.extra.isEmpty)
    #expect(analysis.orderingInversions == 0)
    #expect(analysis.radiusMeters == 500)
    #expect(record.anomalies == [.lostToLimit])
    let s1 = try #require(analysis.truth?.first?.distanceMeters)
    #expect(abs(s1 - 110.94) < 0.01)
    #expect(abs((record.latency?.totalSeconds ?? 0) - 0.1) < 1e-9)
  }

  @Test func nearResultsOutOfTrueOrderCountInversions() throws {
    let log = try lineOfStations()
    let all = log.datastore.respond(
      className: "Station", restJSON: try near(35, 139, km: 0.4).restJSON)
    guard case .object(let body) = all, case .array(let results)? = body["results"] else {
      Issue.record("no results")
      return
    }
    #expect(results.count == 3)
    // S3, S1, S2: S3 comes before two nearer stations.
    let shuffled: JSONValue = .object(["results": .array([results[2], results[0], results[1]])])
    log.ncmb(try near(35, 139, km: 0.4), id: 1, at: 1, body: shuffled)
    let record = try #require(log.report().requests.first)
    #expect(record.ncmb?.orderingInversions == 2)
    #expect(record.ncmb?.recall == 1)
    #expect(record.anomalies == [.outOfOrder])
  }

  @Test func aBoxWithInvertedCornersIsFlaggedAndComparedWithTheBoxSpanned() throws {
    let log = SearchLogBuilder()
    try log.station("inside", 35.005, 139.005)
    try log.station("west", 35.005, 138.995)
    try log.station("north", 35.015, 139.005)
    // Tapped north-east first: "southwest" is north and east of "northeast".
    log.ncmb(try box((35.01, 139.01), (35.0, 139.0)), id: 1, at: 1)
    let record = try #require(log.report().requests.first)
    let analysis = try #require(record.ncmb)
    #expect(record.kind == .ncmbBox)
    #expect(analysis.swappedLatitudes && analysis.swappedLongitudes)
    #expect(analysis.boxMeant?.south == 35.0 && analysis.boxMeant?.north == 35.01)
    #expect(analysis.boxMeant?.west == 139.0 && analysis.boxMeant?.east == 139.01)
    #expect(analysis.truth?.map(\.name) == ["inside"])
    #expect(analysis.returned.map(\.name) == ["inside"])
    #expect(analysis.southwestAsSent?.latitude == 35.01)
    #expect(record.anomalies == [.invertedBox])
  }

  @Test func theSearchReportAndAMarkersExpectationJudgeAWestwardTenthOfADegreeAlike() throws {
    // "southwest" at 139.8, "northeast" at 139.7: the box the corners span is 0.1° wide. The
    // expectation once read it as 359.9° wide, round the globe the other way.
    let log = SearchLogBuilder()
    try log.station("between", 35.65, 139.75)
    try log.station("outside", 35.65, 139.0)
    log.ncmb(try box((35.6, 139.8), (35.7, 139.7)), id: 1, at: 1)
    let analysis = try #require(log.report().requests.first?.ncmb)
    let expected = StationTruth.names(
      of: .box(
        southwest: try Coordinate(latitude: 35.6, longitude: 139.8),
        northeast: try Coordinate(latitude: 35.7, longitude: 139.7)),
      in: log.stations)
    #expect(analysis.truth?.compactMap(\.name) == ["between"])
    #expect(expected == ["between"])
    #expect(analysis.swappedLongitudes && !analysis.swappedLatitudes)
  }

  @Test func aBoxAcrossTheAntimeridianHoldsBothSides() throws {
    let log = SearchLogBuilder()
    try log.station("east of 180", 0.5, -179.5)
    try log.station("west of 180", -0.5, 179.5)
    try log.station("Greenwich", 0.5, 0.5)
    try log.station("far west", 0, 170)
    log.ncmb(try box((-1, 179), (1, -179)), id: 1, at: 1)
    // The same box answered with a station from the other side of the globe.
    let wrong: JSONValue = .object([
      "results": .array([
        try log.datastore.get(
          className: "Station",
          objectId: log.datastore.find(try box((0, 0), (1, 1))).objects[0].objectId
        ).json(epoch: Date(timeIntervalSince1970: 0))
      ])
    ])
    log.ncmb(try box((-1, 179), (1, -179)), id: 2, at: 2, body: wrong)
    let report = log.report()
    let first = try #require(report.requests.first?.ncmb)
    #expect(first.boxMeant?.crossesAntimeridian == true)
    #expect(!first.swappedLatitudes && !first.swappedLongitudes)
    #expect(Set(first.truth?.compactMap(\.name) ?? []) == ["east of 180", "west of 180"])
    #expect(first.recall == 1 && first.precision == 1)
    let second = try #require(report.requests.last)
    #expect(second.ncmb?.extra.map(\.name) == ["Greenwich"])
    #expect(second.ncmb?.missed.count == 2)
    #expect(second.ncmb?.precision == 0)
    #expect(second.anomalies == [.extraResults, .missedResults])
  }

  @Test func aRequestWhileOfflineIsFlaggedAndCountsAsAnError() throws {
    let log = try lineOfStations()
    log.log.record(NetworkEvent.offline, at: .seconds(1))
    let query = try near(35, 139, km: 1)
    log.request(
      at: 2, id: 1, service: "ncmb",
      "GET /2013-09-01/classes/Station?where=\(query.whereJSON.jsonText)")
    log.failure(at: 2, id: 1, service: "ncmb", sentAt: 2, .notConnectedToInternet)
    log.log.record(NetworkEvent.online, at: .seconds(3))
    log.ncmb(query, id: 2, at: 4)
    let report = log.report()
    #expect(report.requests.count == 2)
    #expect(report.requests[0].anomalies == [.offline])
    #expect(report.requests[0].isError)
    #expect(report.requests[0].ncmb?.returned.isEmpty == true)
    #expect(report.requests[1].anomalies.isEmpty)
    let summary = try #require(report.summaries.first)
    #expect(summary.service == "ncmb" && summary.requests == 2 && summary.errors == 1)
    #expect(summary.errorRate == 0.5)
    // The refused request never travelled, so it is not in the latency figures.
    #expect(summary.total?.count == 1)
    #expect(summary.anomalies == [.offline: 1])
    // Only the answered search has a recall.
    #expect(summary.meanRecall == 1)
  }

  @Test func a503ATimeoutAnErrorBodyAndNoAnswerAreEachFlagged() throws {
    let log = try lineOfStations()
    let query = try near(35, 139, km: 1)
    let summary = "GET /2013-09-01/classes/Station?where=\(query.whereJSON.jsonText)"
    log.request(at: 1, id: 1, service: "ncmb", summary)
    log.response(
      at: 1.2, id: 1, service: "ncmb", sentAt: 1, status: 503,
      body: .object(["error": .string("Service Unavailable")]))
    log.request(at: 2, id: 2, service: "ncmb", summary)
    log.failure(at: 62, id: 2, service: "ncmb", sentAt: 2, .timedOut)
    log.request(at: 70, id: 3, service: "ncmb", "GET /2013-09-01/classes/Station?where={")
    log.response(
      at: 70.1, id: 3, service: "ncmb", sentAt: 70, status: 400,
      body: NCMBError.invalidJSON.body)
    log.request(at: 80, id: 4, service: "ncmb", summary)
    let report = log.report()
    #expect(
      report.requests.map(\.anomalies) == [
        [.serverError], [.timedOut], [.serviceError], [.unanswered],
      ])
    #expect(report.requests[3].isError && report.requests[3].latency == nil)
    #expect(report.requests[0].status == 503)
    #expect(report.requests[2].errorCode == "E400001")
    #expect(report.requests[2].kind == .ncmbOther)
    let summaryRow = try #require(report.summaries.first)
    #expect(summaryRow.errors == 4)
    #expect(summaryRow.total?.max == 60)
    #expect(abs((summaryRow.total?.median ?? 0) - 0.2) < 1e-9)
  }

  @Test func aSearchAtNullIslandIsFlagged() throws {
    let log = try lineOfStations()
    log.ncmb(try near(0.001, -0.002, km: 1), id: 1, at: 1)
    log.log.record(
      GeocoderEvent.request(.reverse(try Coordinate(latitude: 0, longitude: 0))),
      at: .seconds(2))
    log.log.record(
      GeocoderEvent.failure(
        kind: "reverse", code: .geocodeFoundNoResult, reason: "no address at (0.0, 0.0)"),
      at: .seconds(2.3))
    let report = log.report()
    #expect(report.requests[0].anomalies.contains(.nearNullIsland))
    #expect(report.requests[0].ncmb?.truth?.isEmpty == true)
    let geocode = report.requests[1]
    #expect(geocode.kind == .geocodeReverse && geocode.service == "geocoder")
    #expect(geocode.anomalies == [.nearNullIsland, .serviceError])
    #expect(geocode.request == "reverse 0,0")
    #expect(geocode.latency?.totalSeconds ?? 0 > 0.299)
    #expect(geocode.latency?.networkSeconds == nil)
  }

  @Test func sphericalAndGeodesicBoundaryDisagreementsAreListed() throws {
    let log = SearchLogBuilder()
    // On the equator a degree of longitude is 111,319.5 m geodesically and 111,194.9 m on
    // NCMB's sphere: a station 0.9995° further east (111,264 m and 111,139 m) is outside 111.2 km by
    // the geodesic and inside by NCMB's sphere, so the datastore returns it.
    try log.station("edge", 0, 10.9995)
    try log.station("inside", 0, 10.5)
    var query = DatastoreQuery.getQuery(className: "Station")
    query.where(
      field: "geo", nearGeoPoint: try GeoPoint(latitude: 0, longitude: 10),
      withinKilometers: 111.2)
    log.ncmb(query, id: 1, at: 1)
    let record = try #require(log.report().requests.first)
    let analysis = try #require(record.ncmb)
    #expect(analysis.boundaryDisagreements.map(\.name) == ["edge"])
    #expect(analysis.boundaryDisagreements.first?.withinGeodesic == false)
    #expect(analysis.boundaryDisagreements.first?.withinSpherical == true)
    #expect(analysis.truth?.map(\.name) == ["inside"])
    #expect(analysis.extra.map(\.name) == ["edge"])
    #expect(record.anomalies == [.boundaryDisagreement, .extraResults])
  }

  @Test func threeWordAnswersAreDecodedIndependently() throws {
    let languages = try searchTestResources.threeWordLanguages()
    let service = ThreeWordAddressService(languages: languages)
    let point = try Coordinate(latitude: 35.658, longitude: 139.745)
    let right = try service.convertTo3wa(point, language: "en")
    let elsewhere = try service.convertTo3wa(
      try Coordinate(latitude: 35.668, longitude: 139.745), language: "en")
    let log = SearchLogBuilder()
    let ask = "GET /v3/convert-to-3wa?coordinates=35.658,139.745&language=en&key=k"
    log.request(at: 1, id: 1, service: "threewords", ask)
    log.response(at: 1.1, id: 1, service: "threewords", sentAt: 1, status: 200, body: right.json)
    log.request(at: 2, id: 2, service: "threewords", ask)
    log.response(
      at: 2.1, id: 2, service: "threewords", sentAt: 2, status: 200, body: elsewhere.json)
    log.request(
      at: 3, id: 3, service: "threewords",
      "GET /v3/autosuggest?input=\(right.words)&n-results=3&key=k")
    let suggestions = try service.autosuggest(right.words)
    log.response(
      at: 3.1, id: 3, service: "threewords", sentAt: 3, status: 200,
      body: .object(["suggestions": .array(suggestions.map(\.json))]))
    let report = log.report()
    let good = try #require(report.requests[0].threeWords)
    #expect(good.squareContainsPoint == true && good.decodedMatchesResponse == true)
    #expect(
      report.requests[0].request
        == "GET /v3/convert-to-3wa?coordinates=35.658,139.745&language=en&key=***")
    #expect(report.requests[0].anomalies.isEmpty)
    let bad = try #require(report.requests[1].threeWords)
    #expect(bad.squareContainsPoint == false)
    #expect(report.requests[1].anomalies == [.wrongSquare])
    let suggest = try #require(report.requests[2].threeWords)
    #expect(report.requests[2].kind == .threeWordsAutosuggest)
    #expect(suggest.suggestionCount == suggestions.count)
    #expect(suggest.intendedWords == right.words)
    #expect(suggest.topIsIntended == true)
  }

  @Test func theJSONIsStableAndRounded() throws {
    let log = try lineOfStations()
    log.ncmb(try near(35, 139, km: 0.25), id: 1, at: 1.000_123_4)
    let report = log.report()
    let text = report.json.jsonText
    #expect(text == log.report().json.jsonText)
    #expect(text.contains("\"sentAt\":1,"))
    #expect(text.contains("\"distanceMeters\":110.94,"))
    #expect(text.contains("\"format\":\"geosim-search-report/1\""))
    let markdown = report.markdown()
    #expect(markdown.contains("| ncmb | 1 | 0 | 0.0 % | 100 / 100 / 100 |"))
    #expect(markdown.contains("ncmb.near"))
  }

  @Test func stationFinderSearchesAreComparedEndToEnd() throws {
    let scenarios = repository.appendingPathComponent("Scenarios/station-finder")
    let text = """
      {
        "format": "geosim-scenario/1", "name": "station-finder-search", "seed": 3,
        "start": "2026-04-01T08:00:00+09:00", "duration": 90,
        "app": { "name": "StationFinder", "variant": "as-published",
                 "configuration": { "withinKilometers": 2 } },
        "datasets": [{ "file": "datasets/yamanote-stations.json" }],
        "environment": { "offline": [{ "from": 60, "to": 70 }] },
        "timeline": [
          { "at": 0, "do": "launch" },
          { "at": 5, "do": "tap", "latitude": 35.66, "longitude": 139.74 },
          { "at": 10, "do": "tap", "latitude": 35.68, "longitude": 139.77 },
          { "at": 20, "do": "tap", "latitude": 35.64, "longitude": 139.72 },
          { "at": 30, "do": "tapButton", "button": "trash" },
          { "at": 62, "do": "tap", "latitude": 35.65, "longitude": 139.75 }
        ]
      }
      """
    let scenario = try Scenario(
      data: Data(text.utf8), file: "station-finder-search.scenario.json", folder: scenarios)
    let run = try ScenarioRun(scenario, catalog: .referenceApps, resources: searchTestResources)
    let report = SearchReport(input: ReportInput(run))
    #expect(report.requests.map(\.kind) == [.ncmbNear, .ncmbBox, .ncmbBox, .ncmbNear])
    for record in report.requests.prefix(3) {
      #expect(record.ncmb?.recall == 1 && record.ncmb?.precision == 1)
      #expect(record.ncmb?.truth?.count == record.ncmb?.datastoreCount)
    }
    #expect(report.requests[0].ncmb?.truth?.count == 3)
    #expect(report.requests[2].anomalies == [.invertedBox])
    #expect(report.requests[3].anomalies == [.offline])
    #expect(report.ncmbSearches.count == 4)
  }

  @Test func threeWordLocatorAnswersAreCheckedEndToEnd() throws {
    let text = """
      {
        "format": "geosim-scenario/1", "name": "three-word-search", "seed": 3,
        "start": "2026-04-01T08:00:00+09:00", "duration": 60,
        "device": { "promptAnswers": { "location": ["allowWhileUsing"] } },
        "app": { "name": "ThreeWordLocator", "variant": "as-published" },
        "trace": { "stationary": { "latitude": 35.6585805, "longitude": 139.7454329 } },
        "timeline": [
          { "at": 0, "do": "launch" },
          { "at": 20, "do": "enterText", "field": "search", "text": "a b c" }
        ]
      }
      """
    let scenario = try Scenario(
      data: Data(text.utf8), file: "three-word-search.scenario.json",
      folder: URL(fileURLWithPath: NSTemporaryDirectory()))
    let run = try ScenarioRun(scenario, catalog: .referenceApps, resources: searchTestResources)
    let report = SearchReport(input: ReportInput(run))
    #expect(report.requests.map(\.kind) == [.threeWordsToWords, .threeWordsToCoordinates])
    #expect(report.requests[0].threeWords?.squareContainsPoint == true)
    #expect(report.requests[0].anomalies.isEmpty)
    #expect(report.requests[1].errorCode == "BadWords")
    #expect(report.requests[1].anomalies == [.serviceError])
    #expect(report.summaries.map(\.service) == ["threewords"])
    #expect(report.summaries[0].errors == 1)
  }
}
