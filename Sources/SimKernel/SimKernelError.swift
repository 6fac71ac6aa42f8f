import Errors

/// A misuse of the simulation kernel: scheduling in the past, running backwards, or running
/// past the safety limit. Each message names the instants involved.
public typealias SimKernelError = ModuleError<SimKernelErrorCode>

/// The kind of a ``SimKernelError``. New kinds may be added.
public struct SimKernelErrorCode: ModuleErrorCode {
  let name: String
  /// An event scheduled before `now`, or with a negative delay.
  public static let schedulingInThePast = SimKernelErrorCode(name: "schedulingInThePast")
  /// `run(until:)` with an instant before `now`.
  public static let runningBackwards = SimKernelErrorCode(name: "runningBackwards")
  /// `run()` executed more events than its limit without becoming quiescent.
  public static let eventLimitReached = SimKernelErrorCode(name: "eventLimitReached")
  /// An argument outside its domain.
  public static let invalidArgument = SimKernelErrorCode(name: "invalidArgument")
}
