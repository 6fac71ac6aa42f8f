import Cloud
import Geo
import JSON

/// The round-trip check of a three-word answer: the answer is decoded again through Cloud's
/// public `ThreeWordAddressService` rather than trusted as sent.
///
/// ## What it does not check
/// This is not an independent referee. It decodes with the same grid, word lists and
/// permutation that produced the answer, so it catches an answer that changed between the
/// service and the app (a mangled body, a reply matched to the wrong request, words from
/// another language) and a service whose encoding and decoding disagree — but not a grid or
/// word mapping that is wrong the same way in both directions, nor whether the square is the
/// right one for the point by any measure other than the service's own. Those are the Cloud
/// tests' business (docs/THREE-WORDS.md: encoding and decoding are exact inverses on 20,000
/// seeded points; touching squares share no word), not this report's.
///
/// - convert-to-3wa: the returned words are decoded; ``squareContainsPoint`` says whether their
///   square holds the requested point, ``decodedMatchesResponse`` whether the decoded centre is
///   the returned one.
/// - convert-to-coordinates: the requested words are decoded; ``decodedMatchesResponse`` says
///   whether that gives the returned centre, ``squareContainsPoint`` whether the decoded
///   square holds the returned coordinates.
/// - autosuggest: the suggestions are counted; the intended square is determinable when the
///   input (or its did-you-mean rewrite) is itself a valid address, and ``topIsIntended``
///   says whether the first suggestion is it.
///
/// Checks are made only on answers with status 200.
public struct ThreeWordCheck: Hashable, Sendable {
  /// convert-to-3wa: the point sent.
  public private(set) var requestedPoint: Coordinate?
  /// convert-to-coordinates: the words sent; autosuggest: the input.
  public private(set) var requestedWords: String?
  /// The words returned (autosuggest: the top suggestion's).
  public private(set) var returnedWords: String?
  /// The square centre returned.
  public private(set) var returnedCoordinate: Coordinate?
  /// See the type's discussion; `nil` when not checked.
  public private(set) var squareContainsPoint: Bool?
  /// See the type's discussion; `nil` when not checked.
  public private(set) var decodedMatchesResponse: Bool?
  /// Autosuggest: how many suggestions came back.
  public private(set) var suggestionCount: Int?
  /// Autosuggest: the words of the intended square, when determinable.
  public private(set) var intendedWords: String?
  /// Autosuggest: whether the top suggestion is the intended square, when determinable.
  public private(set) var topIsIntended: Bool?
  /// Why a check could not be made (the word lists could not be loaded, the words do not
  /// decode), if so.
  public private(set) var note: String?

  /// Whether a check was made and failed.
  public var failed: Bool { squareContainsPoint == false || decodedMatchesResponse == false }
}

extension ThreeWordCheck {
  /// Checks one three-word exchange; `service` is `nil` (with `unavailable` saying why) when
  /// the word lists could not be loaded.
  init(
    kind: SearchKind, query: [String: String], status: Int?, body: JSONValue?,
    service: ThreeWordAddressService?, unavailable: String?
  ) {
    let ok = status == 200
    if case .object(let members)? = body, ok {
      if case .string(let words)? = members["words"] { returnedWords = words }
      returnedCoordinate = Self.coordinate(members["coordinates"])
      if case .array(let suggestions)? = members["suggestions"] {
        suggestionCount = suggestions.count
        if case .object(let top)? = suggestions.first, case .string(let words)? = top["words"] {
          returnedWords = words
        }
      }
    }
    switch kind {
    case .threeWordsToWords:
      if let text = query["coordinates"] {
        let parts = text.split(separator: ",").compactMap { Double($0) }
        if parts.count == 2 {
          requestedPoint = try? Coordinate(latitude: parts[0], longitude: parts[1])
        }
      }
      if ok, let words = returnedWords {
        if let service {
          do {
            let decoded = try service.convertToCoordinates(words)
            squareContainsPoint = requestedPoint.map { decoded.square.contains($0) }
            decodedMatchesResponse = returnedCoordinate.map { Self.same(decoded.coordinates, $0) }
          } catch {
            note = "the returned words do not decode: \(error)"
            squareContainsPoint = false
          }
        } else {
          note = unavailable
        }
      }
    case .threeWordsToCoordinates:
      requestedWords = query["words"]
      if ok, let words = requestedWords {
        if let service {
          do {
            let decoded = try service.convertToCoordinates(words)
            decodedMatchesResponse =
              returnedCoordinate.map { Self.same(decoded.coordinates, $0) } ?? false
            squareContainsPoint = returnedCoordinate.map { decoded.square.contains($0) }
          } catch {
            note = "the requested words do not decode: \(error)"
            decodedMatchesResponse = false
          }
        } else {
          note = unavailable
        }
      }
    case .threeWordsAutosuggest:
      requestedWords = query["input"]
      if let input = requestedWords, let service {
        let attempts = [input] + (ThreeWordAddressService.didYouMean(input).map { [$0] } ?? [])
        for attempt in attempts {
          if let decoded = try? service.convertToCoordinates(attempt) {
            intendedWords = decoded.words
            break
          }
        }
        if ok, let intendedWords {
          topIsIntended =
            returnedWords.map { $0.lowercased() == intendedWords.lowercased() } ?? false
        }
      } else if requestedWords != nil, service == nil {
        note = unavailable
      }
    default:
      break
    }
  }

  /// `{"lat", "lng"}` as a coordinate.
  static func coordinate(_ json: JSONValue?) -> Coordinate? {
    guard case .object(let c)? = json, case .number(let lat)? = c["lat"],
      case .number(let lng)? = c["lng"]
    else { return nil }
    return try? Coordinate(latitude: lat, longitude: lng)
  }

  /// Equal to a nanodegree (the JSON text round-trips exactly; this only forgives the writer).
  private static func same(_ a: Coordinate, _ b: Coordinate) -> Bool {
    abs(a.latitude - b.latitude) <= 1e-9 && abs(a.longitude - b.longitude) <= 1e-9
  }
}
