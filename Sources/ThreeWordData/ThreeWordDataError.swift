import Errors

/// A three-word data file that cannot be read: the message names the file, the line or the
/// table, and what was expected. The three-word service reports it as its own `CloudError`.
package typealias ThreeWordDataError = ModuleError<ThreeWordDataErrorCode>

/// The kind of a ``ThreeWordDataError``.
package struct ThreeWordDataErrorCode: ModuleErrorCode {
  let name: String
  /// A text file or a table file that is damaged or of another version.
  package static let invalidData = ThreeWordDataErrorCode(name: "invalidData")
}
