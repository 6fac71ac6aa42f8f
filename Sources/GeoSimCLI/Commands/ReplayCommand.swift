import ArgumentParser
import Foundation
import JSON
import Replay
import Reporting
import SimKernel
import Synchronization

/// The options `replay`, `validate` and the replay worker share.
struct ScenarioOptions: ParsableArguments {
  @Argument(
    help: ArgumentHelp(
      "Scenario files, folders (every *.scenario.json inside, recursively) or - (one scenario "
        + "from standard input; its paths are relative to the current folder).",
      valueName: "scenario-or-folder"))
  var paths: [String] = []

  @Flag(help: "Allow scenario paths (traces, datasets, gazetteers) outside the scenario's folder.")
  var allowOutsidePaths = false
}

/// `geosim validate`: scenarios read and checked as their worlds' assembly checks them,
/// nothing run.
struct ValidateCommand: ToolCommand {
  static let configuration = CommandConfiguration(
    commandName: "validate",
    abstract: "Check scenarios without running them.",
    discussion: """
      Reads each scenario and assembles its world without running it; prints "ok <file>" or \
      the error (file:line:column: path: what was expected). Exit code 0 or 2.
      """)

  @OptionGroup var scenarios: ScenarioOptions

  func run(in tool: ToolContext) throws -> Int32 {
    let inputs = try ScenarioInputs(scenarios.paths, tool: tool)
    let checked = ReplayCommand.check(
      inputs, catalog: tool.apps, allowOutside: scenarios.allowOutsidePaths)
    var refused = false
    for scenario in checked.valid {
      let label = inputs.label(scenario.file)
      // A trace that loses points fails its scenario whatever else happens: say so now.
      let issues = scenario.traceIssues.filter { !$0.allowed }
      for issue in issues {
        tool.terminal.writeError("\(label): trace \(issue) (not allowed; see allowSkippedPoints)\n")
      }
      refused = refused || !issues.isEmpty
      if issues.isEmpty { tool.terminal.write("ok \(label)\n") }
    }
    for (_, error) in checked.invalid {
      tool.terminal.writeError(ToolMessages.describe(error, tool: tool) + "\n")
    }
    return checked.invalid.isEmpty && !refused ? 0 : 2
  }
}

/// `geosim replay`: scenario documents in, judged replays and their reports out.
///
/// Each scenario runs in a worker process (`replay-worker`), as many workers as cores, each
/// taking scenario after scenario from the parent, so that an app model that traps ends only its
/// own scenario: the parent reports it as a crash with the last events before it and starts a
/// new worker for the rest.
struct ReplayCommand: ToolCommand {
  static let configuration = CommandConfiguration(
    commandName: "replay",
    abstract: "Replay scenarios and judge their expectations.",
    discussion: """
      Replays each scenario, several at once in worker processes, and prints one line per \
      scenario: PASS, FAIL, CRASH, TIMEOUT (it ran out of its event or time budget), XFAIL (a \
      scenario marked "expect": "fail" that failed, as it should) or XPASS (one that did \
      not). Writes <out>/<name>/events.jsonl, result.json, \
      report.json, report.md, its SVG figures and index.html (the replay viewer, one offline \
      page), and <out>/results.json, report.json, \
      report.md, junit.xml and index.html. Exit code 0 when every verdict is PASS or XFAIL, 1 \
      otherwise, 2 when a scenario cannot be read or assembled (nothing is replayed then). \
      A scenario with "runs": N (or every scenario, with --runs N) is replayed N times, run 0 \
      with its own seed and run i with a seed derived from it; each run's files go to \
      <out>/<name>/runs/<i>/, and its verdict is over the runs: plain expectations must hold \
      in every run, rate expectations in their share of runs.
      """)

  @OptionGroup var scenarios: ScenarioOptions

  @Option(parsing: .unconditional, help: "Replay every scenario with this seed instead of its own.")
  var seed: UInt64?

  @Option(
    parsing: .unconditional,
    help: ArgumentHelp(
      "Replay every scenario this many times (1 to \(Scenario.maximumRuns)) instead of its own "
        + "\"runs\"; run 0 keeps the scenario's seed (or --seed).", valueName: "n"))
  var runs: Int?

  @Option(help: ArgumentHelp("The folder the reports are written to.", valueName: "dir"))
  var out = "Reports/replay"

  @Option(help: "How results are printed: text (a line per scenario) or json.")
  var format: OutputFormat = .text

  @Option(
    parsing: .unconditional,
    help: ArgumentHelp("Worker processes at once (default: one per core).", valueName: "n"))
  var jobs: Int?

  @OptionGroup var budget: ReplayBudget

  enum OutputFormat: String, ExpressibleByArgument, CaseIterable {
    case text, json
  }

  func validate() throws {
    if let jobs, jobs < 1 { throw ValidationError("--jobs must be at least 1, got \(jobs)") }
    if let runs, !(1...Scenario.maximumRuns).contains(runs) {
      throw ValidationError(
        "--runs must be a whole number from 1 to \(Scenario.maximumRuns), got \(runs)")
    }
  }

  /// A scenario that was read and checked.
  struct Checked {
    var file: String
    var name: String
    var traceIssues: [ReplayResult.TraceIssue]
    var scenario: Scenario
  }

  /// Reads every scenario and checks it as assembling its world would (`World.check`),
  /// without assembling it; names must be unique.
  static func check(_ inputs: ScenarioInputs, catalog: AppCatalog, allowOutside: Bool) -> (
    valid: [Checked], invalid: [(file: String, error: any Error)]
  ) {
    let resources = ReplayResources()
    var valid: [Checked] = []
    var invalid: [(file: String, error: any Error)] = []
    var names: [String: String] = [:]
    for file in inputs.files {
      do {
        let scenario = try inputs.scenario(file, allowOutside: allowOutside)
        let traceIssues = try World.check(
          scenario: scenario, catalog: catalog, resources: resources)
        if let problem = ReportFiles.problem(withScenarioName: scenario.name) {
          throw ScenarioError(file: inputs.label(file), path: "name", problem)
        }
        // Case-insensitively: the names become folders, and some file systems fold case.
        let key = scenario.name.lowercased()
        if let other = names[key] {
          throw ScenarioError(
            file: inputs.label(file), path: "name",
            "the name '\(scenario.name)' is also used by \(other)")
        }
        names[key] = inputs.label(file)
        valid.append(
          Checked(
            file: file, name: scenario.name, traceIssues: traceIssues, scenario: scenario))
      } catch {
        invalid.append((file, error))
      }
    }
    return (valid, invalid)
  }

  func run(in tool: ToolContext) throws -> Int32 {
    let inputs = try ScenarioInputs(scenarios.paths, tool: tool)
    let allowOutside = scenarios.allowOutsidePaths
    let outURL = URL(fileURLWithPath: out, isDirectory: true)
    try inputs.refuseOutputFolder(outURL)
    let hold = try OutputFolder(outURL)
    defer { withExtendedLifetime(hold) {} }
    // A worker cannot read this process's standard input: it gets a copy.
    let standardInputCopy = try inputs.saveStandardInput(in: outURL)
    defer { standardInputCopy.map { try? FileManager.default.removeItem(at: $0) } }
    let pool = WorkerPool(
      executable: try tool.executablePath(), out: outURL, seed: seed, allowOutside: allowOutside,
      budgetArguments: budget.workerArguments, standardInput: standardInputCopy)
    let jobs = jobs ?? ProcessInfo.processInfo.activeProcessorCount
    // The workers start while the scenarios are checked (each file is at least one unit); they
    // are given nothing to do if a scenario is refused.
    let started = pool.start(min(jobs, inputs.files.count))
    defer { started.end() }
    // Everything is read and assembled before anything runs: bad input replays nothing.
    let checked = Self.check(inputs, catalog: tool.apps, allowOutside: allowOutside)
    for (_, error) in checked.invalid {
      tool.terminal.writeError(ToolMessages.describe(error, tool: tool) + "\n")
    }
    // A previous run's pages must not sit beside this run's looking current.
    for file in ReportFiles.runFiles {
      try? FileManager.default.removeItem(at: outURL.appendingPathComponent(file))
    }
    if !checked.invalid.isEmpty {
      // Nothing runs; the run's report lists what could not be read, and only that.
      let reports = checked.invalid.map { file, error in
        ScenarioReport(
          invalid: inputs.label(file),
          name: URL(fileURLWithPath: inputs.label(file)).lastPathComponent,
          error: "\(error)")
      }
      try ReportFiles.writeRun(
        reports.map { RunReport.Entry(report: $0, figures: []) }, to: outURL)
      return 2
    }

    // Each scenario is one unit, or one unit per run for a scenario replayed several times.
    let counts = checked.valid.map { runs ?? $0.scenario.runs }
    var units: [WorkerPool.Unit] = []
    for (scenario, count) in zip(checked.valid, counts) {
      let folder = outURL.appendingPathComponent(scenario.name)
      // A previous replay's runs past this one's must not sit beside them (those this one
      // replays again are replaced as they are written).
      ReportFiles.clearRuns(in: folder, from: count == 1 ? 0 : count)
      if count == 1 {
        units.append(.init(file: scenario.file, name: scenario.name, run: nil))
      } else {
        ReportFiles.clearScenario(in: folder)
        units += (0..<count).map { .init(file: scenario.file, name: scenario.name, run: $0) }
      }
    }
    // A scenario's part of the run's report is made as soon as its last unit is done, while
    // the workers replay the others: its files are complete once its worker has said so.
    let scenarios = checked.valid
    var firstUnit: [Int] = []
    var unitScenario: [Int] = []
    for (s, count) in counts.enumerated() {
      firstUnit.append(unitScenario.count)
      unitScenario += repeatElement(s, count: count)
    }
    let finish:
      @Sendable (Int, [ReplayResult]) -> Result<(ReplayResult, RunReport.Entry), any Error> = {
        [seed, inputs] s, runs in
        Result { () throws -> (ReplayResult, RunReport.Entry) in
          try Self.finish(
            scenarios[s].scenario, runs: runs, seed: seed, in: outURL, inputs: inputs,
            allowOutside: allowOutside)
        }
      }
    let assembly = Mutex(
      Assembly(
        remaining: counts, runs: Array(repeating: nil, count: units.count),
        finished: Array(repeating: nil, count: scenarios.count)))
    let progress = Progress(total: units.count, terminal: tool.terminal)
    let unitResults = try pool.run(units, jobs: jobs, progress: progress, started: started) {
      [firstUnit, unitScenario] unit, result in
      let s = unitScenario[unit]
      let runs = assembly.withLock { state -> [ReplayResult]? in
        state.runs[unit] = result
        state.remaining[s] -= 1
        guard state.remaining[s] == 0 else { return nil }
        return state.runs[firstUnit[s]..<firstUnit[s] + counts[s]].map { $0! }
      }
      guard let runs else { return }
      let finished = finish(s, runs)
      assembly.withLock { $0.finished[s] = finished }
    }
    progress.end()
    var results: [ReplayResult] = []
    var entries: [RunReport.Entry] = []
    let finished = assembly.withLock { $0.finished }
    for s in scenarios.indices {
      let runs = Array(unitResults[firstUnit[s]..<firstUnit[s] + counts[s]])
      let (result, entry) = try (finished[s] ?? finish(s, runs)).get()
      results.append(result)
      entries.append(entry)
    }

    let summary = JSONValue.array(results.map(\.json))
    try ReportWriter.write(
      summary.jsonText + "\n", to: outURL.appendingPathComponent("results.json"))
    try ReportFiles.writeRun(entries, to: outURL)
    if format == .json {
      tool.terminal.write(summary.jsonText + "\n")
    } else {
      for result in results { tool.terminal.write(Self.line(for: result)) }
      let counts = Dictionary(grouping: results, by: \.verdict).mapValues(\.count)
      let parts = ReplayResult.Verdict.allCases.compactMap { v in
        counts[v].map { "\($0) \(v.label)" }
      }
      tool.terminal.write("\(results.count) scenario(s): \(parts.joined(separator: ", "))\n")
    }
    return results.allSatisfy(\.verdict.isHealthy) ? 0 : 1
  }

  static func line(for result: ReplayResult) -> String {
    let label = result.verdict.label
    let verdict = label.padding(toLength: max(6, label.count + 1), withPad: " ", startingAt: 0)
    var text = "\(verdict)\(result.scenario)"
    let over = result.runs.map { " over \($0.count) runs" } ?? ""
    let held = result.expectations.filter(\.passed).count
    if let crash = result.crash {
      text += ": crashed: \(crash.reason)"
    } else if let timeout = result.timeout {
      text += ": \(timeout.reason)"
    } else if let error = result.timelineErrors.first {
      text += ": \(error)"
    } else if let issue = result.refusedTraceIssues.first {
      text += ": trace \(issue) (not allowed; see allowSkippedPoints)"
    } else if let failed = result.expectations.first(where: { !$0.passed }) {
      text += " (\(held)/\(result.expectations.count))\(over): \(failed.name): \(failed.message)"
    } else {
      text += " (\(held)/\(result.expectations.count))\(over)"
    }
    return text + "\n"
  }

  // MARK: Reports

  /// The units' results as they come in, and each scenario's outcome once all of its are in.
  private struct Assembly {
    /// Per scenario, its units still running.
    var remaining: [Int]
    var runs: [ReplayResult?]
    var finished: [Result<(ReplayResult, RunReport.Entry), any Error>?]
  }

  /// A scenario's result and its part of the run's report, from its `runs`' results: the one
  /// result of a scenario replayed once, or their aggregate, written as the scenario's own
  /// report beside its runs.
  static func finish(
    _ scenario: Scenario, runs: [ReplayResult], seed: UInt64?, in out: URL,
    inputs: ScenarioInputs, allowOutside: Bool
  ) throws -> (ReplayResult, RunReport.Entry) {
    if runs.count == 1 {
      let entry = try entry(for: runs[0], in: out, inputs: inputs, allowOutside: allowOutside)
      return (runs[0], entry.rendered())
    }
    var scenario = scenario
    if let seed { scenario.seed = seed }
    scenario.runs = runs.count
    let result = ReplayResult(aggregating: runs, scenario: scenario)
    let entry = try ReportFiles.writeRuns(
      result, scenario: scenario, to: out.appendingPathComponent(scenario.name))
    return (result, entry.rendered())
  }

  /// A scenario's part of the run's report, from what its worker wrote; for a crash, or a
  /// worker that wrote no report, the report that says so is written here.
  ///
  /// - Throws: ``ScenarioReportError`` when the worker's `report.json` is there but damaged:
  ///   the run's report is built from it, so it must not be guessed at.
  static func entry(
    for result: ReplayResult, in out: URL, inputs: ScenarioInputs, allowOutside: Bool
  ) throws(ScenarioReportError) -> RunReport.Entry {
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
      try? inputs.scenario(inputs.file(labelled: $0), allowOutside: allowOutside)
    }
    var crashed = result
    if crashed.crash == nil, crashed.timeout == nil {
      crashed.crash = ReplayResult.Crash(
        reason: "the worker wrote no report", lastEvents: [])
    }
    let report = ScenarioReport(stopped: crashed, scenario: scenario)
    try? ReportWriter.write(report.json.jsonText + "\n", to: reportURL)
    try? ReportWriter.write(report.markdown(), to: folder.appendingPathComponent("report.md"))
    return RunReport.Entry(report: report, figures: [])
  }

}
