import Device
import Geo
import JSON
import ReferenceApps
import SimKernel
import Testing

/// Article 004's arrival alarm on today's APIs: a `CLMonitor` condition rings through a local
/// notification, live updates run while travelling, and a `CLServiceSession` is held while an
/// alarm is set.
@Suite struct ModernArrivalAlarmTests {
  let destination: JSONValue = .object([
    "destination": .object([
      "latitude": .number(tokyoStation.latitude), "longitude": .number(tokyoStation.longitude),
    ]),
    "radius": .number(200),
  ])
  let identifier = "arrival.35.681236,139.767125"

  func presented(_ world: World) -> [LogEntry] {
    world.simulation.log.entries(source: "notifications", event: "presented")
  }

  func entries(_ world: World, _ source: String, _ event: String) -> [LogEntry] {
    world.simulation.log.entries(source: source, event: event)
  }

  /// 3 km east, driving in at 10 m/s from 20 s, then parked at the station.
  static func drivingIn(_ t: SimTime) -> Coordinate {
    let travelled = max(0, min(3_000, (t.seconds - 20) * 10))
    return travelled >= 3_000 ? tokyoStation : offset(3_000 - travelled)
  }

  /// Notifications are answered at 2 s; 📍 at 6 s, which asks for location (answered at 8 s).
  func setAlarm(
    answers: [PromptKind: [PromptAnswer]] = [
      .location: [.allowWhileUsing], .notifications: [.allow],
    ],
    truth: @escaping (SimTime) -> Coordinate? = { _ in tokyoStation }
  ) throws -> World {
    var parameters = PhoneParameters()
    parameters.regionMonitoring.missProbability = 0
    let world = try World(answers: answers, parameters: parameters, truth: truth)
    try world.launch(.arrivalAlarm, .modern, configuration: destination)
    try world.at(6) { try world.screen.tapButton("pin") }
    return world
  }

  @Test func locationIsAskedThroughAServiceSessionWhenTheAlarmIsSet() throws {
    let world = try setAlarm { _ in offset(3_000) }
    try world.run(until: 5)
    let prompts = { entries(world, "prompt", "shown").map { $0["kind"] } }
    #expect(prompts() == [.string("notifications")])
    try world.run(until: 10)
    #expect(prompts() == [.string("notifications"), .string("location")])
    let sessions = entries(world, "location", "serviceSessionCreated")
    #expect(sessions.map { $0["authorization"] } == [.string("whenInUse")])
    #expect(sessions.map { $0["implicit"] } == [.bool(false)])
    #expect(entries(world, "location", "backgroundActivitySessionCreated").count == 1)
    let started = try #require(entries(world, "location", "liveUpdatesStarted").first)
    #expect(started["configuration"] == .string("automotiveNavigation"))
    #expect(world.state["monitoredRegions"] == .array([.string(identifier)]))
    #expect(world.state["alarmIdentifier"] == .string(identifier))
    #expect(world.state["updatingLocation"] == .bool(true))
    #expect(world.appEvents("monitoring.started").map { $0["identifier"] } == [.string(identifier)])
  }

  @Test func itRingsOnArrivalInTheBackgroundAndThenStops() throws {
    let world = try setAlarm(truth: Self.drivingIn)
    try world.at(10) { world.phone.sendAppToBackground() }
    try world.run(until: 120)
    // 1,000 m travelled: the live updates keep the remaining distance in the background.
    let remaining = try #require(world.state["remainingDistance"]?.number)
    #expect(abs(remaining - 2_000) < 30)
    #expect(world.phone.appState == .background)
    try world.run(until: 900)
    let delivered = presented(world)
    #expect(delivered.map { $0["identifier"] } == [.string(identifier)])
    #expect(delivered.first?["appState"] == .string("background"))
    #expect(world.appEvents("region.entered").count == 1)
    #expect(world.appEvents("alarm.alreadyInside").isEmpty)
    #expect(world.appEvents("updates.stopped").map { $0["reason"] } == [.string("arrived")])
    #expect(world.state["updatingLocation"] == .bool(false))
    #expect(world.state["monitoredRegions"] == .array([]))
    #expect(entries(world, "location", "serviceSessionInvalidated").count == 1)
    // The alarm is a request without a trigger, posted when the monitor's event came.
    let added = try #require(entries(world, "notifications", "added").first)
    #expect(added["identifier"] == .string(identifier))
    #expect(added["trigger"] == .string("immediate"))
    #expect(added.time == delivered.first?.time)
  }

  @Test func terminatedWithAlwaysItIsRelaunchedByTheMonitorAndRings() throws {
    let world = try setAlarm(truth: Self.drivingIn)
    try world.at(10) { world.phone.setLocationSetting(.always) }
    try world.at(12) { world.phone.sendAppToBackground() }
    try world.at(14) { world.phone.terminateApp() }
    try world.run(until: 900)
    let launches = entries(world, "app", "state").filter { $0["reason"] != .null }
    #expect(launches.map { $0["reason"] } == [.string("user"), .string("location")])
    let delivered = presented(world)
    #expect(delivered.count == 1)
    #expect(delivered.first?["appState"] == .string("background"))
    // The relaunched process found the alarm in the monitor and heard the arrival.
    #expect(world.appEvents("region.entered").map { $0["identifier"] } == [.string(identifier)])
    #expect(entries(world, "monitor", "eventPending").count == 1)
  }

  @Test func terminatedWithWhenInUseItCannotRing() throws {
    let world = try setAlarm(truth: Self.drivingIn)
    try world.at(12) { world.phone.sendAppToBackground() }
    try world.at(14) { world.phone.terminateApp() }
    try world.run(until: 900)
    #expect(presented(world).isEmpty)
    let suppressed = entries(world, "monitor", "suppressed")
    #expect(suppressed.map { $0["cause"] } == [.string("appNotInUse")])
    let launches = entries(world, "app", "state").filter { $0["reason"] != .null }
    #expect(launches.count == 1)
  }

  @Test func anAlarmSetInsideTheCircleRingsAtTheFirstState() throws {
    let world = try setAlarm()
    try world.run(until: 600)
    #expect(
      world.appEvents("alarm.alreadyInside").map { $0["identifier"] } == [.string(identifier)])
    let delivered = presented(world)
    #expect(delivered.count == 1)
    // The first evaluation's state is an event without dwell or latency.
    let time = try #require(delivered.first?.time)
    #expect(time >= .seconds(6) && time <= .seconds(20))
  }

  @Test func aSecondAlarmReplacesTheFirst() throws {
    let world = try setAlarm { _ in offset(5_000, azimuth: 0) }
    try world.at(8) { try world.screen.enterText("東京駅", in: "destination") }
    try world.at(10) { try world.screen.tapButton("pin") }
    try world.run(until: 12)
    #expect(world.state["destination"]?["name"] == .string("東京駅"))
    #expect(world.appEvents("alarm.removed").map { $0["identifier"] } == [.string(identifier)])
    #expect(world.state["monitoredRegions"] == .array([.string("arrival.東京駅")]))
    #expect(world.appEvents("monitoring.started").count == 2)
    #expect(entries(world, "monitor", "conditionRemoved").count == 1)
    // One session and one journey for both alarms.
    #expect(entries(world, "location", "serviceSessionCreated").count == 1)
    #expect(entries(world, "location", "liveUpdatesStarted").count == 1)
  }

  @Test func locationRevokedMidwayShowsAuthorizationDeniedAndNothingRings() throws {
    let world = try setAlarm(truth: Self.drivingIn)
    try world.at(10) { world.phone.sendAppToBackground() }
    try world.at(100) { world.phone.setLocationSetting(.never) }
    try world.run(until: 900)
    #expect(world.state["diagnostics"] == .array([.string("authorizationDenied")]))
    #expect(presented(world).isEmpty)
    #expect(world.appEvents("region.entered").isEmpty)
    let suppressed = entries(world, "monitor", "suppressed")
    #expect(!suppressed.isEmpty && suppressed.allSatisfy { $0["cause"] == .string("permission") })
  }

  @Test func theButtonWithoutADestinationDoesNothing() throws {
    let world = try World()
    try world.launch(.arrivalAlarm, .modern)
    try world.screen.tapButton("pin")
    #expect(world.appEvents("alarm.noDestination").count == 1)
    #expect(world.state["alarmRegistered"] == .bool(false))
    #expect(entries(world, "location", "serviceSessionCreated").isEmpty)
  }

  @Test func anotherAppHasNoModernVariant() throws {
    let world = try World()
    #expect {
      _ = try ReferenceAppKind.pinDrop.factory(
        variant: .modern, configuration: .null, services: world.services)
    } throws: {
      ($0 as? ReferenceAppConfigurationError)?.message
        == "PinDrop has no variant 'modern' (its variants: 'as-published', 'corrected')"
    }
    #expect(ReferenceAppKind.arrivalAlarm.variants.contains(.modern))
  }
}
