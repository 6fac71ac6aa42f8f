import Cloud
import Device
import Geo
import JSON
import ReferenceApps
import SimKernel
import Testing

/// Article 000: the label shows the current position's three words; the search bar finds
/// three words typed with spaces.
@Suite struct ThreeWordLocatorTests {
  let service = ThreeWordAddressService(languages: Languages.bundled)

  func words(_ c: Coordinate) throws -> String {
    try service.convertTo3wa(latitude: c.latitude, longitude: c.longitude, language: "ja").words
  }

  @Test(arguments: ReferenceAppKind.threeWordLocator.variants)
  func theLabelShowsTheThreeWordsOfTheFirstFixAndUpdatesStop(_ variant: ReferenceAppVariant)
    throws
  {
    let world = try World()
    try world.launch(.threeWordLocator, variant)
    try world.run(until: 10)
    #expect(world.state["label"]?.string == (try words(tokyoStation)))
    #expect(world.simulation.log.entries(source: "location", event: "stopped").count == 1)
    let camera = try #require(world.appEvents("camera").last)
    #expect(camera["zoom"] == .double(17))
  }

  func search(_ text: String, _ variant: ReferenceAppVariant) throws -> World {
    let world = try World()
    try world.launch(.threeWordLocator, variant)
    try world.run(until: 10)
    try world.screen.enterText(text, in: "search")
    try world.run(until: 20)
    return world
  }

  @Test(arguments: ReferenceAppKind.threeWordLocator.variants)
  func wordsSeparatedByASCIISpacesDropAMarkerAndMoveTheCamera(_ variant: ReferenceAppVariant)
    throws
  {
    let target = offset(5_000, azimuth: 45)
    let dotted = try words(target)
    let world = try search(dotted.replacingOccurrences(of: ".", with: " "), variant)
    let markers = try #require(world.state["markers"]?.array)
    #expect(markers.count == 1)
    #expect(markers.first?["title"]?.string == dotted)
    let camera = try #require(world.state["camera"])
    #expect(abs(camera["latitude"]!.number! - target.latitude) < 0.0001)
    #expect(abs(camera["longitude"]!.number! - target.longitude) < 0.0001)
  }

  @Test func asPublishedAnIdeographicSpaceStaysInTheWordsAndTheSearchFindsNothing() throws {
    let dotted = try words(offset(5_000, azimuth: 45))
    let world = try search(dotted.replacingOccurrences(of: ".", with: "\u{3000}"), .asPublished)
    #expect(
      world.appEvents("search").first?["words"]
        == .string(dotted.replacingOccurrences(of: ".", with: "\u{3000}")))
    #expect(world.state["markers"]?.array?.isEmpty == true)
    let response = try #require(
      world.simulation.log.entries(source: "network", event: "response").last)
    #expect(response["status"] == .int(400))
  }

  @Test func correctedAnIdeographicSpaceSeparatesWordsToo() throws {
    let dotted = try words(offset(5_000, azimuth: 45))
    let world = try search(
      " " + dotted.replacingOccurrences(of: ".", with: "\u{3000}") + "  ", .corrected)
    #expect(world.appEvents("search").first?["words"] == .string(dotted))
    #expect(world.state["markers"]?.array?.count == 1)
  }

  /// CoreLocation may hand a restarted app its cached fix first; the article takes it.
  func relaunchAfterMoving(_ variant: ReferenceAppVariant) throws -> World {
    var parameters = PhoneParameters()
    parameters.staleFirstFixProbability = 1
    let elsewhere = offset(3_000, azimuth: 180)
    let world = try World(parameters: parameters) { t in
      t < .seconds(100) ? tokyoStation : elsewhere
    }
    try world.launch(.threeWordLocator, variant)
    try world.run(until: 20)
    world.phone.terminateApp()
    try world.run(until: 200)
    try world.relaunch()
    try world.run(until: 220)
    return world
  }

  @Test func asPublishedACachedFixGivesTheWordsOfWhereThePhoneWas() throws {
    let world = try relaunchAfterMoving(.asPublished)
    #expect(world.state["label"]?.string == (try words(tokyoStation)))
  }

  @Test func correctedSkipsTheCachedFixAndWaitsForAFreshOne() throws {
    let world = try relaunchAfterMoving(.corrected)
    #expect(world.state["label"]?.string == (try words(offset(3_000, azimuth: 180))))
    #expect(world.appEvents("location.skipped").count == 1)
  }
}
