/// A reference app's configuration was rejected: an unknown key, a value of the wrong type or
/// out of range.
public struct ReferenceAppConfigurationError: Error, Hashable, Sendable, CustomStringConvertible {
  /// Where the problem is, relative to the configuration object: `"destination.latitude"`, or
  /// `""` for the object itself.
  public let path: String
  /// What was expected there.
  public let message: String

  /// An error at `path`.
  public init(path: String, message: String) {
    self.path = path
    self.message = message
  }

  /// `path: message`, or the message alone for the whole object.
  public var description: String { path.isEmpty ? message : "\(path): \(message)" }
}
