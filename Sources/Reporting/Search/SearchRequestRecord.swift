import Geo
import SimKernel

/// What kind of geo search a request was.
public enum SearchKind: String, Hashable, Sendable, CaseIterable {
  /// An NCMB `$nearSphere` query.
  case ncmbNear = "ncmb.near"
  /// An NCMB `$within.$box` query.
  case ncmbBox = "ncmb.box"
  /// Any other NCMB request (no geo condition, or one that could not be read).
  case ncmbOther = "ncmb.other"
  /// Three-word convert-to-3wa: a point to its words.
  case threeWordsToWords = "threewords.convert-to-3wa"
  /// Three-word convert-to-coordinates: words to their square.
  case threeWordsToCoordinates = "threewords.convert-to-coordinates"
  /// Three-word autosuggest.
  case threeWordsAutosuggest = "threewords.autosuggest"
  /// Any other three-word request (grid-section, available-languages, unknown paths).
  case threeWordsOther = "threewords.other"
  /// Reverse geocoding: a point to an address.
  case geocodeReverse = "geocoder.reverse"
  /// Forward geocoding: text to places.
  case geocodeForward = "geocoder.forward"
}

/// Something about a search that a reader should look at.
public enum SearchAnomaly: String, Hashable, Sendable, CaseIterable, Comparable {
  /// An NCMB box whose "southwest" corner was north or (the long way round) east of its
  /// "northeast" one.
  case invertedBox
  /// A coordinate in the request lies within 0.01° of latitude and longitude of (0, 0), the
  /// value an unset location reads as.
  case nearNullIsland
  /// Sent while the phone was offline (an offline window of the network log, or a
  /// `notConnectedToInternet` / Airplane-mode failure).
  case offline
  /// The request timed out (`timedOut`).
  case timedOut
  /// The service answered with an HTTP status of 500 or more.
  case serverError
  /// The service answered with an error body (an NCMB `code`, a three-word `error.code`) or
  /// the geocoder failed.
  case serviceError
  /// No answer was logged before the run ended.
  case unanswered
  /// True matches were beyond the request's `limit` (NCMB).
  case lostToLimit
  /// A true match within the limit was not returned (NCMB).
  case missedResults
  /// A returned object is not a true match (NCMB).
  case extraResults
  /// Near results were not in nearest-first order by true (geodesic) distance (NCMB).
  case outOfOrder
  /// A station's membership differs between NCMB's spherical distance and the geodesic one.
  case boundaryDisagreement
  /// The three-word round-trip check failed: the square of the returned words does not hold
  /// the requested point, or the decoded words do not match the response
  /// (``ThreeWordCheck`` says what this can and cannot catch).
  case wrongSquare

  /// Ordered by raw value, so lists and counts are written in a stable order.
  public static func < (a: SearchAnomaly, b: SearchAnomaly) -> Bool { a.rawValue < b.rawValue }
}

/// A request's simulated time, split as the network log splits it.
public struct SearchLatency: Hashable, Sendable {
  /// From sending to the answer (or failure) reaching the app, in seconds.
  public let totalSeconds: Double
  /// The simulated round trip on the link, in seconds (`nil` for the geocoder, which logs no
  /// split).
  public let networkSeconds: Double?
  /// The server's own time, in seconds (`nil` for the geocoder).
  public let serviceSeconds: Double?

  /// A latency from its parts.
  public init(totalSeconds: Double, networkSeconds: Double?, serviceSeconds: Double?) {
    self.totalSeconds = totalSeconds
    self.networkSeconds = networkSeconds
    self.serviceSeconds = serviceSeconds
  }
}

/// One result a search returned, as read from the response.
public struct SearchResultItem: Hashable, Sendable {
  /// NCMB's `objectId`, if any.
  public let id: String?
  /// The station's `name`, the three words, or the geocoder's place name.
  public let label: String?
  /// Where the result is (NCMB's GeoPoint, the square's centre), if the response says.
  public let coordinate: Coordinate?

  /// An item from its parts.
  public init(id: String?, label: String?, coordinate: Coordinate?) {
    self.id = id
    self.label = label
    self.coordinate = coordinate
  }
}

/// One geo search the app made, with its answer and what the report found about it.
public struct SearchRequestRecord: Sendable {
  /// The network log's request id; `nil` for the geocoder (which is not on the network).
  public let networkID: Int?
  /// `"ncmb"`, `"threewords"` or `"geocoder"`.
  public let service: String
  /// What kind of search it was.
  public let kind: SearchKind
  /// When it was sent.
  public let sentAt: SimTime
  /// When its answer or failure was logged, if before the end of the run.
  public let answeredAt: SimTime?
  /// The request as sent: `GET /path?query` for the network, `reverse 35.6,139.7` or
  /// `forward "text"` for the geocoder.
  public let request: String
  /// The simulated latency, when answered.
  public let latency: SearchLatency?
  /// The HTTP status, when an HTTP answer came.
  public let status: Int?
  /// The network failure (`timedOut`, `notConnectedToInternet`) or the geocoder's error code.
  public let failure: String?
  /// The service's error code from the body (`E404001`, `BadWords`), if any.
  public let errorCode: String?
  /// The results returned, in the response's order (autosuggest: the suggestions).
  public let results: [SearchResultItem]
  /// For NCMB geo queries, the comparison with the true result set.
  public let ncmb: NCMBSearchAnalysis?
  /// For three-word requests, the round-trip check of the answer.
  public let threeWords: ThreeWordCheck?
  /// What is worth a look, sorted.
  public let anomalies: [SearchAnomaly]

  /// Whether the request failed: no answer, a network failure, a status other than 200, an
  /// error body or a geocoder failure.
  public var isError: Bool {
    answeredAt == nil || failure != nil || errorCode != nil || (status.map { $0 != 200 } ?? false)
  }
}
