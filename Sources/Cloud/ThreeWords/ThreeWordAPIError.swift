import Errors
import JSON

/// An error of the simulated three-word-address service, with the real service's code, HTTP
/// status and JSON body (`{"error": {"code": "BadWords", "message": "..."}}`).
public typealias ThreeWordAPIError = ModuleError<ThreeWordAPIErrorCode>

/// The code of a ``ThreeWordAPIError``, as the real service spells it. New codes may be added.
public struct ThreeWordAPIErrorCode: ModuleErrorCode, CustomStringConvertible {
  /// The code's text, such as `BadWords`.
  public let name: String
  /// The HTTP status the service answers with.
  public let httpStatus: Int
  init(_ name: String, _ httpStatus: Int = 400) {
    self.name = name
    self.httpStatus = httpStatus
  }
  /// Coordinates missing, malformed or out of range.
  public static let badCoordinates = ThreeWordAPIErrorCode("BadCoordinates")
  /// A language code that is not available (or does not cover the place asked for).
  public static let badLanguage = ThreeWordAPIErrorCode("BadLanguage")
  /// No `words` parameter.
  public static let missingWords = ThreeWordAPIErrorCode("MissingWords")
  /// Words that are not a three-word address.
  public static let badWords = ThreeWordAPIErrorCode("BadWords")
  /// An autosuggest `input` that is missing or empty.
  public static let badInput = ThreeWordAPIErrorCode("BadInput")
  /// `n-results` outside 1…100.
  public static let badNResults = ThreeWordAPIErrorCode("BadNResults")
  /// A malformed `focus`.
  public static let badFocus = ThreeWordAPIErrorCode("BadFocus")
  /// A malformed `clip-to-circle`.
  public static let badClipToCircle = ThreeWordAPIErrorCode("BadClipToCircle")
  /// A malformed `clip-to-bounding-box`.
  public static let badClipToBoundingBox = ThreeWordAPIErrorCode("BadClipToBoundingBox")
  /// A malformed `clip-to-polygon` (4–25 points, closed).
  public static let badClipToPolygon = ThreeWordAPIErrorCode("BadClipToPolygon")
  /// A malformed `clip-to-country` (ISO 3166-1 alpha-2 codes).
  public static let badClipToCountry = ThreeWordAPIErrorCode("BadClipToCountry")
  /// A malformed grid-section `bounding-box`.
  public static let badBoundingBox = ThreeWordAPIErrorCode("BadBoundingBox")
  /// A grid-section box whose diagonal exceeds 4 km.
  public static let badBoundingBoxTooBig = ThreeWordAPIErrorCode("BadBoundingBoxTooBig")
  /// A `format` other than `json`.
  public static let badFormat = ThreeWordAPIErrorCode("BadFormat")
  /// No API key while the service requires one.
  public static let missingKey = ThreeWordAPIErrorCode("MissingKey", 401)
  /// A wrong API key.
  public static let invalidKey = ThreeWordAPIErrorCode("InvalidKey", 401)
  /// The key's request quota is used up.
  public static let quotaExceeded = ThreeWordAPIErrorCode("QuotaExceeded", 402)
  /// An unknown endpoint.
  public static let notFound = ThreeWordAPIErrorCode("NotFound", 404)
  /// The code's text.
  public var description: String { name }

  /// `Code: message`.
  public func describe(_ message: String) -> String { "\(name): \(message)" }
}

extension ModuleError where Codes == ThreeWordAPIErrorCode {
  /// The HTTP status of the error response.
  public var httpStatus: Int { code.httpStatus }

  /// The JSON body of the error response.
  public var json: JSONValue {
    .object(["error": .object(["code": .string(code.name), "message": .string(message)])])
  }
}
