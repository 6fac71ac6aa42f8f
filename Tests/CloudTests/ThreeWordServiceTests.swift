import Cloud
import Geo
import JSON
import SimKernel
import Testing

@Suite struct ThreeWordServiceTests {
  let service = ThreeWordAddressService(languages: ThreeWordFixtures.languages)
  let tokyoStation = try! Coordinate(latitude: 35.681236, longitude: 139.767125)

  private func error(_ body: () throws -> Void) -> ThreeWordAPIError? {
    do {
      try body()
      return nil
    } catch {
      return error as? ThreeWordAPIError
    }
  }

  @Test func convertTo3waAndBackReturnsTheSameSquareAroundThePoint() throws {
    var random = SplitMix64(seed: 99)
    for _ in 0..<2_000 {
      let point = try Coordinate(
        latitude: Double.random(in: -90...90, using: &random),
        longitude: Double.random(in: -180..<180, using: &random))
      let address = try service.convertTo3wa(point)
      #expect(address.square.contains(point) || abs(point.latitude) > 89.9999)
      let back = try service.convertToCoordinates(address.words)
      #expect(back == address)
      #expect(back.language == "en")
      #expect(back.country == "ZZ" || back.country.count == 2)
    }
  }

  @Test func japaneseAddressesRoundTripAtTokyoStation() throws {
    let address = try service.convertTo3wa(tokyoStation, language: "ja")
    #expect(address.language == "ja")
    #expect(address.square.contains(tokyoStation))
    #expect(try service.convertToCoordinates(address.words) == address)
    let width = greatCircleDistance(
      from: try Coordinate(latitude: address.square.south, longitude: address.square.west),
      to: try Coordinate(latitude: address.square.south, longitude: address.square.east),
      radius: 6_371_008.8)
    #expect(abs(width - 3) < 0.1)
  }

  @Test func everySeparatorAndLeadingSlashesAreAccepted() throws {
    let address = try service.convertTo3wa(tokyoStation)
    let parts = address.words.split(separator: ".")
    for separator in [".", "｡", "。", "･", "・", "︒", "។", "։", "။", "۔", "።", "।"] {
      let text = parts.joined(separator: separator)
      #expect(try service.convertToCoordinates(text) == address, "\(separator)")
      #expect(try service.convertToCoordinates("///" + text) == address)
      #expect(try service.convertToCoordinates("/" + text.uppercased()) == address)
    }
  }

  @Test func spacesAndIdeographicSpacesAreNotSeparatorsButGetADidYouMean() throws {
    let address = try service.convertTo3wa(tokyoStation, language: "ja")
    let parts = address.words.split(separator: ".")
    for separator in [" ", "\u{3000}", ",", "-"] {
      let text = parts.joined(separator: separator)
      let e = error { _ = try service.convertToCoordinates(text) }
      #expect(e?.code == .badWords)
      #expect(e?.message.hasSuffix("did you mean \(address.words)?") == true, "\(e!)")
      #expect(ThreeWordAddressService.didYouMean(text) == address.words)
    }
    #expect(ThreeWordAddressService.didYouMean(address.words) == nil)
  }

  @Test func badInputGetsTheRealServicesErrorCodes() throws {
    let cases: [(ThreeWordAPIError.Code, () throws -> Void)] = [
      (.badCoordinates, { _ = try service.convertTo3wa(latitude: 91, longitude: 0) }),
      (.badCoordinates, { _ = try service.convertTo3wa(latitude: 0, longitude: 180.5) }),
      (.badCoordinates, { _ = try service.convertTo3wa(latitude: .nan, longitude: 0) }),
      (.badLanguage, { _ = try service.convertTo3wa(tokyoStation, language: "xx") }),
      (
        .badLanguage, { _ = try service.convertTo3wa(latitude: 51.5, longitude: 0, language: "ja") }
      ),
      (.missingWords, { _ = try service.convertToCoordinates("") }),
      (.badWords, { _ = try service.convertToCoordinates("only.two") }),
      (.badWords, { _ = try service.convertToCoordinates("a.b.c.d") }),
      (.badWords, { _ = try service.convertToCoordinates("aardvark..aardvark") }),
      (.badWords, { _ = try service.convertToCoordinates("qqqq.zzzz.xxxx") }),
      (.badWords, { _ = try service.convertToCoordinates("aardvark.aardwolf.aardvark") }),
      (.badWords, { _ = try service.convertToCoordinates("12.34.56") }),
      (.badInput, { _ = try service.autosuggest("") }),
    ]
    for (code, body) in cases {
      #expect(error(body)?.code == code)
    }
  }

  @Test func theJSONInterfaceAnswersLikeTheRealOne() throws {
    var service = self.service
    let ok = service.respond(
      to: "/v3/convert-to-3wa", query: ["coordinates": "35.681236,139.767125", "language": "ja"])
    #expect(ok.status == 200)
    guard case .object(let body) = ok.body, case .string(let words)? = body["words"] else {
      Issue.record("no words in \(ok.body.jsonText)")
      return
    }
    #expect(body["country"] == .string("JP"))
    #expect(body["nearestPlace"] != .string(""))
    #expect(body["language"] == .string("ja"))
    #expect(body["square"] != nil && body["coordinates"] != nil && body["nearestPlace"] != nil)
    let back = service.respond(to: "convert-to-coordinates", query: ["words": words])
    #expect(back == ok)
    let languages = service.respond(to: "available-languages", query: [:])
    #expect(languages.body.jsonText.contains("\"nativeName\":\"日本語\""))

    let errors: [(String, [String: String], String)] = [
      ("convert-to-3wa", ["coordinates": "91,0"], "BadCoordinates"),
      ("convert-to-3wa", ["coordinates": "abc"], "BadCoordinates"),
      ("convert-to-3wa", [:], "BadCoordinates"),
      ("convert-to-3wa", ["coordinates": "0,0", "language": "zz"], "BadLanguage"),
      ("convert-to-3wa", ["coordinates": "0,0", "format": "xml"], "BadFormat"),
      ("convert-to-coordinates", [:], "MissingWords"),
      ("convert-to-coordinates", ["words": "index home raft"], "BadWords"),
      ("autosuggest", [:], "BadInput"),
      ("autosuggest", ["input": "a.b.c", "n-results": "0"], "BadNResults"),
      ("autosuggest", ["input": "a.b.c", "n-results": "5000"], "BadNResults"),
      ("autosuggest", ["input": "a.b.c", "n-results": "101"], "BadNResults"),
      ("autosuggest", ["input": "a.b.c", "focus": "100,0"], "BadFocus"),
      ("autosuggest", ["input": "a.b.c", "clip-to-circle": "0,0,-1"], "BadClipToCircle"),
      (
        "autosuggest", ["input": "a.b.c", "clip-to-bounding-box": "10,0,0,1"],
        "BadClipToBoundingBox"
      ),
      ("autosuggest", ["input": "a.b.c", "clip-to-polygon": "0,0,1,1,0,0"], "BadClipToPolygon"),
      (
        "autosuggest", ["input": "a.b.c", "clip-to-polygon": "0,0,1,1,1,0,2,2"], "BadClipToPolygon"
      ),
      ("autosuggest", ["input": "a.b.c", "clip-to-country": "JPN"], "BadClipToCountry"),
      ("autosuggest", ["input": "a.b.c", "language": "xx"], "BadLanguage"),
      ("grid-section", ["bounding-box": "35,139"], "BadBoundingBox"),
      ("grid-section", ["bounding-box": "35.01,139,35,139.01"], "BadBoundingBox"),
      ("grid-section", ["bounding-box": "35,139,35.1,139.1"], "BadBoundingBoxTooBig"),
      ("no-such-thing", [:], "NotFound"),
    ]
    for (path, query, code) in errors {
      let response = service.respond(to: path, query: query)
      #expect(response.status != 200, "\(path) \(query)")
      #expect(
        response.body
          == .object(
            [
              "error": .object([
                "code": .string(code),
                "message":
                  (response.body.jsonText.contains("message")
                  ? extractMessage(response.body) : .null),
              ])
            ]), "\(path) \(query): \(response.body.jsonText)")
    }
  }

  private func extractMessage(_ body: JSONValue) -> JSONValue {
    guard case .object(let o) = body, case .object(let e)? = o["error"], let m = e["message"] else {
      return .null
    }
    return m
  }

  @Test func keysAndQuotasAnswerWithTheirStatuses() {
    var service = ThreeWordAddressService(
      languages: ThreeWordFixtures.languages, apiKey: "secret", quota: 3)
    let missing = service.respond(to: "available-languages", query: [:])
    #expect(missing.status == 401 && missing.body.jsonText.contains("MissingKey"))
    let wrong = service.respond(to: "available-languages", query: ["key": "nope"])
    #expect(wrong.status == 401 && wrong.body.jsonText.contains("InvalidKey"))
    #expect(service.respond(to: "available-languages", query: ["key": "secret"]).status == 200)
    let over = service.respond(to: "available-languages", query: ["key": "secret"])
    #expect(over.status == 402 && over.body.jsonText.contains("QuotaExceeded"))
  }

  @Test func aGridSectionDrawsEveryRowAndColumnEdgeInTheBox() throws {
    let sw = try Coordinate(latitude: 35.6800, longitude: 139.7660)
    let ne = try Coordinate(latitude: 35.6803, longitude: 139.7664)
    let lines = try service.gridSection(southwest: sw, northeast: ne)
    let horizontal = lines.filter { $0.start.lat == $0.end.lat }
    let vertical = lines.filter { $0.start.lng == $0.end.lng }
    // 0.0003° of latitude is about 33 m: 11 row edges; 0.0004° of longitude at 35.68° is 36 m.
    #expect((10...12).contains(horizontal.count))
    #expect((11...13).contains(vertical.count))
    let address = try service.convertTo3wa(
      try Coordinate(latitude: 35.68015, longitude: 139.7662))
    #expect(horizontal.contains { abs($0.start.lat - address.square.south) < 1e-12 })
    #expect(vertical.contains { abs($0.start.lng - address.square.west) < 1e-9 })
    let tooBig = error {
      _ = try service.gridSection(
        southwest: sw, northeast: try! Coordinate(latitude: 35.72, longitude: 139.79))
    }
    #expect(tooBig?.code == .badBoundingBoxTooBig)
  }
}
