import Foundation
import Geo
import SimKernel
import Testing

@testable import Cloud

/// The readers of the three-word data files: what they make of a file, and the place and the
/// expectation they name when a file is damaged.
@Suite struct ThreeWordDataFileTests {
  private func message(_ body: () throws(CloudError) -> Void) -> String? {
    do {
      try body()
      return nil
    } catch {
      #expect(error.code == .invalidData)
      return error.message
    }
  }

  // MARK: countries.txt

  @Test func aBorderLineIsACodeThenAnAbsoluteVertexThenDifferences() throws {
    let rings = try CountryBorderRing.rings(
      countriesText: "AB 1000 -2000 500 0 0 250\n\nCD  -5 +7 1 1  -1 -1 \n")
    #expect(
      rings == [
        CountryBorderRing(country: "AB", longitudes: [1, 1.5, 1.5], latitudes: [-2, -2, -1.75]),
        CountryBorderRing(
          country: "CD", longitudes: [-0.005, -0.004, -0.005], latitudes: [0.007, 0.008, 0.007]),
      ])
    #expect(rings[0].latitudeRange == -2 ... -1.75)
    #expect(rings[1].longitudeRange == -0.005 ... -0.004)
  }

  @Test func aBorderLineWithTheWrongFieldsNamesItsLine() {
    for line in ["AB 1 2 3 4 5", "AB 1 2 3 4 5 6 7", "ABC 1 2 3 4 5 6", "A 1 2 3 4 5 6"] {
      #expect(
        message { () throws(CloudError) in
          _ = try CountryBorderRing.rings(countriesText: "AB 1 2 3 4 5 6\n\(line)\n")
        } == "countries.txt line 2: expected CC x y dx dy …", "\(line)")
    }
  }

  @Test func aBorderLineWithABadNumberNamesItsLineCountingLinesThatHoldRings() {
    for field in ["x", "1.5", "-", "+", "1-", "99999999999999999999", "--1", "٣"] {
      #expect(
        message { () throws(CloudError) in
          _ = try CountryBorderRing.rings(
            countriesText: "AB 1 2 3 4 5 6\n\nAB 1 2 3 \(field) 5 6\n")
        } == "countries.txt line 2: bad number", "\(field)")
    }
  }

  @Test func theShippedBordersHoldEveryRingOfTheFile() throws {
    let rings = try CountryBorderRing.bundled()
    #expect(rings.count == 10_140)
    #expect(rings.first?.country == "VA")
    #expect(rings.first?.longitudes.first == 12.45 && rings.first?.latitudes.first == 41.907)
    #expect(Set(rings.map(\.country)).count == 249)
    // Read where they lie in the shipped table, they are the rings of the text file: the same
    // vertices, ranges and hashes.
    let text = try CountryBorderRing.rings(
      contentsOf: ThreeWordGazetteer.bundledDirectory().appendingPathComponent("countries.txt"))
    #expect(rings == text)
    #expect(rings.map(\.latitudeRange) == text.map(\.latitudeRange))
    #expect(rings.map(\.longitudeRange) == text.map(\.longitudeRange))
    #expect(Set(rings) == Set(text))
    let ring = rings[7]
    #expect(
      ring
        == CountryBorderRing(
          country: ring.country, longitudes: ring.longitudes, latitudes: ring.latitudes))
    #expect(
      ring
        != CountryBorderRing(
          country: ring.country, longitudes: ring.longitudes.dropLast() + [0],
          latitudes: ring.latitudes))
  }

  @Test func theBundledGazetteerOnTheViewersBordersAnswersAsOneReadFromItsFolder() throws {
    let shared = try ThreeWordGazetteer.bundled()
    let read = try ThreeWordGazetteer(directory: ThreeWordGazetteer.bundledDirectory())
    #expect(shared.countryCodes == read.countryCodes)
    var random = SplitMix64(seed: 11)
    for _ in 0..<2_000 {
      let point = try Coordinate(
        latitude: Double.random(in: -60...75, using: &random),
        longitude: Double.random(in: -180...180, using: &random))
      #expect(shared.country(at: point) == read.country(at: point))
      #expect(
        shared.nearestPlace(to: point, language: "ja")
          == read.nearestPlace(to: point, language: "ja"))
    }
  }

  // MARK: places.tsv

  @Test func aPlaceLineIsNameJapaneseNameLatitudeAndLongitude() throws {
    let places = try ThreeWordGazetteer.places(
      placesText: "Shibuya\t渋谷\t35.658\t139.7016\n\nZīr Āb\t\t-36.1797\t52\n")
    #expect(places.map(\.name) == ["Shibuya", "Zīr Āb"])
    #expect(places.map(\.japanese) == ["渋谷", ""])
    #expect(places.map(\.point.latitude) == [35.658, -36.1797])
    #expect(places.map(\.point.longitude) == [139.7016, 52])
  }

  @Test func aDamagedPlaceLineNamesItsLine() {
    for line in ["A\tB\t35.6", "A\tB\t35.6\t139.7\t1", "A\tB\tnorth\t139.7", "A\tB\t91\t139.7"] {
      #expect(
        message { () throws(CloudError) in
          _ = try ThreeWordGazetteer.places(placesText: "A\t\t1\t2\n\n\(line)\n")
        } == "places.tsv line 2: expected name, ja, lat, lng", "\(line)")
    }
  }

  @Test func aDecimalReadsAsDoubleReadsIt() {
    var random = SplitMix64(seed: 20)
    var texts = [
      "0", "-0", "1.", ".5", "-.5", "1e3", "+1", "0x10", "inf", "nan", "", "-", "1.2.3",
      "123456789012345678", "0.1234567890123456", "-179.99999", "89.123456789012",
    ]
    for _ in 0..<2_000 {
      let digits = Int.random(in: 1...16, using: &random)
      var text = Bool.random(using: &random) ? "-" : ""
      let dot = Int.random(in: 0...digits, using: &random)
      for k in 0..<digits {
        if k == dot && k > 0 { text += "." }
        text += String(Int.random(in: 0...9, using: &random))
      }
      texts.append(text)
    }
    for text in texts {
      let read = Array(text.utf8).withUnsafeBufferPointer { ThreeWordGazetteer.decimal($0) }
      #expect(read?.bitPattern == Double(text)?.bitPattern, "\(text)")
    }
  }

  // MARK: word lists

  @Test func aWordListNamesTheLineOfAWordOutOfOrderRepeatedOrHoldingASpaceOrADot() {
    let cases = [
      ("a\nb\n\nd\nc\ne\n", "w.txt:5: 'c' is out of order or repeated"),
      ("a\nb\nb\nc\nd\n", "w.txt:3: 'b' is out of order or repeated"),
      ("a\nb\nc d\ne\nf\n", "w.txt:3: 'c d' holds a space or a dot"),
      ("a\nb\nc.d\ne\nf\n", "w.txt:3: 'c.d' holds a space or a dot"),
      ("a\nb\nc\n", "w.txt: 3 words; expected 4…1048575"),
      ("é\nà\nb\nc\n", "w.txt:2: 'à' is out of order or repeated"),
    ]
    for (text, expected) in cases {
      #expect(
        message { () throws(CloudError) in _ = try WordList(text: text, name: "w.txt") }
          == expected, "\(text)")
    }
  }

  /// Every word of a small list over a four-letter alphabet: a dense neighbourhood, where most
  /// words are near misses of many others.
  private func denseWords() -> [String] {
    var random = SplitMix64(seed: 4)
    var words: Set<String> = []
    while words.count < 3_000 {
      let length = Int.random(in: 1...7, using: &random)
      words.insert(String((0..<length).map { _ in "abcé".randomElement(using: &random)! }))
    }
    return words.sorted { $0.unicodeScalars.lexicographicallyPrecedes($1.unicodeScalars) }
  }

  @Test func aWordListFindsEachOfItsWordsAndNoOther() throws {
    let words = denseWords()
    let list = try WordList(text: words.joined(separator: "\n") + "\n", name: "dense.txt")
    #expect((0..<list.count).map(list.word) == words)
    for (i, word) in words.enumerated() {
      #expect(list.id(of: word) == i)
      #expect(Array(list.scalars(of: i)) == word.unicodeScalars.map(\.value))
      #expect(list.id(of: word + "d") == nil)
    }
  }

  @Test func nearMissesAreTheWordsSharingAWordOrADeletionWithTheText() throws {
    let words = denseWords()
    let list = try WordList(text: words.joined(separator: "\n"), name: "dense.txt")
    // The referee: the word and its one-letter deletions, as sets of strings.
    func variants(_ s: [UInt32]) -> Set<[UInt32]> {
      var out: Set<[UInt32]> = [s]
      for i in s.indices {
        var t = s
        t.remove(at: i)
        out.insert(t)
      }
      return out
    }
    let scalars = words.map { $0.unicodeScalars.map(\.value) }
    let wordVariants = scalars.map(variants)
    var random = SplitMix64(seed: 7)
    for _ in 0..<150 {
      var typed = scalars.randomElement(using: &random)!
      switch Int.random(in: 0..<4, using: &random) {
      case 0: typed.insert(0x62, at: Int.random(in: 0...typed.count, using: &random))
      case 1 where typed.count > 1:
        typed.remove(at: Int.random(in: 0..<typed.count, using: &random))
      case 2: typed[Int.random(in: 0..<typed.count, using: &random)] = 0x64
      default: break
      }
      let typedVariants = variants(typed)
      let expected = wordVariants.indices.filter {
        !wordVariants[$0].isDisjoint(with: typedVariants)
      }
      .filter { WordList.editDistance(typed, scalars[$0][...]) <= 2 }
      let found = list.nearMisses(of: typed)
      #expect(found.map(\.id) == expected, "\(typed)")
      for (id, distance) in found {
        #expect(distance == WordList.editDistance(typed, scalars[id][...]))
      }
    }
  }

  @Test func theNearMissIndexMadeOnFirstUseAnswersAlikeOnEveryThread() async throws {
    let words = denseWords()
    let list = try WordList(text: words.joined(separator: "\n"), name: "dense.txt")
    let typed = words.prefix(64).map { $0.unicodeScalars.map(\.value) }
    let answers = await withTaskGroup(of: [[Int]].self) { group in
      for _ in 0..<8 {
        group.addTask { typed.map { list.nearMisses(of: $0).map(\.id) } }
      }
      return await group.reduce(into: []) { $0.append($1) }
    }
    #expect(answers.count == 8)
    #expect(Set(answers).count == 1)
    #expect(answers.first?.allSatisfy { !$0.isEmpty } == true)
  }

  @Test func theHashRadixSortSortsKeysMadeInIncreasingIDOrder() {
    var random = SplitMix64(seed: 9)
    var keys: [UInt64] = []
    for id in 0..<50_000 {
      for _ in 0..<Int.random(in: 1...4, using: &random) {
        let hash = UInt64.random(
          in: 0...(Bool.random(using: &random) ? 1 << 44 - 1 : 63), using: &random)
        keys.append(hash << 20 | UInt64(id))
      }
    }
    var sorted = keys
    WordList.radixSortHashBits(&sorted)
    #expect(sorted == keys.sorted())
  }

  @Test func theRadixSortOrdersByItsBitsAloneAndKeepsTiesInOrder() {
    var random = SplitMix64(seed: 11)
    // Home slots of up to 22 bits above 20 bits of anything, and bits above both.
    let keys = (0..<40_000).map { _ in
      UInt64.random(in: 0...(1 << 22 - 1), using: &random) << 20
        | UInt64.random(in: 0...(1 << 20 - 1), using: &random)
        | UInt64.random(in: 0...3, using: &random) << 42
    }
    var sorted = keys
    WordList.radixSort(&sorted, lowestBit: 20, passes: 2)
    let field = { (key: UInt64) in key >> 20 & (1 << 22 - 1) }
    let stable = keys.enumerated().sorted {
      (field($0.element), $0.offset) < (field($1.element), $1.offset)
    }.map(\.element)
    #expect(sorted == stable)
  }

  @Test func theShippedWordListsKeepTheirWordsAndNumbers() throws {
    let languages = ThreeWordFixtures.languages
    #expect(languages.languages.map(\.wordCount) == [112_447, 33_103])
    for code in ["en", "ja"] {
      let list = try #require(languages.codecs[code]).words
      // Every word is found where the table was filled, whatever its home slot.
      #expect((0..<list.count).allSatisfy { list.id(of: list.word($0)) == $0 })
      for id in stride(from: 0, to: list.count, by: 97) {
        #expect(Array(list.scalars(of: id)) == list.word(id).unicodeScalars.map(\.value))
      }
    }
  }
}
