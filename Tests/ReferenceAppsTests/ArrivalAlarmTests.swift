import Device
import Geo
import JSON
import ReferenceApps
import SimKernel
import Testing

/// Article 004: a location-triggered notification and region monitoring around a destination.
@Suite struct ArrivalAlarmTests {
  /// The variants written on the delegate-era APIs (`modern` has its own suite).
  static let delegateVariants: [ReferenceAppVariant] = [.asPublished, .corrected]

  let destination: JSONValue = .object([
    "destination": .object([
      "latitude": .number(tokyoStation.latitude), "longitude": .number(tokyoStation.longitude),
    ]),
    "radius": .number(200),
  ])

  func presented(_ world: World) -> [LogEntry] {
    world.simulation.log.entries(source: "notifications", event: "presented")
  }

  /// Permissions are answered at 2 s (notifications) and 4 s (location); 📍 at 6 s.
  func setAlarm(
    _ variant: ReferenceAppVariant, parameters: PhoneParameters = PhoneParameters(),
    truth: @escaping (SimTime) -> Coordinate? = { _ in tokyoStation }
  ) throws -> World {
    let world = try World(parameters: parameters, truth: truth)
    try world.launch(.arrivalAlarm, variant, configuration: destination)
    try world.at(6) { try world.screen.tapButton("pin") }
    return world
  }

  @Test(arguments: ArrivalAlarmTests.delegateVariants)
  func theAlarmIsALocationTriggerAndTheUpdatesAreTheArticles(_ variant: ReferenceAppVariant)
    throws
  {
    let world = try setAlarm(variant)
    try world.run(until: 10)
    let prompts = world.simulation.log.entries(source: "prompt", event: "shown")
    #expect(prompts.map { $0["kind"] } == [.string("notifications"), .string("location")])
    let registered = try #require(world.appEvents("alarm.registered").first)
    #expect(registered["identifier"] == .string("arrival.35.681236,139.767125"))
    #expect(registered["radius"] == .double(200))
    #expect(world.state["alarmRegistered"] == .bool(true))
    #expect(world.state["updatingLocation"] == .bool(true))
    #expect(world.state["monitoredRegions"] == .array([.string("arrival.35.681236,139.767125")]))
    let manager = try #require(
      (world.phone.runningApp as? ArrivalAlarm)?.locationManager)
    #expect(manager.desiredAccuracy == LocationAccuracy.nearestTenMeters)
    #expect(manager.distanceFilter == 10 && manager.activityType == .automotiveNavigation)
    #expect(manager.allowsBackgroundLocationUpdates)
  }

  @Test(arguments: ArrivalAlarmTests.delegateVariants)
  func arrivingFromAwayRingsInTheBackground(_ variant: ReferenceAppVariant) throws {
    var parameters = PhoneParameters()
    parameters.regionMonitoring.missProbability = 0
    let world = try setAlarm(variant, parameters: parameters) { t in
      // 3 km east, driving in at 10 m/s from 20 s, then parked at the station.
      let travelled = max(0, min(3_000, (t.seconds - 20) * 10))
      return travelled >= 3_000 ? tokyoStation : offset(3_000 - travelled)
    }
    try world.at(10) { world.phone.sendAppToBackground() }
    try world.run(until: 900)
    let delivered = presented(world)
    #expect(delivered.count == 1)
    #expect(delivered.first?["appState"] == .string("background"))
    #expect(world.appEvents("alarm.alreadyInside").isEmpty)
  }

  /// Driving in from 3 km east with the app left open on screen.
  func arriveOnScreen(_ variant: ReferenceAppVariant) throws -> [LogEntry] {
    var parameters = PhoneParameters()
    parameters.regionMonitoring.missProbability = 0
    let world = try setAlarm(variant, parameters: parameters) { t in
      let travelled = max(0, min(3_000, (t.seconds - 20) * 10))
      return travelled >= 3_000 ? tokyoStation : offset(3_000 - travelled)
    }
    try world.run(until: 900)
    return presented(world)
  }

  @Test func asPublishedAnAlarmArrivingWhileTheAppIsOnScreenShowsNoBanner() throws {
    let shown = try arriveOnScreen(.asPublished)
    // No notification-center delegate: iOS presents a foreground notification not at all.
    #expect(shown.count == 1)
    #expect(shown.first?["appState"] == .string("foreground"))
    #expect(shown.first?["banner"] == .bool(false))
  }

  @Test func correctedAnAlarmArrivingWhileTheAppIsOnScreenShowsABanner() throws {
    let shown = try arriveOnScreen(.corrected)
    #expect(shown.count == 1)
    #expect(shown.first?["appState"] == .string("foreground"))
    #expect(shown.first?["banner"] == .bool(true))
  }

  @Test func asPublishedAnAlarmSetInsideTheCircleNeverRings() throws {
    let world = try setAlarm(.asPublished)
    try world.run(until: 600)
    #expect(presented(world).isEmpty)
  }

  @Test func correctedAnAlarmSetInsideTheCircleRingsAtOnce() throws {
    let world = try setAlarm(.corrected)
    try world.run(until: 600)
    #expect(world.appEvents("alarm.alreadyInside").count == 1)
    #expect(presented(world).count == 1)
    #expect(presented(world).first?.time == .seconds(6))
    // Set on screen, it rings there: with a banner and its sound.
    #expect(presented(world).first?["banner"] == .bool(true))
  }

  /// A first alarm at 📍 (6 s), then a typed destination and 📍 again.
  func secondAlarm(_ variant: ReferenceAppVariant) throws -> World {
    let world = try setAlarm(variant) { _ in offset(5_000, azimuth: 0) }
    try world.at(8) { try world.screen.enterText("東京駅", in: "destination") }
    try world.at(10) { try world.screen.tapButton("pin") }
    try world.run(until: 12)
    return world
  }

  @Test func asPublishedASecondAlarmIsNotMonitoredBecauseUpdatesAlreadyRun() throws {
    let world = try secondAlarm(.asPublished)
    #expect(world.state["destination"]?["name"] == .string("東京駅"))
    #expect(
      world.appEvents("alarm.removed").map { $0["identifier"] }
        == [.string("arrival.35.681236,139.767125")])
    #expect(world.appEvents("monitoring.skipped").count == 1)
    #expect(world.state["monitoredRegions"] == .array([]))
    #expect(world.state["alarmIdentifier"] == .string("arrival.東京駅"))
  }

  @Test func correctedASecondAlarmIsMonitored() throws {
    let world = try secondAlarm(.corrected)
    #expect(world.state["monitoredRegions"] == .array([.string("arrival.東京駅")]))
    #expect(world.appEvents("monitoring.started").count == 2)
  }

  @Test(arguments: ArrivalAlarmTests.delegateVariants)
  func refusingNotificationsMeansLocationIsNeverAsked(_ variant: ReferenceAppVariant) throws {
    let world = try World(answers: [.notifications: [.dontAllow], .location: [.allowWhileUsing]])
    try world.launch(.arrivalAlarm, variant, configuration: destination)
    try world.run(until: 30)
    let prompts = world.simulation.log.entries(source: "prompt", event: "shown")
    #expect(prompts.map { $0["kind"] } == [.string("notifications")])
  }

  @Test func theButtonWithoutADestinationDoesNothing() throws {
    let world = try World()
    try world.launch(.arrivalAlarm, .asPublished)
    try world.screen.tapButton("pin")
    #expect(world.appEvents("alarm.noDestination").count == 1)
    #expect(world.state["alarmRegistered"] == .bool(false))
  }
}
