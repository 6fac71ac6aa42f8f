import Device

/// A continuation of the app's code that is resumed once: by the system's answer or, when the
/// world is over first, by the answer `AppRunLoop.shutDown()` gives in its place — whichever
/// comes first; the other does nothing.
///
/// Unchecked: a world runs on one thread, and its run loop stops the process when its work
/// comes from any other.
final class Resumption<Value, Failure: Error>: @unchecked Sendable {
  private var continuation: CheckedContinuation<Value, Failure>?

  init(_ continuation: CheckedContinuation<Value, Failure>) {
    self.continuation = continuation
  }

  /// Resumes the app's code with `result`, unless it was resumed already.
  func resume(with result: sending Result<Value, Failure>) {
    guard let continuation else { return }
    self.continuation = nil
    continuation.resume(with: result)
  }
}

extension AppRunLoop {
  /// In a world that is over, waits for the closing run loop's next turn, so that an answer
  /// that would come at once — a cancelled sleep, an ended stream — costs one piece of its
  /// bounded work (`AppRunLoop.closingBudget`) and a loop that keeps asking cannot hold the end
  /// of the world forever. Returns at once while the world runs.
  func closingTurn() async {
    guard isShutDown else { return }
    // Unsafe: once the budget is spent the turn never comes, which is not a misuse.
    await withUnsafeContinuation { continuation in
      enqueue("closing turn") { continuation.resume() }
    }
  }
}
