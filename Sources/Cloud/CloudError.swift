import Errors

/// A misuse of a simulated cloud service's Swift API (as opposed to a service error, which the
/// service returns in its own format, as the real one does). The message names the bad value
/// and what was expected.
public typealias CloudError = ModuleError<CloudErrorCode>

/// The kind of a ``CloudError``. New kinds may be added.
public struct CloudErrorCode: ModuleErrorCode, CustomStringConvertible {
  let name: String
  /// An argument outside its documented domain.
  public static let invalidArgument = CloudErrorCode(name: "invalidArgument")
  /// A dataset or word list that cannot be read; the message names the file and line.
  public static let invalidData = CloudErrorCode(name: "invalidData")
  /// A database server that cannot be reached, refuses the credentials, lacks the table or
  /// column named, or runs past its statement timeout; the message names the database (its URL
  /// without the password) and what was expected.
  public static let database = CloudErrorCode(name: "database")
  /// The code's name.
  public var description: String { name }
}
