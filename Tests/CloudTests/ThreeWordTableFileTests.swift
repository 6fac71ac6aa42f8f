import Foundation
import Geo
import Testing
import ThreeWordData

@testable import Cloud

/// The three-word tables the package build writes: what they hold, and the error a damaged
/// or foreign table file gives.
@Suite struct ThreeWordTableFileTests {
  private static let built = Result { () throws -> ThreeWordTables in
    try ThreeWordTables(
      languagesFolder: ThreeWordLanguages.bundledDirectory().path,
      placesFolder: ThreeWordGazetteer.bundledDirectory().path)
  }

  private func message(_ bytes: [UInt8]) throws -> String? {
    let borders = try Self.built.get().borders
    do {
      _ = try ThreeWordTables(decoding: bytes, borders: borders, name: "t.tables")
      return nil
    } catch {
      #expect(error.code == .invalidData)
      return error.message
    }
  }

  @Test func theBundledTablesAreThoseOfTheBundledTextFiles() throws {
    // A stale build of the tables (the text or their builder changed since) fails here.
    let bundled = try ThreeWordTables.readBundled(borders: BorderTable.readBundled())
    let built = try Self.built.get()
    #expect(bundled.manifest == built.manifest)
    #expect(bundled.words.keys.sorted() == ["en.txt", "ja.txt"])
    #expect(bundled.words == built.words)
    #expect(bundled.borders == built.borders)
    #expect(bundled.grid == built.grid)
    #expect(bundled.places == built.places)
    #expect(bundled.borders.count == 10_140 && bundled.places.count == 34_006)
  }

  @Test func tablesReadBackAsTheyWereWritten() throws {
    let built = try Self.built.get()
    #expect(
      try ThreeWordTables(
        decoding: built.encoded(),
        borders: BorderTable(decoding: built.borders.encoded(), name: "b.tables"), name: "t.tables")
        == built)
    let empty = ThreeWordTables(
      manifest: Array("{\"languages\": []}".utf8), words: [:],
      borders: BorderTable(ringCodes: [], ringStart: [0], x: [], y: []), grid: .empty,
      places: PlaceTable(
        names: [], nameStart: [0], japanese: [], japaneseStart: [0], latitude: [],
        longitude: [], near: Column([Bool](repeating: false, count: CountryGrid.cellCount)),
        index: PointIndex<Int32>([]).layout))
    #expect(
      try ThreeWordTables(decoding: empty.encoded(), borders: empty.borders, name: "t.tables")
        == empty)
  }

  @Test func aTableFileReadInPlaceHoldsWhatItsBytesHold() throws {
    let built = try Self.built.get()
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
      "geosim-table-files-\(getpid())")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let tables = folder.appendingPathComponent("t.tables").path
    let borders = folder.appendingPathComponent("b.tables").path
    try Data(built.encoded()).write(to: URL(fileURLWithPath: tables))
    try Data(built.borders.encoded()).write(to: URL(fileURLWithPath: borders))
    let mapped = try ThreeWordTables(
      contentsOfFile: tables, borders: BorderTable(contentsOfFile: borders, name: "b.tables"),
      name: "t.tables")
    #expect(mapped == built)
    func message(_ path: String) -> String? {
      do {
        _ = try ThreeWordTables(contentsOfFile: path, borders: built.borders, name: "t.tables")
        return nil
      } catch {
        return error.message
      }
    }
    var damaged = built.encoded()
    damaged[damaged.count / 2] ^= 1
    try Data(damaged).write(to: URL(fileURLWithPath: tables))
    #expect(message(tables) == "t.tables: damaged (its checksum does not match)")
    try Data().write(to: URL(fileURLWithPath: tables))
    #expect(message(tables) == "t.tables: is empty")
    #expect(message(folder.path) == "t.tables: cannot be read: Is a directory")
    #expect(
      message(folder.appendingPathComponent("missing").path)
        == "t.tables: cannot be read: No such file or directory")
  }

  @Test func aColumnOfItsOwnHoldsTheValuesItWasGiven() {
    let values: [Int32] = [3, -1, 4, 1, 5]
    let column = Column(values)
    #expect(Array(column) == values && column.count == 5 && column[4] == 5)
    #expect(column == [3, -1, 4, 1, 5] && column != [3, -1, 4, 1])
    #expect(Column(values[1...]) == [-1, 4, 1, 5])
    #expect(Column(values.lazy.map { $0 * 2 }) == [6, -2, 8, 2, 10])
    #expect(Column<Double>([]).isEmpty)
    #expect(column.withUnsafeBufferPointer { Array($0) } == values)
  }

  @Test func aFileThatIsNotATableFileOfThisFormatSaysSo() throws {
    let file = try Self.built.get().encoded()
    #expect(
      try message(Array("{\"languages\": []}\n".utf8))
        == "t.tables: not a table file (expected it to start with \"GSIMTBL\")")
    var other = file
    other[8] = 9
    #expect(
      try message(other) == "t.tables: table format 9, expected 1; build the package again")
  }

  @Test func aDamagedOrShortenedFileFailsItsChecksum() throws {
    let file = try Self.built.get().encoded()
    for offset in [16, file.count / 3, file.count - 9] {
      var damaged = file
      damaged[offset] ^= 0x20
      #expect(
        try message(damaged) == "t.tables: damaged (its checksum does not match)", "\(offset)")
    }
    #expect(
      try message(Array(file[..<(file.count / 2 & ~7)]))
        == "t.tables: damaged (its checksum does not match)")
  }

  /// `column` changed by `change`.
  private func changed<T>(_ column: Column<T>, _ change: (inout [T]) -> Void) -> Column<T> {
    var values = Array(column)
    change(&values)
    return Column(values)
  }

  @Test func tablesThatDoNotFitTogetherAreRefusedBeforeAnyLookUp() throws {
    let built = try Self.built.get()
    var edgePastTheEnd = built
    edgePastTheEnd.grid.edges = changed(built.grid.edges) {
      $0[7] = Int32(built.borders.x.count - 1)
    }
    #expect(
      try message(edgePastTheEnd.encoded()) == "t.tables: table grid/* does not fit the others")
    var slotPastTheWords = built
    slotPastTheWords.words["ja.txt"]!.slots = changed(built.words["ja.txt"]!.slots) {
      $0[3] = Int32(built.words["ja.txt"]!.count)
    }
    #expect(
      try message(slotPastTheWords.encoded())
        == "t.tables: table words/ja.txt/* does not fit the others")
    var shortNames = built
    shortNames.places.nameStart = changed(built.places.nameStart) { $0.removeLast() }
    #expect(try message(shortNames.encoded()) == "t.tables: table places/* does not fit the others")
    var indexOfOnePlaceTwice = built
    indexOfOnePlaceTwice.places.index.indices[1] = built.places.index.indices[0]
    #expect(
      try message(indexOfOnePlaceTwice.encoded())
        == "t.tables: table places/* does not fit the others")
    var ringOfOneVertex = built.borders
    ringOfOneVertex.ringStart = changed(built.borders.ringStart) { $0[1] = 1 }
    #expect(
      throws: ThreeWordDataError(.invalidData, "b.tables: table borders/* does not fit the others")
    ) {
      try BorderTable(decoding: ringOfOneVertex.encoded(), name: "b.tables")
    }
  }

  @Test func aTableListThatIsCutShortOrRepeatsANameIsRefused() throws {
    func file(_ body: [UInt8]) -> [UInt8] {
      var bytes = TableFile.magic + [1, 0, 0, 0] + body
      while bytes.count % 8 != 0 { bytes.append(0) }
      let sum = bytes.withUnsafeBytes { TableFile.checksum($0) }
      withUnsafeBytes(of: sum.littleEndian) { bytes += $0 }
      return bytes
    }
    func entry(_ name: String, _ length: UInt64, _ payload: [UInt8]) -> [UInt8] {
      var bytes = withUnsafeBytes(of: UInt32(name.utf8.count).littleEndian) { Array($0) }
      bytes += name.utf8
      while (bytes.count + 16) % 8 != 0 { bytes.append(0) }
      bytes += withUnsafeBytes(of: length.littleEndian) { Array($0) } + payload
      while bytes.count % 8 != 0 { bytes.append(0) }
      return bytes
    }
    let count = { (n: UInt32) in withUnsafeBytes(of: n.littleEndian) { Array($0) } }
    func read(_ bytes: [UInt8]) -> String? {
      do {
        _ = try TableFile(decoding: bytes, version: 1, name: "t.tables")
        return nil
      } catch {
        return error.message
      }
    }
    #expect(
      read(file(count(2) + entry("a", 4, [1, 2, 3, 4]))) == "t.tables: cut short in its table list")
    #expect(
      read(file(count(1) + entry("a", 64, [1, 2, 3, 4]))) == "t.tables: cut short in table a")
    #expect(
      read(file(count(2) + entry("a", 4, [1, 2, 3, 4]) + entry("a", 4, [5, 6, 7, 8])))
        == "t.tables: holds table a twice")
    #expect(
      read(file(count(1) + entry("a", 4, [1, 2, 3, 4]) + [UInt8](repeating: 0, count: 8)))
        == "t.tables: has bytes after its last table")
    let good = try TableFile(
      decoding: file(count(1) + entry("a", 4, [1, 2, 3, 4])), version: 1, name: "t.tables")
    #expect(try good.table("a", of: UInt8.self, in: "t.tables") == [1, 2, 3, 4])
    #expect(try good.table("a", of: UInt32.self, in: "t.tables") == [0x0403_0201])
  }

  @Test func aMissingOrMisshapenTableIsNamed() throws {
    var file = TableFile(version: ThreeWordTables.formatVersion)
    file.append("languages.json", Array("{}".utf8))
    #expect(try message(file.encoded()) == "t.tables: no table grid/codes")
    var odd = TableFile(version: ThreeWordTables.formatVersion)
    odd.append("words/w.txt/utf8", [UInt8](repeating: 0, count: 4))
    odd.append("words/w.txt/utf8Start", [UInt8](repeating: 0, count: 6))
    #expect(
      try message(odd.encoded())
        == "t.tables: table words/w.txt/utf8Start holds 6 bytes, not whole values")
  }

  @Test func theBundledDataAnswersAsTheTextFilesDo() throws {
    let bundled = try ThreeWordTables.readBundled(borders: BorderTable.readBundled())
    let shared = ThreeWordGazetteer(tables: bundled)
    let read = try ThreeWordGazetteer(directory: ThreeWordGazetteer.bundledDirectory())
    let fromTables = try ThreeWordLanguages(tables: bundled, key: ThreeWordLanguages.standardKey)
    let fromText = try ThreeWordLanguages(directory: ThreeWordLanguages.bundledDirectory())
    #expect(fromTables.languages == fromText.languages)
    let tokyo = try Coordinate(latitude: 35.681236, longitude: 139.767125)
    #expect(shared.country(at: tokyo) == "JP" && read.country(at: tokyo) == "JP")
    #expect(
      shared.nearestPlace(to: tokyo, language: "ja") == read.nearestPlace(to: tokyo, language: "ja")
    )
    let text = ThreeWordAddressService(languages: fromText, gazetteer: read)
    let tables = ThreeWordAddressService(languages: fromTables, gazetteer: shared)
    for language in ["en", "ja"] {
      let a = try text.convertTo3wa(tokyo, language: language)
      let b = try tables.convertTo3wa(tokyo, language: language)
      #expect(a.words == b.words && a.nearestPlace == b.nearestPlace && a.country == b.country)
      #expect(try tables.convertToCoordinates(a.words).square == a.square)
    }
  }
}
