import Foundation
import GeoSimTesting
import JSON
import ReferenceAppCatalog
import Replay
import Testing

/// The example scenario that asks for runs and judges a rate, from the source tree.
private let flakyLink = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
  .appendingPathComponent("Fixtures/weather-flaky-link.scenario.json")

/// A scratch folder holding the example as `s.scenario.json`, its text changed by `edit`.
private func flakyFolder(_ edit: (String) -> String = { $0 }) throws -> URL {
  let text = try String(contentsOf: flakyLink, encoding: .utf8)
  return try folder(["s.scenario.json": edit(text)])
}

/// The JSON file at `path` under `dir`.
private func json(_ dir: URL, _ path: String) throws -> JSONValue {
  try JSONValue(parsing: Data(contentsOf: dir.appendingPathComponent(path)))
}

/// `value` at the keys and indices of `path`.
private func at(_ value: JSONValue, _ path: JSONPath) -> JSONValue? {
  var node = value
  for component in path.components {
    switch (component, node) {
    case (.key(let k), .object(let o)):
      guard let next = o[k] else { return nil }
      node = next
    case (.index(let i), .array(let a)) where a.indices.contains(i): node = a[i]
    default: return nil
    }
  }
  return node
}

/// Every file under `root`, relative path → bytes.
private func files(under root: URL) -> [String: Data] {
  var result: [String: Data] = [:]
  let enumerator = FileManager.default.enumerator(atPath: root.path)
  while let path = enumerator?.nextObject() as? String {
    var isDirectory: ObjCBool = false
    let full = root.appendingPathComponent(path).path
    if FileManager.default.fileExists(atPath: full, isDirectory: &isDirectory),
      !isDirectory.boolValue
    {
      result[path] = FileManager.default.contents(atPath: full)
    }
  }
  return result
}

@Suite(.serialized) struct ReplayRunsCommandTests {
  @Test func aScenarioAskingForRunsReplaysEachWithItsOwnSeedAndJudgesItsRate() throws {
    let dir = try flakyFolder()
    let r = try geosim(["replay", "s.scenario.json", "--out", "out"], in: dir)
    #expect(r.code == 0, "\(r.err)")
    #expect(r.out.hasPrefix("PASS  weather-flaky-link (2/2) over 20 runs\n"), "\(r.out)")
    // Each run in its own folder, with its own seed: run 0 the scenario's own.
    var held = 0
    for i in 0..<20 {
      let result = try #require(
        ReplayResult(json: try json(dir, "out/weather-flaky-link/runs/\(i)/result.json")))
      #expect(result.seed == Scenario.runSeed(3, run: i))
      if result.expectations[0].passed { held += 1 }
      #expect(
        FileManager.default.fileExists(
          atPath: dir.appendingPathComponent("out/weather-flaky-link/runs/\(i)/events.jsonl").path))
    }
    // The link fails about half the requests: the forecast arrives in some runs only.
    #expect(held > 0 && held < 20)
    let report = try json(dir, "out/weather-flaky-link/report.json")
    let rate = try #require(at(report, ["runs", "rates", .index(0)]))
    #expect(at(rate, ["held"]) == .number(Double(held)))
    #expect(at(rate, ["runs"]) == .number(20))
    #expect(at(rate, ["atLeast"]) == .number(0.25))
    #expect(at(rate, ["passed"]) == .bool(Double(held) / 20 >= 0.25))
    guard case .number(let lower)? = at(rate, ["lower"]),
      case .number(let upper)? = at(rate, ["upper"])
    else {
      Issue.record("no interval in \(rate.jsonText)")
      return
    }
    #expect(lower < Double(held) / 20 && Double(held) / 20 < upper)
    #expect(at(report, ["runs", "count"]) == .number(20))
    #expect(at(report, ["runs", "passed"]) == .number(Double(held)))
    guard case .array(let failed)? = at(report, ["runs", "failed"]) else {
      Issue.record("no failed runs in \(report.jsonText)")
      return
    }
    #expect(failed.count == 20 - held)
    #expect(at(report, ["verdict"]) == .string("pass"))
    // Run 0's analyses stand for the runs; its figures are linked from the run's page.
    #expect(at(report, ["geofence"]) != nil && at(report, ["scenario", "seed"]) == .string("3"))
    let markdown = try String(
      contentsOf: dir.appendingPathComponent("out/report.md"), encoding: .utf8)
    #expect(markdown.contains("| weather-flaky-link | PASS | complete, 20 runs |"))
    let scenarioMarkdown = try String(
      contentsOf: dir.appendingPathComponent("out/weather-flaky-link/report.md"), encoding: .utf8)
    #expect(scenarioMarkdown.contains("| the forecast arrives | \(held) of 20 |"))
    #expect(scenarioMarkdown.contains("### Run 0 (seed 3, the scenario's own)"))
    let junit = try String(contentsOf: dir.appendingPathComponent("out/junit.xml"), encoding: .utf8)
    #expect(junit.contains("<system-out>held in \(held) of 20 runs ("))
    let html = try String(contentsOf: dir.appendingPathComponent("out/index.html"), encoding: .utf8)
    #expect(html.contains("95 % interval") && html.contains("weather-flaky-link/runs/0/"))
  }

  @Test func aRateBelowItsTargetFailsAndItsFailedRunReplaysAloneWithItsSeed() throws {
    let dir = try flakyFolder {
      $0.replacingOccurrences(of: #""atLeast": 0.25"#, with: #""atLeast": 0.95"#)
    }
    let r = try geosim(["replay", "s.scenario.json", "--out", "out"], in: dir)
    #expect(r.code == 1)
    #expect(
      r.out.hasPrefix("FAIL  weather-flaky-link (1/2) over 20 runs: the forecast arrives: held in ")
    )
    let report = try json(dir, "out/weather-flaky-link/report.json")
    #expect(at(report, ["runs", "rates", .index(0), "passed"]) == .bool(false))
    guard case .string(let seed)? = at(report, ["runs", "failed", .index(0), "seed"]),
      case .number(let run)? = at(report, ["runs", "failed", .index(0), "run"])
    else {
      Issue.record("no failed run in \(report.jsonText)")
      return
    }
    // The seed a report names replays that run, event for event.
    let alone = try geosim(
      ["replay", "s.scenario.json", "--out", "alone", "--runs", "1", "--seed", seed], in: dir)
    #expect(alone.code == 1)
    #expect(alone.out.hasPrefix("FAIL  weather-flaky-link (1/2): the forecast arrives: "))
    let events = ["out/weather-flaky-link/runs/\(Int(run))", "alone/weather-flaky-link"].map {
      FileManager.default.contents(atPath: dir.appendingPathComponent("\($0)/events.jsonl").path)
    }
    #expect(events[0] != nil && events[0] == events[1])
  }

  @Test func oneRunWritesWhatAReplayAlwaysWroteByteForByte() throws {
    let plain = { (text: String) in
      text.replacingOccurrences(of: "  \"runs\": 20,\n", with: "")
    }
    let without = try flakyFolder(plain)
    let one = try flakyFolder {
      plain($0).replacingOccurrences(
        of: "  \"seed\": 3,\n", with: "  \"seed\": 3,\n  \"runs\": 1,\n")
    }
    let overridden = try flakyFolder()
    let codes = [
      try geosim(["replay", "s.scenario.json", "--out", "out"], in: without).code,
      try geosim(["replay", "s.scenario.json", "--out", "out"], in: one).code,
      try geosim(["replay", "s.scenario.json", "--out", "out", "--runs", "1"], in: overridden).code,
    ]
    #expect(codes[0] <= 1 && codes.allSatisfy { $0 == codes[0] })
    let reference = files(under: without.appendingPathComponent("out"))
    #expect(reference.keys.contains("weather-flaky-link/events.jsonl"))
    #expect(!reference.keys.contains { $0.contains("runs/") })
    // A single run's report says it ran once: `runs` is null.
    #expect(
      (reference["weather-flaky-link/report.json"].map { String(decoding: $0, as: UTF8.self) }
        ?? "").contains("\"runs\":null"))
    #expect(files(under: one.appendingPathComponent("out")) == reference)
    #expect(files(under: overridden.appendingPathComponent("out")) == reference)
  }

  /// A worker batch mixing runs with a scenario replayed once passes that one's index as −1:
  /// it must reach the worker as a value, not as an option.
  @Test func aScenarioReplayedOnceBesideOneReplayedSeveralTimesIsReplayedNotRefused() throws {
    let text = try String(contentsOf: flakyLink, encoding: .utf8)
    let once = text.replacingOccurrences(of: "  \"runs\": 20,\n", with: "")
      .replacingOccurrences(of: "\"weather-flaky-link\"", with: "\"weather-once\"")
    let dir = try folder(["a.scenario.json": once, "b.scenario.json": text])
    let r = try geosim(
      ["replay", "a.scenario.json", "b.scenario.json", "--out", "out", "--jobs", "1"], in: dir)
    #expect(!r.out.contains("CRASH"), "\(r.out)")
    #expect(r.out.contains("weather-once ("), "\(r.out)")
    #expect(r.out.contains("weather-flaky-link (2/2) over 20 runs"), "\(r.out)")
  }

  @Test func fewerRunsRemoveTheFoldersOfTheRunsBefore() throws {
    let dir = try flakyFolder()
    #expect(
      try geosim(["replay", "s.scenario.json", "--out", "out", "--runs", "4"], in: dir).code >= 0)
    let runs = dir.appendingPathComponent("out/weather-flaky-link/runs")
    #expect(
      try FileManager.default.contentsOfDirectory(atPath: runs.path).sorted() == [
        "0", "1", "2", "3",
      ])
    #expect(
      try geosim(["replay", "s.scenario.json", "--out", "out", "--runs", "2"], in: dir).code >= 0)
    #expect(try FileManager.default.contentsOfDirectory(atPath: runs.path).sorted() == ["0", "1"])
    _ = try geosim(["replay", "s.scenario.json", "--out", "out", "--runs", "1"], in: dir)
    #expect(!FileManager.default.fileExists(atPath: runs.path))
    #expect(
      FileManager.default.fileExists(
        atPath: dir.appendingPathComponent("out/weather-flaky-link/events.jsonl").path))
  }

  @Test(arguments: ["0", "-1", "10001", "2.5", "many"])
  func aBadNumberOfRunsOnTheCommandLineIsAUsageError(value: String) throws {
    let dir = try flakyFolder()
    let r = try geosim(["replay", "s.scenario.json", "--out", "out", "--runs", value], in: dir)
    #expect(r.code == 2)
    #expect(r.err.contains("--runs") || r.err.contains("runs"), "\(r.err)")
    #expect(
      !FileManager.default.fileExists(
        atPath: dir.appendingPathComponent("out/weather-flaky-link").path))
  }

  @Test func aBadNumberOfRunsInTheFileIsNamedWithItsPlace() throws {
    let dir = try flakyFolder {
      $0.replacingOccurrences(of: #""runs": 20"#, with: #""runs": 0.5"#)
    }
    let r = try geosim(["replay", "s.scenario.json", "--out", "out"], in: dir)
    #expect(r.code == 2)
    #expect(
      r.err.contains(
        "s.scenario.json:7:11: runs: expected a whole number of runs from 1 to 10000, found 0.5"),
      "\(r.err)")
  }
}

/// A suite replays a scenario's runs in process with the tool's seeds and verdict.
@Test func runsReplayedInATestGiveTheToolsVerdictAndShares() throws {
  let dir = try flakyFolder()
  let file = dir.appendingPathComponent("s.scenario.json").path
  let inProcess = try GeoSimTest.replayRuns(file, catalog: .referenceApps, runs: 8)
  let tool = try geosim(["replay", "s.scenario.json", "--out", "out", "--runs", "8"], in: dir)
  let report = try json(dir, "out/weather-flaky-link/report.json")
  #expect(
    inProcess.verdict.rawValue
      == (at(report, ["verdict"]).flatMap {
        if case .string(let s) = $0 { s } else { nil }
      } ?? ""), "\(tool.err)")
  let runs = try #require(inProcess.runs)
  #expect(runs.count == 8)
  #expect(
    at(report, ["runs", "rates", .index(0), "held"])
      == .number(Double(runs.rates[0].share.successes)))
  #expect(at(report, ["runs", "failed"]) == at(runs.json, ["failed"]))
  #expect(throws: ScenarioError.self) {
    try GeoSimTest.replayRuns(file, catalog: .referenceApps, runs: 0)
  }
}
