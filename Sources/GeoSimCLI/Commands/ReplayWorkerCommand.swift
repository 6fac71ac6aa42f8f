import ArgumentParser
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
/// [--run-index I ...] FILE...` (internal, started by `replay`): runs the scenarios one after
/// the other in this process, streaming each one's events to `<out>/<name>/events.jsonl` and
/// writing its reports, and `result.json` last, when it ends. With run indices (one per file,
/// in order; -1 for a scenario replayed once), a file with index I ≥ 0 is run I of its
/// scenario: it replays with that run's seed (`Scenario.runSeed`) into `<out>/<name>/runs/<I>/`.
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

  func validate() throws {
    guard runIndex.isEmpty || runIndex.count == scenarios.paths.count else {
      throw ValidationError(
        "expected one --run-index per file (\(scenarios.paths.count)), got \(runIndex.count)")
    }
  }

  func run(in tool: ToolContext) throws -> Int32 {
    WorkerLifetime.followParent()
    // A trap in the app writes the events it has not written yet before the worker dies.
    EventFile.writeOnTrap()
    let input = try standardInput.map { try Data(contentsOf: URL(fileURLWithPath: $0)) }
    let inputs = ScenarioInputs(files: scenarios.paths, standardInput: input)
    let resources = ReplayResources()
    let timeLimit = WorkerTimeLimit(seconds: budget.timeLimit)
    for (position, file) in inputs.files.enumerated() {
      let scenario = try inputs.scenario(file, allowOutside: scenarios.allowOutsidePaths)
      let run = runIndex.isEmpty || runIndex[position] < 0 ? nil : runIndex[position]
      let folder = WorkerPool.folder(
        out: URL(fileURLWithPath: out), name: scenario.name, run: run)
      let runSeed = run.map { Scenario.runSeed(seed ?? scenario.seed, run: $0) } ?? seed
      // What this worker cannot write ends it with its own status, so that the tool reports a
      // failed write, not a crash of the app.
      do {
        try timeLimit.watch(run.map { "\(scenario.name) run \($0)" } ?? scenario.name) {
          try replay(scenario, seed: runSeed, to: folder, tool: tool, resources: resources)
        }
      } catch let error as OutputFailure {
        tool.terminal.writeError("\(tool.name) replay-worker: \(error.message)\n")
        return OutputFailure.exitStatus
      }
    }
    return 0
  }

  private func replay(
    _ scenario: Scenario, seed: UInt64?, to folder: URL, tool: ToolContext,
    resources: ReplayResources
  ) throws {
    let eventsURL = folder.appendingPathComponent("events.jsonl")
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
    do {
      try ReportFiles.writeScenario(run, resources: resources, to: folder)
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
