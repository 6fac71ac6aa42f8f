import Foundation
import JSON
import ReferenceAppCatalog
import Replay
import Reporting
import SimKernel

#if canImport(Glibc)
  import Glibc
#endif

/// `geosim replay` and `geosim validate`: scenario documents in, judged replays out.
///
/// Each scenario runs in a worker process (`geosim replay-worker`), a batch of scenarios per
/// worker and as many workers as cores, so that an app model that traps ends only its own
/// scenario: the parent reports it as a crash with the last events before it and starts a new
/// worker for the rest of the batch.
enum ReplayCommand {
  static let usage = """
    geosim replay <scenario or folder>... [--seed N] [--out DIR] [--format text|json]
                  [--jobs N] [--allow-outside-paths]
      replays each scenario (folders: every *.scenario.json inside, recursively), several at
      once in worker processes, and prints one line per scenario: PASS, FAIL, CRASH, XFAIL (a
      scenario marked "expect": "fail" that failed, as it should) or XPASS (one that did not).
      Writes <out>/<name>/events.jsonl and result.json and <out>/results.json (default out:
      Reports/replay). Exit code 0 when every verdict is PASS or XFAIL, 1 otherwise, 2 when a
      scenario cannot be read or assembled (nothing is replayed then).
    geosim validate <scenario or folder>... [--allow-outside-paths]
      reads each scenario and assembles its world without running it; prints "ok <file>" or
      the error (file:line:column: path: what was expected); exit code 0 or 2.

    """

  /// The apps scenarios can name.
  static var catalog: AppCatalog { .referenceApps }

  // MARK: validate

  static func validate(_ args: inout Arguments, _ terminal: Terminal) throws -> Int32 {
    let allowOutside = args.flag("--allow-outside-paths")
    let files = try scenarioFiles(&args)
    try args.finish()
    let checked = check(files, allowOutside: allowOutside)
    for scenario in checked.valid { terminal.write("ok \(scenario.file)\n") }
    for (_, error) in checked.invalid {
      terminal.writeError(ToolMessages.describe(error) + "\n")
    }
    return checked.invalid.isEmpty ? 0 : 2
  }

  /// Reads every scenario and assembles its world without running it; names must be unique.
  static func check(_ files: [String], allowOutside: Bool) -> (
    valid: [(file: String, name: String)], invalid: [(file: String, error: any Error)]
  ) {
    let resources = ReplayResources()
    var valid: [(file: String, name: String)] = []
    var invalid: [(file: String, error: any Error)] = []
    var names: [String: String] = [:]
    for file in files {
      do {
        let scenario = try Scenario(contentsOf: file, allowPathsOutsideFolder: allowOutside)
        _ = try World(scenario: scenario, catalog: catalog, resources: resources)
        // Case-insensitively: the names become folders, and some file systems fold case.
        let key = scenario.name.lowercased()
        if let other = names[key] {
          throw ScenarioError(
            file: file, path: "name", "the name '\(scenario.name)' is also used by \(other)")
        }
        names[key] = file
        valid.append((file, scenario.name))
      } catch {
        invalid.append((file, error))
      }
    }
    return (valid, invalid)
  }

  // MARK: replay

  static func replay(_ args: inout Arguments, _ terminal: Terminal) throws -> Int32 {
    let allowOutside = args.flag("--allow-outside-paths")
    let seed = try args.option("--seed").map { text -> UInt64 in
      guard let seed = UInt64(text) else {
        throw UsageError("geosim replay: --seed '\(text)': expected a non-negative integer")
      }
      return seed
    }
    let out = try args.option("--out") ?? "Reports/replay"
    let format = try args.option("--format") ?? "text"
    guard ["text", "json"].contains(format) else {
      throw UsageError("geosim replay: --format '\(format)': expected text or json")
    }
    let jobs =
      try args.option("--jobs").map { text -> Int in
        guard let n = Int(text), n >= 1 else {
          throw UsageError("geosim replay: --jobs '\(text)': expected a positive integer")
        }
        return n
      } ?? ProcessInfo.processInfo.activeProcessorCount
    let files = try scenarioFiles(&args)
    try args.finish()

    // Everything is read and assembled before anything runs: bad input replays nothing.
    let checked = check(files, allowOutside: allowOutside)
    let scenarios = checked.valid
    for (_, error) in checked.invalid {
      terminal.writeError(ToolMessages.describe(error) + "\n")
    }
    let outURL = URL(fileURLWithPath: out, isDirectory: true)
    // A previous run's pages must not sit beside this run's looking current.
    for file in runFiles {
      try? FileManager.default.removeItem(at: outURL.appendingPathComponent(file))
    }
    if !checked.invalid.isEmpty {
      // Nothing runs; the run's report lists what could not be read, and only that.
      let reports = checked.invalid.map { file, error in
        ScenarioReport(
          invalid: file, name: URL(fileURLWithPath: file).lastPathComponent, error: "\(error)")
      }
      try writeRunReport(
        reports.map { RunReport.Entry(report: $0, figures: []) }, to: outURL)
      return 2
    }

    let pool = WorkerPool(
      executable: try executablePath(), out: outURL, seed: seed, allowOutside: allowOutside)
    let progress = Progress(total: scenarios.count, terminal: terminal)
    let results = try pool.run(scenarios, jobs: jobs, progress: progress)
    progress.end()

    let summary = JSONValue.array(results.map(\.json))
    try ReportWriter.write(
      summary.jsonText + "\n", to: outURL.appendingPathComponent("results.json"))
    try writeRunReport(
      results.map { try entry(for: $0, in: outURL, allowOutside: allowOutside) }, to: outURL)
    if format == "json" {
      terminal.write(summary.jsonText + "\n")
    } else {
      for result in results { terminal.write(line(for: result)) }
      let counts = Dictionary(grouping: results, by: \.verdict).mapValues(\.count)
      let parts = ReplayResult.Verdict.allCases.compactMap { v in
        counts[v].map { "\($0) \(v.label)" }
      }
      terminal.write("\(results.count) scenario(s): \(parts.joined(separator: ", "))\n")
    }
    return results.allSatisfy(\.verdict.isHealthy) ? 0 : 1
  }

  static func line(for result: ReplayResult) -> String {
    let verdict = result.verdict.label.padding(toLength: 6, withPad: " ", startingAt: 0)
    var text = "\(verdict)\(result.scenario)"
    let held = result.expectations.filter(\.passed).count
    if let crash = result.crash {
      text += ": crashed: \(crash.reason)"
    } else if let error = result.timelineErrors.first {
      text += ": \(error)"
    } else if let issue = result.refusedTraceIssues.first {
      text += ": trace \(issue) (not allowed; see allowSkippedPoints)"
    } else if let failed = result.expectations.first(where: { !$0.passed }) {
      text += " (\(held)/\(result.expectations.count)): \(failed.name): \(failed.message)"
    } else {
      text += " (\(held)/\(result.expectations.count))"
    }
    return text + "\n"
  }

  // MARK: worker

  /// `geosim replay-worker --out DIR [--seed N] [--allow-outside-paths] FILE...`: runs the
  /// scenarios one after the other in this process, streaming each one's events to
  /// `<out>/<name>/events.jsonl` and writing its `result.json` when it ends.
  static func worker(_ args: inout Arguments, _ terminal: Terminal) throws -> Int32 {
    let allowOutside = args.flag("--allow-outside-paths")
    guard let out = try args.option("--out") else {
      throw UsageError("geosim replay-worker: --out is required")
    }
    let seed = try args.option("--seed").map { text -> UInt64 in
      guard let seed = UInt64(text) else {
        throw UsageError("geosim replay-worker: --seed '\(text)': expected a non-negative integer")
      }
      return seed
    }
    var files: [String] = []
    while let file = args.positional() { files.append(file) }
    try args.finish()
    let resources = ReplayResources()
    for file in files {
      let scenario = try Scenario(contentsOf: file, allowPathsOutsideFolder: allowOutside)
      let folder = URL(fileURLWithPath: out).appendingPathComponent(scenario.name)
      try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
      let eventsURL = folder.appendingPathComponent("events.jsonl")
      guard FileManager.default.createFile(atPath: eventsURL.path, contents: nil) else {
        throw UsageError("geosim replay-worker: cannot create \(eventsURL.path)")
      }
      let events = try FileHandle(forWritingTo: eventsURL)
      defer { try? events.close() }
      // Unbuffered, one write per entry: a trap in the app must not lose the last events.
      let run = try ScenarioRun(scenario, catalog: catalog, resources: resources, seed: seed) {
        events.write(Data((EventLog.jsonLine($0) + "\n").utf8))
      }
      let report = try ScenarioReport(
        input: ReportInput(run), context: run.world.geos, resources: resources)
      try ReportWriter.write(
        report.json.jsonText + "\n", to: folder.appendingPathComponent("report.json"))
      try ReportWriter.write(report.markdown(), to: folder.appendingPathComponent("report.md"))
      if let map = report.mapSVG() {
        try ReportWriter.write(map, to: folder.appendingPathComponent("map.svg"))
      }
      if let latency = report.latencySVG() {
        try ReportWriter.write(latency, to: folder.appendingPathComponent("latency.svg"))
      }
      // Written last: its presence tells the parent the scenario finished.
      try ReportWriter.write(
        run.result.json.jsonText + "\n", to: folder.appendingPathComponent("result.json"))
    }
    return 0
  }

  // MARK: Reports

  /// A scenario's part of the run's report, from what its worker wrote; for a crash, or a
  /// worker that wrote no report, the report that says so is written here.
  ///
  /// - Throws: ``ScenarioReportError`` when the worker's `report.json` is there but damaged:
  ///   the run's report is built from it, so it must not be guessed at.
  static func entry(for result: ReplayResult, in out: URL, allowOutside: Bool)
    throws(ScenarioReportError) -> RunReport.Entry
  {
    let folder = out.appendingPathComponent(result.scenario)
    let reportURL = folder.appendingPathComponent("report.json")
    if result.crash == nil, FileManager.default.fileExists(atPath: reportURL.path),
      let markdown = try? String(
        contentsOf: folder.appendingPathComponent("report.md"), encoding: .utf8)
    {
      let data: Data
      do {
        data = try Data(contentsOf: reportURL)
      } catch {
        throw ScenarioReportError(
          file: reportURL.path, path: "", code: .invalidReport,
          "cannot be read: \(error.localizedDescription)")
      }
      let figures = ["map.svg", "latency.svg"].compactMap { name -> (String, String)? in
        (try? String(contentsOf: folder.appendingPathComponent(name), encoding: .utf8))
          .map { (name, $0) }
      }
      return try RunReport.Entry(
        reading: data, file: reportURL.path, markdown: markdown, figures: figures)
    }
    let scenario = result.file.flatMap {
      try? Scenario(contentsOf: $0, allowPathsOutsideFolder: allowOutside)
    }
    var crashed = result
    if crashed.crash == nil {
      crashed.crash = ReplayResult.Crash(
        reason: "the worker wrote no report", lastEvents: [])
    }
    let report = ScenarioReport(crashed: crashed, scenario: scenario)
    try? ReportWriter.write(report.json.jsonText + "\n", to: reportURL)
    try? ReportWriter.write(report.markdown(), to: folder.appendingPathComponent("report.md"))
    return RunReport.Entry(report: report, figures: [])
  }

  /// The run-level files `replay` writes in its output folder.
  static let runFiles = ["report.json", "report.md", "junit.xml", "index.html", "results.json"]

  static func writeRunReport(_ entries: [RunReport.Entry], to out: URL) throws {
    let report = RunReport(entries: entries)
    try ReportWriter.write(
      report.json.jsonText + "\n", to: out.appendingPathComponent("report.json"))
    try ReportWriter.write(report.markdown(), to: out.appendingPathComponent("report.md"))
    try ReportWriter.write(report.junitXML(), to: out.appendingPathComponent("junit.xml"))
    try ReportWriter.write(report.html(), to: out.appendingPathComponent("index.html"))
  }

  // MARK: Helpers

  /// The scenario files named by the remaining positionals: files as given, folders searched
  /// recursively for `*.scenario.json`, in path order.
  static func scenarioFiles(_ args: inout Arguments) throws -> [String] {
    var files: [String] = []
    var any = false
    while let path = args.positional() {
      any = true
      var isDirectory: ObjCBool = false
      guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
        throw UsageError("\(args.command): no such file or folder: \(path)")
      }
      if isDirectory.boolValue {
        let found =
          FileManager.default.enumerator(atPath: path)?.compactMap { $0 as? String }
          .filter { $0.hasSuffix(".scenario.json") }.sorted() ?? []
        guard !found.isEmpty else {
          throw UsageError("\(args.command): no *.scenario.json files in \(path)")
        }
        // Joined as text, so that a relative folder gives relative files: reports name a
        // scenario the way the user did, whatever the checkout's location.
        let prefix = path.hasSuffix("/") ? path : path + "/"
        files += found.map { prefix + $0 }
      } else {
        files.append(path)
      }
    }
    guard any else { throw UsageError("\(args.command): expected scenario files or folders") }
    return files
  }

  static func executablePath() throws -> String {
    if let path = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe") {
      return path
    }
    if let path = Bundle.main.executablePath { return path }
    throw UsageError("geosim replay: cannot find its own executable to start workers")
  }

}
