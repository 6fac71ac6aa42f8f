import Cloud
import Foundation
import JSON
import ReferenceAppCatalog
import Replay
import SimKernel
import Testing

@testable import Reporting

private let resources = ReplayResources()

/// The viewer page of a shipped scenario replayed in this process.
private func viewer(_ path: String, eventLimit: Int = ViewerData.eventLimit) throws -> String {
  let run = try replayShipped(path, resources: resources)
  let report = try ScenarioReport(
    input: ReportInput(run), context: run.world.geos, resources: resources)
  let page = try ReplayViewer(run: run, report: report, eventLimit: eventLimit).html()
  return String(decoding: page, as: UTF8.self)
}

/// The borders drawn as ``ViewerProjection/borders(_:)`` draws them, but projecting every
/// vertex of every ring: nothing is passed over by its degrees.
private func bordersProjectingEverything(
  _ rings: [CountryBorderRing], _ projection: ViewerProjection
) -> [UInt8] {
  let w = ViewerProjection.width
  let h = ViewerProjection.height
  var d = JSONBuffer()
  d.append(UInt8(ascii: "\""))
  for ring in rings {
    let points = zip(ring.latitudes, ring.longitudes).map { projection.point($0, $1) }
    let xs = points.map(\.0)
    let ys = points.map(\.1)
    guard let minX = xs.min(), let maxX = xs.max(), let minY = ys.min(), let maxY = ys.max(),
      maxX >= -w / 2, minX <= w * 1.5, maxY >= -h / 2, minY <= h * 1.5,
      max(maxX - minX, maxY - minY) >= 1
    else { continue }
    func zone(_ i: Int) -> Int {
      let (x, y) = points[i]
      return (x < -w ? 0 : x > 2 * w ? 2 : 1) + 3 * (y < -h ? 0 : y > 2 * h ? 2 : 1)
    }
    let kept = points.indices.filter { i in
      zone(i) == 4 || i == 0 || i == points.count - 1 || zone(i - 1) != zone(i)
        || zone(i + 1) != zone(i)
    }.map { (min(max(points[$0].0, -w), 2 * w), min(max(points[$0].1, -h), 2 * h)) }
    SVGPathText.write(kept, closed: true, tolerance: 1.5, digits: 0, to: &d)
  }
  d.append(UInt8(ascii: "\""))
  return d.bytes
}

/// The JSON document the page embeds.
private func embeddedData(_ page: String) throws -> [String: JSONValue] {
  let open = #"<script type="application/json" id="geosim-data">"#
  let start = try #require(page.range(of: open)).upperBound
  let end = try #require(page.range(of: "</script>", range: start..<page.endIndex)).lowerBound
  guard case .object(let o) = try JSONValue(parsing: Data(page[start..<end].utf8)) else {
    Issue.record("the embedded data is not an object")
    return [:]
  }
  return o
}

private func array(_ v: JSONValue?) -> [JSONValue] {
  if case .array(let a)? = v { a } else { [] }
}
private func object(_ v: JSONValue?) -> [String: JSONValue] {
  if case .object(let o)? = v { o } else { [:] }
}
private func number(_ v: JSONValue?) -> Double? {
  if case .number(let n)? = v { n } else { nil }
}
private func string(_ v: JSONValue?) -> String? {
  if case .string(let s)? = v { s } else { nil }
}

/// The replay viewer is one offline page that draws what the phone sent, where it sent it.
@Suite(.serialized) struct ReplayViewerTests {
  @Test func thePageIsOneFileThatLoadsNothing() throws {
    let page = try viewer("arrival-alarm/train-to-shinagawa-corrected.scenario.json")
    #expect(page.hasPrefix("<!DOCTYPE html>") && page.hasSuffix("</html>\n"))
    // The SVG namespace is a name, not something fetched; no other URL appears.
    let withoutNamespace = page.replacingOccurrences(of: "http://www.w3.org/2000/svg", with: "")
    #expect(!withoutNamespace.contains("http://") && !withoutNamespace.contains("https://"))
    // The one link is an empty icon, so that a browser asks no server for a favicon.
    let withoutIcon = page.replacingOccurrences(of: #"<link rel="icon" href="data:,"/>"#, with: "")
    for reference in [" src=", "<link", "@import", "url(", "fetch(", "XMLHttpRequest", "import("] {
      #expect(
        !withoutIcon.contains(reference), "the page refers to an outside resource: \(reference)")
    }
    // Exactly the two scripts: the data and the page's own.
    #expect(page.components(separatedBy: "<script").count == 3)
    for id in [
      "id=\"scrub\"", "id=\"play\"", "id=\"clock\"", "id=\"map\"", "id=\"lanes\"",
      "id=\"events\"", "id=\"event-detail\"", "id=\"font-notice\" class=\"notice\" hidden",
    ] {
      #expect(page.contains(id), "\(id) is missing")
    }
  }

  @Test func textFromTheScenarioCannotEndTheDataScript() throws {
    let text = "</script><script>alert(1)</script> <!-- x -->"
    let embedded = ViewerPage.embedded(.object(["description": .string(text)]))
    #expect(!embedded.contains("</") && !embedded.contains("<!"))
    #expect(try JSONValue(parsing: Data(embedded.utf8)) == .object(["description": .string(text)]))
    let bytes = ViewerPage.page(
      title: "<b>", description: text, start: 0, end: 1,
      writeData: JSONValue.object([:]).write(to:))
    let page = String(decoding: bytes, as: UTF8.self)
    #expect(!page.contains("<b>") && !page.contains("<script>alert"))
  }

  @Test func onlyTheOpeningsThatCouldEndTheScriptAreRewritten() {
    // Doubled, adjacent and trailing openings; text that only looks like one stays.
    let text = "<</a<!<//<!!<\\/ 東京</<"
    #expect(
      ViewerPage.embedded(.string(text))
        == #""<<\/a\u003c!<\//\u003c!!<\\/ 東京<\/<""#)
  }

  @Test(arguments: [
    [(35.68, 139.76)], [(35.6, 139.6), (35.7, 139.9), (35.65, 139.7)],
    [(-33.9, 151.2), (51.5, -0.1)], [(84.0, -40.0), (-84.0, 170.0)],
  ])
  func theProjectionDrawsItsPointsInsideTheMapAndReadsThemBack(points: [(Double, Double)]) {
    let projection = ViewerProjection(fitting: points)
    for (lat, lon) in points {
      let (x, y) = projection.point(lat, lon)
      #expect(x > 0 && x < ViewerProjection.width && y > 0 && y < ViewerProjection.height)
      let back = projection.coordinate(x: x, y: y)
      #expect(abs(back.latitude - lat) < 1e-9 && abs(back.longitude - lon) < 1e-9)
    }
    // The frame's corners: the extremes, padded by 8 % of the span on each side.
    let (x0, y0) = projection.point(
      points.map(\.0).max()!, points.map(\.1).min()!)
    let (x1, y1) = projection.point(
      points.map(\.0).min()!, points.map(\.1).max()!)
    let padded = abs(x0 / (x1 - x0) - 0.08) < 1e-6 || abs(y0 / (y1 - y0) - 0.08) < 1e-6
    #expect(padded || points.count == 1)
  }

  /// Frames around the world, from 300 m to 3,000 km across, as (south-west, north-east).
  static let frames: [[(Double, Double)]] = {
    var random = RandomStream(seed: 20)
    var frames: [[(Double, Double)]] = [
      [(35.6, 139.6), (35.7, 139.9)], [(84.0, -40.0), (84.9, -20.0)],
      [(-84.9, 10.0), (-84.0, 30.0)], [(-10.0, 179.0), (10.0, 179.9)],
      // The whole world, and Tokyo with (0, 0) (a request sent without a fix).
      [(-70.0, -180.0), (70.0, 180.0)], [(0.0, 0.0), (35.7, 139.8)],
      // A street in Tokyo: Honshu's coast, most of it runs of vertices far outside.
      [(35.680, 139.760), (35.683, 139.764)],
    ]
    for _ in 0..<40 {
      let lat = Double.random(in: -80...80, using: &random)
      let lon = Double.random(in: -179...179, using: &random)
      let degrees = pow(10, Double.random(in: -2.5...1.5, using: &random))
      frames.append([(lat, lon), (min(lat + degrees, 85), min(lon + degrees, 180))])
    }
    return frames
  }()

  @Test func theBordersAreThoseOfEveryVertexProjected() throws {
    let borders = try ViewerBorders.bundled()
    #expect(try borders.rings == CountryBorderRing.bundled())
    for frame in Self.frames {
      let projection = ViewerProjection(fitting: frame)
      let same =
        projection.borders(borders) == bordersProjectingEverything(borders.rings, projection)
      #expect(same, "frame \(frame)")
    }
  }

  @Test func theWeatherRequestAtNullIslandIsDrawnWhereItWasSent() throws {
    let data = try embeddedData(
      try viewer("weather-widget/first-launch-as-published.scenario.json"))
    let requests = array(data["requests"]).map { object($0) }
    let weather = try #require(requests.first { string($0["service"]) == "weather" })
    #expect(number(weather["latitude"]) == 0 && number(weather["longitude"]) == 0)
    #expect(string(weather["shape"]) == "point")
    #expect(array(weather["anomalies"]).contains(.string("nearNullIsland")))
    // The map's frame holds (0, 0) as well as the phone in Tokyo.
    let map = object(data["map"])
    let x = try #require(number(weather["x"]))
    let y = try #require(number(weather["y"]))
    #expect(x >= 0 && x <= number(map["width"])! && y >= 0 && y <= number(map["height"])!)
    let start = object(object(data["track"])["start"])
    #expect(abs((number(start["x"]) ?? x) - x) > 100, "Tokyo and (0, 0) are far apart")
    // The coarse base layer is there to tell where that is.
    #expect((string(data["borders"]) ?? "").count > 1_000)
  }

  @Test func theInvertedBoxIsDrawnWithItsCornersAsSent() throws {
    let data = try embeddedData(
      try viewer("station-finder/box-north-east-first-as-published.scenario.json"))
    let requests = array(data["requests"]).map { object($0) }
    let box = try #require(requests.first { string($0["kind"]) == "ncmb.box" })
    #expect(string(box["shape"]) == "box")
    #expect(array(box["anomalies"]).contains(.string("invertedBox")))
    let sent = array(box["sent"]).map { object($0) }
    try #require(sent.count == 2)
    // The first corner sent, the "southwest" one, is the north-east tap near Shimbashi.
    #expect(number(sent[0]["latitude"])! > number(sent[1]["latitude"])!)
    #expect(number(sent[0]["longitude"])! > number(sent[1]["longitude"])!)
    let corners = array(box["corners"]).map { array($0).compactMap(number) }
    let meant = array(box["meant"]).compactMap(number)
    try #require(corners.count == 4 && meant.count == 4)
    // Drawn as sent: the first corner is the box's north-east one on the map (right, up).
    #expect(corners[0][0] == meant[2] && corners[0][1] == meant[1])
    #expect(corners[2][0] == meant[0] && corners[2][1] == meant[3])
  }

  @Test func theClockIsInTheScenariosTimeZone() throws {
    let data = try embeddedData(
      try viewer("station-finder/box-north-east-first-as-published.scenario.json"))
    let zones = array(data["zones"]).map { object($0) }
    #expect(zones.count == 1)
    #expect(number(zones.first?["offset"]) == Double(9 * 3_600))
    #expect(string(zones.first?["abbreviation"]) == "JST")
    #expect(string(object(data["scenario"])["start"]) == "2026-04-01T05:10:00Z")
    #expect(number(object(data["scenario"])["startEpochMilliseconds"]) == 1_775_020_200_000)
  }

  @Test func aClockAcrossADaylightSavingChangeHasBothOffsets() throws {
    // Central Europe springs forward at 01:00 UTC on 29 March 2026.
    let start = try #require(ISO8601DateFormatter().date(from: "2026-03-29T00:30:00Z"))
    let zones = array(
      ViewerData.zones(
        of: try #require(TimeZone(identifier: "Europe/Berlin")), from: start, seconds: 7_200)
    ).map { object($0) }
    #expect(zones.map { number($0["from"]) } == [0, 1_800])
    #expect(zones.map { number($0["offset"]) } == [3_600, 7_200])
    #expect(zones.map { string($0["abbreviation"]) } == ["CET", "CEST"])
  }

  @Test func everyEventIsEmbeddedUpToTheCapAndThePageSaysWhenCapped() throws {
    let path = "arrival-alarm/train-to-shinagawa-corrected.scenario.json"
    let full = try embeddedData(try viewer(path))
    let count = try #require(number(full["eventCount"]))
    #expect(array(full["events"]).count == Int(count))
    let first = array(array(full["events"]).first)
    #expect(string(first.last)?.hasPrefix("{\"t\":0,\"ns\":0,\"seq\":0,") == true)
    let capped = try embeddedData(try viewer(path, eventLimit: 10))
    #expect(array(capped["events"]).count == 10)
    #expect(number(capped["eventsEmbedded"]) == 10 && number(capped["eventCount"]) == count)
  }

  @Test func theDataIsOneCompactDocumentWithSortedKeysAndItsFirstJapaneseText() throws {
    // The event list is written from its lines, beside the other members: the whole must
    // still be the bytes of the document's canonical JSON, the list in its key's place.
    let page = try viewer("arrival-alarm/second-alarm-corrected.scenario.json")
    let open = #"<script type="application/json" id="geosim-data">"#
    let start = try #require(page.range(of: open)).upperBound
    let end = try #require(page.range(of: "</script>", range: start..<page.endIndex)).lowerBound
    let text = page[start..<end].replacingOccurrences(of: #"<\/"#, with: "</")
      .replacingOccurrences(of: #"\u003c!"#, with: "<!")
    let data = try embeddedData(page)
    #expect(text == JSONValue.object(data).jsonText)
    // Here the first Japanese text in the order of the keys is a station in an event's line.
    func isJapanese(_ s: Unicode.Scalar) -> Bool {
      (0x3040...0x30FF).contains(s.value) || (0x4E00...0x9FFF).contains(s.value)
    }
    func first(_ value: JSONValue) -> String? {
      switch value {
      case .string(let s):
        guard let i = s.unicodeScalars.firstIndex(where: isJapanese) else { return nil }
        return String(String.UnicodeScalarView(s.unicodeScalars[i...].prefix(while: isJapanese)))
      case .array(let a): return a.lazy.compactMap(first).first
      case .object(let o): return o.keys.sorted().lazy.compactMap { first(o[$0]!) }.first
      default: return nil
      }
    }
    let members = data.filter { $0.key != "cjkSample" }
    let sample = try #require(first(.object(members)))
    #expect(string(data["cjkSample"]) == String(sample.unicodeScalars.prefix(8)))
    #expect(first(.object(members.filter { $0.key < "events" })) == nil)
    #expect(first(data["events"]!) == sample)
  }

  @Test func aReplayWithoutATrueTrackHasAnEmptyTrackWithoutEnds() throws {
    var scenario = try Scenario(
      contentsOf: repository.appendingPathComponent(
        "Scenarios/weather-widget/first-launch-corrected.scenario.json"
      ).path)
    scenario.trace = nil
    let run = try ScenarioRun(scenario, catalog: .referenceApps, resources: resources)
    try #require(run.world.trueSamples.isEmpty)
    let report = try ScenarioReport(
      input: ReportInput(run), context: run.world.geos, resources: resources)
    let page = String(decoding: try ReplayViewer(run: run, report: report).html(), as: UTF8.self)
    let data = try embeddedData(page)
    let track = object(data["track"])
    #expect(
      Set(track.keys) == [
        "arrows", "breaks", "end", "latitude", "longitude", "start", "t", "x", "y",
      ])
    for key in ["arrows", "breaks", "latitude", "longitude", "t", "x", "y"] {
      #expect(track[key] == .array([]), "\(key)")
    }
    #expect(track["start"] == .null && track["end"] == .null)
    #expect(array(data["fixes"]).isEmpty)
    let open = #"<script type="application/json" id="geosim-data">"#
    let start = try #require(page.range(of: open)).upperBound
    let end = try #require(page.range(of: "</script>", range: start..<page.endIndex)).lowerBound
    #expect(!page[start..<end].contains("<"))
    #expect(String(page[start..<end]) == JSONValue.object(data).jsonText)
  }

  @Test func aFenceIsUnknownUntilThePhoneDecidesAndThenWhatItDecided() throws {
    let data = try embeddedData(
      try viewer("arrival-alarm/train-to-shinagawa-corrected.scenario.json"))
    let fences = array(data["fences"]).map { object($0) }
    try #require(!fences.isEmpty)
    for fence in fences {
      let states = array(fence["states"]).map { array($0) }
      #expect(string(states.first?[1]) == "unknown")
      #expect(number(states.first?[0]) == number(fence["from"]))
    }
    // The alarm's region: the phone decided it was inside on arrival, where it truly was.
    let decided = fences.flatMap { array($0["states"]).map { array($0) } }
      .filter { string($0[1]) == "inside" }
    #expect(!decided.isEmpty)
    let truth = fences.compactMap { array($0["trueStates"]).last.map { array($0) } }
    #expect(truth.contains { $0.last == .bool(true) })
  }

  @Test func theStaticMapDrawsRequestsAsSentToo() throws {
    let weatherRun = try replayShipped(
      "weather-widget/first-launch-as-published.scenario.json", resources: resources)
    let weather = try ScenarioReport(
      input: ReportInput(weatherRun), context: weatherRun.world.geos, resources: resources)
    let map = try #require(weather.mapSVG())
    #expect(map.contains("weather lat=0.0 lon=0.0"))
    #expect(!map.contains("nothing to draw"))
    let boxRun = try replayShipped(
      "station-finder/box-north-east-first-as-published.scenario.json", resources: resources)
    let box = try ScenarioReport(
      input: ReportInput(boxRun), context: boxRun.world.geos, resources: resources)
    let boxMap = try #require(box.mapSVG())
    #expect(boxMap.contains("SW as sent") && boxMap.contains("NE as sent"))
  }

  @Test func twoReplaysGiveTheSameBytes() throws {
    let path = "station-finder/box-north-east-first-as-published.scenario.json"
    #expect(try viewer(path) == viewer(path))
  }

  @Test func aZoneKeptByTheResourcesIsTheZoneAskedAgain() throws {
    let shared = ReplayResources()
    for path in [
      "arrival-alarm/tunnel-approach-modern.scenario.json",
      "weather-widget/first-launch-corrected.scenario.json",
    ] {
      let run = try replayShipped(path, resources: resources)
      let report = try ScenarioReport(
        input: ReportInput(run), context: run.world.geos, resources: resources)
      let asked = try ReplayViewer(run: run, report: report).html()
      // The first page asks the zone database and keeps its answer; the second reads it.
      for _ in 0..<2 {
        #expect(try ReplayViewer(run: run, report: report, resources: shared).html() == asked)
      }
    }
    // A span across a change of offset keeps every piece of it.
    let berlin = try #require(TimeZone(identifier: "Europe/Berlin"))
    let start = Date(timeIntervalSince1970: 1_774_749_600)  // 2026-03-29 02:00 UTC
    let span = ReplayResources.TimeZoneSpan(zone: "Europe/Berlin", start: start, seconds: 7_200)
    let zones = shared.describe(span) { ViewerData.zones(of: berlin, from: start, seconds: 7_200) }
    #expect(shared.describe(span) { .null } == zones)
    #expect(zones.jsonText.contains(#""abbreviation":"CEST""#), "\(zones.jsonText)")
  }

  @Test func theEventListTakenFromTheLogAsWrittenIsTheOneWrittenAgain() throws {
    let run = try replayShipped(
      "arrival-alarm/train-to-shinagawa-modern.scenario.json", resources: resources)
    let report = try ScenarioReport(
      input: ReportInput(run), context: run.world.geos, resources: resources)
    let written = [UInt8](run.world.simulation.log.jsonLinesData)
    func page(eventLimit: Int, jsonLines: [UInt8]?) throws -> Data {
      try ReplayViewer(run: run, report: report, eventLimit: eventLimit, jsonLines: jsonLines)
        .html()
    }
    let entries = run.log.entries.count
    try #require(entries > 100)
    for limit in [entries, 50] {
      let again = try page(eventLimit: limit, jsonLines: nil)
      #expect(try page(eventLimit: limit, jsonLines: written) == again)
      // Text with too few lines is not used: the lines are written again.
      let short = Array(written.prefix(through: written.firstIndex(of: UInt8(ascii: "\n"))!))
      #expect(try page(eventLimit: limit, jsonLines: short) == again)
    }
  }

  @Test func theScenarioFolderHoldsTheViewerAndTheRunPageLinksIt() throws {
    #expect(ReportFiles.scenarioFiles.contains("index.html"))
    let run = try replayShipped(
      "station-finder/box-north-east-first-as-published.scenario.json", resources: resources)
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
      "viewer-\(UUID().uuidString)")
    defer { try? FileManager.default.removeItem(at: folder) }
    let entry = try ReportFiles.writeScenario(
      run, resources: resources, to: folder.appendingPathComponent(run.scenario.name))
    let page = try String(
      contentsOf: folder.appendingPathComponent("\(run.scenario.name)/index.html"),
      encoding: .utf8)
    #expect(page.contains("id=\"geosim-data\""))
    #expect(entry.viewer == "index.html")
    #expect(RunReport(entries: [entry]).html().contains("\(run.scenario.name)/index.html"))
  }

  @Test func aFolderWrittenAgainHoldsOnlyTheFiguresOfTheNewReplay() throws {
    let path = "station-finder/box-north-east-first-as-published.scenario.json"
    let complete = try replayShipped(path, resources: resources)
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
      "figures-\(UUID().uuidString)")
    defer { try? FileManager.default.removeItem(at: folder) }
    let first = try ReportFiles.writeScenario(complete, resources: resources, to: folder)
    #expect(Set(first.figures.map(\.file)) == ["map.svg", "latency.svg"])
    // The same scenario stopped by its event budget: no analyses, so no figures.
    let stopped = try ScenarioRun(
      complete.scenario, catalog: .referenceApps, resources: resources, eventLimit: 5)
    try #require(stopped.result.timeout != nil)
    let second = try ReportFiles.writeScenario(stopped, resources: resources, to: folder)
    #expect(second.figures.isEmpty)
    let files = try FileManager.default.contentsOfDirectory(atPath: folder.path)
    #expect(Set(files) == ["report.json", "report.md", "index.html", "result.json"])
  }
}

/// A scenario's map layers are read with the scenario, and a damaged one is named exactly.
@Suite struct MapLayerReadingTests {
  func read(layer: String) throws -> Scenario {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
      "layers-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    try Data(layer.utf8).write(to: folder.appendingPathComponent("rail.geojson"))
    let scenario = """
      {"format": "geosim-scenario/1", "name": "layers", "start": "2026-04-01T08:00:00+09:00",
       "duration": 10, "app": {"name": "ArrivalAlarm"},
       "report": {"layers": [{"file": "rail.geojson", "label": "JR lines"}]}}
      """
    let file = folder.appendingPathComponent("layers.scenario.json")
    try Data(scenario.utf8).write(to: file)
    return try Scenario(contentsOf: file.path)
  }

  @Test func aLayerIsReadWithItsLabel() throws {
    let s = try read(
      layer: """
        {"type": "FeatureCollection", "features": [{"type": "Feature", "properties": {"name": "A"},
          "geometry": {"type": "LineString", "coordinates": [[139.7, 35.6], [139.8, 35.7]]}}]}
        """)
    #expect(s.report.layers.map(\.label) == ["JR lines"])
    #expect(s.report.layers.first?.features.count == 1)
  }

  @Test func aBadCoordinateIsNamedByFileLineColumnAndPath() throws {
    let layer = """
      {"type": "FeatureCollection", "features": [
        {"type": "Feature", "properties": {},
         "geometry": {"type": "LineString", "coordinates": [[139.7, 35.6], [139.8, "north"]]}}]}
      """
    let error = try #require(throws: ScenarioError.self) { try read(layer: layer) }
    let text = "\(error)"
    #expect(error.path == "report.layers[0].file", "\(text)")
    #expect(text.contains("rail.geojson:3:"), "\(text)")
    #expect(text.contains("features[0].geometry.coordinates[1][1]"), "\(text)")
  }

  @Test func aLayerThatIsNotJSONIsNamedByFileLineAndColumn() throws {
    let error = try #require(throws: ScenarioError.self) {
      try read(layer: "{\"type\": \"FeatureCollection\",\n \"features\": [],}")
    }
    #expect("\(error)".contains("rail.geojson:2:"), "\(error)")
  }
}
