import Device

/// The app's main actor: code isolated to it runs on the simulated phone's main thread, in the
/// world's virtual time, one job at a time (Swift's `MainActor`, standing in for it in code
/// that imports this module).
///
/// Its executor is the `AppExecutor` of the phone whose world runs on the calling thread, so
/// that `@MainActor` types, `Task { @MainActor in … }` and `await MainActor.run { … }` run as
/// kernel events of that world. Using it outside any world stops the process with a message
/// that says how to run the code in one.
@globalActor public final actor MainActor {
  /// The shared instance; every world's main thread is reached through it.
  public static let shared = MainActor()

  private init() {}

  /// The running world's main-thread executor.
  public nonisolated var unownedExecutor: UnownedSerialExecutor {
    Phone.requireCurrent(doing: "@MainActor code").runLoop.executor.asUnownedSerialExecutor()
  }

  /// Runs `body` on the main actor and returns its result.
  public static func run<T: Sendable, E: Error>(
    resultType: T.Type = T.self, body: @MainActor @Sendable () throws(E) -> T
  ) async throws(E) -> T {
    try await body()
  }

  /// Runs `operation` as main-actor code from synchronous code that is already on the main
  /// thread (a delegate callback, a main-queue block); stops the process otherwise.
  public static func assumeIsolated<T: Sendable>(
    _ operation: @MainActor () throws -> T, file: StaticString = #fileID, line: UInt = #line
  ) rethrows -> T {
    _ = Phone.requireCurrent(doing: "MainActor.assumeIsolated at \(file):\(line)")
    return try withoutActuallyEscaping(operation) { operation in
      try unsafeBitCast(operation, to: (() throws -> T).self)()
    }
  }
}
