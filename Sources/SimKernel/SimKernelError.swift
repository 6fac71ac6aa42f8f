/// A misuse of the simulation kernel: scheduling in the past, running backwards, or running
/// past the safety limit. Each message names the instants involved.
public struct SimKernelError: Error, Hashable, Sendable, CustomStringConvertible {
  /// The kind of error. New kinds may be added.
  public struct Code: Hashable, Sendable {
    let name: String
    /// An event scheduled before `now`, or with a negative delay.
    public static let schedulingInThePast = Code(name: "schedulingInThePast")
    /// `run(until:)` with an instant before `now`.
    public static let runningBackwards = Code(name: "runningBackwards")
    /// `run()` executed more events than its limit without becoming quiescent.
    public static let eventLimitReached = Code(name: "eventLimitReached")
    /// An argument outside its domain.
    public static let invalidArgument = Code(name: "invalidArgument")
  }

  /// What kind of error this is.
  public let code: Code
  /// What went wrong.
  public let message: String

  init(_ code: Code, _ message: String) {
    self.code = code
    self.message = message
  }

  /// The message.
  public var description: String { message }
}
