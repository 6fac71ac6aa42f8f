import Foundation
import GeoSimTesting
import JSON
import ReferenceAppCatalog
import Replay
import Testing

@testable import GeoSimCLI

/// The built `geosim` binary, beside the test bundle.
let geosimBinary: URL = {
  let runner =
    (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe"))
    ?? CommandLine.arguments[0]
  return URL(fileURLWithPath: runner).deletingLastPathComponent().appendingPathComponent("geosim")
}()

/// Runs the built binary and captures its exit code and both streams; `environment` adds to
/// (or replaces) variables of this process's environment.
func geosim(
  _ arguments: [String], in directory: URL, input: String? = nil,
  environment: [String: String] = [:]
) throws -> (code: Int32, out: String, err: String) {
  let process = Process()
  process.executableURL = geosimBinary
  process.arguments = arguments
  process.currentDirectoryURL = directory
  if !environment.isEmpty {
    process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
  }
  let out = Pipe()
  let err = Pipe()
  process.standardOutput = out
  process.standardError = err
  let stdin = Pipe()
  process.standardInput = stdin
  try process.run()
  stdin.fileHandleForWriting.write(Data((input ?? "").utf8))
  try stdin.fileHandleForWriting.close()
  // Read both before waiting: a full pipe would block the child. The group's wait orders the
  // reader's write of `errData` before the read below.
  nonisolated(unsafe) var errData = Data()
  let reader = DispatchGroup()
  DispatchQueue.global().async(group: reader) {
    errData = err.fileHandleForReading.readDataToEndOfFile()
  }
  let outData = out.fileHandleForReading.readDataToEndOfFile()
  process.waitUntilExit()
  reader.wait()
  return (
    process.terminationStatus, String(decoding: outData, as: UTF8.self),
    String(decoding: errData, as: UTF8.self)
  )
}

/// A fresh folder holding scenarios written from `documents` (name → JSON text).
func folder(_ documents: [String: String]) throws -> URL {
  let url = try scratchFolder("replay")
  for (name, text) in documents {
    try Data(text.utf8).write(to: url.appendingPathComponent(name))
  }
  return url
}

/// A weather widget launched at Tokyo Station, with expectations given by the caller.
private func weather(name: String, variant: String, expect: String = "pass") -> String {
  """
  {"format": "geosim-scenario/1", "name": "\(name)", "expect": "\(expect)", "seed": 3,
   "start": "2026-04-01T08:00:00+09:00", "duration": 120,
   "device": {"promptAnswers": {"location": ["allowWhileUsing"]}},
   "app": {"name": "WeatherWidget", "variant": "\(variant)"},
   "trace": {"stationary": {"latitude": 35.681236, "longitude": 139.767125}},
   "timeline": [{"at": 0, "do": "launch"}],
   "expectations": [{"name": "never at (0, 0)", "expect": "noRequestNear", "latitude": 0, "longitude": 0},
                    {"expect": "noCrash"}]}
  """
}

@Suite(.serialized) struct ReplayCommandTests {
  @Test func aHealthyFolderExitsZeroWithOneLinePerScenario() throws {
    let dir = try folder([
      "a.scenario.json": weather(name: "weather-corrected", variant: "corrected"),
      "b.scenario.json": weather(
        name: "weather-published", variant: "as-published", expect: "fail"),
      "notes.json": "{}",
    ])
    let r = try geosim(["replay", ".", "--out", "out"], in: dir)
    #expect(r.code == 0, "\(r.err)")
    // A relative folder gives relative files: the report does not depend on the checkout.
    let result = try String(
      contentsOf: dir.appendingPathComponent("out/weather-corrected/result.json"), encoding: .utf8)
    #expect(result.contains(#""file":"./a.scenario.json""#))
    let lines = r.out.split(separator: "\n").map(String.init)
    try #require(lines.count == 3)
    #expect(lines[0] == "PASS  weather-corrected (2/2)")
    #expect(
      lines[1].hasPrefix("XFAIL weather-published (1/2): never at (0, 0): expected no request"))
    #expect(lines[2] == "2 scenario(s): 1 PASS, 1 XFAIL")
    let events = try String(
      contentsOf: dir.appendingPathComponent("out/weather-published/events.jsonl"), encoding: .utf8)
    #expect(events.contains("\"lat=0.0") || events.contains("lat=0"))
    let summary = try JSONValue(
      parsing: Data(contentsOf: dir.appendingPathComponent("out/results.json")))
    guard case .array(let results) = summary else {
      Issue.record("results.json is not an array")
      return
    }
    #expect(results.count == 2)
  }

  @Test func aScenarioOnStandardInputReplaysLikeItsFile() throws {
    let text = weather(name: "piped", variant: "corrected")
    let dir = try folder(["a.scenario.json": text])
    let piped = try geosim(["replay", "-", "--out", "piped"], in: dir, input: text)
    #expect(piped.code == 0, "\(piped.err)")
    #expect(piped.out.hasPrefix("PASS  piped (2/2)\n"))
    let file = try geosim(["replay", "a.scenario.json", "--out", "file"], in: dir)
    let events = ["piped", "file"].map {
      try? Data(contentsOf: dir.appendingPathComponent("\($0)/piped/events.jsonl"))
    }
    #expect(events[0] != nil && events[0] == events[1], "\(file.err)")
    let result = try String(
      contentsOf: dir.appendingPathComponent("piped/piped/result.json"), encoding: .utf8)
    #expect(result.contains(#""file":"<stdin>""#))
    // The copy the workers read is gone; only the reports are left.
    #expect(
      !FileManager.default.fileExists(
        atPath: dir.appendingPathComponent("piped/.standard-input.scenario.json").path))
  }

  @Test func aFailingScenarioExitsOne() throws {
    let dir = try folder(["a.scenario.json": weather(name: "w", variant: "as-published")])
    let r = try geosim(["replay", "a.scenario.json", "--out", "out", "--format", "json"], in: dir)
    #expect(r.code == 1)
    let value = try JSONValue(parsing: Data(r.out.utf8))
    guard case .array(let results) = value, let first = results.first,
      let result = ReplayResult(json: first)
    else {
      Issue.record("not a result array: \(r.out)")
      return
    }
    #expect(result.verdict == .fail)
    #expect(result.expectations[0].time != nil)
  }

  @Test func theSameSeedWritesTheSameBytes() throws {
    let dir = try folder(["a.scenario.json": weather(name: "w", variant: "corrected")])
    _ = try geosim(["replay", ".", "--out", "one"], in: dir)
    _ = try geosim(["replay", ".", "--out", "two"], in: dir)
    let three = try geosim(["replay", ".", "--out", "three", "--seed", "99"], in: dir)
    #expect(three.code == 0)
    func bytes(_ run: String, _ file: String) throws -> Data {
      try Data(contentsOf: dir.appendingPathComponent("\(run)/w/\(file)"))
    }
    #expect(try bytes("one", "events.jsonl") == bytes("two", "events.jsonl"))
    #expect(try bytes("one", "result.json") == bytes("two", "result.json"))
    #expect(try bytes("one", "report.json") == bytes("two", "report.json"))
    #expect(try bytes("one", "map.svg") == bytes("two", "map.svg"))
    #expect(
      try Data(contentsOf: dir.appendingPathComponent("one/report.json"))
        == Data(contentsOf: dir.appendingPathComponent("two/report.json")))
    #expect(
      try Data(contentsOf: dir.appendingPathComponent("one/index.html"))
        == Data(contentsOf: dir.appendingPathComponent("two/index.html")))
    #expect(try bytes("one", "events.jsonl") != bytes("three", "events.jsonl"))
  }

  @Test func aReplayAgainWithFewerRunsKeepsOnlyItsOwnRuns() throws {
    let dir = try folder(["a.scenario.json": weather(name: "w", variant: "corrected")])
    #expect(try geosim(["replay", ".", "--out", "again", "--runs", "3"], in: dir).code == 0)
    #expect(try geosim(["replay", ".", "--out", "again", "--runs", "2"], in: dir).code == 0)
    #expect(try geosim(["replay", ".", "--out", "fresh", "--runs", "2"], in: dir).code == 0)
    let runs = { (out: String) in
      try FileManager.default.contentsOfDirectory(
        atPath: dir.appendingPathComponent("\(out)/w/runs").path
      ).sorted()
    }
    #expect(try runs("again") == ["0", "1"])
    // The runs replayed again hold what a first replay writes, file for file.
    for run in ["0", "1"] {
      let files = { (out: String) in
        try FileManager.default.contentsOfDirectory(
          atPath: dir.appendingPathComponent("\(out)/w/runs/\(run)").path
        ).sorted()
      }
      #expect(try files("again") == files("fresh"))
      for file in try files("fresh") {
        #expect(
          try Data(contentsOf: dir.appendingPathComponent("again/w/runs/\(run)/\(file)"))
            == Data(contentsOf: dir.appendingPathComponent("fresh/w/runs/\(run)/\(file)")),
          "runs/\(run)/\(file)")
      }
    }
    // And a replay of one run leaves none.
    #expect(try geosim(["replay", ".", "--out", "again", "--runs", "1"], in: dir).code == 0)
    #expect(
      !FileManager.default.fileExists(atPath: dir.appendingPathComponent("again/w/runs").path))
  }

  @Test func aReplayAgainWithAnotherSeedReportsItsOwnResults() throws {
    let dir = try folder(["a.scenario.json": weather(name: "w", variant: "corrected")])
    for (out, seed) in [("again", "1"), ("again", "2"), ("fresh", "2")] {
      let replay = try geosim(["replay", ".", "--out", out, "--seed", seed], in: dir)
      #expect(replay.code == 0, "\(out) --seed \(seed): \(replay.out)\(replay.err)")
    }
    for file in ["results.json", "w/result.json", "w/report.json", "w/events.jsonl"] {
      let again = try Data(contentsOf: dir.appendingPathComponent("again/\(file)"))
      #expect(
        again == (try Data(contentsOf: dir.appendingPathComponent("fresh/\(file)"))), "\(file)")
      #expect(
        String(decoding: again, as: UTF8.self).contains("\"seed\":\"2\"")
          || file.hasSuffix(".jsonl"))
    }
  }

  @Test func badInputExitsTwoNamingTheFileAndPlaceAndReplaysNothing() throws {
    let good = weather(name: "good", variant: "corrected")
    let bad = weather(name: "bad", variant: "corrected")
      .replacingOccurrences(of: "\"duration\": 120", with: "\"duration\": \"long\"")
    let dir = try folder(["good.scenario.json": good, "bad.scenario.json": bad])
    // A previous run's pages are not left beside the report of this one.
    try FileManager.default.createDirectory(
      at: dir.appendingPathComponent("out"), withIntermediateDirectories: true)
    try Data("[]".utf8).write(to: dir.appendingPathComponent("out/results.json"))
    let r = try geosim(["replay", ".", "--out", "out"], in: dir)
    #expect(r.code == 2)
    #expect(
      !FileManager.default.fileExists(atPath: dir.appendingPathComponent("out/results.json").path))
    #expect(
      r.err.contains(
        "bad.scenario.json:2:52: duration: expected a number of seconds, found a string"))
    // Nothing ran: the run's report lists only the scenario that could not be read.
    #expect(!FileManager.default.fileExists(atPath: dir.appendingPathComponent("out/good").path))
    let report = try String(
      contentsOf: dir.appendingPathComponent("out/report.md"), encoding: .utf8)
    #expect(report.contains("1 scenario(s): 1 INVALID"))
    #expect(report.contains("duration: expected a number of seconds"))
    let v = try geosim(["validate", "."], in: dir)
    #expect(v.code == 2)
    #expect(v.out.hasSuffix("good.scenario.json\n") && v.out.hasPrefix("ok "))
  }

  @Test func anUnknownAppAndADuplicateNameAreBadInput() throws {
    let dir = try folder([
      "a.scenario.json": weather(name: "same", variant: "corrected"),
      "b.scenario.json": weather(name: "same", variant: "corrected"),
      "c.scenario.json": weather(name: "c", variant: "corrected")
        .replacingOccurrences(of: "WeatherWidget", with: "Weather"),
    ])
    let r = try geosim(["validate", "."], in: dir)
    #expect(r.code == 2)
    #expect(r.err.contains("b.scenario.json: name: the name 'same' is also used by"))
    #expect(
      r.err.contains("c.scenario.json: app.name: no app called 'Weather' (known: ArrivalAlarm"))
  }

  @Test func aPathOutsideTheFolderNamesTheOptionThatAllowsIt() throws {
    let dir = try folder([
      "a.scenario.json": weather(name: "a", variant: "corrected")
        .replacingOccurrences(
          of: #""trace": {"stationary": {"latitude": 35.681236, "longitude": 139.767125}}"#,
          with: #""gazetteer": "/etc/hostname""#)
    ])
    let r = try geosim(["validate", "."], in: dir)
    #expect(r.code == 2)
    #expect(
      r.err.contains(
        "paths outside the scenario's folder are not allowed (allow them with "
          + "--allow-outside-paths)\n"))
  }

  @Test func usageMistakesExitTwo() throws {
    let dir = try folder([:])
    #expect(try geosim(["replay"], in: dir).code == 2)
    #expect(
      try geosim(["replay", "missing"], in: dir).err
        == "geosim replay: no such file or folder: missing\n")
    #expect(
      try geosim(["replay", "."], in: dir).err == "geosim replay: no *.scenario.json files in .\n")
    #expect(try geosim(["replay", ".", "--jobs", "0"], in: dir).code == 2)
  }
}

/// The run's report is built from what each worker wrote; a worker's report that is there but
/// damaged is an error naming its place, not a scenario with made-up members.
@Suite struct RunReportReadingTests {
  @Test func aDamagedScenarioReportIsAnErrorNamingTheFileLineColumnAndPath() throws {
    let out = try folder([:])
    let scenario = out.appendingPathComponent("s")
    try FileManager.default.createDirectory(at: scenario, withIntermediateDirectories: true)
    // The worker's report, its expectation's `passed` damaged into a string.
    try Data(
      """
      {"format": "geosim-scenario-report/1", "status": "complete", "verdict": "pass",
       "scenario": {"name": "s", "file": null, "expectedOutcome": "pass"},
       "expectations": [{"name": "e", "kind": "noCrash", "passed": "yes", "message": "m"}],
       "timelineErrors": [], "traceIssues": [], "pendingWork": [], "crash": null, "error": null}
      """.utf8
    ).write(to: scenario.appendingPathComponent("report.json"))
    try Data("## s\n".utf8).write(to: scenario.appendingPathComponent("report.md"))
    let result = try #require(
      ReplayResult(
        json: .object([
          "scenario": .string("s"), "seed": .string("1"), "expectedOutcome": .string("pass"),
          "expectations": .array([]), "timelineErrors": .array([]), "traceIssues": .array([]),
          "eventCount": .number(0), "pendingWork": .array([]),
        ])))
    let file = scenario.appendingPathComponent("report.json").path
    do {
      let entry = try ReplayCommand.entry(
        for: result, in: out, inputs: ScenarioInputs(files: [], standardInput: nil),
        allowOutside: false)
      Issue.record("read a damaged report as \(entry.json.jsonText)")
    } catch {
      #expect(
        "\(error)" == "\(file):3:62: expectations[0].passed: expected true or false, found a string"
      )
    }
  }
}

/// A worker that dies is that scenario's crash, not the run's: the pool reports it with the
/// worker's message and the last events, and starts a new worker for the rest of the batch.
@Suite struct WorkerPoolTests {
  @Test func aTrapInOneScenarioLeavesTheOthersRunning() throws {
    let dir = try folder([
      "a.scenario.json": weather(name: "first", variant: "corrected"),
      "b.scenario.json": weather(name: "trapping", variant: "corrected"),
      "c.scenario.json": weather(name: "third", variant: "corrected"),
    ])
    // A stand-in worker: it takes the units as a worker does, one JSON line at a time, and
    // hands each to a real worker, except "trapping": for that one it streams two events,
    // prints what the Swift runtime prints for a force-unwrapped nil, and dies of SIGILL.
    let script = dir.appendingPathComponent("worker.sh")
    try """
    #!/bin/sh
    out="$3"  # replay-worker --out DIR --units-on-request ...
    while IFS= read -r unit; do
      case "$unit" in
        *b.scenario.json*)
          mkdir -p "$out/trapping"
          printf '{"seq":0}\\n{"seq":1}\\n' > "$out/trapping/events.jsonl"
          echo "Fatal error: Unexpectedly found nil while unwrapping an Optional value" >&2
          kill -ILL $$ ;;
        *) printf '%s\\n' "$unit" | env -u GEOSIM_WORKER_PARENT "\(geosimBinary.path)" \\
             replay-worker --out "$out" --units-on-request || exit $? ;;
      esac
    done
    """.write(to: script, atomically: true, encoding: .utf8)
    try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: script.path)
    let pool = WorkerPool(
      executable: script.path, out: dir.appendingPathComponent("out"), seed: nil,
      allowOutside: false)
    let scenarios = ["a", "b", "c"].map { name in
      WorkerPool.Unit(
        file: dir.appendingPathComponent("\(name).scenario.json").path,
        name: ["a": "first", "b": "trapping", "c": "third"][name]!, run: nil)
    }
    // An earlier replay's files: the crashed scenario's must not look like this one's.
    let out = dir.appendingPathComponent("out")
    for file in ["trapping/index.html", "trapping/map.svg", "trapping/result.json"] {
      try ReportWriter.write("old\n", to: out.appendingPathComponent(file))
    }
    let progress = Progress(
      total: 3, terminal: Terminal(readLine: { nil }, write: { _ in }, writeError: { _ in }))
    let results = try pool.run(scenarios, jobs: 1, progress: progress)
    try #require(results.count == 3)
    #expect(results.map(\.verdict) == [.pass, .crash, .pass])
    for file in ["index.html", "map.svg"] {
      #expect(
        !FileManager.default.fileExists(
          atPath: out.appendingPathComponent("trapping/\(file)").path),
        "\(file)")
    }
    let written = try JSONFile(out.appendingPathComponent("trapping/result.json").path)
    #expect(ReplayResult(json: written.root)?.verdict == .crash)
    let crash = try #require(results[1].crash)
    #expect(
      crash.reason
        == "signal 4 (SIGILL): Fatal error: Unexpectedly found nil while unwrapping an Optional value"
    )
    #expect(crash.lastEvents == [#"{"seq":0}"#, #"{"seq":1}"#])
    #expect(results[1].scenario == "trapping" && results[1].file == scenarios[1].file)
    #expect(ReplayCommand.line(for: results[1]).hasPrefix("CRASH trapping: crashed: signal 4"))
  }

  @Test func aWorkerAnswersEachUnitItIsSentAndRefusesALineThatIsNone() throws {
    let dir = try folder(["a.scenario.json": weather(name: "short", variant: "corrected")])
    let worker = ["replay-worker", "--out", "out", "--units-on-request"]
    let r = try geosim(
      worker, in: dir, input: #"{"file": "a.scenario.json", "run": 1}"# + "\nnot json\n")
    #expect(r.out == "done\n", "the first unit is answered before the second line is read")
    #expect(r.code == 2)
    #expect(r.err.contains("the unit sent to this worker is not JSON"), "\(r.err)")
    #expect(
      FileManager.default.fileExists(
        atPath: dir.appendingPathComponent("out/short/runs/1/result.json").path))
    let wrongRun = try geosim(
      worker, in: dir, input: #"{"file": "a.scenario.json", "run": -1}"# + "\n")
    #expect(wrongRun.code == 2)
    #expect(wrongRun.err.contains("a whole number ≥ 0, got -1"), "\(wrongRun.err)")
    let sweepWorker = try geosim(
      ["sweep-worker", "--out", "out", "--units-on-request", "0"], in: dir)
    #expect(sweepWorker.code == 2)
    #expect(sweepWorker.err.contains("--units-on-request takes no indices"), "\(sweepWorker.err)")
  }

  /// A pool of the real worker, started through a script that notes each start in `starts`,
  /// with a unit for each of `names` (a passing scenario each).
  private func countedPool(_ names: [String]) throws -> (
    pool: WorkerPool, units: [WorkerPool.Unit], progress: GeoSimCLI.Progress,
    starts: () throws -> String
  ) {
    var files: [String: String] = [:]
    for name in names { files["\(name).scenario.json"] = weather(name: name, variant: "corrected") }
    let dir = try folder(files)
    let script = dir.appendingPathComponent("worker.sh")
    try """
    #!/bin/sh
    echo start >> "\(dir.path)/starts"
    exec "\(geosimBinary.path)" "$@"
    """.write(to: script, atomically: true, encoding: .utf8)
    try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: script.path)
    let pool = WorkerPool(
      executable: script.path, out: dir.appendingPathComponent("out"), seed: nil,
      allowOutside: false)
    let units = names.map { name in
      WorkerPool.Unit(
        file: dir.appendingPathComponent("\(name).scenario.json").path, name: name, run: nil)
    }
    let progress = Progress(
      total: units.count,
      terminal: Terminal(readLine: { nil }, write: { _ in }, writeError: { _ in }))
    let starts = {
      try String(contentsOf: dir.appendingPathComponent("starts"), encoding: .utf8)
    }
    return (pool, units, progress, starts)
  }

  @Test func eachWorkerTakesUnitAfterUnitSoResourcesLoadOncePerWorker() throws {
    let names = ["first", "second", "third", "fourth", "fifth"]
    let (pool, units, progress, starts) = try countedPool(names)
    let results = try pool.run(units, jobs: 2, progress: progress)
    #expect(results.map(\.scenario) == names)
    #expect(results.allSatisfy { $0.verdict == .pass })
    #expect(try starts() == "start\nstart\n", "one process per worker, not per unit or batch")
  }

  @Test func workersStartedBeforeTheUnitsAreKnownAreTheOnesThatRunThem() throws {
    let names = ["first", "second", "third"]
    let (pool, units, progress, starts) = try countedPool(names)
    // Three started, two run: the third is ended with nothing to do.
    let started = pool.start(3)
    let results = try pool.run(units, jobs: 2, progress: progress, started: started)
    started.end()
    #expect(results.map(\.scenario) == names)
    #expect(results.allSatisfy { $0.verdict == .pass })
    #expect(try starts() == "start\nstart\nstart\n", "no worker but those started beforehand")
    // Workers started for a replay that then refuses its input are ended likewise.
    pool.start(2).end()
    #expect(try starts().count == 5 * "start\n".count)
  }
}

/// A replay that runs out of its event or time budget is reported as TIMEOUT, not as a crash.
@Suite(.serialized) struct BudgetCommandTests {
  @Test func aReplayPastItsEventBudgetIsATimeoutWithItsReasonInEveryReport() throws {
    let dir = try folder(["a.scenario.json": weather(name: "short", variant: "corrected")])
    let r = try geosim(
      ["replay", "a.scenario.json", "--out", "out", "--event-limit", "5"], in: dir)
    #expect(r.code == 1)
    #expect(r.out.hasPrefix("TIMEOUT short: stopped at "))
    #expect(r.out.contains("after 5 kernel events, its event budget"))
    #expect(r.out.hasSuffix("1 scenario(s): 1 TIMEOUT\n"))
    let report = try JSONFile(dir.appendingPathComponent("out/short/report.json").path)
    guard case .object(let o) = report.root, case .object(let timeout)? = o["timeout"] else {
      Issue.record("no timeout in report.json")
      return
    }
    #expect(o["status"] == .string("timedOut") && o["verdict"] == .string("timeout"))
    #expect(o["crash"] == .null && o["geofence"] == .null)
    #expect(timeout["reason"]?.jsonText.contains("kernel events") == true)
    let junit = try String(contentsOf: dir.appendingPathComponent("out/junit.xml"), encoding: .utf8)
    #expect(junit.contains(#"type="timeout""#))
    #expect(junit.contains(#"errors="1""#))
  }

  @Test func aWorkerPastItsTimeLimitStopsAndTheRestRunInANewOne() throws {
    let dir = try folder([
      "a.scenario.json": weather(name: "first", variant: "corrected"),
      "b.scenario.json": weather(name: "second", variant: "corrected"),
    ])
    let r = try geosim(
      [
        "replay", "a.scenario.json", "b.scenario.json", "--out", "out", "--jobs", "1",
        "--time-limit", "0.000001",
      ], in: dir)
    #expect(r.code == 1)
    #expect(r.out.contains("TIMEOUT first: first took more than "))
    #expect(r.out.contains(" s of host time (--time-limit)"))
    #expect(r.out.contains("TIMEOUT second: "))
    #expect(!r.out.contains("CRASH"))
  }

  @Test func aBudgetMustBePositive() throws {
    let dir = try folder(["a.scenario.json": weather(name: "short", variant: "corrected")])
    for option in [["--event-limit", "0"], ["--time-limit", "0"], ["--time-limit", "nan"]] {
      let r = try geosim(["replay", "a.scenario.json", "--out", "out"] + option, in: dir)
      #expect(r.code == 2, "\(option)")
      #expect(r.err.contains(option[0]), "\(r.err)")
    }
  }

  @Test func aSweepCountsTimeoutsApartFromCrashes() throws {
    let dir = try folder(["a.scenario.json": weather(name: "short", variant: "corrected")])
    let r = try geosim(
      ["sweep", "a.scenario.json", "--vary", "seed=1..2", "--out", "out", "--event-limit", "5"],
      in: dir)
    #expect(r.code == 0, "\(r.err)")
    #expect(r.out.contains("| runs | healthy | crashes | timeouts |"))
    #expect(r.out.contains("| 2 | 0 | 0 | 2 |"), "\(r.out)")
    let run = try JSONFile(dir.appendingPathComponent("out/runs/0.json").path)
    guard case .object(let o) = run.root else { return }
    #expect(o["verdict"] == .string("timeout") && o["crash"] == .null)
    let merged = try geosim(["merge", "out", "--out", "merged"], in: dir)
    #expect(merged.code == 0, "\(merged.err)")
  }
}

/// A worker that cannot write its output ends the run with the reason; it is not a crash.
@Suite struct OutputFailureTests {
  #if os(Linux)
    @Test func aWorkerThatCannotWriteItsEventsSaysSoAndEndsWithItsOwnStatus() throws {
      let dir = try folder(["a.scenario.json": weather(name: "full", variant: "corrected")])
      let scenario = dir.appendingPathComponent("out/full")
      try FileManager.default.createDirectory(at: scenario, withIntermediateDirectories: true)
      try FileManager.default.createSymbolicLink(
        atPath: scenario.appendingPathComponent("events.jsonl").path,
        withDestinationPath: "/dev/full")
      let worker = try geosim(["replay-worker", "--out", "out", "a.scenario.json"], in: dir)
      #expect(worker.code == 4)
      #expect(worker.err.hasPrefix("geosim replay-worker: cannot write /"))
      #expect(worker.err.hasSuffix("/out/full/events.jsonl: No space left on device\n"))
    }
  #endif

  @Test func theToolStopsTheRunWhenAWorkerCannotWrite() throws {
    let dir = try folder(["a.scenario.json": weather(name: "w", variant: "corrected")])
    let script = dir.appendingPathComponent("worker.sh")
    try """
    #!/bin/sh
    echo "geosim replay-worker: cannot write out/w/report.json: No space left on device" >&2
    exit 4
    """.write(to: script, atomically: true, encoding: .utf8)
    try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: script.path)
    let pool = WorkerPool(
      executable: script.path, out: dir.appendingPathComponent("out"), seed: nil,
      allowOutside: false)
    let progress = Progress(
      total: 1, terminal: Terminal(readLine: { nil }, write: { _ in }, writeError: { _ in }))
    #expect {
      _ = try pool.run(
        [.init(file: dir.appendingPathComponent("a.scenario.json").path, name: "w", run: nil)],
        jobs: 1,
        progress: progress)
    } throws: { error in
      "\(error)" == "geosim replay-worker: cannot write out/w/report.json: No space left on device"
    }
  }
}

/// The benchmark's walk is a real replay: the alarm rings at the end of the hour.
@Test func theBenchmarkWalkRingsOnArrival() throws {
  let run = try ScenarioRun(
    ReplayBenchSuite.hourWalk(), catalog: .referenceApps, resources: ReplayResources())
  #expect(run.result.passed, "\(run.result.expectations.map(\.message))")
  #expect(run.world.trueSamples.count > 3_500)
}

/// `geosim sweep` and `geosim merge` through the built binary.
@Suite(.serialized) struct SweepCommandTests {
  let alarm = """
    {"format": "geosim-scenario/1", "name": "alarm", "seed": 1,
     "start": "2026-04-01T08:00:00+09:00", "duration": 900,
     "device": {"promptAnswers": {"notifications": ["allow"], "location": ["allowWhileUsing"]}},
     "app": {"name": "ArrivalAlarm", "variant": "corrected",
             "configuration": {"destination": {"latitude": 35.6285, "longitude": 139.7388}, "radius": 200}},
     "trace": {"waypoints": [{"latitude": 35.665498, "longitude": 139.75964},
                             {"latitude": 35.6285, "longitude": 139.7388, "dwell": 120}], "speed": "car"},
     "timeline": [{"at": 0, "do": "launch"}, {"at": 10, "do": "tapButton", "button": "pin"},
                  {"at": 20, "do": "background"}],
     "expectations": [{"expect": "notificationAfterEntry", "identifierPrefix": "arrival",
                       "region": {"latitude": 35.6285, "longitude": 139.7388, "radius": 200}, "within": 120}]}
    """

  @Test func aSweepRemovesOnlyTheRunsItWrote() throws {
    let dir = try folder(["alarm.scenario.json": alarm])
    let runs = dir.appendingPathComponent("out/runs")
    try FileManager.default.createDirectory(at: runs, withIntermediateDirectories: true)
    try Data("keep\n".utf8).write(to: runs.appendingPathComponent("notes.txt"))
    try Data("{}".utf8).write(to: runs.appendingPathComponent("7.json"))
    // An old run's report folder, one holding a file of the user's, one a folder of theirs
    // named like a report file.
    for file in ["7/index.html", "7/a/report.md", "8/index.html", "8/mine.txt", "9/report.md/x"] {
      let url = runs.appendingPathComponent(file)
      try FileManager.default.createDirectory(
        at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
      try Data("old\n".utf8).write(to: url)
    }
    let r = try geosim(
      ["sweep", "alarm.scenario.json", "--vary", "seed=1..2", "--out", "out"], in: dir)
    #expect(r.code == 0, "\(r.err)")
    let left = try FileManager.default.contentsOfDirectory(atPath: runs.path).sorted()
    #expect(left == ["0.json", "1.json", "8", "9", "notes.txt"])
    #expect(try FileManager.default.contentsOfDirectory(atPath: runs.path + "/8") == ["mine.txt"])
    #expect(
      try FileManager.default.contentsOfDirectory(atPath: runs.path + "/9/report.md") == ["x"])
  }

  /// A point's `runs/<i>.json` is rewritten in place by the next sweep into the same folder,
  /// not replaced by a new file: the same file, with this sweep's run in it.
  @Test func aSweepAgainRewritesItsPointsFilesInPlace() throws {
    let dir = try folder(["alarm.scenario.json": alarm])
    let sweep = ["sweep", "alarm.scenario.json", "--vary", "seed=1..2", "--out", "out"]
    let first = try geosim(sweep, in: dir)
    #expect(first.code == 0, "\(first.err)")
    let file = dir.appendingPathComponent("out/runs/1.json").path
    func number() throws -> Int? {
      try FileManager.default.attributesOfItem(atPath: file)[.systemFileNumber] as? Int
    }
    let before = try #require(try number())
    // Longer than the run: the file is written over and cut, not emptied first.
    let stale = "stale " + String(repeating: "x", count: 20_000) + "\n"
    try Data(stale.utf8).write(to: URL(fileURLWithPath: file), options: [])
    #expect(try number() == before)
    let second = try geosim(sweep, in: dir)
    #expect(second.code == 0, "\(second.err)")
    #expect(second.out == first.out)
    #expect(try number() == before)
    let run = try JSONFile(file)
    #expect(run.root.jsonText.hasPrefix("{"), "the stale text is gone")
    let size = try FileManager.default.attributesOfItem(atPath: file)[.size] as? Int
    #expect(size == run.root.jsonText.utf8.count + 1, "nothing of the stale text is left after it")
  }

  @Test func shardsMergeIntoTheWholeSweep() throws {
    let dir = try folder(["alarm.scenario.json": alarm])
    let vary = [
      "--vary", "app.configuration.radius,expectations[0].region.radius=150,300",
      "--vary", "trace.speed=car,walk", "--vary", "seed=1..3",
    ]
    let whole = try geosim(["sweep", "alarm.scenario.json", "--out", "whole"] + vary, in: dir)
    #expect(whole.code == 0, "\(whole.err)")
    #expect(whole.out.contains("| 150 | car | 3 |"))
    for i in 1...2 {
      let shard = try geosim(
        ["sweep", "alarm.scenario.json", "--out", "s\(i)", "--shard", "\(i)/2"] + vary, in: dir)
      #expect(shard.code == 0, "\(shard.err)")
    }
    let partial = try geosim(["merge", "s1", "--out", "partial"], in: dir)
    #expect(partial.code == 1)
    #expect(partial.err.contains("6 of 12 point(s) missing: 1, 3, 5"))
    let merged = try geosim(["merge", "s1", "s2", "--out", "merged"], in: dir)
    #expect(merged.code == 0, "\(merged.err)")
    #expect(
      try Data(contentsOf: dir.appendingPathComponent("whole/sweep.json"))
        == Data(contentsOf: dir.appendingPathComponent("merged/sweep.json")))
    for file in ["sweep.md", "sensitivity.svg", "latency.svg", "index.html", "runs/11.json"] {
      #expect(
        FileManager.default.fileExists(atPath: dir.appendingPathComponent("whole/\(file)").path))
    }
    // The failing runs' folders come along into the merge, so that its links resolve there.
    let folders = try runFolders(in: dir.appendingPathComponent("merged"))
    #expect(!folders.isEmpty)
    for folder in folders {
      for file in ["report.md", "index.html", "alarm/report.md"] {
        #expect(
          FileManager.default.fileExists(
            atPath: dir.appendingPathComponent("merged/\(folder)/\(file)").path), "\(folder)")
      }
    }
  }

  /// The report folders the groups of `out/sweep.json` link to.
  func runFolders(in out: URL) throws -> [String] {
    let sweep = try JSONValue(parsing: Data(contentsOf: out.appendingPathComponent("sweep.json")))
    guard case .object(let members) = sweep, case .array(let groups)? = members["groups"] else {
      return []
    }
    return groups.flatMap { group -> [String] in
      guard case .object(let g) = group, case .array(let open)? = g["runsToOpen"] else {
        return []
      }
      return open.compactMap { run in
        guard case .object(let r) = run, case .string(let folder)? = r["folder"] else {
          return nil
        }
        return folder
      }
    }
  }

  @Test func aFailingRunsReportFolderIsWrittenAndLinked() throws {
    let dir = try folder(["alarm.scenario.json": alarm])
    // Within a second of the entry no notification can have arrived: the expectation fails.
    let r = try geosim(
      ["sweep", "alarm.scenario.json", "--vary", "expectations[0].within=1,120", "--out", "out"],
      in: dir)
    #expect(r.code == 0, "\(r.err)")
    let out = dir.appendingPathComponent("out")
    #expect(try runFolders(in: out) == ["runs/0"])
    for file in ["runs/0/report.md", "runs/0/index.html", "runs/0/alarm/report.md"] {
      #expect(
        FileManager.default.fileExists(atPath: out.appendingPathComponent(file).path), "\(file)")
    }
    #expect(!FileManager.default.fileExists(atPath: out.appendingPathComponent("runs/1").path))
    let markdown = try String(contentsOf: out.appendingPathComponent("sweep.md"), encoding: .utf8)
    #expect(markdown.contains("[0](runs/0/report.md)"))
    // The next sweep clears them; with --run-reports none it writes none.
    let again = try geosim(
      [
        "sweep", "alarm.scenario.json", "--vary", "expectations[0].within=1,120", "--out", "out",
        "--run-reports", "none",
      ], in: dir)
    #expect(again.code == 0, "\(again.err)")
    #expect(!FileManager.default.fileExists(atPath: out.appendingPathComponent("runs/0").path))
    #expect(try runFolders(in: out).isEmpty)
  }

  @Test func aMergeIntoOneOfItsShardsReadsItBeforeWritingIt() throws {
    let dir = try folder(["alarm.scenario.json": alarm])
    for i in 1...2 {
      let shard = try geosim(
        [
          "sweep", "alarm.scenario.json", "--out", "s\(i)", "--shard", "\(i)/2", "--vary",
          "seed=1..4",
        ],
        in: dir)
      #expect(shard.code == 0, "\(shard.err)")
    }
    let merged = try geosim(["merge", "s1", "s2", "--out", "s1"], in: dir)
    #expect(merged.code == 0, "\(merged.err)")
    let sweep = try JSONValue(
      parsing: Data(contentsOf: dir.appendingPathComponent("s1/sweep.json")))
    guard case .object(let members) = sweep, case .array(let runs)? = members["runs"] else {
      Issue.record("no runs in the merged sweep")
      return
    }
    #expect(runs.count == 4)
  }

  @Test func aWorkerWhoseToolHasEndedStopsAtOnce() throws {
    let dir = try folder(["alarm.scenario.json": alarm])
    let process = Process()
    process.executableURL = geosimBinary
    process.arguments = ["sweep-worker", "--out", dir.path, "0"]
    // Not this process: the tool that started the worker is gone.
    process.environment = ["GEOSIM_WORKER_PARENT": "1"]
    let err = Pipe()
    process.standardError = err
    try process.run()
    process.waitUntilExit()
    #expect(process.terminationStatus == 3)
    let message = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    #expect(message.contains("the tool that started this worker has ended"))
  }

  @Test func anOutputFolderIsWrittenByOneRunAtATime() throws {
    let dir = try folder(["alarm.scenario.json": alarm])
    let held = try OutputFolder(dir.appendingPathComponent("out"))
    let second = try geosim(
      ["sweep", "alarm.scenario.json", "--vary", "seed=1", "--out", "out"], in: dir)
    #expect(second.code == 2)
    #expect(second.err.contains("another run is writing to"), "\(second.err)")
    held.release()
    #expect(
      !FileManager.default.fileExists(atPath: dir.appendingPathComponent("out/.geosim-lock").path))
    let after = try geosim(
      ["sweep", "alarm.scenario.json", "--vary", "seed=1", "--out", "out"], in: dir)
    #expect(after.code == 0, "\(after.err)")
  }

  #if os(Linux)
    @Test func outputThatCannotBeWrittenIsAFailedCommand() throws {
      let process = Process()
      process.executableURL = geosimBinary
      process.arguments = ["trace", "synth", "--waypoints", "35,139;35.01,139"]
      process.standardOutput = try FileHandle(forWritingTo: URL(fileURLWithPath: "/dev/full"))
      let err = Pipe()
      process.standardError = err
      try process.run()
      process.waitUntilExit()
      #expect(process.terminationStatus == 1)
      let message = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
      #expect(message == "geosim: cannot write to standard output: No space left on device\n")
    }
  #endif

  @Test func aBadPointOrSpecificationIsBadInput() throws {
    let dir = try folder(["alarm.scenario.json": alarm])
    let negative = try geosim(
      ["sweep", "alarm.scenario.json", "--vary", "app.configuration.radius=200,-5"], in: dir)
    #expect(negative.code == 2)
    #expect(negative.err.hasPrefix("geosim sweep: point 1 (app.configuration.radius=-5): "))
    #expect(negative.err.contains("app.configuration.radius"))
    // The point is named, and the path in it: no line and column of text nobody sees.
    let duration = try geosim(["sweep", "alarm.scenario.json", "--vary", "duration=-5"], in: dir)
    #expect(duration.code == 2)
    #expect(
      duration.err.hasPrefix(
        "geosim sweep: point 0 (duration=-5): alarm.scenario.json [point 0 (duration=-5)]: "
          + "duration: expected"))
    let nowhere = try geosim(
      ["sweep", "alarm.scenario.json", "--vary", "timeline[9].at=1"], in: dir)
    #expect(nowhere.code == 2)
    let spec = try geosim(["sweep", "alarm.scenario.json", "--vary", "radius"], in: dir)
    #expect(spec.err.hasPrefix("Error: --vary 'radius': expected PATH=VALUE,VALUE,…\n"))
    for bad in ["3/2", "1/x/2", "0/2", "1/"] {
      let shard = try geosim(
        ["sweep", "alarm.scenario.json", "--vary", "seed=1", "--shard", bad], in: dir)
      #expect(shard.code == 2, "\(bad)")
    }
    let twice = try geosim(
      ["sweep", "alarm.scenario.json", "--vary", "seed=1,2", "--vary", "seed=3"], in: dir)
    #expect(twice.code == 2)
    #expect(twice.err.contains("is varied twice"))
  }

  /// A shard's run with a member out of its range is refused, naming the member, instead of
  /// trapping (1e19 crossings) or merging nonsense (999 of 2 detected, a passing crash).
  @Test(arguments: [
    // The run's own members, not its fences' of the same names (keys are sorted).
    (
      #""trueCrossings":\d+(?=,"values")"#, #""trueCrossings":1e19"#,
      "runs[0].trueCrossings: expected a whole"
    ),
    (
      #""detected":\d+(?=,"failedExpectations")"#, #""detected":999"#,
      "runs[0].detected: expected a whole"
    ),
    (
      #""falseTriggers":\d+(?=,"fences")"#, #""falseTriggers":-1"#,
      "runs[0].falseTriggers: expected a whole"
    ),
    (#""index":\d+"#, #""index":0.5"#, "runs[0].index: expected a whole index"),
    (
      #""index":0,"latencies":\["#, #""index":0,"latencies":[1e19,"#,
      "runs[0].latencies: expected seconds"
    ),
    (
      #""fences":\[\{"detected":\d+"#, #""fences":[{"detected":999"#,
      "runs[0].fences[0].detected: expected a whole"
    ),
    (
      #""failedExpectations":\[\]"#, #""failedExpectations":[1]"#,
      "runs[0].failedExpectations: expected an"
    ),
    (#""folder":null"#, #""folder":"../elsewhere""#, "runs[0].folder: expected null or \"runs/0\""),
    (#""verdict":"[a-z]+""#, #""verdict":"bogus""#, "runs[0].verdict: expected one of"),
    (#""crash":null"#, #""crash":"boom""#, "runs[0].crash: expected null for a"),
    (#""searchErrors":\d+"#, #""searchErrors":3"#, "runs[0].searchErrors: expected a whole"),
  ])
  func mergeRefusesARunOutOfRange(pattern: String, damaged: String, message: String) throws {
    let dir = try folder(["alarm.scenario.json": alarm])
    let sweep = try geosim(
      ["sweep", "alarm.scenario.json", "--vary", "seed=1", "--out", "s"], in: dir)
    #expect(sweep.code == 0, "\(sweep.err)")
    let file = dir.appendingPathComponent("s/sweep.json")
    let text = try String(contentsOf: file, encoding: .utf8)
    let runs = try #require(text.range(of: #""runs":["#))
    let target = try #require(text[runs.upperBound...].firstRange(of: try Regex(pattern)))
    try text.replacingCharacters(in: target, with: damaged)
      .write(to: file, atomically: true, encoding: .utf8)
    let merged = try geosim(["merge", "s", "--out", "m"], in: dir)
    #expect(merged.code == 2, "\(merged.err)")
    #expect(merged.err.contains("s/sweep.json:1:"), "\(merged.err)")
    #expect(merged.err.contains(message), "\(merged.err)")
  }

  @Test func mergeRefusesRunsThatAreNotPointsOfTheirGrid() throws {
    let dir = try folder(["alarm.scenario.json": alarm])
    let sweep = try geosim(
      ["sweep", "alarm.scenario.json", "--vary", "seed=1,2", "--out", "s"], in: dir)
    #expect(sweep.code == 0, "\(sweep.err)")
    let file = dir.appendingPathComponent("s/sweep.json")
    let text = try String(contentsOf: file, encoding: .utf8)
    try text.replacingOccurrences(of: #""index":1,"#, with: #""index":7,"#)
      .write(to: file, atomically: true, encoding: .utf8)
    let merged = try geosim(["merge", "s", "--out", "m"], in: dir)
    #expect(merged.code == 2)
    #expect(merged.err.contains("s/sweep.json:1:"))
    #expect(merged.err.contains(": runs[1]: a run that is not a point of its grid"))
    try Data(#"{"base": "a", "grid": 5, "runs": []}"#.utf8).write(to: file)
    let grid = try geosim(["merge", "s", "--out", "m"], in: dir)
    #expect(grid.code == 2)
    #expect(grid.err.contains("s/sweep.json:1:23: grid: a grid is an array"))
    try Data("{\"base\": \"a\",\n \"grid\": [],\n \"runs\": [],\n}".utf8).write(to: file)
    let comma = try geosim(["merge", "s", "--out", "m"], in: dir)
    #expect(comma.code == 2)
    #expect(
      comma.err.hasSuffix(
        "s/sweep.json:4:1: expected a member name after ',' (trailing commas are not allowed), "
          + "found '}'\n"))
  }
}

/// A test suite writes the same files, with the same contents, as the tool.
@Suite(.serialized) struct ReportsFromATestSuiteTests {
  /// Every file under `folder`, by path relative to it.
  private func files(under folder: URL) -> [String: Data] {
    let paths = FileManager.default.enumerator(atPath: folder.path)?.compactMap { $0 as? String }
    var files: [String: Data] = [:]
    for path in paths ?? [] {
      var isDirectory: ObjCBool = false
      let url = folder.appendingPathComponent(path)
      if FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory),
        !isDirectory.boolValue
      {
        files[path] = try? Data(contentsOf: url)
      }
    }
    return files
  }

  @Test func aReportFolderHoldsWhatReplayWrites() throws {
    let dir = try folder([
      "a.scenario.json": weather(name: "weather-corrected", variant: "corrected"),
      "b.scenario.json": weather(
        name: "weather-published", variant: "as-published", expect: "fail"),
    ])
    let scenarios = ["b", "a"].map { dir.appendingPathComponent("\($0).scenario.json").path }
    let cli = try geosim(
      ["replay"] + scenarios.reversed() + ["--out", dir.appendingPathComponent("cli").path],
      in: dir)
    #expect(cli.code == 0, "\(cli.err)")
    let reports = ReportFolder(dir.appendingPathComponent("suite").path)
    for path in scenarios {
      _ = try GeoSimTest.replay(path, catalog: .referenceApps, reports: reports)
    }
    let written = files(under: reports.url)
    let expected = files(under: dir.appendingPathComponent("cli"))
    #expect(written.keys.sorted() == expected.keys.sorted())
    #expect(written.keys.contains("weather-corrected/map.svg"))
    for (path, data) in expected {
      #expect(written[path] == data, "\(path) differs")
    }
  }

  @Test func aSweepFromATestIsTheToolsSweep() throws {
    let dir = try folder(["alarm.scenario.json": SweepCommandTests().alarm])
    let base = dir.appendingPathComponent("alarm.scenario.json").path
    let vary = ["app.configuration.radius,expectations[0].region.radius=150,300", "seed=1..3"]
    let cli = try geosim(
      ["sweep", base, "--out", dir.appendingPathComponent("cli").path]
        + vary.flatMap { ["--vary", $0] }, in: dir)
    #expect(cli.code == 0, "\(cli.err)")
    let report = try GeoSimTest.sweep(
      base, catalog: .referenceApps, vary: vary,
      reportsTo: dir.appendingPathComponent("suite").path)
    #expect(report.runs.count == 6 && report.isComplete)
    for file in ReportFiles.sweepFiles {
      let suite = try? Data(contentsOf: dir.appendingPathComponent("suite/\(file)"))
      let tool = try? Data(contentsOf: dir.appendingPathComponent("cli/\(file)"))
      #expect(suite != nil && suite == tool, "\(file) differs")
    }
  }
}
