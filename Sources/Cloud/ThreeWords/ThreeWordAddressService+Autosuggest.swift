import Geo
import JSON

/// The options of an autosuggest request, as the real service's parameters.
public struct AutosuggestOptions: Sendable {
  /// `n-results`: how many suggestions, 1…100 (default 3).
  public var nResults = 3
  /// `focus`: suggestions are ranked by distance from here, and carry that distance.
  public var focus: Coordinate?
  /// `clip-to-circle`: only suggestions within `radiusKm` of `centre`.
  public var clipToCircle: (centre: Coordinate, radiusKm: Double)?
  /// `clip-to-bounding-box`: only suggestions inside the box (south ≤ north; a west edge east
  /// of the east edge crosses the antimeridian).
  public var clipToBoundingBox: (southwest: Coordinate, northeast: Coordinate)?
  /// `clip-to-polygon`: only suggestions inside the closed ring of 4–25 points.
  public var clipToPolygon: [Coordinate]?
  /// `clip-to-country`: only suggestions in these ISO 3166-1 alpha-2 countries (1–16 codes,
  /// either case). A well-formed code of no country clips everything away, as with the real
  /// service; `ZZ` admits squares in no country (the sea).
  public var clipToCountry: [String]?
  /// `prefer-land`: among suggestions of equal edit distance, those in a country (on land)
  /// rank before those at sea (`ZZ`); `false` ranks them together by focus distance.
  public var preferLand = true
  /// `language`: only suggestions in this language; `nil` tries every language.
  public var language: String?

  /// Default options: three suggestions, no focus, no clipping, any language.
  public init() {}
}

/// One autosuggest suggestion.
public struct ThreeWordSuggestion: Hashable, Sendable {
  /// The suggested address.
  public let address: ThreeWordAddress
  /// 1 for the best suggestion.
  public let rank: Int
  /// Letters changed from the input (0 when the input is the address or its start).
  public let editDistance: Int
  /// Whole kilometres from the focus, when a focus was given.
  public let distanceToFocusKm: Int?

  /// The suggestion as the real service writes it.
  public var json: JSONValue {
    var object: [String: JSONValue] = [
      "country": .string(address.country), "nearestPlace": .string(address.nearestPlace),
      "words": .string(address.words), "rank": .number(Double(rank)),
      "language": .string(address.language),
    ]
    if let distanceToFocusKm { object["distanceToFocusKm"] = .number(Double(distanceToFocusKm)) }
    return .object(object)
  }
}

extension ThreeWordAddressService {
  /// The most candidate triples decoded for one request, which bounds its time.
  static let autosuggestBudget = 4_000

  /// Suggestions for a full or partial address (autosuggest).
  ///
  /// The input is at least two words and the start of a third, joined by ``separators`` (or,
  /// forgivingly, ``didYouMeanSeparators``), after any number of `/`. Each word may be misspelt
  /// by an edit or two (a letter deleted, inserted, replaced or two swapped); the third may also
  /// be unfinished. Candidate triples are tried by total edit distance, cheapest first, and
  /// every one that is an address and passes the clips is a suggestion, ranked by edit distance,
  /// then (with `prefer-land`) land before sea, then by distance from the focus (or
  /// alphabetically without one). Input that is not yet two words and a letter gives no
  /// suggestions, as with the real service.
  ///
  /// Throws `BadInput` for empty input, `BadNResults`, `BadLanguage`, and `BadClipTo…` for
  /// malformed options.
  public func autosuggest(_ input: String, options: AutosuggestOptions = AutosuggestOptions())
    throws(ThreeWordAPIError) -> [ThreeWordSuggestion]
  {
    if input.isEmpty { throw ThreeWordAPIError(.badInput, "input must be specified") }
    guard (1...100).contains(options.nResults) else {
      throw ThreeWordAPIError(
        .badNResults, "n-results must be a positive integer less than or equal to 100")
    }
    let places = gazetteer
    let clips = try Clips(options, gazetteer: places)
    let codecs: [ThreeWordCodec]
    if let language = options.language {
      codecs = [try codec(language)]
    } else {
      codecs = languages.languages.map { languages.codecs[$0.code]! }
    }
    let body = input.drop { $0 == "/" }.lowercased()
    let parts = body.split(omittingEmptySubsequences: false) {
      Self.separators.contains($0) || Self.didYouMeanSeparators.contains($0)
    }.filter { !$0.isEmpty }
    guard parts.count == 3 else { return [] }
    let typed = parts.map { $0.unicodeScalars.map(\.value) }

    var found: [Candidate] = []
    for (i, codec) in codecs.enumerated() {
      candidates(typed, codec: codec, language: i, clips: clips, focus: options.focus, &found)
    }
    // Ties in cost and distance (no focus) fall back to the word numbers, i.e. alphabetical.
    found.sort { ($0.cost, $0.distance, $0.key) < ($1.cost, $1.distance, $1.key) }
    var seen: Set<Candidate.Key> = []
    var chosen: [Candidate] = []
    // prefer-land: within each edit distance, land first. Land is looked up lazily, only until
    // the tier has given enough land suggestions, as most candidates never make the cut.
    var start = 0
    while start < found.count && chosen.count < options.nResults {
      var end = start
      while end < found.count && found[end].cost == found[start].cost { end += 1 }
      var sea: [Candidate] = []
      for f in found[start..<end] where chosen.count < options.nResults {
        guard !seen.contains(f.key) else { continue }
        if options.preferLand && country(of: f, places) < 0 {
          sea.append(f)
        } else {
          seen.insert(f.key)
          chosen.append(f)
        }
      }
      for f in sea where chosen.count < options.nResults && seen.insert(f.key).inserted {
        chosen.append(f)
      }
      start = end
    }
    var suggestions: [ThreeWordSuggestion] = []
    for f in chosen {
      let codec = codecs[f.key.language]
      let words = codec.words.address(f.key.a, f.key.b, f.key.c)
      suggestions.append(
        ThreeWordSuggestion(
          address: address(of: f.square, words: words, codec: codec),
          rank: suggestions.count + 1, editDistance: Int(f.cost),
          distanceToFocusKm: options.focus.map { _ in Int((f.distance / 1_000).rounded()) }))
    }
    return suggestions
  }

  /// The candidate's country index in the gazetteer, −1 for none.
  private func country(of candidate: Candidate, _ places: ThreeWordGazetteer) -> Int {
    if candidate.country != Candidate.notLookedUp { return Int(candidate.country) }
    let b = SquareGrid.bounds(of: candidate.square)
    let centre = try! Coordinate(
      latitude: (b.south + b.north) / 2, longitude: (b.west + b.east) / 2)
    return places.countryIndex(at: centre)
  }

  /// A decoded candidate; its words are only spelt out if it makes the cut.
  private struct Candidate {
    struct Key: Hashable, Comparable {
      var language: Int
      var a: Int
      var b: Int
      var c: Int
      static func < (x: Key, y: Key) -> Bool {
        (x.language, x.a, x.b, x.c) < (y.language, y.a, y.b, y.c)
      }
    }
    var key: Key
    var square: GridSquare
    /// The country index if a clip looked it up (−1 for none), else `notLookedUp`; 32 bits,
    /// with `cost`, to keep the sorted array as compact as before countries existed.
    var country: Int32
    var cost: Int32
    var distance: Double

    static let notLookedUp: Int32 = -2
  }

  private func candidates(
    _ typed: [[UInt32]], codec: ThreeWordCodec, language: Int, clips: Clips, focus: Coordinate?,
    _ found: inout [Candidate]
  ) {
    let list = codec.words
    // buckets[word][colour][cost] = word ids.
    let empty: [[Int]] = [[], [], []]
    var buckets = [[[[Int]]]](
      repeating: [[[Int]]](repeating: empty, count: 4), count: 3)
    for w in 0..<3 {
      for (id, distance) in list.nearMisses(of: typed[w]) {
        buckets[w][id & 3][distance].append(id)
      }
    }
    // An unfinished third word: every word it starts.
    for id in list.ids(withPrefix: typed[2]).prefix(Self.autosuggestBudget * 4)
    where !list.scalars(of: id).elementsEqual(typed[2]) {
      buckets[2][id & 3][0].append(id)
    }
    var decoded = 0
    tiers: for cost in 0...2 {
      for colour in 0..<4 {
        for c0 in 0...cost {
          for c1 in 0...(cost - c0) {
            let c2 = cost - c0 - c1
            guard c2 <= 2 else { continue }
            for a in buckets[0][colour][c0] {
              for b in buckets[1][colour][c1] {
                for c in buckets[2][colour][c2] {
                  if decoded >= Self.autosuggestBudget { break tiers }
                  decoded += 1
                  guard let square = codec.square(wordIDs: a, b, c) else { continue }
                  let bounds = SquareGrid.bounds(of: square)
                  let centre = try! Coordinate(
                    latitude: (bounds.south + bounds.north) / 2,
                    longitude: (bounds.west + bounds.east) / 2)
                  guard let country = clips.admit(centre) else { continue }
                  let distance =
                    focus.map {
                      greatCircleDistance(from: $0, to: centre, radius: Ellipsoid.wgs84MeanRadius)
                    } ?? 0
                  found.append(
                    Candidate(
                      key: Candidate.Key(language: language, a: a, b: b, c: c), square: square,
                      country: country.map(Int32.init) ?? Candidate.notLookedUp,
                      cost: Int32(cost), distance: distance))
                }
              }
            }
          }
        }
      }
    }
  }
}

/// The validated clip options of one autosuggest request.
struct Clips {
  var circle: (centre: Coordinate, radius: Double)?
  var box: (south: Double, west: Double, north: Double, east: Double)?
  var polygon: [Coordinate]?
  /// The clip countries' indices in the gazetteer, −1 standing for `ZZ`.
  var countries: Set<Int>?
  let gazetteer: ThreeWordGazetteer

  init(_ options: AutosuggestOptions, gazetteer: ThreeWordGazetteer) throws(ThreeWordAPIError) {
    self.gazetteer = gazetteer
    if let c = options.clipToCircle {
      guard c.radiusKm.isFinite, c.radiusKm > 0 else {
        throw ThreeWordAPIError(
          .badClipToCircle, "clip-to-circle must be lat,lng,kilometres with kilometres > 0")
      }
      circle = (c.centre, c.radiusKm * 1_000)
    }
    if let b = options.clipToBoundingBox {
      guard b.southwest.latitude <= b.northeast.latitude else {
        throw ThreeWordAPIError(
          .badClipToBoundingBox,
          "clip-to-bounding-box must be south,west,north,east with south <= north")
      }
      box = (
        b.southwest.latitude, b.southwest.longitude, b.northeast.latitude, b.northeast.longitude
      )
    }
    if let p = options.clipToPolygon {
      guard (4...25).contains(p.count), p.first == p.last else {
        throw ThreeWordAPIError(
          .badClipToPolygon,
          "clip-to-polygon must be 4 to 25 lat,lng points, the last the same as the first")
      }
      polygon = p
    }
    if let countries = options.clipToCountry {
      guard (1...16).contains(countries.count),
        countries.allSatisfy({ $0.count == 2 && $0.allSatisfy { $0.isASCII && $0.isLetter } })
      else {
        throw ThreeWordAPIError(
          .badClipToCountry,
          "clip-to-country must be 1 to 16 comma separated ISO 3166-1 alpha-2 country codes")
      }
      var indices: Set<Int> = []
      for code in countries.map({ $0.uppercased() }) {
        if code == ThreeWordGazetteer.noCountry {
          indices.insert(-1)
        } else if let i = gazetteer.countryCodes.firstIndex(of: code) {
          indices.insert(i)
        }
      }
      self.countries = indices
    }
  }

  /// `nil` if the point is clipped away; otherwise `.some(country index)` when the country
  /// had to be looked up (−1 for none), `.some(nil)` when not.
  func admit(_ point: Coordinate) -> Int?? {
    if let circle,
      greatCircleDistance(from: circle.centre, to: point, radius: Ellipsoid.wgs84MeanRadius)
        > circle.radius
    {
      return nil
    }
    if let box {
      guard point.latitude >= box.south, point.latitude <= box.north else { return nil }
      let inside =
        box.west <= box.east
        ? point.longitude >= box.west && point.longitude <= box.east
        : point.longitude >= box.west || point.longitude <= box.east
      if !inside { return nil }
    }
    if let polygon, !Self.ringContains(polygon, point) { return nil }
    if let countries {
      let country = gazetteer.countryIndex(at: point)
      return countries.contains(country) ? .some(country) : nil
    }
    return .some(nil)
  }

  /// Even-odd rule in plain latitude/longitude, as for a small polygon.
  static func ringContains(_ ring: [Coordinate], _ point: Coordinate) -> Bool {
    var inside = false
    var j = ring.count - 1
    for i in ring.indices {
      let a = ring[i]
      let b = ring[j]
      if (a.latitude > point.latitude) != (b.latitude > point.latitude) {
        let lng =
          a.longitude + (point.latitude - a.latitude) / (b.latitude - a.latitude)
          * (b.longitude - a.longitude)
        if point.longitude < lng { inside.toggle() }
      }
      j = i
    }
    return inside
  }
}
