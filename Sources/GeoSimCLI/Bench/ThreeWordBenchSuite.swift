import Cloud
import Foundation
import Geo
import SimKernel

/// `geosim bench cloud`, three-word-address rows: encode and decode (targets ≤ 2 µs each) and
/// autosuggest (target ≤ 1 ms), against a plain hash look-up of an address's three words.
///
/// Encode and decode run over 4,096 seeded random points worldwide (English) and around Japan
/// (Japanese); autosuggest gets an address near Shibuya with one word misspelt, or with only
/// two letters (or one) of its third word, and a focus at Shibuya.
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
    bench.measure("3wa.lookup-3-words") { n in
      var sum = 0
      for i in 0..<n {
        for word in english[i & 4_095].split(separator: ".") { sum &+= table[String(word)] ?? 0 }
      }
      blackHole(sum)
    }
    bench.measure("3wa.encode.en", baseline: "3wa.lookup-3-words") { n in
      var sum = 0
      for i in 0..<n {
        sum &+= (try? service.convertTo3wa(world[i & 4_095]))?.words.utf8.count ?? 0
      }
      blackHole(sum)
    }
    bench.measure("3wa.decode.en", baseline: "3wa.lookup-3-words") { n in
      var sum = 0.0
      for i in 0..<n {
        sum += (try? service.convertToCoordinates(english[i & 4_095]))?.square.south ?? 0
      }
      blackHole(sum)
    }
    bench.measure("3wa.encode.ja", baseline: "3wa.lookup-3-words") { n in
      var sum = 0
      for i in 0..<n {
        sum &+= (try? service.convertTo3wa(japan[i & 4_095], language: "ja"))?.words.utf8.count ?? 0
      }
      blackHole(sum)
    }
    bench.measure("3wa.decode.ja", baseline: "3wa.lookup-3-words") { n in
      var sum = 0.0
      for i in 0..<n {
        sum += (try? service.convertToCoordinates(japanese[i & 4_095]))?.square.south ?? 0
      }
      blackHole(sum)
    }
    try autosuggestCases(&bench, service, &random)
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
    bench.measure("3wa.autosuggest.misspelt", baseline: "3wa.lookup-3-words") { n in
      var sum = 0
      for i in 0..<n {
        sum &+= (try? service.autosuggest(misspelt[i & 255], options: options))?.count ?? 0
      }
      blackHole(sum)
    }
    bench.measure("3wa.autosuggest.partial", baseline: "3wa.lookup-3-words") { n in
      var sum = 0
      for i in 0..<n {
        sum &+= (try? service.autosuggest(partial[i & 255], options: options))?.count ?? 0
      }
      blackHole(sum)
    }
    bench.measure("3wa.autosuggest.one-letter", baseline: "3wa.lookup-3-words") { n in
      var sum = 0
      for i in 0..<n {
        sum &+= (try? service.autosuggest(oneLetter[i & 255], options: options))?.count ?? 0
      }
      blackHole(sum)
    }
  }
}
