import JSON

/// An error as the NCMB datastore's REST API returned it: a code such as `E403006` and a
/// message, sent as the JSON body `{"code":"E403006","error":"Invalid GeoPoint value."}`.
///
/// Codes and message templates follow NCMB's published REST error list
/// (mbaas.nifcloud.com/doc/current/rest/common/error.html). Which code the service used for
/// an out-of-range `limit` is not documented; GeoSim answers E400005 ("… is not a valid
/// value."), the list's code for a value outside its domain.
public struct NCMBError: Error, Hashable, Sendable, CustomStringConvertible {
  /// The NCMB code, `E` followed by the HTTP status and a three-digit detail.
  public let code: String
  /// The message, in the service's wording.
  public let message: String

  /// An error with the given code and message.
  public init(code: String, message: String) {
    self.code = code
    self.message = message
  }

  /// The HTTP status the service sent with this error (the code's first three digits).
  public var httpStatus: Int { Int(code.dropFirst().prefix(3)) ?? 500 }

  /// The response body: `{"code":"E…","error":"…"}`.
  public var body: JSONValue { .object(["code": .string(code), "error": .string(message)]) }

  /// `code: message`.
  public var description: String { "\(code): \(message)" }

  /// E400001: the request body or a JSON parameter does not parse.
  public static let invalidJSON = NCMBError(code: "E400001", message: "JSON is invalid format.")
  /// E403006: a GeoPoint value that is malformed or out of range.
  public static let invalidGeoPoint = NCMBError(
    code: "E403006", message: "Invalid GeoPoint value.")
  /// E404001: no object with the given id.
  public static let noData = NCMBError(code: "E404001", message: "No data available.")
  /// E500001: the service failed internally (for GeoSim, a storage backend failed).
  public static let internalFailure = NCMBError(
    code: "E500001", message: "Internal Server Error.")

  /// E400002: a parameter of the wrong type.
  public static func invalidType(_ name: String) -> NCMBError {
    NCMBError(code: "E400002", message: "\(name) is invalid.")
  }
  /// E400003: a required parameter is missing.
  public static func empty(_ name: String) -> NCMBError {
    NCMBError(code: "E400003", message: "\(name) is empty.")
  }
  /// E400004: a parameter in the wrong format.
  public static func invalidFormat(_ name: String) -> NCMBError {
    NCMBError(code: "E400004", message: "\(name) is invalid format.")
  }
  /// E400005: a parameter outside its valid values (limit outside 1…1000, negative skip).
  public static func notValidValue(_ name: String) -> NCMBError {
    NCMBError(code: "E400005", message: "\(name) is not a valid value.")
  }
  /// E400007: an import file with a bad line; `line` counts from 1.
  public static func importError(_ name: String, line: Int) -> NCMBError {
    NCMBError(code: "E400007", message: "\(name) is invalid format[lineNo:\(line)].")
  }
}
