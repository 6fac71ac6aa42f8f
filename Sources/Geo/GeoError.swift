import Errors

/// An error from the geometry layer: invalid input or a failed GEOS operation.
///
/// Every error names what was wrong in its `message`; GEOS failures carry GEOS's own message
/// and GeoJSON errors the path inside the document (for example
/// `features[3].geometry.coordinates[0]`). Match on `code` to tell kinds apart; new codes may be
/// added.
public typealias GeoError = ModuleError<GeoErrorCode>

/// The kind of a ``GeoError``. New kinds may be added in later versions.
public struct GeoErrorCode: ModuleErrorCode, CustomStringConvertible {
  let name: String

  /// A latitude or longitude that is not a finite number in range.
  public static let invalidCoordinate = GeoErrorCode(name: "invalidCoordinate")
  /// A geometry that breaks a structural rule (an unclosed ring, a one-point line string).
  public static let invalidGeometry = GeoErrorCode(name: "invalidGeometry")
  /// A WKT, WKB or GeoJSON document that cannot be read.
  public static let invalidFormat = GeoErrorCode(name: "invalidFormat")
  /// An argument outside its documented domain (a negative radius, `k` below 1).
  public static let invalidArgument = GeoErrorCode(name: "invalidArgument")
  /// GEOS reported an error; the error's `message` carries GEOS's message.
  public static let geos = GeoErrorCode(name: "geos")

  /// A readable rendering for messages and logs.
  public var description: String { name }
}
