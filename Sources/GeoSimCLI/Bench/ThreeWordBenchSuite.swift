import Cloud
import Foundation
import Geo
import SimKernel
import ThreeWordData

/// `geosim bench cloud`, three-word-address rows: encode and decode (targets ≤ 2 µs each) and
/// autosuggest (target ≤ 1 ms), against a plain hash look-up of an address's three words.
///
/// Encode and decode run over 4,096 seeded random points worldwide (English) and around Japan
/// (Japanese); autosuggest gets an address near Shibuya with one word misspelt, or with only
/// two letters (or one) of its third word, and a focus at Shibuya.
///
/// Loading (target ≤ 50 ms): the languages and the gazetteer read afresh from the tables the
/// package build made (and, for comparison, built from the bundled text folders), and the
/// country borders alone, against reading the text files' bytes.
enum ThreeWordBenchSuite {
  static func run(_ bench: inout Bench) throws {
    let service = ThreeWordAddressService(languages: try ThreeWordLanguages.bundled())
    var random = SplitMix64(seed: 3_003)
    let world = (0..<4_096).map { _ in random.coordinate() }
    let japan = try (0..<4_096).map { _ in
      try Coordinate(
        latitude: Double.random(in: 24...45, using: &random),
        longitude: Double.random(in: 123...153, using: &random))
    }
    let english = try world.map { try service.convertTo3wa($0).words }
    let japanese = try japan.map { try service.convertTo3wa($0, language: "ja").words }
    var table: [String: Int] = [:]
    for words in english {
      for word in words.split(separator: ".") where table[String(word)] == nil {
        table[String(word)] = table.count
      }
    }
    bench.measure("3wa.lookup-3-words", inputs: 4_096) { n in
      var sum = 0
      for i in 0..<n {
        for word in english[i & 4_095].split(separator: ".") { sum &+= table[String(word)] ?? 0 }
      }
      blackHole(sum)
    }
    bench.measure(
      "3wa.encode.en", baseline: "3wa.lookup-3-words", target: "≤ 2 µs", inputs: 4_096
    ) { n in
      var sum = 0
      for i in 0..<n {
        sum &+= (try? service.convertTo3wa(world[i & 4_095]))?.words.utf8.count ?? 0
      }
      blackHole(sum)
    }
    bench.measure(
      "3wa.decode.en", baseline: "3wa.lookup-3-words", target: "≤ 2 µs", inputs: 4_096
    ) { n in
      var sum = 0.0
      for i in 0..<n {
        sum += (try? service.convertToCoordinates(english[i & 4_095]))?.square.south ?? 0
      }
      blackHole(sum)
    }
    bench.measure(
      "3wa.encode.ja", baseline: "3wa.lookup-3-words", target: "≤ 2 µs", inputs: 4_096
    ) { n in
      var sum = 0
      for i in 0..<n {
        sum &+= (try? service.convertTo3wa(japan[i & 4_095], language: "ja"))?.words.utf8.count ?? 0
      }
      blackHole(sum)
    }
    bench.measure(
      "3wa.decode.ja", baseline: "3wa.lookup-3-words", target: "≤ 2 µs", inputs: 4_096
    ) { n in
      var sum = 0.0
      for i in 0..<n {
        sum += (try? service.convertToCoordinates(japanese[i & 4_095]))?.square.south ?? 0
      }
      blackHole(sum)
    }
    try autosuggestCases(&bench, service, &random)
    try loadCases(&bench)
  }

  /// The load rows: everything a three-word scenario reads, from the tables the package build
  /// made (what a process's first three-word request does, without the per-process cache),
  /// and built from the bundled text folders instead, against reading the text files' bytes
  /// (the I/O floor); and the country borders alone, which every replay viewer reads.
  static func loadCases(_ bench: inout Bench) throws {
    let languagesFolder = try ThreeWordLanguages.bundledDirectory()
    let placesFolder = try ThreeWordGazetteer.bundledDirectory()
    let files =
      ["languages.json", "en.txt", "ja.txt"].map { languagesFolder.appendingPathComponent($0) }
      + ["countries.txt", "places.tsv"].map { placesFolder.appendingPathComponent($0) }
    // What the shipped data holds: a load that answers otherwise is not the load being timed.
    func check(_ languages: ThreeWordLanguages, _ gazetteer: ThreeWordGazetteer) throws {
      let counts = languages.languages.map { "\($0.code) \($0.wordCount)" }
      guard counts == ["en 112447", "ja 33103"], gazetteer.countryCodes.count == 249 else {
        throw BenchCheckFailure(
          "3wa.load: read \(counts) and \(gazetteer.countryCodes.count) countries; expected "
            + "[en 112447, ja 33103] and 249 countries")
      }
    }
    func fromTables() throws -> (ThreeWordLanguages, ThreeWordGazetteer) {
      let tables = try ThreeWordTables.readBundled(borders: BorderTable.readBundled())
      return (
        try ThreeWordLanguages(tables: tables, key: ThreeWordLanguages.standardKey),
        ThreeWordGazetteer(tables: tables)
      )
    }
    func fromText() throws -> (ThreeWordLanguages, ThreeWordGazetteer) {
      (
        try ThreeWordLanguages(directory: languagesFolder),
        try ThreeWordGazetteer(directory: placesFolder)
      )
    }
    for load in [fromTables, fromText] {
      let (languages, gazetteer) = try load()
      try check(languages, gazetteer)
    }
    guard try CountryBorderRing.rings(of: BorderTable.readBundled()).count == 10_140
    else {
      throw BenchCheckFailure("3wa.load.borders: expected the 10,140 rings of countries.txt")
    }
    var readFailed = false
    bench.measure("3wa.load.read-bytes") { n in
      var sum = 0
      for _ in 0..<n {
        for file in files {
          guard let data = try? Data(contentsOf: file) else {
            readFailed = true
            continue
          }
          sum &+= data.count
        }
      }
      blackHole(sum)
    }
    var loaded: [(ThreeWordLanguages, ThreeWordGazetteer)] = []
    for (name, target, load) in [
      ("3wa.load", "≤ 50 ms", fromTables), ("3wa.load.text", nil, fromText),
    ] {
      bench.measure(name, baseline: "3wa.load.read-bytes", target: target) { n in
        for _ in 0..<n {
          do {
            let data = try load()
            if loaded.count < 2 { loaded.append(data) }
          } catch {
            readFailed = true
          }
        }
      }
    }
    bench.measure("3wa.load.borders", baseline: "3wa.load.read-bytes") { n in
      var sum = 0
      for _ in 0..<n {
        guard let borders = try? BorderTable.readBundled() else {
          readFailed = true
          continue
        }
        sum &+= CountryBorderRing.rings(of: borders).count
      }
      blackHole(sum)
    }
    guard !readFailed, loaded.count == 2 else {
      throw BenchCheckFailure("3wa.load: a bundled data file could not be read while timing")
    }
    for (languages, gazetteer) in loaded { try check(languages, gazetteer) }
  }

  private static func autosuggestCases(
    _ bench: inout Bench, _ service: ThreeWordAddressService, _ random: inout SplitMix64
  ) throws {
    let shibuya = try Coordinate(latitude: 35.658034, longitude: 139.701636)
    var options = AutosuggestOptions()
    options.focus = shibuya
    var misspelt: [String] = []
    var partial: [String] = []
    var oneLetter: [String] = []
    for _ in 0..<256 {
      let point = try Coordinate(
        latitude: 35.658 + Double.random(in: -0.02...0.02, using: &random),
        longitude: 139.70 + Double.random(in: -0.02...0.02, using: &random))
      var parts = try service.convertTo3wa(point).words.split(separator: ".").map(String.init)
      partial.append(parts[0] + "." + parts[1] + "." + parts[2].prefix(2))
      oneLetter.append(parts[0] + "." + parts[1] + "." + parts[2].prefix(1))
      let w = Int.random(in: 0..<3, using: &random)
      var letters = Array(parts[w])
      letters.swapAt(1, 2)
      parts[w] = String(letters)
      misspelt.append(parts.joined(separator: "."))
    }
    bench.measure(
      "3wa.autosuggest.misspelt", baseline: "3wa.lookup-3-words", target: "≤ 1 ms"
    ) { n in
      var sum = 0
      for i in 0..<n {
        sum &+= (try? service.autosuggest(misspelt[i & 255], options: options))?.count ?? 0
      }
      blackHole(sum)
    }
    bench.measure(
      "3wa.autosuggest.partial", baseline: "3wa.lookup-3-words", target: "≤ 1 ms"
    ) { n in
      var sum = 0
      for i in 0..<n {
        sum &+= (try? service.autosuggest(partial[i & 255], options: options))?.count ?? 0
      }
      blackHole(sum)
    }
    bench.measure(
      "3wa.autosuggest.one-letter", baseline: "3wa.lookup-3-words", target: "≤ 1 ms"
    ) { n in
      var sum = 0
      for i in 0..<n {
        sum &+= (try? service.autosuggest(oneLetter[i & 255], options: options))?.count ?? 0
      }
      blackHole(sum)
    }
  }
}
