import ArgumentParser
import Foundation
import JSON
import Replay
import Synchronization

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The budgets a scenario replays within: its kernel events, which the world counts (the same
/// on every machine), and its host time in its worker process, which a watchdog in the worker
/// measures. A replay that runs out of either is reported as `TIMEOUT`, not as a crash.
struct ReplayBudget: ParsableArguments {
  @Option(
    help: ArgumentHelp(
      "The most kernel events one replay may fire (default \(World.defaultEventLimit)); a "
        + "replay that needs more is stopped where it is and reported TIMEOUT.",
      valueName: "n"))
  var eventLimit = World.defaultEventLimit

  @Option(
    help: ArgumentHelp(
      "The most seconds of host time one scenario may take (default "
        + "\(Int(Self.defaultTimeLimit))); a scenario past it is stopped and reported TIMEOUT.",
      valueName: "seconds"))
  var timeLimit = Self.defaultTimeLimit

  /// Ten minutes: a day of virtual time at one fix per second replays in about a second.
  static let defaultTimeLimit = 600.0

  func validate() throws {
    guard eventLimit >= 1 else {
      throw ValidationError("--event-limit must be at least 1, got \(eventLimit)")
    }
    guard timeLimit.isFinite, timeLimit > 0, timeLimit <= 1e9 else {
      throw ValidationError(
        "--time-limit must be a number of seconds above 0 and at most 1e9, got \(timeLimit)")
    }
  }

  /// The options as a worker process is given them.
  var workerArguments: [String] {
    ["--event-limit", String(eventLimit), "--time-limit", String(timeLimit)]
  }
}

/// A worker's watch over its scenarios' host time: when one takes longer than its limit, the
/// worker says so on standard error and ends with ``exitStatus`` (an app caught in a loop
/// inside one event cannot be stopped any other way); the tool reports that scenario as
/// `TIMEOUT` and goes on with the rest in a new worker.
final class WorkerTimeLimit: Sendable {
  /// The status a worker ends with when a scenario ran past its time limit.
  static let exitStatus: Int32 = 5

  private let seconds: Double
  /// The scenario being timed and the number of its watch (a later watch ends earlier ones).
  private let current = Mutex<(label: String, number: Int)?>(nil)
  private let counter = Mutex(0)

  init(seconds: Double) {
    self.seconds = seconds
  }

  /// Times `body`, the replay of `label`.
  func watch<T>(_ label: String, _ body: () throws -> T) rethrows -> T {
    let number = counter.withLock { n -> Int in
      n += 1
      return n
    }
    current.withLock { $0 = (label, number) }
    DispatchQueue.global().asyncAfter(deadline: .now() + seconds) { [self] in
      guard let watched = current.withLock({ $0 }), watched.number == number else { return }
      let message =
        "time limit: \(watched.label) took more than \(JSONText.number(seconds)) s of host "
        + "time (--time-limit)\n"
      _ = message.withCString { write(2, $0, strlen($0)) }
      // The parent reads the last events from the file.
      EventFile.writePending()
      _exit(Self.exitStatus)
    }
    defer { current.withLock { $0 = nil } }
    return try body()
  }
}
