/// An error from the device layer: an argument or a trajectory that breaks a documented rule.
///
/// Every error names what was wrong in ``message`` — for a trajectory, the index and time of the
/// offending sample. Match on ``code`` to tell kinds apart; new codes may be added.
public struct DeviceError: Error, Hashable, Sendable, CustomStringConvertible {
  /// The kind of an error. New kinds may be added in later versions.
  public struct Code: Hashable, Sendable, CustomStringConvertible {
    let name: String

    /// An argument outside its documented domain (a non-polygonal environment area, a negative
    /// interval).
    public static let invalidArgument = Code(name: "invalidArgument")
    /// A trajectory that is empty, goes back in time or holds a value that is not finite.
    public static let invalidTrajectory = Code(name: "invalidTrajectory")

    /// A readable rendering for messages and logs.
    public var description: String { name }
  }

  /// What kind of error this is.
  public let code: Code
  /// What went wrong, naming the offending value or place.
  public let message: String

  init(_ code: Code, _ message: String) {
    self.code = code
    self.message = message
  }

  /// A readable rendering for messages and logs.
  public var description: String { message }
}
