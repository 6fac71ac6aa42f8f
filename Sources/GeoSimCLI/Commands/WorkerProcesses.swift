import Foundation
import Synchronization

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Runs units of work in worker processes of this tool: `jobs` workers at once, each given a
/// chunk of units in order. A worker writes one result file per unit as it finishes it; when a worker
/// dies, the first unit of its batch without a result is the one it died in — that unit becomes
/// a crash, and a new worker takes the rest of the batch.
struct WorkerProcesses: Sendable {
  /// This tool's executable.
  let executable: String

  /// How a worker ended.
  struct Ending: Sendable {
    /// The exit status or the signal number.
    let status: Int32
    /// Whether a signal ended it.
    let signalled: Bool
    /// What it wrote to standard error.
    let stderr: String

    /// `signal 4 (SIGILL): Fatal error: …` or `exit status 1: …`.
    var reason: String {
      var reason =
        signalled ? "signal \(status)\(Self.signalName(status))" : "exit status \(status)"
      let lines = stderr.split(separator: "\n").map(String.init)
      if let message = lines.last(where: { $0.contains("Fatal error") || $0.contains("error:") })
        ?? lines.last
      {
        reason += ": " + message.trimmingCharacters(in: .whitespaces)
      }
      return reason
    }

    /// What the worker said when it stopped for its time limit, or `nil` if it did not.
    var timeLimitReason: String? {
      guard !signalled, status == WorkerTimeLimit.exitStatus else { return nil }
      let prefix = "time limit: "
      let line = stderr.split(separator: "\n").last { $0.hasPrefix(prefix) }
      return line.map { String($0.dropFirst(prefix.count)) } ?? "ran past its time limit"
    }

    static func signalName(_ signal: Int32) -> String {
      // The platform's own numbers: SIGBUS is 7 on Linux and 10 on macOS.
      let names: [Int32: String] = [
        SIGILL: "SIGILL", SIGTRAP: "SIGTRAP", SIGABRT: "SIGABRT", SIGBUS: "SIGBUS",
        SIGFPE: "SIGFPE", SIGKILL: "SIGKILL", SIGSEGV: "SIGSEGV", SIGTERM: "SIGTERM",
      ]
      return names[signal].map { " (\($0))" } ?? ""
    }
  }

  /// Runs units `0..<count` and returns their results in order.
  ///
  /// - Parameters:
  ///   - arguments: the worker's arguments for a batch of units.
  ///   - clear: removes a unit's stale result before a worker starts on it.
  ///   - read: a unit's result, once its worker has written it.
  ///   - crashed: the result of the unit a worker died in.
  ///   - finished: called as each unit's result is known (any thread).
  func run<Result: Sendable>(
    count: Int, jobs: Int, arguments: @escaping @Sendable ([Int]) -> [String],
    clear: @escaping @Sendable (Int) -> Void, read: @escaping @Sendable (Int) -> Result?,
    crashed: @escaping @Sendable (Int, Ending) -> Result,
    finished: @escaping @Sendable (Int, Result) -> Void
  ) throws -> [Result] {
    guard count > 0 else { return [] }
    let jobs = max(1, min(jobs, count))
    // Units are handed out in chunks from a shared queue, so a slow chunk does not hold up the
    // others; a few chunks per worker keep process starts few.
    let chunk = max(1, (count + 2 * jobs - 1) / (2 * jobs))
    let shared = Shared<Result>()
    let done = DispatchGroup()
    for _ in 0..<jobs {
      done.enter()
      let thread = Thread {
        defer { done.leave() }
        while shared.failure.withLock({ $0 == nil }) {
          let range = shared.next.withLock { first -> Range<Int> in
            let range = first..<min(count, first + chunk)
            first = range.upperBound
            return range
          }
          guard !range.isEmpty else { return }
          var remaining = Array(range)
          do {
            while !remaining.isEmpty {
              remaining.forEach(clear)
              let ending = try launch(arguments(remaining))
              if !ending.signalled, ending.status == OutputFailure.exitStatus {
                // The worker could not write its output: the run cannot go on, and it is not a
                // crash of the app.
                let lines = ending.stderr.split(separator: "\n")
                throw OutputFailure(lines.last.map(String.init) ?? "a worker could not write")
              }
              var rest: [Int] = []
              for (position, unit) in remaining.enumerated() {
                if let result = read(unit) {
                  shared.results.withLock { $0[unit] = result }
                  finished(unit, result)
                  continue
                }
                // The first unit without a result is the one the worker died in.
                let result = crashed(unit, ending)
                shared.results.withLock { $0[unit] = result }
                finished(unit, result)
                rest = Array(remaining[(position + 1)...])
                break
              }
              remaining = rest
            }
          } catch {
            shared.failure.withLock { $0 = $0 ?? error }
          }
        }
      }
      thread.start()
    }
    done.wait()
    if let error = shared.failure.withLock({ $0 }) { throw error }
    let all = shared.results.withLock { $0 }
    return (0..<count).map { all[$0]! }
  }

  /// What the worker threads share.
  private final class Shared<Result: Sendable>: Sendable {
    let next = Mutex(0)
    let results = Mutex<[Int: Result]>([:])
    let failure = Mutex<(any Error)?>(nil)
  }

  private func launch(_ arguments: [String]) throws -> Ending {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: executable)
    process.arguments = arguments
    process.environment = WorkerLifetime.environment()
    let errors = Pipe()
    process.standardError = errors
    process.standardOutput = FileHandle.nullDevice
    try process.run()
    let data = errors.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return Ending(
      status: process.terminationStatus, signalled: process.terminationReason == .uncaughtSignal,
      stderr: String(decoding: data, as: UTF8.self))
  }
}
