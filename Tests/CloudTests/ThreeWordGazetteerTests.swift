import Cloud
import Geo
import SimKernel
import Testing

@Suite struct ThreeWordGazetteerTests {
  let service = ThreeWordAddressService(languages: ThreeWordFixtures.languages)
  let gazetteer = try! ThreeWordGazetteer.bundled()

  private func country(_ latitude: Double, _ longitude: Double) throws -> String {
    try service.convertTo3wa(latitude: latitude, longitude: longitude).country
  }

  @Test func japanIncludingOkinawaIsJPAndTheSeaIsZZ() throws {
    #expect(try country(35.681236, 139.767125) == "JP")  // Tokyo Station
    #expect(try country(35.658034, 139.701636) == "JP")  // Shibuya
    #expect(try country(26.212401, 127.680932) == "JP")  // Naha, Okinawa
    #expect(try country(43.068661, 141.350755) == "JP")  // Sapporo
    #expect(try country(34.90, 139.90) == "ZZ")  // off the Bōsō peninsula
    #expect(try country(35.00, 141.00) == "ZZ")  // the Pacific east of Tokyo
    #expect(try country(0, -150) == "ZZ")  // mid-Pacific
    #expect(try country(-80, 0) == "ZZ")  // Antarctica belongs to no country
  }

  @Test func pointsNearBordersGetTheirCountry() throws {
    #expect(try country(46.204391, 6.143158) == "CH")  // Geneva
    #expect(try country(48.573405, 7.752111) == "FR")  // Strasbourg
    #expect(try country(47.559601, 7.588576) == "CH")  // Basel
    #expect(try country(48.5698, 7.8155) == "DE")  // Kehl, across the Rhine from Strasbourg
    #expect(try country(43.7470, 7.4200) == "MC")  // Monaco (Boulevard de Belgique)
    #expect(try country(41.9029, 12.4534) == "VA")  // Vatican City, an enclave of Italy
    #expect(try country(41.8919, 12.5113) == "IT")  // Rome
    #expect(try country(22.2783, 114.1747) == "HK")  // Hong Kong
    #expect(try country(25.0330, 121.5654) == "TW")  // Taipei
    #expect(try country(40.7128, -74.0060) == "US")  // New York
    #expect(try country(-33.8688, 151.2093) == "AU")  // Sydney
  }

  @Test func tokyoStationIsNearAPlaceInTokyo() throws {
    let english = try service.convertTo3wa(latitude: 35.681236, longitude: 139.767125)
    #expect(["Chiyoda", "Chūō", "Tokyo"].contains(english.nearestPlace))
    let japanese = try service.convertTo3wa(
      latitude: 35.681236, longitude: 139.767125, language: "ja")
    #expect(["千代田区", "中央区", "東京都"].contains(japanese.nearestPlace))
    let naha = try service.convertTo3wa(latitude: 26.212401, longitude: 127.680932)
    #expect(naha.nearestPlace == "Naha")
    #expect(try service.convertTo3wa(latitude: 0, longitude: -150).nearestPlace == "")
  }

  @Test func everyCountryCodeIsAlpha2OrZZ() throws {
    let known = Set(gazetteer.countryCodes)
    #expect(known.count > 240)
    for code in known {
      #expect(code.count == 2 && code.allSatisfy { $0.isASCII && $0.isUppercase }, "\(code)")
      #expect(code != "ZZ" && code != "AQ")
    }
    var random = SplitMix64(seed: 2_026)
    var land = 0
    for _ in 0..<5_000 {
      let point = try Coordinate(
        latitude: Double.random(in: -90...90, using: &random),
        longitude: Double.random(in: -180...180, using: &random))
      let code = gazetteer.country(at: point)
      #expect(code == "ZZ" || known.contains(code))
      if code != "ZZ" { land += 1 }
    }
    // About 29 % of the globe is land, less Antarctica's 2.7 %.
    #expect((1_050...1_500).contains(land), "\(land) of 5,000 on land")
  }

  @Test func convertToCoordinatesCarriesCountryAndPlace() throws {
    let address = try service.convertTo3wa(latitude: 35.681236, longitude: 139.767125)
    let back = try service.convertToCoordinates(address.words)
    #expect(back == address)
    #expect(back.country == "JP" && !back.nearestPlace.isEmpty)
  }

  @Test func clipToCountryKeepsOnlyThatCountry() throws {
    let address = try service.convertTo3wa(latitude: 35.681236, longitude: 139.767125)
    let parts = address.words.split(separator: ".")
    let input = String(parts[0] + "." + parts[1] + "." + parts[2].prefix(1))
    var options = AutosuggestOptions()
    options.nResults = 100
    let all = try service.autosuggest(input, options: options)
    #expect(all.contains { $0.address.country != "JP" })
    options.clipToCountry = ["jp"]
    let japan = try service.autosuggest(input, options: options)
    #expect(!japan.isEmpty)
    #expect(japan.allSatisfy { $0.address.country == "JP" })
    #expect(japan.contains { $0.address == address })
    options.clipToCountry = ["ZZ"]
    #expect(
      try service.autosuggest(input, options: options).allSatisfy { $0.address.country == "ZZ" })
    options.clipToCountry = ["QQ"]
    #expect(try service.autosuggest(input, options: options).isEmpty)
    options.clipToCountry = Array(repeating: "JP", count: 17)
    #expect(throws: ThreeWordAPIError.self) { try service.autosuggest(input, options: options) }
  }

  @Test func preferLandRanksLandFirstWithinAnEditDistance() throws {
    let address = try service.convertTo3wa(latitude: 35.681236, longitude: 139.767125)
    let parts = address.words.split(separator: ".")
    let input = String(parts[0] + "." + parts[1] + "." + parts[2].prefix(1))
    var options = AutosuggestOptions()
    options.nResults = 100
    options.preferLand = false
    let plain = try service.autosuggest(input, options: options)
    // Most of the globe is sea, so without the preference sea squares are among the first.
    #expect(plain.prefix(10).contains { $0.address.country == "ZZ" })
    options.preferLand = true
    let preferred = try service.autosuggest(input, options: options)
    #expect(preferred.prefix(10).allSatisfy { $0.address.country != "ZZ" })
    let land = { (s: [ThreeWordSuggestion]) in s.filter { $0.address.country != "ZZ" }.count }
    #expect(land(preferred) > land(plain))
    for (a, b) in zip(preferred, preferred.dropFirst()) where a.editDistance == b.editDistance {
      #expect(!(a.address.country == "ZZ" && b.address.country != "ZZ"))
    }
    var query = ["input": input, "n-results": "100", "prefer-land": "false"]
    var json = service
    #expect(json.respond(to: "autosuggest", query: query).body.jsonText.contains("\"ZZ\""))
    query["clip-to-country"] = "JP,FR"
    #expect(!json.respond(to: "autosuggest", query: query).body.jsonText.contains("\"ZZ\""))
  }

  @Test func anEmptyGazetteerAnswersZZAndNoPlace() throws {
    let bare = ThreeWordAddressService(languages: ThreeWordFixtures.languages, gazetteer: .empty)
    let address = try bare.convertTo3wa(latitude: 35.681236, longitude: 139.767125)
    #expect(address.country == "ZZ" && address.nearestPlace == "")
  }
}
