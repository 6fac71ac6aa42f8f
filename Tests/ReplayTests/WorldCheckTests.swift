import Foundation
import Geo
import JSON
import Replay
import Testing
import Traces

/// Checking a scenario without assembling its world (what `geosim validate`, `replay` and
/// `sweep` do before anything runs): it refuses what assembling the world refuses, with the
/// same error, and finds the same trace issues.
@Suite struct WorldCheckTests {
  func walk() throws -> Scenario {
    try Scenario(contentsOf: fixtures.appendingPathComponent("walk.scenario.json").path)
  }

  /// The error assembling `scenario` throws, and the one checking it throws.
  func errors(_ scenario: Scenario) -> (assembling: String?, checking: String?) {
    let assembling = Result {
      try World(scenario: scenario, catalog: .testing, resources: ReplayResources())
    }
    let checking = Result {
      try World.check(scenario: scenario, catalog: .testing, resources: ReplayResources())
    }
    return (
      assembling.failure.map { "\($0)" }, checking.failure.map { "\($0)" }
    )
  }

  @Test func aScenarioTheWorldRefusesIsRefusedByTheCheckWithTheSameError() throws {
    let walk = try walk()
    var broken: [Scenario] = []
    var s = walk
    s.name = "no spaces"
    broken.append(s)
    s = walk
    s.app.variant = "sloppy"
    broken.append(s)
    s = walk
    s.app = AppSelection(name: "Nope")
    broken.append(s)
    s = walk
    s.app.configuration = .object(["a": .null])
    broken.append(s)
    s = walk
    s.trace = .file(
      fixtures.appendingPathComponent("centuries.gpx"), track: 0, startAt: 0,
      allowSkippedPoints: false)
    broken.append(s)
    s = walk
    s.trace = .file(
      fixtures.appendingPathComponent("repeated-time.gpx"), track: 3, startAt: 0,
      allowSkippedPoints: false)
    broken.append(s)
    s = walk
    s.trace = .synthesized(
      waypoints: [.init(coordinate: try Coordinate(latitude: 35.68, longitude: 139.76))],
      speed: "teleport", interval: 1, startAt: 0)
    broken.append(s)
    s = walk
    s.environment.services["weather"] = LinkSetup()
    s.environment.services["weather"]?.failureRate = 2
    broken.append(s)
    s = walk
    s.gazetteer = fixtures.appendingPathComponent("missing.geojson")
    broken.append(s)
    for scenario in broken {
      let (assembling, checking) = errors(scenario)
      #expect(assembling != nil)
      #expect(checking == assembling)
    }
    #expect(errors(walk) == (nil, nil))
  }

  @Test func theCheckFindsTheTraceIssuesTheWorldHas() throws {
    var s = try walk()
    s.trace = .file(
      fixtures.appendingPathComponent("repeated-time.gpx"), track: 0, startAt: 0,
      allowSkippedPoints: false)
    let world = try World(scenario: s, catalog: .testing, resources: ReplayResources())
    let issues = try World.check(scenario: s, catalog: .testing, resources: ReplayResources())
    #expect(!issues.isEmpty)
    #expect(issues == world.traceIssues)
  }

  @Test func aTraceFileIsReadAgainWhenItsBytesChange() throws {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
      "geosim-trace-cache-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let file = folder.appendingPathComponent("walk.gpx")
    func write(_ latitudes: [Double]) throws {
      let points = latitudes.enumerated().map { i, latitude in
        "<trkpt lat=\"\(latitude)\" lon=\"139.7671\"><time>2026-04-01T08:00:\(10 + i)Z</time>"
          + "</trkpt>"
      }
      try Data(
        ("<gpx version=\"1.1\" xmlns=\"http://www.topografix.com/GPX/1/1\"><trk><trkseg>"
          + points.joined() + "</trkseg></trk></gpx>").utf8
      ).write(to: file)
    }
    let resources = ReplayResources()
    try write([35.6812, 35.6808])
    let first = try resources.trace(contentsOf: file.path, gpxWaypoints: .automatic)
    #expect(try resources.trace(contentsOf: file.path, gpxWaypoints: .automatic) == first)
    #expect(first == (try Trace.read(contentsOf: file.path)))
    try write([35.6812, 35.6808, 35.6800])
    let changed = try resources.trace(contentsOf: file.path, gpxWaypoints: .automatic)
    #expect(changed == (try Trace.read(contentsOf: file.path)))
    #expect(changed != first)
  }

  @Test func aFileNamedAgainResolvesAsItDidTheFirstTime() throws {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
      "geosim-resolve-\(UUID().uuidString)")
    try FileManager.default.createDirectory(
      at: folder.appendingPathComponent("data"), withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    try Data("x".utf8).write(to: folder.appendingPathComponent("data/trace.csv"))
    try FileManager.default.createSymbolicLink(
      atPath: folder.appendingPathComponent("link.csv").path, withDestinationPath: "data/trace.csv")
    let resources = ReplayResources()
    for name in ["link.csv", "./data/../link.csv", "data/trace.csv", folder.path + "/link.csv"] {
      let expected = ReplayResources.resolvingSymlinks(name, in: folder)
      #expect(expected.lastPathComponent == "trace.csv", "\(name)")
      #expect(resources.resolvingSymlinks(name, in: folder) == expected, "\(name)")
      #expect(resources.resolvingSymlinks(name, in: folder) == expected, "\(name), again")
    }
    let resolvedFolder = folder.standardizedFileURL.resolvingSymlinksInPath()
    #expect(resources.resolvingSymlinks(folder) == resolvedFolder)
    #expect(resources.resolvingSymlinks(folder) == resolvedFolder)
  }

  @Test func aMapLayerIsParsedAgainWhenItsBytesChange() throws {
    let resources = ReplayResources()
    func layer(_ longitude: Double) -> Data {
      Data(
        (#"{"type":"FeatureCollection","features":[{"type":"Feature","properties":{},"#
          + #""geometry":{"type":"Point","coordinates":[\#(longitude),35.68]}}]}"#).utf8)
    }
    let first = try resources.geoJSONFeatures(layer(139.76), file: "layer.geojson")
    #expect(try resources.geoJSONFeatures(layer(139.76), file: "layer.geojson") == first)
    let changed = try resources.geoJSONFeatures(layer(139.77), file: "layer.geojson")
    #expect(changed == (try GeoJSON.features(from: layer(139.77), file: "layer.geojson")))
    #expect(changed != first)
    #expect(throws: GeoError.self) {
      try resources.geoJSONFeatures(Data("{".utf8), file: "layer.geojson")
    }
  }
}

extension Result {
  fileprivate var failure: Failure? {
    if case .failure(let error) = self { return error }
    return nil
  }
}
