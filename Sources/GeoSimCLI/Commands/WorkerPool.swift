import Foundation
import JSON
import Replay
import Reporting
import Synchronization

/// Runs scenarios in `geosim replay-worker` processes (``WorkerProcesses``) and turns a worker
/// that dies into that scenario's crash, with its last events.
struct WorkerPool: Sendable {
  let executable: String
  let out: URL
  let seed: UInt64?
  let allowOutside: Bool
  /// The budget options the workers are given (``ReplayBudget/workerArguments``); none means
  /// the defaults.
  var budgetArguments: [String] = []
  /// Where the parent saved its standard input, for a scenario named `-`.
  var standardInput: URL?

  /// How many last events a crash report keeps.
  static let crashContext = 20

  /// One replay a worker runs: a scenario, and for a scenario replayed several times which of
  /// its runs (`nil` for a scenario replayed once, whose files go in its own folder).
  struct Unit: Sendable {
    var file: String
    var name: String
    var run: Int?
  }

  /// A worker's arguments.
  private var arguments: [String] {
    var arguments = ["replay-worker", "--out", out.path, WorkerProcesses.unitsOnRequest]
    if let seed { arguments += ["--seed", String(seed)] }
    if allowOutside { arguments.append("--allow-outside-paths") }
    if let standardInput { arguments += ["--standard-input", standardInput.path] }
    return arguments + budgetArguments
  }

  /// Starts `count` workers ahead of ``run(_:jobs:progress:started:)``, which takes them.
  func start(_ count: Int) -> WorkerProcesses.StartedWorkers {
    WorkerProcesses(executable: executable).start(count, arguments: arguments)
  }

  /// The results in the order of `units`; `completed` is called with each as it is known (on
  /// any thread, the unit's files complete).
  func run(
    _ units: [Unit], jobs: Int, progress: Progress,
    started: WorkerProcesses.StartedWorkers? = nil,
    completed: @escaping @Sendable (Int, ReplayResult) -> Void = { _, _ in }
  ) throws -> [ReplayResult] {
    try WorkerProcesses(executable: executable).run(
      count: units.count, jobs: jobs, arguments: arguments, started: started,
      request: { unit in
        .object([
          "file": .string(units[unit].file),
          "run": units[unit].run.map { .number(Double($0)) } ?? .null,
        ])
      },
      // What the parent reads of a crashed unit must be this replay's.
      clear: { ReportFiles.clearEvents(in: folder(units[$0])) },
      read: { readResult(units[$0]) },
      crashed: { crashResult(units[$0], ending: $1) },
      finished: { unit, result in
        completed(unit, result)
        progress.finished(label(units[unit]))
      })
  }

  /// A unit's name in progress lines: the scenario's, with the run for one of several.
  private func label(_ unit: Unit) -> String {
    unit.run.map { "\(unit.name) run \($0)" } ?? unit.name
  }

  /// Where a unit's files go: the scenario's folder, or `runs/<i>` inside it.
  func folder(_ unit: Unit) -> URL {
    Self.folder(out: out, name: unit.name, run: unit.run)
  }

  /// The folder of scenario `name`'s files in `out`, or of its run `run`.
  static func folder(out: URL, name: String, run: Int?) -> URL {
    let scenario = out.appendingPathComponent(name, isDirectory: true)
    return run.map { scenario.appendingPathComponent("runs/\($0)", isDirectory: true) } ?? scenario
  }

  private func resultURL(_ unit: Unit) -> URL {
    folder(unit).appendingPathComponent("result.json", isDirectory: false)
  }

  private func readResult(_ unit: Unit) -> ReplayResult? {
    guard let file = try? JSONFile(resultURL(unit).path) else { return nil }
    return ReplayResult(json: file.root)
  }

  private func crashResult(_ unit: Unit, ending: WorkerProcesses.Ending) -> ReplayResult {
    let events =
      (try? String(
        contentsOf: folder(unit).appendingPathComponent("events.jsonl"), encoding: .utf8))
      ?? ""
    let lines = events.split(separator: "\n")
    // What the worker did not get to write must not be an earlier replay's.
    for file in ReportFiles.scenarioFiles {
      unlink(folder(unit).appendingPathComponent(file).path)
    }
    var result: ReplayResult
    let inputs = ScenarioInputs(
      files: [unit.file], standardInput: standardInput.flatMap { try? Data(contentsOf: $0) })
    if let loaded = try? inputs.scenario(unit.file, allowOutside: allowOutside) {
      result = ReplayResult(scenario: loaded)
      if let run = unit.run {
        result.seed = Scenario.runSeed(seed ?? loaded.seed, run: run)
      } else if let seed {
        result.seed = seed
      }
    } else {
      result = ReplayResult(
        scenario: Scenario(
          name: unit.name, start: Date(timeIntervalSince1970: 0), duration: 1,
          app: AppSelection(name: "")))
      result.file = inputs.label(unit.file)
    }
    let lastEvents = lines.suffix(Self.crashContext).map(String.init)
    if let reason = ending.timeLimitReason {
      result.timeout = ReplayResult.Timeout(reason: reason, lastEvents: lastEvents)
    } else {
      result.crash = ReplayResult.Crash(reason: ending.reason, lastEvents: lastEvents)
    }
    result.eventCount = lines.count
    try? ReportWriter.write(result.json.jsonText + "\n", to: resultURL(unit))
    return result
  }
}

/// Progress on standard error, only when it is a terminal and the run has taken more than two
/// seconds (host time: it never reaches a world).
final class Progress: Sendable {
  private struct State {
    var done = 0
    var shown = false
  }
  private let total: Int
  private let started = Date()
  private let state = Mutex(State())
  private nonisolated(unsafe) let terminal: Terminal

  init(total: Int, terminal: Terminal) {
    self.total = total
    self.terminal = terminal
  }

  func finished(_ name: String) {
    guard terminal.errorIsTerminal else { return }
    state.withLock { state in
      state.done += 1
      guard Date().timeIntervalSince(started) > 2 else { return }
      state.shown = true
      terminal.writeError("\r\u{1B}[K[\(state.done)/\(total)] \(name)")
    }
  }

  func end() {
    state.withLock { state in
      if state.shown { terminal.writeError("\r\u{1B}[K") }
    }
  }
}
