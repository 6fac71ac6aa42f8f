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

  /// The results in the order of `scenarios`.
  func run(_ scenarios: [(file: String, name: String)], jobs: Int, progress: Progress) throws
    -> [ReplayResult]
  {
    var common = ["replay-worker", "--out", out.path]
    if let seed { common += ["--seed", String(seed)] }
    if allowOutside { common.append("--allow-outside-paths") }
    if let standardInput { common += ["--standard-input", standardInput.path] }
    common += budgetArguments
    // Files after `--`: a scenario file whose name starts with a dash is not an option.
    let arguments = common + ["--"]
    return try WorkerProcesses(executable: executable).run(
      count: scenarios.count, jobs: jobs,
      arguments: { units in arguments + units.map { scenarios[$0].file } },
      // A new replay's files must not sit beside an old one's.
      clear: { ReportFiles.clearScenario(in: folder(scenarios[$0].name)) },
      read: { readResult(scenarios[$0].name) },
      crashed: { crashResult(scenarios[$0], ending: $1) },
      finished: { progress.finished($1.scenario) })
  }

  private func folder(_ name: String) -> URL { out.appendingPathComponent(name) }
  private func resultURL(_ name: String) -> URL {
    folder(name).appendingPathComponent("result.json")
  }

  private func readResult(_ name: String) -> ReplayResult? {
    guard let file = try? JSONFile(resultURL(name).path) else { return nil }
    return ReplayResult(json: file.root)
  }

  private func crashResult(_ scenario: (file: String, name: String), ending: WorkerProcesses.Ending)
    -> ReplayResult
  {
    let events =
      (try? String(
        contentsOf: folder(scenario.name).appendingPathComponent("events.jsonl"), encoding: .utf8))
      ?? ""
    let lines = events.split(separator: "\n")
    var result: ReplayResult
    let inputs = ScenarioInputs(
      files: [scenario.file], standardInput: standardInput.flatMap { try? Data(contentsOf: $0) })
    if let loaded = try? inputs.scenario(scenario.file, allowOutside: allowOutside) {
      result = ReplayResult(scenario: loaded)
      if let seed { result.seed = seed }
    } else {
      result = ReplayResult(
        scenario: Scenario(
          name: scenario.name, start: Date(timeIntervalSince1970: 0), duration: 1,
          app: AppSelection(name: "")))
      result.file = inputs.label(scenario.file)
    }
    let lastEvents = lines.suffix(Self.crashContext).map(String.init)
    if let reason = ending.timeLimitReason {
      result.timeout = ReplayResult.Timeout(reason: reason, lastEvents: lastEvents)
    } else {
      result.crash = ReplayResult.Crash(reason: ending.reason, lastEvents: lastEvents)
    }
    result.eventCount = lines.count
    try? ReportWriter.write(result.json.jsonText + "\n", to: resultURL(scenario.name))
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
