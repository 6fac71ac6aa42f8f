import Foundation
import JSON
import Reporting
import Synchronization

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Runs units of work in worker processes of this tool: `jobs` workers at once, each taking the
/// next unit from a shared queue as it finishes the last, so that resources load once per worker
/// and no worker waits while another still has a queue of its own.
///
/// A worker is started with ``unitsOnRequest``: the parent sends it its units on its standard
/// input, a line of JSON each and two ahead of its answers (one for the last few units), and
/// the worker answers `done` on its standard output once it has written a unit's result
/// (``UnitRequests`` is its side). A worker that dies leaves its oldest unit without an answer:
/// that unit becomes a crash, and a new worker is sent the ones after it.
struct WorkerProcesses: Sendable {
  /// The option that makes a worker take its units on request.
  static let unitsOnRequest = "--units-on-request"

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

  /// Starts `count` workers with `arguments` now, before their units are known: their start
  /// (a process, its runtime, its arguments) then overlaps what the caller does meanwhile, such
  /// as checking its input. The next ``run(count:jobs:arguments:started:request:clear:read:crashed:finished:)``
  /// with the same arguments takes them; ``StartedWorkers/end()`` ends those it did not.
  ///
  /// A worker that cannot be started is left to `run`, which starts its own and reports why
  /// it cannot.
  func start(_ count: Int, arguments: [String]) -> StartedWorkers {
    // Each on a thread of its own: a start waits for its process to be spawned.
    let workers = Mutex<[Worker]>([])
    DispatchQueue.concurrentPerform(iterations: count) { _ in
      guard let worker = try? Worker(executable: executable, arguments: arguments) else { return }
      workers.withLock { $0.append(worker) }
    }
    return StartedWorkers(arguments: arguments, workers: workers.withLock { $0 })
  }

  /// Workers started by ``start(_:arguments:)``, waiting for their first unit.
  final class StartedWorkers: Sendable {
    fileprivate let arguments: [String]
    private let workers: Mutex<[Worker]>

    fileprivate init(arguments: [String], workers: [Worker]) {
      self.arguments = arguments
      self.workers = Mutex(workers)
    }

    /// A started worker for a run with `arguments`, if one is left.
    fileprivate func take(for arguments: [String]) -> Worker? {
      guard arguments == self.arguments else { return nil }
      return workers.withLock { $0.popLast() }
    }

    /// Ends the workers no run took (each ends when told there is nothing to do).
    func end() {
      let left = workers.withLock { workers in
        defer { workers = [] }
        return workers
      }
      for worker in left { _ = worker.end() }
    }
  }

  /// Runs units `0..<count` and returns their results in order.
  ///
  /// - Parameters:
  ///   - arguments: a worker's arguments, ``unitsOnRequest`` among them.
  ///   - started: workers started for these arguments beforehand, taken first.
  ///   - request: what a worker is sent for a unit (one JSON value, written on one line).
  ///   - clear: removes a unit's stale result before a worker starts on it.
  ///   - read: a unit's result, once its worker has written it.
  ///   - crashed: the result of the unit a worker died in.
  ///   - finished: called as each unit's result is known (any thread).
  func run<Result: Sendable>(
    count: Int, jobs: Int, arguments: [String], started: StartedWorkers? = nil,
    request: @escaping @Sendable (Int) -> JSONValue,
    clear: @escaping @Sendable (Int) -> Void, read: @escaping @Sendable (Int) -> Result?,
    crashed: @escaping @Sendable (Int, Ending) -> Result,
    finished: @escaping @Sendable (Int, Result) -> Void
  ) throws -> [Result] {
    guard count > 0 else { return [] }
    let jobs = max(1, min(jobs, count))
    let shared = Shared<Result>()
    let done = DispatchGroup()
    for _ in 0..<jobs {
      done.enter()
      let thread = Thread {
        defer { done.leave() }
        var worker = started?.take(for: arguments)
        defer { _ = worker?.end() }
        // Units sent to the worker and not yet answered, in order: two, so that the worker
        // finds its next unit waiting when it finishes one. Then units it must be sent again
        // (a new worker's, after the last one died).
        var sent: [Int] = []
        var again: [Int] = []
        func take() -> Int? {
          if !again.isEmpty { return again.removeFirst() }
          let unit = shared.next.withLock { next -> Int in
            defer { next += 1 }
            return next
          }
          return unit < count ? unit : nil
        }
        // Two units ahead, so that the worker finds its next one waiting; one when the last
        // few are left, so that no worker still holds one queued while another has none.
        func ahead() -> Int {
          again.isEmpty && shared.next.withLock({ count - $0 }) < 2 * jobs ? 1 : 2
        }
        do {
          while shared.failure.withLock({ $0 == nil }) {
            while sent.count < ahead(), let unit = take() {
              clear(unit)
              let running = try worker ?? Worker(executable: executable, arguments: arguments)
              worker = running
              sent.append(unit)
              // A worker that cannot be sent its unit has ended: its answers say where.
              guard running.send(request(unit)) else { break }
            }
            guard let unit = sent.first, let running = worker else { return }
            let result: Result
            if try running.answered() {
              result =
                read(unit)
                ?? crashed(
                  unit,
                  Ending(
                    status: 0, signalled: false, stderr: "the worker wrote no result for the unit"))
              sent.removeFirst()
            } else {
              // No answer: the worker died in this unit (or could not write its output); the
              // ones after it go to a new worker.
              worker = nil
              let ending = running.end()
              if !ending.signalled, ending.status == OutputFailure.exitStatus {
                // The run cannot go on, and it is not a crash of the app.
                let lines = ending.stderr.split(separator: "\n")
                throw OutputFailure(lines.last.map(String.init) ?? "a worker could not write")
              }
              result = crashed(unit, ending)
              again = sent.dropFirst() + again
              sent = []
            }
            shared.results.withLock { $0[unit] = result }
            finished(unit, result)
          }
        } catch {
          shared.failure.withLock { $0 = $0 ?? error }
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

  /// A worker process and the parent's end of its channel: a socket pair, so that a write to a
  /// worker that has died fails with `EPIPE` instead of raising `SIGPIPE` in the parent.
  // Sendable only to be handed over from the thread that started it to the one that runs it,
  // which alone uses it from then on.
  fileprivate final class Worker: @unchecked Sendable {
    private let process = Process()
    private let channel: Int32
    private let errors = Pipe()
    private let errorText = ErrorText()
    private var answers: LineReader
    private var ended: Ending?

    init(executable: String, arguments: [String]) throws {
      var ends: [Int32] = [-1, -1]
      guard
        socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0, &ends)
          == 0
      else {
        throw OutputFailure("cannot start a worker: \(String(cString: strerror(errno)))")
      }
      channel = ends[0]
      answers = LineReader(ends[0])
      let workerEnd = FileHandle(fileDescriptor: ends[1], closeOnDealloc: true)
      process.executableURL = URL(fileURLWithPath: executable)
      process.arguments = arguments
      process.environment = WorkerLifetime.environment()
      process.standardInput = workerEnd
      process.standardOutput = workerEnd
      process.standardError = errors
      do {
        try process.run()
      } catch {
        close(channel)
        throw error
      }
      try? workerEnd.close()
      // What the worker writes to standard error is read as it comes, so that it never fills
      // the pipe while the worker runs unit after unit.
      let reader = Thread { [errors, errorText] in
        let data = errors.fileHandleForReading.readDataToEndOfFile()
        errorText.data.withLock { $0 = data }
        errorText.read.signal()
      }
      reader.start()
    }

    /// Sends `request`; `false` when the worker has ended.
    func send(_ request: JSONValue) -> Bool {
      let line = Array((request.jsonText + "\n").utf8)
      var sent = 0
      while sent < line.count {
        let n = line[sent...].withUnsafeBytes {
          Glibc.send(channel, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL))
        }
        if n < 0, errno == EINTR { continue }
        guard n > 0 else { return false }
        sent += n
      }
      return true
    }

    /// Waits for the worker's next answer: `true` when it has finished its oldest unit, `false`
    /// when it ended first.
    ///
    /// - Throws: ``OutputFailure`` for an answer that is not `done`.
    func answered() throws -> Bool {
      guard let line = answers.next() else { return false }
      guard line == Array("done".utf8) else {
        throw OutputFailure(
          "a worker answered '\(String(decoding: line, as: UTF8.self))'; expected 'done'")
      }
      return true
    }

    /// What the worker wrote to standard error, once it has closed it.
    private final class ErrorText: Sendable {
      let data = Mutex(Data())
      let read = DispatchSemaphore(value: 0)
    }

    /// Tells the worker there is nothing more and waits for it to end.
    func end() -> Ending {
      if let ended { return ended }
      close(channel)
      errorText.read.wait()
      process.waitUntilExit()
      let ending = Ending(
        status: process.terminationStatus, signalled: process.terminationReason == .uncaughtSignal,
        stderr: String(decoding: errorText.data.withLock { $0 }, as: UTF8.self))
      ended = ending
      return ending
    }
  }
}

/// A worker's side of ``WorkerProcesses``: the units the parent sends, one line of JSON each,
/// answered with `done` once each unit's result is written.
///
/// The units come on the worker's standard input and the answers go to its standard output, as
/// they are when it starts; both are pointed at `/dev/null` from then on, so that what the app's
/// code prints or reads never reaches the parent.
struct UnitRequests: ~Copyable {
  private var input: LineReader
  private let output: Int32

  init() {
    input = LineReader(fcntl(STDIN_FILENO, F_DUPFD_CLOEXEC, 3))
    output = fcntl(STDOUT_FILENO, F_DUPFD_CLOEXEC, 3)
    let null = open("/dev/null", O_RDWR)
    if null >= 0 {
      dup2(null, STDIN_FILENO)
      dup2(null, STDOUT_FILENO)
      close(null)
    }
  }

  /// The next unit, or `nil` when the parent sends no more.
  ///
  /// - Throws: ``BadInput`` for a line that is not JSON.
  mutating func next() throws -> JSONValue? {
    guard let line = input.next() else { return nil }
    do {
      return try JSONValue(parsing: Data(line))
    } catch {
      throw BadInput("the unit sent to this worker is not JSON: \(error)")
    }
  }

  /// Tells the parent that the unit it sent last is finished (its result written).
  func done() {
    let failure = Array("done\n".utf8).withUnsafeBytes { writeAll($0, to: output) }
    // The parent is gone: this worker has nobody to work for.
    if failure != 0 { _exit(3) }
  }
}

/// The lines read from a file descriptor, each as it is complete: the two ends of the worker
/// channel's conversation.
private struct LineReader {
  private let descriptor: Int32
  private var buffer: [UInt8] = []

  init(_ descriptor: Int32) { self.descriptor = descriptor }

  /// The next line without its newline; `nil` at the end or on a read error (text after the
  /// last newline is no line: its writer ended before finishing it).
  mutating func next() -> [UInt8]? {
    var chunk = [UInt8](repeating: 0, count: 4_096)
    while true {
      if let newline = buffer.firstIndex(of: 0x0A) {
        let line = Array(buffer[..<newline])
        buffer.removeSubrange(...newline)
        return line
      }
      let n = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
      if n < 0, errno == EINTR { continue }
      guard n > 0 else { return nil }
      buffer += chunk[..<n]
    }
  }
}
