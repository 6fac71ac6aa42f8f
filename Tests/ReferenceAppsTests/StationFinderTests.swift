import Cloud
import Device
import Geo
import JSON
import ReferenceApps
import SimKernel
import Testing

/// Article 001: a first tap searches stations within 3 km, a second the box between the taps,
/// a third drops the oldest, the trash button clears all.
@Suite struct StationFinderTests {
  let hamamatsucho = try! Coordinate(latitude: 35.6550, longitude: 139.7580)
  let kamiyacho = try! Coordinate(latitude: 35.6630, longitude: 139.7450)

  func names(_ world: World) -> [String] {
    (world.state["stations"]?.array ?? []).compactMap { $0["title"]?.string }
  }

  @Test(arguments: ReferenceAppKind.stationFinder.variants)
  func theFirstTapSearchesStationsWithinThreeKilometres(_ variant: ReferenceAppVariant) throws {
    let world = try World()
    try world.launch(.stationFinder, variant)
    try world.tapMap(at: hamamatsucho, time: 1)
    try world.run(until: 5)
    let near = try #require(world.appEvents("search.near").first)
    #expect(near["kilometers"] == .double(3))
    let request = try #require(
      world.simulation.log.entries(source: "network", event: "request").first)
    guard case .string(let summary)? = request["request"] else {
      Issue.record("no request summary")
      return
    }
    #expect(summary.contains("$nearSphere") && summary.contains("$maxDistanceInKilometers"))
    // Nearest first; 東京 (3.1 km) and 新宿 are farther.
    #expect(names(world) == ["浜松町", "大門", "神谷町", "六本木"])
    #expect(world.state["tapLocations"]?.array?.count == 1)
    #expect(world.state["markers"]?.array?.count == 5)
  }

  /// Taps the north-west corner first, then the south-east one.
  func boxSearch(_ variant: ReferenceAppVariant) throws -> World {
    let world = try World()
    try world.launch(.stationFinder, variant)
    try world.tapMap(at: kamiyacho, time: 1)
    try world.tapMap(at: hamamatsucho, time: 3)
    try world.run(until: 6)
    return world
  }

  @Test func asPublishedTheBoxCornersAreTheTapsInTapOrder() throws {
    let world = try boxSearch(.asPublished)
    let box = try #require(world.appEvents("search.box").first)
    #expect(box["southwestLatitude"] != nil)
    guard case .double(let swLat)? = box["southwestLatitude"],
      case .double(let neLat)? = box["northeastLatitude"]
    else { return }
    // The "southwest" corner is the first tap, north of the "northeast" one.
    #expect(swLat > neLat)
    let query = try #require(world.simulation.log.entries(source: "ncmb", event: "query").last)
    #expect(query["invertedBox"] == .bool(true))
  }

  @Test func correctedTheBoxRunsFromTheSmallerToTheLargerCorner() throws {
    let world = try boxSearch(.corrected)
    let box = try #require(world.appEvents("search.box").first)
    guard case .double(let swLat)? = box["southwestLatitude"],
      case .double(let neLat)? = box["northeastLatitude"],
      case .double(let swLng)? = box["southwestLongitude"],
      case .double(let neLng)? = box["northeastLongitude"]
    else {
      Issue.record("no corners in \(box)")
      return
    }
    #expect(swLat < neLat && swLng < neLng)
    let query = try #require(world.simulation.log.entries(source: "ncmb", event: "query").last)
    #expect(query["invertedBox"] == .bool(false))
    #expect(Set(names(world)) == ["浜松町", "大門", "神谷町"])
  }

  @Test(arguments: ReferenceAppKind.stationFinder.variants)
  func aThirdTapDropsTheOldest(_ variant: ReferenceAppVariant) throws {
    let world = try World()
    try world.launch(.stationFinder, variant)
    try world.tapMap(at: kamiyacho, time: 1)
    try world.tapMap(at: hamamatsucho, time: 3)
    try world.tapMap(at: tokyoStation, time: 5)
    try world.run(until: 8)
    let taps = try #require(world.state["tapLocations"]?.array)
    #expect(taps.count == 2)
    #expect(abs(taps[0]["latitude"]!.number! - hamamatsucho.latitude) < 1e-4)
    #expect(world.appEvents("search.box").count == 2)
  }

  /// The trash button pressed while the first search is still in flight.
  func trashWhileSearching(_ variant: ReferenceAppVariant) throws -> World {
    var link = LinkProfile()
    link.latencyMedian = .milliseconds(500)
    link.latencySigma = 0
    let world = try World(link: link)
    try world.launch(.stationFinder, variant)
    try world.tapMap(at: hamamatsucho, time: 1)
    try world.at(1.2) { try world.screen.tapButton("trash") }
    try world.run(until: 5)
    return world
  }

  @Test func asPublishedAnAnswerArrivingAfterTheTrashButtonBringsMarkersBack() throws {
    let world = try trashWhileSearching(.asPublished)
    #expect(world.state["tapLocations"]?.array?.isEmpty == true)
    #expect(world.state["stations"]?.array?.count == 4)
  }

  @Test func correctedAnAnswerToASearchBeforeTheTrashButtonIsDropped() throws {
    let world = try trashWhileSearching(.corrected)
    #expect(world.state["stations"]?.array?.isEmpty == true)
    #expect(world.state["markers"]?.array?.isEmpty == true)
    #expect(world.appEvents("search.dropped").count == 1)
  }

  /// The first search's answer takes 2 s at the server; the box search's is quick.
  func slowFirstAnswer(_ variant: ReferenceAppVariant) throws -> World {
    let world = try World()
    let endpoint = SlowFirstEndpoint(
      NCMBEndpoint(datastore: world.datastore), first: .seconds(2))
    try world.network.register(endpoint)
    try world.launch(.stationFinder, variant)
    try world.tapMap(at: kamiyacho, time: 1)
    try world.tapMap(at: hamamatsucho, time: 1.5)
    try world.run(until: 6)
    return world
  }

  @Test func asPublishedALateAnswerToTheNearSearchOverwritesTheBoxResults() throws {
    let world = try slowFirstAnswer(.asPublished)
    #expect(world.state["tapLocations"]?.array?.count == 2)
    #expect(names(world).contains("六本木"))
  }

  @Test func correctedTheLateAnswerToASupersededSearchIsDropped() throws {
    let world = try slowFirstAnswer(.corrected)
    #expect(Set(names(world)) == ["浜松町", "大門", "神谷町"])
    #expect(world.appEvents("search.dropped").map { $0["id"] } == [.int(1)])
  }

  @Test func anUnknownButtonIsAnError() throws {
    let world = try World()
    try world.launch(.stationFinder, .asPublished)
    #expect(throws: DeviceError.self) { try world.screen.tapButton("search") }
  }
}

/// An NCMB endpoint whose first answer takes `first` at the server.
final class SlowFirstEndpoint: SimulatedService {
  let serviceName = "ncmb"
  let endpoint: NCMBEndpoint
  let first: SimDuration
  private var answered = 0

  init(_ endpoint: NCMBEndpoint, first: SimDuration) {
    self.endpoint = endpoint
    self.first = first
  }

  func respond(to request: HTTPRequest) -> (response: HTTPResponse, serviceTime: SimDuration) {
    answered += 1
    let (response, time) = endpoint.respond(to: request)
    return (response, answered == 1 ? first : time)
  }
}
