/// A misuse of a simulated cloud service's Swift API (as opposed to a service error, which the
/// service returns in its own format, as the real one does). The message names the bad value
/// and what was expected.
public struct CloudError: Error, Hashable, Sendable, CustomStringConvertible {
  /// The kind of error. New kinds may be added.
  public struct Code: Hashable, Sendable, CustomStringConvertible {
    let name: String
    /// An argument outside its documented domain.
    public static let invalidArgument = Code(name: "invalidArgument")
    /// A dataset or word list that cannot be read; the message names the file and line.
    public static let invalidData = Code(name: "invalidData")
    /// The code's name.
    public var description: String { name }
  }

  /// What kind of error this is.
  public let code: Code
  /// What went wrong.
  public let message: String

  /// An error of the given kind.
  public init(_ code: Code, _ message: String) {
    self.code = code
    self.message = message
  }

  /// The message.
  public var description: String { message }
}
