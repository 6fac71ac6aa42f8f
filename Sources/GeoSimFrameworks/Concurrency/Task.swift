import Device
import SimKernel

/// A unit of asynchronous work of the app (Swift's `Task`, standing in for it in code that
/// imports this module): it runs on the simulated phone's main thread in virtual time, as
/// does every child task it creates, so that `Task { }`, `Task.detached { }` and
/// `Task.sleep(for:)` are deterministic.
///
/// On iOS an unstructured task without actor isolation runs on the global concurrent
/// executor; here it runs on the app's one serial executor, so work that iOS might interleave
/// on several threads runs one job at a time, in the order it becomes ready. Suspension points
/// are where they are on iOS.
public struct Task<Success: Sendable, Failure: Error>: Sendable, Hashable {
  /// The Swift task underneath.
  public let base: _Concurrency.Task<Success, Failure>

  /// Cancels the task.
  public func cancel() { base.cancel() }

  /// Whether the task was cancelled.
  public var isCancelled: Bool { base.isCancelled }

  /// The task's result, once it finishes.
  public var result: Result<Success, Failure> {
    get async { await base.result }
  }
}

extension Task where Failure == Never {
  /// Runs `operation` as a new top-level task of the app, on its main thread.
  @discardableResult
  public init(
    priority: TaskPriority? = nil,
    @_inheritActorContext @_implicitSelfCapture operation:
      sending @escaping @isolated(any) ()
      async -> Success
  ) {
    let executor = Phone.requireCurrent(doing: "Task { }").runLoop.executor
    base = _Concurrency.Task(executorPreference: executor, priority: priority) {
      await operation()
    }
  }

  /// Runs `operation` as a new task that inherits nothing from the caller but the world.
  @discardableResult
  public static func detached(
    priority: TaskPriority? = nil, operation: sending @escaping @isolated(any) () async -> Success
  ) -> Task<Success, Never> {
    let executor = Phone.requireCurrent(doing: "Task.detached { }").runLoop.executor
    return Task(
      base: _Concurrency.Task.detached(priority: priority) {
        await withTaskExecutorPreference(executor) { await operation() }
      })
  }

  /// The task's value, once it finishes.
  public var value: Success {
    get async { await base.value }
  }
}

extension Task where Failure == any Error {
  /// Runs the throwing `operation` as a new top-level task of the app, on its main thread.
  @discardableResult
  public init(
    priority: TaskPriority? = nil,
    @_inheritActorContext @_implicitSelfCapture operation:
      sending @escaping @isolated(any) ()
      async throws -> Success
  ) {
    let executor = Phone.requireCurrent(doing: "Task { }").runLoop.executor
    base = _Concurrency.Task(executorPreference: executor, priority: priority) {
      try await operation()
    }
  }

  /// Runs the throwing `operation` as a new task that inherits nothing from the caller but the
  /// world.
  @discardableResult
  public static func detached(
    priority: TaskPriority? = nil,
    operation: sending @escaping @isolated(any) () async throws -> Success
  ) -> Task<Success, any Error> {
    let executor = Phone.requireCurrent(doing: "Task.detached { }").runLoop.executor
    return Task(
      base: _Concurrency.Task.detached(priority: priority) {
        try await withTaskExecutorPreference(executor) { try await operation() }
      })
  }

  /// The task's value, once it finishes, or its error.
  public var value: Success {
    get async throws { try await base.value }
  }
}

extension Task where Success == Never, Failure == Never {
  /// Whether the current task was cancelled.
  public static var isCancelled: Bool { _Concurrency.Task<Never, Never>.isCancelled }

  /// The current task's priority.
  public static var currentPriority: TaskPriority {
    _Concurrency.Task<Never, Never>.currentPriority
  }

  /// Throws `CancellationError` if the current task was cancelled.
  public static func checkCancellation() throws {
    try _Concurrency.Task<Never, Never>.checkCancellation()
  }

  /// Lets other ready work of the app run first.
  public static func yield() async {
    await _Concurrency.Task<Never, Never>.yield()
  }

  /// Suspends the current task for `duration` of the world's virtual time; throws
  /// `CancellationError` if the task is cancelled first.
  ///
  /// A sleep still unfinished when the run ends is listed among the app's pending work; when
  /// the world is over it ends as if its time had passed, so that the task can finish.
  public static func sleep(
    for duration: Duration, tolerance: Duration? = nil, file: StaticString = #fileID,
    line: UInt = #line
  ) async throws {
    let (seconds, attoseconds) = duration.components
    let nanoseconds = Double(seconds) * 1e9 + Double(attoseconds / 1_000_000_000)
    try await sleep(seconds: nanoseconds / 1e9, "Task.sleep(for:) at \(file):\(line)")
  }

  /// Suspends the current task for `duration` nanoseconds of virtual time.
  public static func sleep(
    nanoseconds duration: UInt64, file: StaticString = #fileID, line: UInt = #line
  ) async throws {
    try await sleep(seconds: Double(duration) / 1e9, "Task.sleep(nanoseconds:) at \(file):\(line)")
  }

  private static func sleep(seconds: Double, _ label: String) async throws {
    let runLoop = Phone.requireCurrent(doing: label).runLoop
    if runLoop.isShutDown {
      // The world is over: no time passes, and the task goes on at the next closing turn.
      await runLoop.closingTurn()
      return
    }
    let sleeper = Sleeper()
    try await withTaskCancellationHandler {
      try await withCheckedThrowingContinuation { continuation in
        sleeper.start(continuation) {
          runLoop.schedule(
            after: AppRunLoop.delay(seconds: seconds), kind: .sleep, label,
            endedBy: { sleeper.finish(throwing: nil) }
          ) {
            sleeper.finish(throwing: nil)
          }
        }
      }
    } onCancel: {
      sleeper.finish(throwing: CancellationError())
    }
  }
}

/// One sleep's state, shared by the sleeping task and whoever cancels it.
///
/// Unchecked: a world runs on one thread, and cancelling a task of a world is done from that
/// world's thread (its run loop stops the process otherwise).
private final class Sleeper: @unchecked Sendable {
  private var continuation: CheckedContinuation<Void, any Error>?
  private var work: AppWorkItem?
  private var cancelled = false

  func start(
    _ continuation: CheckedContinuation<Void, any Error>, schedule: () -> AppWorkItem
  ) {
    if cancelled {
      continuation.resume(throwing: CancellationError())
      return
    }
    self.continuation = continuation
    work = schedule()
  }

  func finish(throwing error: (any Error)?) {
    guard let continuation else {
      cancelled = error != nil
      return
    }
    self.continuation = nil
    work?.cancel()
    work = nil
    if let error { continuation.resume(throwing: error) } else { continuation.resume() }
  }
}
