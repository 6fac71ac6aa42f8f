import ArgumentParser
import Errors
import Foundation
import Replay
import Reporting
import SimKernel

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// `replay-worker --out DIR [--seed N] [--allow-outside-paths] [--standard-input FILE]
/// (--units-on-request | [--run-index I ...] FILE...)` (internal, started by `replay`): runs
/// scenarios one after the other in this process, streaming each one's events to
/// `<out>/<name>/events.jsonl` and writing its reports, and `result.json` last, when it ends.
///
/// With `--units-on-request` the scenarios come from the parent (``UnitRequests``), each as
/// `{"file": FILE, "run": I}` (`run` absent or `null` for a scenario replayed once); otherwise
/// they are the files given, with run indices (one per file, in order; -1 for a scenario
/// replayed once). Run I ≥ 0 of a scenario replays with that run's seed (`Scenario.runSeed`)
/// into `<out>/<name>/runs/<I>/`.
struct ReplayWorkerCommand: ToolCommand {
  static let configuration = CommandConfiguration(
    commandName: "replay-worker", abstract: "Run scenarios for replay (internal).",
    shouldDisplay: false)

  @OptionGroup var scenarios: ScenarioOptions

  @Option var out: String

  @Option var seed: UInt64?

  /// What the parent read from its standard input, for the scenario named `-`.
  @Option var standardInput: String?

  @OptionGroup var budget: ReplayBudget

  /// For each file, which run of its scenario it is (-1: the scenario is replayed once).
  @Option var runIndex: [Int] = []

  /// Whether the scenarios come from the parent, one at a time.
  @Flag var unitsOnRequest = false

  func validate() throws {
    guard runIndex.isEmpty || runIndex.count == scenarios.paths.count else {
      throw ValidationError(
        "expected one --run-index per file (\(scenarios.paths.count)), got \(runIndex.count)")
    }
    guard !unitsOnRequest || scenarios.paths.isEmpty else {
      throw ValidationError("--units-on-request takes no files")
    }
  }

  func run(in tool: ToolContext) throws -> Int32 {
    WorkerLifetime.followParent()
    // A trap in the app writes the events it has not written yet before the worker dies.
    EventFile.writeOnTrap()
    let input = try standardInput.map { try Data(contentsOf: URL(fileURLWithPath: $0)) }
    let resources = ReplayResources()
    let timeLimit = WorkerTimeLimit(seconds: budget.timeLimit)
    func replay(_ scenario: Scenario, run: Int?) throws -> Int32? {
      let folder = WorkerPool.folder(
        out: URL(fileURLWithPath: out), name: scenario.name, run: run)
      let runSeed = run.map { Scenario.runSeed(seed ?? scenario.seed, run: $0) } ?? seed
      // What this worker cannot write ends it with its own status, so that the tool reports a
      // failed write, not a crash of the app.
      do {
        try timeLimit.watch(run.map { "\(scenario.name) run \($0)" } ?? scenario.name) {
          try self.replay(scenario, seed: runSeed, to: folder, tool: tool, resources: resources)
        }
      } catch let error as OutputFailure {
        tool.terminal.writeError("\(tool.name) replay-worker: \(error.message)\n")
        return OutputFailure.exitStatus
      }
      return nil
    }
    guard unitsOnRequest else {
      let inputs = ScenarioInputs(files: scenarios.paths, standardInput: input)
      for (position, file) in inputs.files.enumerated() {
        let run = runIndex.isEmpty || runIndex[position] < 0 ? nil : runIndex[position]
        let scenario = try inputs.scenario(file, allowOutside: scenarios.allowOutsidePaths)
        if let status = try replay(scenario, run: run) { return status }
      }
      return 0
    }
    var requests = UnitRequests()
    // The runs of a scenario replayed several times come one after another: its file is read
    // once for them.
    var last: (file: String, scenario: Scenario)?
    while let unit = try requests.next() {
      guard case .object(let o) = unit, case .string(let file)? = o["file"] else {
        throw BadInput("expected a unit {\"file\": …, \"run\": …}, got \(unit.jsonText)")
      }
      var run: Int?
      switch o["run"] {
      case nil, .null?: run = nil
      case .number(let n)? where n >= 0 && n < 1e9 && n == n.rounded(): run = Int(n)
      case let other?:
        throw BadInput("expected a unit's run to be a whole number ≥ 0, got \(other.jsonText)")
      }
      let scenario: Scenario
      if let last, last.file == file {
        scenario = last.scenario
      } else {
        scenario = try ScenarioInputs(files: [file], standardInput: input)
          .scenario(file, allowOutside: scenarios.allowOutsidePaths)
        last = (file, scenario)
      }
      if let status = try replay(scenario, run: run) { return status }
      requests.done()
    }
    return 0
  }

  private func replay(
    _ scenario: Scenario, seed: UInt64?, to folder: URL, tool: ToolContext,
    resources: ReplayResources
  ) throws {
    let eventsURL = folder.appendingPathComponent("events.jsonl", isDirectory: false)
    do {
      try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    } catch {
      throw OutputFailure("cannot create \(folder.path): \(OutputFolder.reason(error))")
    }
    let events = try EventFile(path: eventsURL.path)
    let run = try ScenarioRun(
      scenario, catalog: tool.apps, resources: resources, seed: seed,
      eventLimit: budget.eventLimit, eventSink: events.append)
    try events.close()
    // The log as written, for the viewer's event list (which would otherwise write it again).
    let eventLines = try? readFileContents(atPath: eventsURL.path)
    do {
      try ReportFiles.writeScenario(run, resources: resources, to: folder, eventLines: eventLines)
    } catch let error as ReportWriteError {
      throw OutputFailure(error.description)
    }
  }
}

/// A file a worker could not write: the worker ends with ``exitStatus`` and the tool stops the
/// run with the message.
struct OutputFailure: Error, CustomStringConvertible {
  /// The status a worker ends with when it could not write its output.
  static let exitStatus: Int32 = 4

  let message: String
  init(_ message: String) { self.message = message }

  var description: String { message }
}
