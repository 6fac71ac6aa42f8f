import Cloud
import Geo
import SimKernel
import Testing

@Suite struct ThreeWordAutosuggestTests {
  let service = ThreeWordAddressService(languages: ThreeWordFixtures.languages)
  let shibuya = try! Coordinate(latitude: 35.658034, longitude: 139.701636)

  private func misspell(_ word: Substring, _ random: inout SplitMix64) -> String {
    var letters = Array(word)
    let i = Int.random(in: 1..<(letters.count - 1), using: &random)
    switch Int.random(in: 0..<3, using: &random) {
    case 0: letters.remove(at: i)
    case 1: letters.swapAt(i, i - 1)
    default: letters.insert(letters[i], at: i)
    }
    return String(letters)
  }

  @Test func anExactAddressComesFirst() throws {
    let address = try service.convertTo3wa(shibuya)
    let suggestions = try service.autosuggest(address.words)
    #expect(suggestions.first?.address == address)
    #expect(suggestions.first?.rank == 1 && suggestions.first?.editDistance == 0)
  }

  @Test func aMisspeltWordStillFindsTheAddressNearTheFocus() throws {
    var random = SplitMix64(seed: 3)
    var options = AutosuggestOptions()
    options.focus = shibuya
    for _ in 0..<40 {
      let point = try Coordinate(
        latitude: 35.658 + Double.random(in: -0.01...0.01, using: &random),
        longitude: 139.70 + Double.random(in: -0.01...0.01, using: &random))
      let address = try service.convertTo3wa(point)
      var parts = address.words.split(separator: ".").map(String.init)
      let w = Int.random(in: 0..<3, using: &random)
      parts[w] = misspell(Substring(parts[w]), &random)
      let typed = parts.joined(separator: ".")
      let suggestions = try service.autosuggest(typed, options: options)
      #expect(suggestions.contains { $0.address == address }, "\(typed) for \(address.words)")
      // Among corrections as costly as the true one, nearer ones rank first.
      if let hit = suggestions.first(where: { $0.address == address }) {
        #expect(hit.distanceToFocusKm! <= 2)
        for s in suggestions where s.editDistance == hit.editDistance && s.rank < hit.rank {
          #expect(s.distanceToFocusKm! <= hit.distanceToFocusKm!)
        }
      }
    }
  }

  @Test func suggestionsAreRankedByDistanceToTheFocus() throws {
    let address = try service.convertTo3wa(shibuya)
    var parts = address.words.split(separator: ".")
    parts[2] = parts[2].prefix(2)
    var options = AutosuggestOptions()
    options.focus = shibuya
    options.nResults = 100
    let suggestions = try service.autosuggest(parts.joined(separator: "."), options: options)
    #expect(suggestions.count > 3)
    #expect(suggestions.first?.address == address)
    // prefer-land (on by default) puts land before sea, each ordered by distance.
    for sea in [false, true] {
      let distances = suggestions.filter {
        $0.editDistance == 0 && ($0.address.country == "ZZ") == sea
      }
      .map { $0.distanceToFocusKm! }
      #expect(distances == distances.sorted())
    }
    #expect(suggestions.map(\.rank) == Array(1...suggestions.count))
  }

  @Test func nResultsDefaultsToThreeAndClipsFilter() throws {
    let address = try service.convertTo3wa(shibuya)
    var parts = address.words.split(separator: ".")
    parts[2] = parts[2].prefix(2)
    let input = parts.joined(separator: ".")
    #expect(try service.autosuggest(input).count == 3)
    var options = AutosuggestOptions()
    options.nResults = 100
    options.clipToCircle = (shibuya, 1)
    let circle = try service.autosuggest(input, options: options)
    #expect(circle.contains { $0.address == address })
    #expect(
      circle.allSatisfy {
        greatCircleDistance(from: shibuya, to: $0.address.coordinates, radius: 6_371_008.8) <= 1_000
      })
    options.clipToCircle = nil
    options.clipToBoundingBox = (
      try Coordinate(latitude: 35.6, longitude: 139.6),
      try Coordinate(latitude: 35.7, longitude: 139.8)
    )
    #expect(try service.autosuggest(input, options: options).contains { $0.address == address })
    options.clipToBoundingBox = nil
    options.clipToPolygon = [
      try Coordinate(latitude: 35.6, longitude: 139.6),
      try Coordinate(latitude: 35.7, longitude: 139.6),
      try Coordinate(latitude: 35.7, longitude: 139.8),
      try Coordinate(latitude: 35.6, longitude: 139.6),
    ]
    let polygon = try service.autosuggest(input, options: options)
    #expect(polygon.contains { $0.address == address })
    options.clipToPolygon = nil
    options.clipToCountry = ["JP"]
    let japan = try service.autosuggest(input, options: options)
    #expect(japan.contains { $0.address == address })
    #expect(japan.allSatisfy { $0.address.country == "JP" })
    options.clipToCountry = ["FR"]
    #expect(
      try service.autosuggest(input, options: options).allSatisfy { $0.address.country == "FR" })
  }

  @Test func japaneseInputWithSpacesIsForgivenByAutosuggest() throws {
    let address = try service.convertTo3wa(shibuya, language: "ja")
    let spaced = address.words.split(separator: ".").joined(separator: "\u{3000}")
    var options = AutosuggestOptions()
    options.language = "ja"
    #expect(try service.autosuggest(spaced, options: options).first?.address == address)
  }

  @Test func tooShortInputGivesNoSuggestions() throws {
    #expect(try service.autosuggest("index.home").isEmpty)
    #expect(try service.autosuggest("index").isEmpty)
  }
}
