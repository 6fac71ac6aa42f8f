import Foundation
import JSON
import ReferenceAppCatalog
import Replay
import Synchronization

/// Runs scenarios in `geosim replay-worker` processes, a batch per worker and `jobs` workers at
/// once, and turns a worker that dies into that scenario's crash.
struct WorkerPool: Sendable {
  let executable: String
  let out: URL
  let seed: UInt64?
  let allowOutside: Bool

  /// How many last events a crash report keeps.
  static let crashContext = 20

  /// The results in the order of `scenarios`.
  func run(_ scenarios: [(file: String, name: String)], jobs: Int, progress: Progress) throws
    -> [ReplayResult]
  {
    let jobs = max(1, min(jobs, scenarios.count))
    let batches = (0..<jobs).map { j in Array(stride(from: j, to: scenarios.count, by: jobs)) }
    let results = Mutex<[Int: ReplayResult]>([:])
    let failure = Mutex<(any Error)?>(nil)
    DispatchQueue.concurrentPerform(iterations: jobs) { j in
      do {
        try runBatch(batches[j].map { ($0, scenarios[$0]) }) { index, result in
          results.withLock { $0[index] = result }
          progress.finished(result.scenario)
        }
      } catch {
        failure.withLock { $0 = $0 ?? error }
      }
    }
    if let error = failure.withLock({ $0 }) { throw error }
    let all = results.withLock { $0 }
    return scenarios.indices.map { all[$0]! }
  }

  private func runBatch(
    _ batch: [(index: Int, scenario: (file: String, name: String))],
    finished: (Int, ReplayResult) -> Void
  ) throws {
    var remaining = batch
    while !remaining.isEmpty {
      for item in remaining {
        try? FileManager.default.removeItem(at: resultURL(item.scenario.name))
      }
      let (status, signalled, stderr) = try launch(remaining.map(\.scenario.file))
      var next: [(index: Int, scenario: (file: String, name: String))] = []
      for (position, item) in remaining.enumerated() {
        if let result = readResult(item.scenario.name) {
          finished(item.index, result)
          continue
        }
        // The first scenario without a result is the one the worker died in.
        let crash = crashResult(
          item.scenario, status: status, signalled: signalled, stderr: stderr)
        finished(item.index, crash)
        next = Array(remaining[(position + 1)...])
        break
      }
      remaining = next
    }
  }

  private func launch(_ files: [String]) throws -> (Int32, Bool, String) {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: executable)
    var arguments = ["replay-worker", "--out", out.path]
    if let seed { arguments += ["--seed", String(seed)] }
    if allowOutside { arguments.append("--allow-outside-paths") }
    process.arguments = arguments + files
    var environment = ProcessInfo.processInfo.environment
    // A trap should end the worker at once; symbolicated backtraces take seconds each.
    environment["SWIFT_BACKTRACE"] = "enable=no"
    process.environment = environment
    let errors = Pipe()
    process.standardError = errors
    process.standardOutput = FileHandle.nullDevice
    try process.run()
    let data = errors.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return (
      process.terminationStatus, process.terminationReason == .uncaughtSignal,
      String(decoding: data, as: UTF8.self)
    )
  }

  private func folder(_ name: String) -> URL { out.appendingPathComponent(name) }
  private func resultURL(_ name: String) -> URL {
    folder(name).appendingPathComponent("result.json")
  }

  private func readResult(_ name: String) -> ReplayResult? {
    guard let data = try? Data(contentsOf: resultURL(name)),
      let json = try? JSONValue(parsing: data)
    else { return nil }
    return ReplayResult(json: json)
  }

  private func crashResult(
    _ scenario: (file: String, name: String), status: Int32, signalled: Bool, stderr: String
  ) -> ReplayResult {
    var reason = signalled ? "signal \(status)\(Self.signalName(status))" : "exit status \(status)"
    let lines = stderr.split(separator: "\n").map(String.init)
    if let message = lines.last(where: { $0.contains("Fatal error") || $0.contains("error:") })
      ?? lines.last
    {
      reason += ": " + message.trimmingCharacters(in: .whitespaces)
    }
    let events =
      (try? String(
        contentsOf: folder(scenario.name).appendingPathComponent("events.jsonl"), encoding: .utf8))
      ?? ""
    let last = events.split(separator: "\n").suffix(Self.crashContext).map(String.init)
    var result: ReplayResult
    if let loaded = try? Scenario(contentsOf: scenario.file, allowPathsOutsideFolder: allowOutside)
    {
      result = ReplayResult(scenario: loaded)
      if let seed { result.seed = seed }
    } else {
      result = ReplayResult(
        scenario: Scenario(
          name: scenario.name, start: Date(timeIntervalSince1970: 0), duration: 1,
          app: AppSelection(name: "")))
      result.file = scenario.file
    }
    result.crash = ReplayResult.Crash(reason: reason, lastEvents: last)
    result.eventCount = events.split(separator: "\n").count
    try? ReplayCommand.write(
      result.json.jsonText + "\n", to: resultURL(scenario.name))
    return result
  }

  static func signalName(_ signal: Int32) -> String {
    let names: [Int32: String] = [
      4: "SIGILL", 5: "SIGTRAP", 6: "SIGABRT", 7: "SIGBUS", 8: "SIGFPE", 9: "SIGKILL",
      11: "SIGSEGV", 15: "SIGTERM",
    ]
    return names[signal].map { " (\($0))" } ?? ""
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
