import JSON

/// An error of the simulated three-word-address service, with the real service's code, HTTP
/// status and JSON body (`{"error": {"code": "BadWords", "message": "..."}}`).
public struct ThreeWordAPIError: Error, Hashable, Sendable, CustomStringConvertible {
  /// The error's code, as the real service spells it. New codes may be added.
  public struct Code: Hashable, Sendable, CustomStringConvertible {
    /// The code's text, such as `BadWords`.
    public let name: String
    /// The HTTP status the service answers with.
    public let httpStatus: Int
    init(_ name: String, _ httpStatus: Int = 400) {
      self.name = name
      self.httpStatus = httpStatus
    }
    /// Coordinates missing, malformed or out of range.
    public static let badCoordinates = Code("BadCoordinates")
    /// A language code that is not available (or does not cover the place asked for).
    public static let badLanguage = Code("BadLanguage")
    /// No `words` parameter.
    public static let missingWords = Code("MissingWords")
    /// Words that are not a three-word address.
    public static let badWords = Code("BadWords")
    /// An autosuggest `input` that is missing or empty.
    public static let badInput = Code("BadInput")
    /// `n-results` outside 1…100.
    public static let badNResults = Code("BadNResults")
    /// A malformed `focus`.
    public static let badFocus = Code("BadFocus")
    /// A malformed `clip-to-circle`.
    public static let badClipToCircle = Code("BadClipToCircle")
    /// A malformed `clip-to-bounding-box`.
    public static let badClipToBoundingBox = Code("BadClipToBoundingBox")
    /// A malformed `clip-to-polygon` (4–25 points, closed).
    public static let badClipToPolygon = Code("BadClipToPolygon")
    /// A malformed `clip-to-country` (ISO 3166-1 alpha-2 codes).
    public static let badClipToCountry = Code("BadClipToCountry")
    /// A malformed grid-section `bounding-box`.
    public static let badBoundingBox = Code("BadBoundingBox")
    /// A grid-section box whose diagonal exceeds 4 km.
    public static let badBoundingBoxTooBig = Code("BadBoundingBoxTooBig")
    /// A `format` other than `json`.
    public static let badFormat = Code("BadFormat")
    /// No API key while the service requires one.
    public static let missingKey = Code("MissingKey", 401)
    /// A wrong API key.
    public static let invalidKey = Code("InvalidKey", 401)
    /// The key's request quota is used up.
    public static let quotaExceeded = Code("QuotaExceeded", 402)
    /// An unknown endpoint.
    public static let notFound = Code("NotFound", 404)
    /// The code's text.
    public var description: String { name }
  }

  /// What kind of error this is.
  public let code: Code
  /// The message, worded like the real service's.
  public let message: String

  /// An error of the given kind.
  public init(_ code: Code, _ message: String) {
    self.code = code
    self.message = message
  }

  /// The HTTP status of the error response.
  public var httpStatus: Int { code.httpStatus }

  /// The JSON body of the error response.
  public var json: JSONValue {
    .object(["error": .object(["code": .string(code.name), "message": .string(message)])])
  }

  /// `Code: message`.
  public var description: String { "\(code.name): \(message)" }
}
