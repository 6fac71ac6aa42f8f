import Foundation
import GeoSimTesting
import JSON
import SimKernel
import Testing

@testable import Replay

/// The event log's vocabulary is declared once, by the components that record it.
@Suite struct LoggedEventsTests {
  static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .deletingLastPathComponent().deletingLastPathComponent()

  @Test func everyDeclaredEventIsNamedOnce() {
    let keys = LoggedEvents.declarations.map { "\($0.source).\($0.name)" }
    #expect(Set(keys).count == keys.count)
  }

  @Test func theEventTableInTheDocsIsGeneratedFromTheDeclarations() throws {
    let url = Self.repository.appendingPathComponent("docs/EVENTS.md")
    let text = try String(contentsOf: url, encoding: .utf8)
    let marker = "<!-- generated from LoggedEvents.declarations -->\n"
    let start = try #require(text.range(of: marker))
    let table = LoggedEvents.markdownTable
    if ProcessInfo.processInfo.environment["GEOSIM_RECORD_GOLDEN"] == "1" {
      try (String(text[..<start.upperBound]) + table).write(
        to: url, atomically: true, encoding: .utf8)
      return
    }
    #expect(
      String(text[start.upperBound...]) == table,
      "docs/EVENTS.md is out of date: re-record with GEOSIM_RECORD_GOLDEN=1")
  }

  /// Every entry every shipped scenario records is a declared event (the app's own included),
  /// and carries exactly its declared fields, in their order: a field that does not apply is
  /// there, as null, so that every key the docs list is on every line.
  @Test func theShippedScenariosRecordOnlyDeclaredEvents() throws {
    let folder = Self.repository.appendingPathComponent("Scenarios")
    let files = FileManager.default.enumerator(atPath: folder.path)!.compactMap { $0 as? String }
      .filter { $0.hasSuffix(".scenario.json") }.sorted()
    #expect(files.count >= 30)
    let declared = Dictionary(
      LoggedEvents.declarations.map { ("\($0.source).\($0.name)", $0.fields) },
      uniquingKeysWith: { a, _ in a })
    let catalog = AppCatalog.referenceApps
    var seen = Set<String>()
    for file in files {
      let run = try GeoSimTest.replay(folder.appendingPathComponent(file).path, catalog: catalog)
      let appEvents = Set(catalog.entry(run.scenario.app.name)?.events ?? [])
      for entry in run.log.entries {
        let key = "\(entry.source).\(entry.event)"
        seen.insert(key)
        if entry.payload is AppEvent {
          #expect(appEvents.contains(entry.event), "\(file): undeclared app event \(key)")
          continue
        }
        guard let fields = declared[key] else {
          Issue.record("\(file): undeclared event \(key)")
          continue
        }
        #expect(
          entry.fields.map(\.name) == fields,
          "\(file): \(key) carries \(entry.fields.map(\.name)), declared \(fields)")
      }
    }
    // The replays exercise the phone, the cloud and the timeline.
    for key in [
      "region.didEnterRegion", "notifications.delivered", "network.response", "ncmb.query",
    ] {
      #expect(seen.contains(key))
    }
  }

  func assemblyError(_ source: String, _ event: String) throws -> String? {
    var scenario = try Scenario(
      contentsOf: fixtures.appendingPathComponent("walk.scenario.json").path)
    scenario.expectations = [
      Replay.Expectation(
        name: "n",
        .count(source: source, event: event, fields: [:], min: 1, max: nil, from: nil, to: nil))
    ]
    do {
      _ = try World(scenario: scenario, catalog: .testing, resources: resources)
      return nil
    } catch let error as ScenarioError {
      return error.description
    }
  }

  @Test func aCountOfAnUnknownEventIsAnErrorNamingTheKnownOnes() throws {
    let error = try #require(try assemblyError("region", "didEnter"))
    #expect(error.contains("expectations[0].event"))
    #expect(error.contains("didEnterRegion, didExitRegion"))
    #expect(error.contains("got 'didEnter'"))
    let source = try #require(try assemblyError("regions", "didEnterRegion"))
    #expect(source.contains("expectations[0].source"))
    #expect(source.contains("got 'regions'"))
    #expect(try assemblyError("region", "didEnterRegion") == nil)
  }

  @Test func theAppsOwnEventsAreThoseItDeclares() throws {
    #expect(try assemblyError("app", "state") == nil)
    #expect(try assemblyError("app", "fix") == nil)
    let error = try #require(try assemblyError("app", "fixes"))
    #expect(error.contains("state, workDropped, fix"))
    #expect(error.contains("declares its own events when it is registered"))
  }
}
