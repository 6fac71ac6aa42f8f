import Errors

/// A trace file that cannot be read, or an argument outside its domain.
///
/// The message names the file, the line (and column where the parser knows it) and what was
/// expected, in one line: `route.gpx:12:7: expected '>' after attribute 'lat'`. Match on ``code``
/// to tell kinds apart; new codes may be added.
public struct TraceError: Error, Hashable, Sendable, CustomStringConvertible {
  /// The kind of an error. New kinds may be added in later versions.
  public struct Code: Hashable, Sendable, CustomStringConvertible {
    let name: String

    /// The bytes are not well-formed in the format they claim (or were detected) to be.
    public static let malformed = Code(name: "malformed")
    /// The file is well-formed but holds nothing usable (no points, unknown columns).
    public static let noPoints = Code(name: "noPoints")
    /// The content uses something refused for safety: a DTD, an entity, too deep or too large.
    public static let refused = Code(name: "refused")
    /// The format could not be recognised from the content.
    public static let unknownFormat = Code(name: "unknownFormat")
    /// The file could not be opened or read.
    public static let unreadable = Code(name: "unreadable")
    /// An argument outside its documented domain (a negative speed, one waypoint).
    public static let invalidArgument = Code(name: "invalidArgument")

    /// A readable rendering for messages and logs.
    public var description: String { name }
  }

  /// What kind of error this is.
  public let code: Code
  /// The file's name as given, or `nil` for in-memory input.
  public let file: String?
  /// The 1-based line, where known.
  public let line: Int?
  /// The 1-based column in bytes, where known.
  public let column: Int?
  /// What went wrong and what was expected.
  public let reason: String

  package init(
    _ code: Code, file: String?, line: Int? = nil, column: Int? = nil, _ reason: String
  ) {
    self.code = code
    self.file = file
    self.line = line
    self.column = column
    self.reason = reason
  }

  /// `file:line:column: reason`, leaving out what is not known.
  public var message: String {
    filePlace(file ?? "<input>", line: line, column: column) + ": " + reason
  }

  /// The message.
  public var description: String { message }
}
