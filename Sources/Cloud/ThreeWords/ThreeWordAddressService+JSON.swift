import Geo
import JSON

/// A response of the simulated service: an HTTP status and a JSON body.
public struct ThreeWordResponse: Hashable, Sendable {
  /// 200 for success, otherwise the error's status.
  public let status: Int
  /// The body, shaped like the real service's.
  public let body: JSONValue
}

extension ThreeWordAddressService {
  /// Answers a request as the real service's v3 REST interface would: `path` is the endpoint
  /// (`convert-to-3wa`, `convert-to-coordinates`, `autosuggest`, `grid-section`,
  /// `available-languages`, optionally after `/v3/`), `query` its decoded query parameters.
  ///
  /// When the service has an ``apiKey`` the `key` parameter must match it (`MissingKey`,
  /// `InvalidKey`); past the ``quota`` every request gets `QuotaExceeded` (HTTP 402). Only the
  /// `json` format is served (`BadFormat` otherwise).
  public mutating func respond(to path: String, query: [String: String]) -> ThreeWordResponse {
    requestCount += 1
    do throws(ThreeWordAPIError) {
      if let apiKey {
        guard let key = query["key"], !key.isEmpty else {
          throw ThreeWordAPIError(.missingKey, "Authentication failed; missing API key")
        }
        guard key == apiKey else {
          throw ThreeWordAPIError(.invalidKey, "Authentication failed; invalid API key")
        }
      }
      if let quota, requestCount > quota {
        throw ThreeWordAPIError(.quotaExceeded, "Quota exceeded for this API key")
      }
      if let format = query["format"], format != "json" {
        throw ThreeWordAPIError(.badFormat, "format must be json (GeoSim serves no geojson)")
      }
      let endpoint = path.split(separator: "/").last.map(String.init) ?? ""
      return ThreeWordResponse(status: 200, body: try body(endpoint, query))
    } catch {
      return ThreeWordResponse(status: error.httpStatus, body: error.json)
    }
  }

  private func body(_ endpoint: String, _ query: [String: String]) throws(ThreeWordAPIError)
    -> JSONValue
  {
    switch endpoint {
    case "convert-to-3wa":
      guard let text = query["coordinates"], let numbers = Self.numbers(text), numbers.count == 2
      else {
        throw ThreeWordAPIError(
          .badCoordinates, "coordinates must be two comma separated lat,lng coordinates")
      }
      return try convertTo3wa(
        latitude: numbers[0], longitude: numbers[1], language: query["language"] ?? "en"
      ).json
    case "convert-to-coordinates":
      return try convertToCoordinates(query["words"] ?? "").json
    case "autosuggest":
      let options = try Self.autosuggestOptions(query)
      let suggestions = try autosuggest(query["input"] ?? "", options: options)
      return .object(["suggestions": .array(suggestions.map(\.json))])
    case "grid-section":
      guard let text = query["bounding-box"], let n = Self.numbers(text), n.count == 4,
        let sw = try? Coordinate(latitude: n[0], longitude: n[1]),
        let ne = try? Coordinate(latitude: n[2], longitude: n[3]),
        abs(n[1]) <= 180, abs(n[3]) <= 180
      else {
        throw ThreeWordAPIError(
          .badBoundingBox, "bounding-box must be south_lat,west_lng,north_lat,east_lng")
      }
      let lines = try gridSection(southwest: sw, northeast: ne)
      return .object([
        "lines": .array(
          lines.map { line in
            .object([
              "start": .object(["lat": .number(line.start.lat), "lng": .number(line.start.lng)]),
              "end": .object(["lat": .number(line.end.lat), "lng": .number(line.end.lng)]),
            ])
          })
      ])
    case "available-languages":
      return .object([
        "languages": .array(
          availableLanguages.map {
            .object([
              "code": .string($0.code), "name": .string($0.name),
              "nativeName": .string($0.nativeName),
            ])
          })
      ])
    default:
      throw ThreeWordAPIError(.notFound, "no such endpoint: \(endpoint)")
    }
  }

  static func numbers(_ text: String) -> [Double]? {
    let parts = text.split(separator: ",", omittingEmptySubsequences: false)
    let numbers = parts.compactMap { Double($0.trimmingCharacters(in: .whitespaces)) }
    return numbers.count == parts.count && numbers.allSatisfy(\.isFinite) ? numbers : nil
  }

  private static func point(_ n: ArraySlice<Double>) -> Coordinate? {
    guard n.count == 2, abs(n[n.startIndex + 1]) <= 180 else { return nil }
    return try? Coordinate(latitude: n[n.startIndex], longitude: n[n.startIndex + 1])
  }

  static func autosuggestOptions(_ query: [String: String]) throws(ThreeWordAPIError)
    -> AutosuggestOptions
  {
    var options = AutosuggestOptions()
    if let text = query["n-results"] {
      guard let n = Int(text), (1...100).contains(n) else {
        throw ThreeWordAPIError(
          .badNResults, "n-results must be a positive integer less than or equal to 100")
      }
      options.nResults = n
    }
    if let text = query["focus"] {
      guard let n = numbers(text), let focus = point(n[...]) else {
        throw ThreeWordAPIError(.badFocus, "focus must be valid lat,lng coordinates")
      }
      options.focus = focus
    }
    if let text = query["clip-to-circle"] {
      guard let n = numbers(text), n.count == 3, let centre = point(n[0..<2]), n[2] > 0 else {
        throw ThreeWordAPIError(
          .badClipToCircle, "clip-to-circle must be lat,lng,kilometres with kilometres > 0")
      }
      options.clipToCircle = (centre, n[2])
    }
    if let text = query["clip-to-bounding-box"] {
      guard let n = numbers(text), n.count == 4, let sw = point(n[0..<2]),
        let ne = point(n[2..<4]), sw.latitude <= ne.latitude
      else {
        throw ThreeWordAPIError(
          .badClipToBoundingBox,
          "clip-to-bounding-box must be south,west,north,east with south <= north")
      }
      options.clipToBoundingBox = (sw, ne)
    }
    if let text = query["clip-to-polygon"] {
      guard let n = numbers(text), n.count % 2 == 0 else {
        throw ThreeWordAPIError(
          .badClipToPolygon,
          "clip-to-polygon must be 4 to 25 lat,lng points, the last the same as the first")
      }
      var ring: [Coordinate] = []
      for i in stride(from: 0, to: n.count, by: 2) {
        guard let p = point(n[i..<(i + 2)]) else {
          throw ThreeWordAPIError(.badClipToPolygon, "clip-to-polygon has an invalid point")
        }
        ring.append(p)
      }
      options.clipToPolygon = ring
    }
    if let text = query["clip-to-country"] {
      options.clipToCountry = text.split(separator: ",", omittingEmptySubsequences: false).map(
        String.init)
    }
    if let text = query["prefer-land"] { options.preferLand = text != "false" }
    if let language = query["language"] { options.language = language }
    return options
  }
}
