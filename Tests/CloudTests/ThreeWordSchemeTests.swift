import Geo
import SimKernel
import Testing

@testable import Cloud

@Suite struct ThreeWordSchemeTests {
  let english = ThreeWordFixtures.languages.codecs["en"]!
  let japanese = ThreeWordFixtures.languages.codecs["ja"]!

  private func randomCoordinate(_ random: inout SplitMix64) -> Coordinate {
    try! Coordinate(
      latitude: Double.random(in: -90...90, using: &random),
      longitude: Double.random(in: -180..<180, using: &random))
  }

  private func neighbours(of square: GridSquare) -> [GridSquare] {
    // Same row: the columns either side (wrapping at the antimeridian). Rows above and below:
    // every square of that row overlapping this one's longitude span, plus one either side.
    let columns = SquareGrid.columns(band: square.row / SquareGrid.rowsPerBand)
    var result = [
      GridSquare(row: square.row, column: (square.column + 1) % columns),
      GridSquare(row: square.row, column: (square.column + columns - 1) % columns),
    ]
    let b = SquareGrid.bounds(of: square)
    for row in [square.row - 1, square.row + 1] where row >= 0 && row < SquareGrid.rowCount {
      let n = SquareGrid.columns(band: row / SquareGrid.rowsPerBand)
      let first = SquareGrid.column(longitude: b.west, columns: n)
      let last = SquareGrid.column(longitude: b.east - 1e-12, columns: n)
      for c in (first - 1)...(last + 1) {
        result.append(GridSquare(row: row, column: (c + n) % n))
      }
    }
    return result
  }

  @Test func theGridHasTheDocumentedDimensions() {
    #expect(SquareGrid.rowCount == 6_671_700)
    #expect(abs(SquareGrid.rowHeight * Double.pi / 180 * SquareGrid.earthRadius - 3) < 1e-3)
    #expect(SquareGrid.columns(band: SquareGrid.bandCount / 2) == 13_343_410)
    #expect(english.squareCount == 56_673_945_881_000)
    #expect(english.language.wordCount >= 40_000)
  }

  @Test func encodeThenDecodeGivesTheSquareContainingThePointWorldwide() throws {
    var random = SplitMix64(seed: 31)
    var points = (0..<20_000).map { _ in randomCoordinate(&random) }
    points += [
      try Coordinate(latitude: 90, longitude: 0), try Coordinate(latitude: -90, longitude: 17),
      try Coordinate(latitude: 0, longitude: -180),
      try Coordinate(latitude: 89.99999, longitude: 179.99999),
      try Coordinate(latitude: 35.681236, longitude: 139.767125),
    ]
    for point in points {
      let square = SquareGrid.square(containing: point)
      let (a, b, c) = try #require(english.wordIDs(of: square))
      let decoded = try #require(english.square(wordIDs: a, b, c))
      #expect(decoded == square)
      let box = SquareGrid.bounds(of: decoded)
      #expect(box.south - 1e-9 <= point.latitude && point.latitude <= box.north + 1e-9)
      #expect(box.west - 1e-9 <= point.longitude && point.longitude <= box.east + 1e-9)
    }
  }

  @Test func everySquareOfSeveralBlocksHasItsOwnTriple() {
    var random = SplitMix64(seed: 7)
    var seen: Set<String> = []
    var count = 0
    for _ in 0..<8 {
      let row = Int.random(in: 0..<(SquareGrid.rowCount - 100), using: &random)
      for r in row..<(row + 60) {
        let columns = SquareGrid.columns(band: r / SquareGrid.rowsPerBand)
        let start = Int.random(in: 0..<columns, using: &random) % max(1, columns - 60)
        for c in start..<min(columns, start + 60) {
          seen.insert(english.words(of: GridSquare(row: r, column: c))!)
          count += 1
        }
      }
    }
    #expect(seen.count == count)
  }

  @Test func touchingSquaresShareNoWordsAnywhere() throws {
    var random = SplitMix64(seed: 11)
    var squares = (0..<3_000).map { _ in SquareGrid.square(containing: randomCoordinate(&random)) }
    // Band edges, the antimeridian and the poles.
    squares += [
      GridSquare(row: 99, column: 0), GridSquare(row: 100, column: 1),
      GridSquare(row: 3_335_849, column: 13_343_409), GridSquare(row: 0, column: 0),
      GridSquare(row: SquareGrid.rowCount - 1, column: 1),
    ]
    for square in squares {
      let (a, b, c) = try #require(english.wordIDs(of: square))
      let own: Set = [a, b, c]
      for neighbour in neighbours(of: square) {
        let (x, y, z) = try #require(english.wordIDs(of: neighbour))
        #expect(own.isDisjoint(with: [x, y, z]), "\(square) and \(neighbour)")
      }
    }
  }

  @Test func touchingSquaresShareNoWordsInJapaneseEither() throws {
    var random = SplitMix64(seed: 12)
    for _ in 0..<2_000 {
      let point = try Coordinate(
        latitude: Double.random(in: 20.1...45.9, using: &random),
        longitude: Double.random(in: 122.1...153.9, using: &random))
      let square = SquareGrid.square(containing: point)
      let (a, b, c) = try #require(japanese.wordIDs(of: square))
      for neighbour in neighbours(of: square) {
        let (x, y, z) = try #require(japanese.wordIDs(of: neighbour))
        #expect(Set([a, b, c]).isDisjoint(with: [x, y, z]))
      }
    }
  }

  @Test func changingOneWordLandsFarAwayOrNowhere() throws {
    var random = SplitMix64(seed: 5)
    for _ in 0..<2_000 {
      let point = randomCoordinate(&random)
      let square = SquareGrid.square(containing: point)
      var ids = try #require(english.wordIDs(of: square))
      let colour = ids.0 & 3
      let other = Int.random(in: 0..<english.words.classSize(colour), using: &random) * 4 + colour
      switch Int.random(in: 0..<3, using: &random) {
      case 0: ids.0 = other
      case 1: ids.1 = other
      default: ids.2 = other
      }
      guard let moved = english.square(wordIDs: ids.0, ids.1, ids.2), moved != square else {
        continue
      }
      let box = SquareGrid.bounds(of: moved)
      let there = try Coordinate(latitude: box.south, longitude: box.west)
      #expect(greatCircleDistance(from: point, to: there, radius: 6_371_000) > 1_000)
    }
  }

  @Test func triplesMixingWordClassesAreNotAddresses() {
    #expect(english.square(wordIDs: 0, 1, 0) == nil)
    #expect(english.square(wordIDs: 4, 8, 14) == nil)
  }

  @Test func theFeistelPermutationIsABijectionOfItsDomain() {
    for domain in [1, 2, 3, 5, 17, 64, 65, 250, 1_000, 4_097] {
      let permutation = FeistelPermutation(domain: UInt64(domain), key: UInt64(domain))
      var images: Set<UInt64> = []
      for x in 0..<UInt64(domain) {
        let y = permutation.forward(x)
        #expect(y < UInt64(domain))
        #expect(permutation.inverse(y) == x)
        images.insert(y)
      }
      #expect(images.count == domain)
    }
  }

  @Test func japaneseCoversJapanAndStopsAtItsBox() throws {
    for (lat, lng) in [
      (35.681236, 139.767125), (26.2124, 127.6809), (43.0618, 141.3545), (24.2867, 153.9807),
      (20.4253, 136.0810), (45.5228, 141.9365), (24.4676, 122.9340),
    ] {
      let square = SquareGrid.square(containing: try Coordinate(latitude: lat, longitude: lng))
      let (a, b, c) = try #require(japanese.wordIDs(of: square), "\(lat), \(lng)")
      #expect(japanese.square(wordIDs: a, b, c) == square)
    }
    for (lat, lng) in [
      (19.999, 130.0), (46.001, 142.0), (30.0, 121.999), (30.0, 154.001), (39.9042, 116.4074),
      (-33.8688, 151.2093), (51.5074, -0.1278),
    ] {
      let square = SquareGrid.square(containing: try Coordinate(latitude: lat, longitude: lng))
      #expect(japanese.wordIDs(of: square) == nil, "\(lat), \(lng)")
    }
  }

  @Test func japaneseAddressesAreHiragana() throws {
    let square = SquareGrid.square(
      containing: try Coordinate(latitude: 35.681236, longitude: 139.767125))
    let words = try #require(japanese.words(of: square))
    let kana = words.unicodeScalars.filter { $0 != "." }
    #expect(kana.allSatisfy { (0x3041...0x3093).contains($0.value) })
  }
}
