import Foundation
import Geo
import JSON

/// GeoSim's stand-in for a three-word-address service: the real one's operations, parameters,
/// limits and error codes over GeoSim's own grid, word lists and permutation.
///
/// The typed methods throw ``ThreeWordAPIError``; ``respond(to:query:)`` is the same service
/// answering HTTP-style requests with the real one's JSON bodies.
public struct ThreeWordAddressService: Sendable {
  /// The accepted separators between words.
  public static let separators: Set<Character> = [
    ".", "｡", "。", "･", "・", "︒", "។", "։", "။", "۔", "።", "।",
  ]
  /// Characters commonly typed between words by mistake: not separators, but material for a
  /// did-you-mean suggestion.
  public static let didYouMeanSeparators: Set<Character> = [
    " ", "\u{3000}", ",", "-", "_", "/", "\\", "+", "'", "\"", ":", ";", "|", "\t",
  ]
  /// The largest grid-section diagonal, in metres.
  public static let maximumGridSectionDiagonal = 4_000.0

  /// The languages served.
  public let languages: ThreeWordLanguages
  /// The API key requests must carry, or `nil` for none.
  public let apiKey: String?
  /// How many requests the key may make, or `nil` for no limit.
  public let quota: Int?
  /// Requests answered so far by ``respond(to:query:)``.
  public internal(set) var requestCount = 0
  private let customGazetteer: ThreeWordGazetteer?

  /// A service over the given languages, optionally requiring a key and limiting requests.
  ///
  /// Countries and nearest places come from `gazetteer`, by default the bundled one
  /// (``ThreeWordGazetteer/bundled()``), read on first use and shared by every service of the
  /// process, so creating a service costs nothing more.
  public init(
    languages: ThreeWordLanguages, apiKey: String? = nil, quota: Int? = nil,
    gazetteer: ThreeWordGazetteer? = nil
  ) {
    self.languages = languages
    self.apiKey = apiKey
    self.quota = quota
    customGazetteer = gazetteer
  }

  /// Borders and places: the one given to ``init(languages:apiKey:quota:gazetteer:)``, or the
  /// bundled one.
  public var gazetteer: ThreeWordGazetteer { customGazetteer ?? Self.bundledGazetteer }

  /// The bundled gazetteer. ``ThreeWordLanguages/bundled(key:)`` reads it first and throws if
  /// it cannot, so a service over the bundled languages never gets here with unreadable data;
  /// only a broken installation read through custom languages stops here, saying why, rather
  /// than answering every address with no country.
  private static let bundledGazetteer: ThreeWordGazetteer = {
    do {
      return try ThreeWordGazetteer.bundled()
    } catch {
      preconditionFailure("GeoSim's bundled borders and places cannot be read: \(error)")
    }
  }()

  /// The languages available, ordered by code.
  public var availableLanguages: [ThreeWordLanguage] { languages.languages }

  func codec(_ language: String) throws(ThreeWordAPIError) -> ThreeWordCodec {
    guard let codec = languages.codecs[language] else {
      throw ThreeWordAPIError(
        .badLanguage,
        "language must be an ISO 639-1 2 letter code, such as 'en' or 'fr'; available: "
          + languages.languages.map(\.code).joined(separator: ", "))
    }
    return codec
  }

  func address(of square: GridSquare, words: String, codec: ThreeWordCodec) -> ThreeWordAddress {
    let b = SquareGrid.bounds(of: square)
    let centre = try! Coordinate(
      latitude: (b.south + b.north) / 2, longitude: (b.west + b.east) / 2)
    let places = gazetteer
    return ThreeWordAddress(
      words: words, coordinates: centre,
      square: ThreeWordSquare(south: b.south, west: b.west, north: b.north, east: b.east),
      nearestPlace: places.nearestPlace(to: centre, language: codec.language.code),
      country: places.country(at: centre), language: codec.language.code)
  }

  /// The address of the square containing the point (convert-to-3wa).
  ///
  /// Throws `BadCoordinates` for a latitude outside −90…90 or a longitude outside −180…180,
  /// `BadLanguage` for a language that is not available or does not cover the point.
  public func convertTo3wa(latitude: Double, longitude: Double, language: String = "en")
    throws(ThreeWordAPIError) -> ThreeWordAddress
  {
    guard latitude.isFinite, latitude >= -90, latitude <= 90 else {
      throw ThreeWordAPIError(.badCoordinates, "latitude must be >=-90 and <= 90")
    }
    guard longitude.isFinite, longitude >= -180, longitude <= 180 else {
      throw ThreeWordAPIError(.badCoordinates, "longitude must be >=-180 and <= 180")
    }
    return try convertTo3wa(
      try! Coordinate(latitude: latitude, longitude: longitude), language: language)
  }

  /// The address of the square containing the point (convert-to-3wa).
  ///
  /// - Complexity: O(log bands) for the language's coverage, plus the country and
  ///   nearest-place look-ups (``ThreeWordGazetteer``).
  public func convertTo3wa(_ point: Coordinate, language: String = "en")
    throws(ThreeWordAPIError) -> ThreeWordAddress
  {
    let codec = try codec(language)
    let square = SquareGrid.square(containing: point)
    guard let words = codec.words(of: square) else {
      let c = codec.language.coverage
      throw ThreeWordAPIError(
        .badLanguage,
        "language '\(language)' does not cover \(point.latitude),\(point.longitude); it covers "
          + "latitudes \(c.south)…\(c.north) and longitudes \(c.west)…\(c.east)")
    }
    return address(of: square, words: words, codec: codec)
  }

  /// The square of a three-word address (convert-to-coordinates).
  ///
  /// Words are separated by one of ``separators``, may be preceded by any number of `/`, and
  /// are matched without regard to case. Throws `MissingWords` for empty input and `BadWords`
  /// otherwise, with a did-you-mean suggestion when the words were joined by spaces or other
  /// ``didYouMeanSeparators``.
  public func convertToCoordinates(_ input: String) throws(ThreeWordAPIError) -> ThreeWordAddress {
    if input.isEmpty { throw ThreeWordAPIError(.missingWords, "words must be specified") }
    guard let parts = Self.parse(input) else {
      var message =
        "words must be a valid 3 word address, such as filled.count.soap or ///filled.count.soap"
      if let suggestion = Self.didYouMean(input) { message += "; did you mean \(suggestion)?" }
      throw ThreeWordAPIError(.badWords, message)
    }
    for language in languages.languages {
      let codec = languages.codecs[language.code]!
      guard let a = codec.words.id(of: parts[0]), let b = codec.words.id(of: parts[1]),
        let c = codec.words.id(of: parts[2])
      else { continue }
      guard let square = codec.square(wordIDs: a, b, c) else { break }
      return address(of: square, words: parts.joined(separator: "."), codec: codec)
    }
    throw ThreeWordAPIError(
      .badWords, "\(parts.joined(separator: ".")) is not a valid 3 word address")
  }

  /// The three lowercased words of a well-formed address, or `nil`: any number of leading `/`,
  /// then three non-empty words of letters joined by ``separators``.
  ///
  /// Works on Unicode scalars (every separator is one scalar), which keeps decoding well under
  /// its 2 µs budget.
  static func parse(_ input: String) -> [String]? {
    var parts: [String] = []
    parts.reserveCapacity(3)
    var current = String.UnicodeScalarView()
    var leading = true
    for scalar in input.unicodeScalars {
      if leading && scalar == "/" { continue }
      leading = false
      if isSeparator(scalar) {
        guard !current.isEmpty, parts.count < 2 else { return nil }
        parts.append(String(current))
        current = String.UnicodeScalarView()
      } else if scalar.isASCII {
        let v = scalar.value
        if v >= 0x61 && v <= 0x7A {
          current.append(scalar)
        } else if v >= 0x41 && v <= 0x5A {
          current.append(Unicode.Scalar(v + 0x20)!)
        } else {
          return nil
        }
      } else if (0x3041...0x30FF).contains(scalar.value) {
        current.append(scalar)  // kana: letters without case, the common non-ASCII input
      } else if scalar.properties.isAlphabetic {
        if scalar.properties.changesWhenLowercased {
          current.append(contentsOf: scalar.properties.lowercaseMapping.unicodeScalars)
        } else {
          current.append(scalar)
        }
      } else {
        return nil
      }
    }
    guard !current.isEmpty, parts.count == 2 else { return nil }
    parts.append(String(current))
    return parts
  }

  /// Whether the scalar is one of the twelve ``separators``.
  static func isSeparator(_ scalar: Unicode.Scalar) -> Bool {
    switch scalar.value {
    case 0x2E, 0xFF61, 0x3002, 0xFF65, 0x30FB, 0xFE12, 0x17D4, 0x0589, 0x104B, 0x06D4, 0x1362,
      0x0964:
      return true
    default:
      return false
    }
  }

  /// The input rewritten with dots, if it is three words joined by ``didYouMeanSeparators``
  /// (or a mix with ``separators``) rather than a well-formed address.
  public static func didYouMean(_ input: String) -> String? {
    if parse(input) != nil { return nil }
    let body = input.drop { $0 == "/" }
    let parts = body.split {
      separators.contains($0) || didYouMeanSeparators.contains($0)
    }
    guard parts.count == 3, parts.allSatisfy({ $0.allSatisfy(\.isLetter) }) else { return nil }
    return parts.map { $0.lowercased() }.joined(separator: ".")
  }

  /// The lines of the grid inside a box whose diagonal is at most 4 km (grid-section).
  ///
  /// One line along every row edge, and, band by band, one along every column edge. A box whose
  /// west edge is east of its east edge crosses the antimeridian; the east longitudes of its
  /// lines then exceed 180. Throws `BadBoundingBox` when the south-west corner is north of the
  /// north-east one, `BadBoundingBoxTooBig` when the diagonal is longer than 4 km.
  public func gridSection(southwest: Coordinate, northeast: Coordinate)
    throws(ThreeWordAPIError) -> [ThreeWordGridLine]
  {
    guard southwest.latitude <= northeast.latitude else {
      throw ThreeWordAPIError(
        .badBoundingBox, "bounding-box must be south-west then north-east corner")
    }
    let diagonal = greatCircleDistance(
      from: southwest, to: northeast, radius: Ellipsoid.wgs84MeanRadius)
    guard diagonal <= Self.maximumGridSectionDiagonal else {
      throw ThreeWordAPIError(
        .badBoundingBoxTooBig, "The diagonal of bounding-box may not be greater than 4km")
    }
    let south = southwest.latitude
    let north = northeast.latitude
    let west = southwest.longitude
    var east = northeast.longitude
    if east < west { east += 360 }
    var lines: [ThreeWordGridLine] = []
    let firstRow = SquareGrid.row(latitude: south)
    let lastRow = SquareGrid.row(latitude: north)
    for row in firstRow...(lastRow + 1) {
      let lat = -90 + Double(row) * SquareGrid.rowHeight
      if lat >= south && lat <= north {
        lines.append(ThreeWordGridLine(start: (lat, west), end: (lat, east)))
      }
    }
    var row = firstRow
    while row <= lastRow {
      let band = row / SquareGrid.rowsPerBand
      let bandEndRow = min(lastRow + 1, (band + 1) * SquareGrid.rowsPerBand)
      let low = max(south, -90 + Double(row) * SquareGrid.rowHeight)
      let high = min(north, -90 + Double(bandEndRow) * SquareGrid.rowHeight)
      let columns = SquareGrid.columns(band: band)
      let width = 360 / Double(columns)
      var column = Int(((west + 180) / width).rounded(.up))
      while -180 + Double(column) * width <= east {
        let lng = -180 + Double(column) * width
        lines.append(ThreeWordGridLine(start: (low, lng), end: (high, lng)))
        column += 1
      }
      row = bandEndRow
    }
    return lines
  }
}
