import Cloud
import Foundation
import JSON
import ReferenceAppCatalog
import Replay
import Reporting
import Testing

/// A scenario pointed at a user's own PostGIS table runs, and is judged, as the same stations
/// from a dataset file are.
@Suite struct PostGISScenarioTests {
  private static let url = ProcessInfo.processInfo.environment["GEOSIM_POSTGIS_URL"] ?? ""

  @Test(arguments: [false, true])
  func anUnreachableServerFailsTheScenarioBeforeItRunsNamingTheDatabase(_ withTable: Bool) throws {
    var scenario = try Scenario(
      contentsOf: repository.appendingPathComponent(
        "Scenarios/station-finder/near-search-corrected.scenario.json"
      ).path)
    let url = "postgresql://geosim:secret@127.0.0.1:1/rail"
    if withTable { scenario.datasets = [] }
    scenario.backend = .postgis(
      PostGISTarget(url: url, table: withTable ? PostGISTable(name: "stations") : nil))
    do {
      _ = try ScenarioRun(scenario, catalog: .referenceApps, resources: ReplayResources())
      Issue.record("expected the scenario to fail")
    } catch let error as ScenarioError {
      #expect(error.path == (withTable ? "table" : "database"))
      #expect(error.message.hasPrefix("postgresql://geosim@127.0.0.1:1/rail: cannot connect: "))
      #expect(!error.description.contains("secret"))
    }
  }

  @Test(
    .enabled(
      if: !url.isEmpty,
      "GEOSIM_POSTGIS_URL is not set, so there is no PostGIS server to read a table from"),
    arguments: [
      "station-finder/near-search-corrected.scenario.json",
      "station-finder/box-north-east-first-as-published.scenario.json",
    ])
  func aUsersTableIsJudgedAsTheSameStationsFromADatasetAre(_ path: String) throws {
    let original = try Scenario(
      contentsOf: repository.appendingPathComponent("Scenarios/\(path)").path)
    let file = original.datasets[0].file
    let records = try GeoDatastore.stations(
      json: String(contentsOf: file, encoding: .utf8), file: file.path)
    let server = PostGISTarget(url: Self.url)
    let table = "geosim_test_scenario_\(UInt32.random(in: 0...UInt32.max))"
    let rows = records.enumerated().map { i, r in
      "(\(i + 1), '\(r.name.replacingOccurrences(of: "'", with: "''"))', "
        + "ST_SetSRID(ST_MakePoint(\(r.point.longitude), \(r.point.latitude)), 4326))"
    }
    try PostGISBackend.run(
      [
        "CREATE TABLE \(table) (id int4 PRIMARY KEY, name text, geom geometry(Point, 4326))",
        "INSERT INTO \(table) VALUES \(rows.joined(separator: ", "))",
        "CREATE INDEX ON \(table) USING gist (geom)",
      ], on: server)
    defer { try? PostGISBackend.run(["DROP TABLE \(table)"], on: server) }

    var onTable = original
    onTable.datasets = []
    onTable.backend = .postgis(
      PostGISTarget(url: Self.url, table: PostGISTable(name: table, nameColumn: "name")))
    let resources = ReplayResources()
    let expected = try ScenarioRun(original, catalog: .referenceApps, resources: resources)
    let actual = try ScenarioRun(onTable, catalog: .referenceApps, resources: resources)
    #expect(actual.world.stations.map(\.name) == records.map(\.name))
    #expect(actual.result.verdict == expected.result.verdict)
    let searches = try [expected, actual].map {
      try #require(
        ScenarioReport(input: ReportInput($0), context: $0.world.geos, resources: resources)
          .search)
    }
    #expect(!searches[0].requests.isEmpty)
    #expect(searches[1].json == searches[0].json)
  }
}
