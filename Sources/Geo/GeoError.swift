/// An error from the geometry layer: invalid input or a failed GEOS operation.
///
/// Every error names what was wrong in ``message``; GEOS failures carry GEOS's own message and
/// GeoJSON errors the path inside the document (for example `features[3].geometry.coordinates[0]`).
/// Match on ``code`` to tell kinds apart; new codes may be added.
public struct GeoError: Error, Hashable, Sendable, CustomStringConvertible {
  /// The kind of an error. New kinds may be added in later versions.
  public struct Code: Hashable, Sendable, CustomStringConvertible {
    let name: String

    /// A latitude or longitude that is not a finite number in range.
    public static let invalidCoordinate = Code(name: "invalidCoordinate")
    /// A geometry that breaks a structural rule (an unclosed ring, a one-point line string).
    public static let invalidGeometry = Code(name: "invalidGeometry")
    /// A WKT, WKB or GeoJSON document that cannot be read.
    public static let invalidFormat = Code(name: "invalidFormat")
    /// An argument outside its documented domain (a negative radius, `k` below 1).
    public static let invalidArgument = Code(name: "invalidArgument")
    /// GEOS reported an error; ``GeoError/message`` carries GEOS's message.
    public static let geos = Code(name: "geos")

    /// The code's name, such as `invalidArgument`.
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

  /// The error's ``message``.
  public var description: String { message }
}
