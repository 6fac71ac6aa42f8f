import Foundation
import Geo
import JSON
import ThreeWordData

/// A language of three-word addresses: its names, its words and the region its addresses cover.
///
/// Languages are data: ``ThreeWordLanguages`` reads them from a folder holding
/// `languages.json` and one word file per language.
public struct ThreeWordLanguage: Hashable, Sendable {
  /// The ISO 639-1 code, such as `en` or `ja`.
  public let code: String
  /// The language's English name.
  public let name: String
  /// The language's name in itself.
  public let nativeName: String
  /// The number of words in the list.
  public let wordCount: Int
  /// The southern, western, northern and eastern edges of the covered region, in degrees.
  public let coverage: (south: Double, west: Double, north: Double, east: Double)

  /// Compares code, names and word count (the coverage follows from the code).
  public static func == (a: ThreeWordLanguage, b: ThreeWordLanguage) -> Bool {
    a.code == b.code && a.name == b.name && a.nativeName == b.nativeName
      && a.wordCount == b.wordCount
  }

  /// Hashes the code.
  public func hash(into hasher: inout Hasher) { hasher.combine(code) }
}

/// The codec of one language: square ↔ ordered word triple.
///
/// A covered square has a colour (0…3, see ``SquareGrid/colour(of:)``) and a number within its
/// colour; the number is scrambled by the colour's keyed ``FeistelPermutation`` and written in
/// base `m` (the size of the colour's word class) as three digits, each naming a word of that
/// class. So touching squares, having different colours, use disjoint word classes and never
/// share a word, and changing one word gives a pseudo-random, distant square. Triples mixing
/// classes, or past the end of the permuted range, are not addresses.
struct ThreeWordCodec: Sendable {
  let language: ThreeWordLanguage
  let words: WordList
  let coverage: GridCoverage
  private let permutations: [FeistelPermutation]
  private let classSizes: [UInt64]

  init(language: ThreeWordLanguage, words: WordList, key: UInt64) throws(CloudError) {
    let coverage = GridCoverage(
      south: language.coverage.south, west: language.coverage.west,
      north: language.coverage.north, east: language.coverage.east)
    let perColour = UInt64(coverage.squaresPerColour)
    let sizes = (0..<4).map { UInt64(words.classSize($0)) }
    for m in sizes where m * m * m < perColour {
      throw CloudError(
        .invalidData,
        "language \(language.code): \(words.count) words give \(m)³ triples per colour, "
          + "fewer than its \(perColour) squares per colour")
    }
    var codeKey: UInt64 = key
    for byte in language.code.utf8 { codeKey = (codeKey ^ UInt64(byte)) &* 0x0000_0100_0000_01B3 }
    self.language = language
    self.words = words
    self.coverage = coverage
    classSizes = sizes
    permutations = (0..<4).map { colour in
      FeistelPermutation(domain: perColour, key: codeKey &+ UInt64(colour) &* 0x9E37_79B9_7F4A_7C15)
    }
  }

  /// The number of squares this language covers.
  var squareCount: Int { coverage.squaresPerColour * 4 }

  /// The word numbers of the square's address, or `nil` outside the coverage.
  func wordIDs(of square: GridSquare) -> (Int, Int, Int)? {
    guard let (colour, index) = coverage.index(of: square) else { return nil }
    let p = permutations[colour].forward(UInt64(index))
    let m = classSizes[colour]
    let first = p / (m * m)
    let rest = p - first * m * m
    let second = rest / m
    let third = rest - second * m
    return (Int(first) * 4 + colour, Int(second) * 4 + colour, Int(third) * 4 + colour)
  }

  /// The square whose address is the three word numbers, or `nil` if they are not an address.
  func square(wordIDs a: Int, _ b: Int, _ c: Int) -> GridSquare? {
    let colour = a & 3
    guard b & 3 == colour, c & 3 == colour else { return nil }
    let m = classSizes[colour]
    let p = UInt64(a >> 2) * m * m + UInt64(b >> 2) * m + UInt64(c >> 2)
    guard p < UInt64(coverage.squaresPerColour) else { return nil }
    return coverage.square(colour: colour, index: Int(permutations[colour].inverse(p)))
  }

  /// The square's address as text, or `nil` outside the coverage.
  func words(of square: GridSquare) -> String? {
    guard let (a, b, c) = wordIDs(of: square) else { return nil }
    return words.address(a, b, c)
  }
}

/// The languages of three-word addresses, read once from data and immutable afterwards.
public struct ThreeWordLanguages: Sendable {
  /// The key of GeoSim's standard permutation; other keys give other (equally valid) schemes.
  public static let standardKey: UInt64 = 0x6765_6F73_696D_3377

  let codecs: [String: ThreeWordCodec]
  /// The languages, ordered by code.
  public let languages: [ThreeWordLanguage]

  /// The languages shipped with GeoSim (English for the globe, Japanese for Japan).
  ///
  /// Read from the tables the package build makes of ``bundledDirectory()``'s files, which
  /// answer as ``init(directory:key:)`` of that folder does. Also reads the bundled borders and
  /// places (``ThreeWordGazetteer/bundled()``) that services use by default, so that
  /// unreadable data is this call's error, not a service's surprise.
  public static func bundled(key: UInt64 = standardKey) throws(CloudError) -> ThreeWordLanguages {
    _ = try ThreeWordGazetteer.bundled()
    return try ThreeWordLanguages(tables: ThreeWordTables.bundled(), key: key)
  }

  /// The folder of the languages shipped with GeoSim, for reading them afresh.
  ///
  /// - Throws: ``CloudError`` when the bundle has no such folder.
  public static func bundledDirectory() throws(CloudError) -> URL {
    guard let url = Bundle.module.url(forResource: "languages", withExtension: nil) else {
      throw CloudError(.invalidData, "the bundled languages folder is missing")
    }
    return url
  }

  /// Reads `languages.json` and the word files it names from `directory`.
  ///
  /// Each entry of `languages.json`'s `languages` array has `code`, `name`, `nativeName`,
  /// `words` (a file name: one word per line, sorted by code point) and `coverage` (`south`,
  /// `west`, `north`, `east` in degrees, west below east).
  public init(directory: URL, key: UInt64 = standardKey) throws(CloudError) {
    let manifestURL = directory.appendingPathComponent("languages.json")
    let manifest: Data
    do {
      manifest = try Data(contentsOf: manifestURL)
    } catch {
      throw CloudError(.invalidData, "\(manifestURL.path): cannot be read: \(error)")
    }
    try self.init(manifest: manifest, named: manifestURL.path, key: key) {
      file, problem throws(CloudError) in
      let text: String
      do {
        text = try String(contentsOf: directory.appendingPathComponent(file), encoding: .utf8)
      } catch {
        throw problem("cannot read \(file): \(error)")
      }
      return try WordList(text: text, name: file)
    }
  }

  /// The languages of tables read back from a table file.
  package init(tables: ThreeWordTables, key: UInt64) throws(CloudError) {
    try self.init(
      manifest: Data(tables.manifest), named: "\(ThreeWordTables.fileName): languages.json",
      key: key
    ) { file, problem throws(CloudError) in
      guard let table = tables.words[file] else { throw problem("no word table \(file)") }
      return WordList(table: table)
    }
  }

  /// Reads a manifest, `languages.json` (`manifestName` in errors), with the word list that
  /// `wordList` gives for each file name it holds (and a problem at that name, to throw).
  private init(
    manifest data: Data, named manifestName: String, key: UInt64,
    words wordList: (String, (String) -> CloudError) throws(CloudError) -> WordList
  ) throws(CloudError) {
    let manifest: JSONDocument
    do {
      manifest = try JSONDocument(parsing: data)
    } catch {
      throw CloudError(.invalidData, error.message(in: manifestName))
    }
    func problem(_ path: JSONPath, _ what: String) -> CloudError {
      CloudError(.invalidData, "\(manifest.place(of: path, in: manifestName)): \(what)")
    }
    func string(_ path: JSONPath) throws(CloudError) -> String {
      guard case .string(let s)? = manifest.value(at: path) else {
        throw problem(
          path, "expected a string, found \(manifest.value(at: path)?.typeName ?? "none")")
      }
      return s
    }
    func degrees(_ path: JSONPath) throws(CloudError) -> Double {
      guard case .number(let n)? = manifest.value(at: path) else {
        throw problem(
          path,
          "expected a number of degrees, found \(manifest.value(at: path)?.typeName ?? "none")")
      }
      return n
    }
    guard case .array(let entries)? = manifest.value(at: ["languages"]) else {
      throw problem(["languages"], "expected {\"languages\": [...]}")
    }
    var codecs: [String: ThreeWordCodec] = [:]
    for i in entries.indices {
      let entry = JSONPath(["languages", .index(i)])
      let code = try string(entry.appending(key: "code"))
      let name = try string(entry.appending(key: "name"))
      let nativeName = try string(entry.appending(key: "nativeName"))
      let file = try string(entry.appending(key: "words"))
      let box = entry.appending(key: "coverage")
      let south = try degrees(box.appending(key: "south"))
      let west = try degrees(box.appending(key: "west"))
      let north = try degrees(box.appending(key: "north"))
      let east = try degrees(box.appending(key: "east"))
      guard south >= -90, north <= 90, south < north, west >= -180, east <= 180, west < east
      else {
        throw problem(box, "expected a box with south < north, west < east, in degrees")
      }
      let words = try wordList(file) { problem(entry.appending(key: "words"), $0) }
      let language = ThreeWordLanguage(
        code: code, name: name, nativeName: nativeName, wordCount: words.count,
        coverage: (south, west, north, east))
      codecs[code] = try ThreeWordCodec(language: language, words: words, key: key)
    }
    self.codecs = codecs
    languages = codecs.values.map(\.language).sorted { $0.code < $1.code }
  }
}
