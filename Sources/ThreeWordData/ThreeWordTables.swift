import Errors
import Foundation
import Geo
import JSON

/// Everything the three-word service reads from its data folders, built once: the languages'
/// manifest and word tables, the country borders and their grid, and the places.
///
/// The package build writes the shipped folders' tables into the `Cloud` module's resources
/// as two ``TableFile``s (``fileName``, and ``bordersFileName`` for the borders), by the
/// `ThreeWordTablesPlugin`, so that a process maps them and uses the tables where they lie
/// instead of parsing and indexing the text.
package struct ThreeWordTables: Equatable, Sendable {
  /// The table format this code writes and reads.
  package static let formatVersion: UInt32 = 1
  /// The name of the file of the tables but the borders, in the `Cloud` module's resources.
  package static let fileName = "three-words.tables"
  /// The name of the file of the borders (``BorderTable``), beside it: the replay viewer
  /// draws them, and reads this file alone.
  package static let bordersFileName = "country-borders.tables"

  /// `languages.json` as it is in the languages folder.
  package var manifest: [UInt8]
  /// The word tables by their file's name in the languages folder.
  package var words: [String: WordTable]
  package var borders: BorderTable
  package var grid: CountryGrid
  package var places: PlaceTable

  /// Tables already read.
  package init(
    manifest: [UInt8], words: [String: WordTable], borders: BorderTable, grid: CountryGrid,
    places: PlaceTable
  ) {
    self.manifest = manifest
    self.words = words
    self.borders = borders
    self.grid = grid
    self.places = places
  }

  /// Reads and indexes the text files: `languages.json` and the word files its `languages`
  /// entries name (`words`) in `languages`, `countries.txt` and `places.tsv` in `places`.
  ///
  /// - Throws: ``ThreeWordDataError`` naming the file and the place in it.
  package init(
    languagesFolder languages: String, placesFolder places: String
  ) throws(ThreeWordDataError) {
    func read(_ path: String) throws(ThreeWordDataError) -> [UInt8] {
      do {
        return try readFileContents(atPath: path)
      } catch {
        throw ThreeWordDataError(.invalidData, error.description)
      }
    }
    let manifestPath = languages + "/languages.json"
    let manifest = try read(manifestPath)
    let document: JSONDocument
    do {
      document = try JSONDocument(parsing: Data(manifest))
    } catch {
      throw ThreeWordDataError(.invalidData, error.message(in: manifestPath))
    }
    guard case .array(let entries)? = document.value(at: ["languages"]) else {
      throw ThreeWordDataError(.invalidData, "\(manifestPath): expected {\"languages\": [...]}")
    }
    var words: [String: WordTable] = [:]
    for i in entries.indices {
      let path = JSONPath(["languages", .index(i), "words"])
      guard case .string(let file)? = document.value(at: path) else {
        throw ThreeWordDataError(
          .invalidData, "\(document.place(of: path, in: manifestPath)): expected a file name")
      }
      let text = try read(languages + "/" + file)
      words[file] = try text.withUnsafeBufferPointer { bytes throws(ThreeWordDataError) in
        guard String(validating: bytes, as: UTF8.self) != nil else {
          throw ThreeWordDataError(.invalidData, "\(file): expected UTF-8")
        }
        return try WordTable(utf8: bytes, name: file)
      }
    }
    let borders = try read(places + "/countries.txt").withUnsafeBufferPointer {
      bytes throws(ThreeWordDataError) in try BorderTable(countriesUTF8: bytes)
    }
    let placeTable = try read(places + "/places.tsv").withUnsafeBufferPointer {
      bytes throws(ThreeWordDataError) in try PlaceTable(placesUTF8: bytes)
    }
    self.init(
      manifest: manifest, words: words, borders: borders, grid: CountryGrid(borders: borders),
      places: placeTable)
  }

  /// The tables but the borders as a ``TableFile`` (the borders: `borders.encoded()`).
  package func encoded() -> [UInt8] {
    var file = TableFile(version: Self.formatVersion)
    file.append("languages.json", manifest)
    for (name, table) in words.sorted(by: { $0.key < $1.key }) {
      file.append("words/\(name)/utf8", table.utf8)
      file.append("words/\(name)/utf8Start", table.utf8Start)
      file.append("words/\(name)/scalarValues", table.scalarValues)
      file.append("words/\(name)/scalarStart", table.scalarStart)
      file.append("words/\(name)/hashes", table.hashes)
      file.append("words/\(name)/slots", table.slots)
    }
    file.append("grid/codes", Array(grid.codes.joined().utf8))
    file.append("grid/cellStart", grid.cellStart)
    file.append("grid/cellFill", grid.cellFill)
    file.append("grid/entryCountry", grid.entryCountry)
    file.append("grid/entryInside", grid.entryInside)
    file.append("grid/entryEdgeStart", grid.entryEdgeStart)
    file.append("grid/edges", grid.edges)
    file.append("places/names", places.names)
    file.append("places/nameStart", places.nameStart)
    file.append("places/japanese", places.japanese)
    file.append("places/japaneseStart", places.japaneseStart)
    file.append("places/latitude", places.latitude)
    file.append("places/longitude", places.longitude)
    file.append("places/near", places.near)
    file.append("places/index/vectors", Column(places.index.vectors))
    file.append("places/index/order", places.index.indices)
    file.append("places/index/boxes", Column(places.index.boxes))
    file.append("places/index/leafStarts", places.index.leafStarts)
    return file.encoded()
  }

  /// Reads tables written by ``encoded()``, with the borders read from their own file, and
  /// checks that they fit together, so that no look-up in them can go out of bounds; `name`
  /// names the file in errors.
  ///
  /// - Throws: ``ThreeWordDataError`` naming the file and the table that is damaged.
  package init(
    decoding bytes: [UInt8], borders: BorderTable, name: String
  ) throws(ThreeWordDataError) {
    try self.init(
      file: TableFile(decoding: bytes, version: Self.formatVersion, name: name), borders: borders,
      name: name)
  }

  /// Reads the tables written by ``encoded()`` to the file at `path`, as
  /// ``init(decoding:borders:name:)`` does, but mapped: the tables are used where they lie in
  /// the file, not copied.
  ///
  /// - Throws: ``ThreeWordDataError`` naming the file and the table that is damaged.
  package init(
    contentsOfFile path: String, borders: BorderTable, name: String
  ) throws(ThreeWordDataError) {
    try self.init(
      file: TableFile(contentsOfFile: path, version: Self.formatVersion, name: name),
      borders: borders, name: name)
  }

  private init(file: TableFile, borders: BorderTable, name: String) throws(ThreeWordDataError) {
    func damaged(_ table: String) -> ThreeWordDataError {
      ThreeWordDataError(.invalidData, "\(name): table \(table) does not fit the others")
    }
    var words: [String: WordTable] = [:]
    for table in file.names where table.hasPrefix("words/") && table.hasSuffix("/utf8") {
      let word = String(table.dropFirst("words/".count).dropLast("/utf8".count))
      let prefix = "words/\(word)/"
      let list = WordTable(
        utf8: try file.table(prefix + "utf8", in: name),
        utf8Start: try file.table(prefix + "utf8Start", in: name),
        scalarValues: try file.table(prefix + "scalarValues", in: name),
        scalarStart: try file.table(prefix + "scalarStart", in: name),
        hashes: try file.table(prefix + "hashes", in: name),
        slots: try file.table(prefix + "slots", in: name))
      guard list.fits else { throw damaged(prefix + "*") }
      words[word] = list
    }
    let codeBytes: Column<UInt8> = try file.table("grid/codes", in: name)
    guard codeBytes.count % 2 == 0 else { throw damaged("grid/codes") }
    let grid = CountryGrid(
      codes: stride(from: 0, to: codeBytes.count, by: 2).map {
        String(decoding: codeBytes[$0..<$0 + 2], as: UTF8.self)
      },
      cellStart: try file.table("grid/cellStart", in: name),
      cellFill: try file.table("grid/cellFill", in: name),
      entryCountry: try file.table("grid/entryCountry", in: name),
      entryInside: try file.flags("grid/entryInside", in: name),
      entryEdgeStart: try file.table("grid/entryEdgeStart", in: name),
      edges: try file.table("grid/edges", in: name))
    guard grid.fits(borders) else { throw damaged("grid/*") }
    let places = PlaceTable(
      names: try file.table("places/names", in: name),
      nameStart: try file.table("places/nameStart", in: name),
      japanese: try file.table("places/japanese", in: name),
      japaneseStart: try file.table("places/japaneseStart", in: name),
      latitude: try file.doubles("places/latitude", in: name),
      longitude: try file.doubles("places/longitude", in: name),
      near: try file.flags("places/near", in: name),
      index: PointIndexLayout(
        vectors: Array(try file.doubles("places/index/vectors", in: name)),
        indices: Array(try file.table("places/index/order", in: name)),
        boxes: Array(try file.doubles("places/index/boxes", in: name)),
        leafStarts: Array(try file.table("places/index/leafStarts", in: name))))
    guard places.fits else { throw damaged("places/*") }
    self.init(
      manifest: Array(try file.table("languages.json", of: UInt8.self, in: name)), words: words,
      borders: borders,
      grid: grid, places: places)
  }
}

/// Whether `starts` are offsets into a table of `total` elements: from 0, never decreasing,
/// ending at `total`.
private func areOffsets(_ starts: Column<Int32>, into total: Int) -> Bool {
  guard starts.first == 0, starts.last.map(Int.init) == total else { return false }
  return zip(starts, starts.dropFirst()).allSatisfy { $0 <= $1 }
}

extension WordTable {
  fileprivate var fits: Bool {
    let n = count
    return n >= 4 && n < 1 << Self.idBits && scalarStart.count == n + 1 && hashes.count == n
      && slots.count >= 2 * n && slots.count & (slots.count - 1) == 0
      && areOffsets(utf8Start, into: utf8.count)
      && areOffsets(scalarStart, into: scalarValues.count)
      && slots.allSatisfy { $0 >= -1 && $0 < n }
  }
}

extension BorderTable {
  /// The borders as a ``TableFile``.
  package func encoded() -> [UInt8] {
    var file = TableFile(version: ThreeWordTables.formatVersion)
    file.append("borders/ringCodes", ringCodes)
    file.append("borders/ringStart", ringStart)
    file.append("borders/x", x)
    file.append("borders/y", y)
    return file.encoded()
  }

  /// Reads borders written by ``encoded()`` and checks that their tables fit together; `name`
  /// names the file in errors.
  ///
  /// - Throws: ``ThreeWordDataError`` naming the file and the table that is damaged.
  package init(decoding bytes: [UInt8], name: String) throws(ThreeWordDataError) {
    try self.init(
      file: TableFile(decoding: bytes, version: ThreeWordTables.formatVersion, name: name),
      name: name)
  }

  /// Reads the borders written by ``encoded()`` to the file at `path`, mapped: the tables are
  /// used where they lie in the file, not copied.
  ///
  /// - Throws: ``ThreeWordDataError`` naming the file and the table that is damaged.
  package init(contentsOfFile path: String, name: String) throws(ThreeWordDataError) {
    try self.init(
      file: TableFile(
        contentsOfFile: path, version: ThreeWordTables.formatVersion, name: name), name: name)
  }

  private init(file: TableFile, name: String) throws(ThreeWordDataError) {
    self.init(
      ringCodes: try file.table("borders/ringCodes", in: name),
      ringStart: try file.table("borders/ringStart", in: name),
      x: try file.doubles("borders/x", in: name), y: try file.doubles("borders/y", in: name))
    guard fits else {
      throw ThreeWordDataError(.invalidData, "\(name): table borders/* does not fit the others")
    }
  }

  fileprivate var fits: Bool {
    ringStart.count >= 1 && ringCodes.count == 2 * count && x.count == y.count
      && areOffsets(ringStart, into: x.count)
      && zip(ringStart, ringStart.dropFirst()).allSatisfy { $1 - $0 >= 2 }
  }
}

extension CountryGrid {
  fileprivate func fits(_ borders: BorderTable) -> Bool {
    if cellFill.isEmpty {
      return codes.isEmpty && cellStart.isEmpty && entryCountry.isEmpty && edges.isEmpty
    }
    let countries = Int16(codes.count)
    let entries = entryCountry.count
    return cellFill.count == Self.cellCount && cellStart.count == Self.cellCount + 1
      && entryInside.count == entries && entryEdgeStart.count == entries + 1
      && areOffsets(cellStart, into: entries) && areOffsets(entryEdgeStart, into: edges.count)
      && entryCountry.allSatisfy { $0 >= 0 && $0 < countries }
      && cellFill.allSatisfy { $0 >= -1 && $0 < countries }
      && edges.allSatisfy { $0 >= 0 && Int($0) < borders.x.count - 1 }
  }
}

extension PlaceTable {
  fileprivate var fits: Bool {
    latitude.count == longitude.count && nameStart.count == count + 1
      && japaneseStart.count == count + 1 && near.count == CountryGrid.cellCount
      && areOffsets(nameStart, into: names.count) && areOffsets(japaneseStart, into: japanese.count)
      && latitude.allSatisfy { $0 >= -90 && $0 <= 90 }
      && longitude.allSatisfy { $0 >= -180 && $0 < 180 }
      && PointIndex(layout: index, points: point, elements: Array(0..<Int32(count))) != nil
  }
}
