import Device
import Geo
import JSON
import ReferenceApps
import SimKernel
import Testing

/// Article 003: one fix at kilometre accuracy stored through a repository, and the weather
/// request built from the stored values.
@Suite struct WeatherWidgetTests {
  func firstLaunch(_ variant: ReferenceAppVariant) throws -> World {
    let world = try World()
    try world.launch(.weatherWidget, variant)
    try world.run(until: 10)
    return world
  }

  @Test(arguments: ReferenceAppKind.weatherWidget.variants)
  func theFirstFixIsStoredAndUpdatesStop(_ variant: ReferenceAppVariant) throws {
    let world = try firstLaunch(variant)
    let stored = try #require(world.state["storedLocation"])
    #expect(stored["latitude"]?.number == tokyoStation.latitude)
    #expect(stored["longitude"]?.number == tokyoStation.longitude)
    #expect(world.appEvents("location.stored").count == 1)
    #expect(world.simulation.log.entries(source: "location", event: "stopped").count == 1)
    #expect(world.phone.userDefaults().double(forKey: "lat") == tokyoStation.latitude)
  }

  @Test func aConfiguredSuiteHoldsTheLocationInsteadOfTheStandardDefaults() throws {
    let world = try World()
    try world.launch(
      .weatherWidget, .asPublished, configuration: .object(["suiteName": .string("group.weather")]))
    try world.run(until: 10)
    #expect(
      world.phone.userDefaults(suiteName: "group.weather").double(forKey: "lat")
        == tokyoStation.latitude)
    #expect(world.phone.userDefaults().object(forKey: "lat") == nil)
    #expect(world.state["storedLocation"]?["longitude"]?.number == tokyoStation.longitude)
  }

  @Test func asPublishedTheFirstRequestGoesOutForLatitudeZeroLongitudeZero() throws {
    let world = try firstLaunch(.asPublished)
    let request = try #require(world.appEvents("weather.requested").first)
    #expect(request.time == .zero)
    #expect(request["latitude"] == .double(0) && request["longitude"] == .double(0))
    #expect(world.weather.requestedCoordinates.first?.latitude == "0.0")
    #expect(world.appEvents("weather.received").count == 1)
  }

  @Test func correctedNoRequestGoesOutUntilALocationIsStored() throws {
    let world = try firstLaunch(.corrected)
    let requests = world.appEvents("weather.requested")
    #expect(requests.count == 1)
    #expect(requests.first?["latitude"] == .double(tokyoStation.latitude))
    let stored = try #require(world.appEvents("location.stored").first)
    #expect(requests.first.map { $0.time >= stored.time } == true)
    #expect(world.weather.requestedCoordinates.allSatisfy { $0.latitude != "0.0" })
  }

  @Test(arguments: ReferenceAppKind.weatherWidget.variants)
  func aRelaunchRequestsThePreviousSessionsPositionAtOnce(_ variant: ReferenceAppVariant) throws {
    let moved = offset(20_000, azimuth: 0)
    // No cached first fix: the relaunch's fix is the new position.
    var parameters = PhoneParameters()
    parameters.staleFirstFixProbability = 0
    let world = try World(parameters: parameters) { t in t < .seconds(50) ? tokyoStation : moved }
    try world.launch(.weatherWidget, variant)
    try world.run(until: 10)
    world.phone.terminateApp()
    try world.run(until: 60)
    try world.current { try world.phone.launchApp() }
    try world.run(until: 70)
    let second = try #require(world.appEvents("weather.requested").last)
    #expect(second.time == .seconds(60))
    #expect(second["latitude"] == .double(tokyoStation.latitude))
    #expect(world.state["storedLocation"]?["latitude"]?.number == moved.latitude)
  }

  @Test func theRefreshButtonFetchesWithTheStoredLocation() throws {
    let world = try firstLaunch(.asPublished)
    try world.current { try world.screen.tapButton("refresh") }
    try world.run(until: 12)
    #expect(world.state["lastRequest"]?["latitude"]?.number == tokyoStation.latitude)
    #expect(world.state["requestCount"] == .number(2))
    #expect(world.state["weather"]?["hourly"] == .number(48))
  }
}
