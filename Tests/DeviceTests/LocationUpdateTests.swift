import Device
import Geo
import SimKernel
import Testing

/// A phone whose user allows While Using at once, with the app's manager configured.
private func authorizedPhone(
  parameters: PhoneParameters = PhoneParameters(),
  configure: @escaping (LocationManager) -> Void = { _ in },
  truth: @escaping (SimTime) -> Coordinate? = { _ in tokyoStation }
) throws -> (phone: Phone, sensor: ExactSensor, app: () -> RecordingApp?) {
  var p = parameters
  p.staleFirstFixProbability = 0
  let made = makePhone(
    parameters: p, user: UserScript(answers: [.location: [.allowWhileUsing]], answerDelay: .zero),
    configure: {
      $0.requestWhenInUseAuthorization()
      configure($0)
    }, truth: truth)
  try made.phone.launchApp()
  try made.phone.simulation.run(until: .seconds(0.5))
  return made
}

/// Walking east from Tokyo Station at `speed` m/s.
private func walkingEast(_ speed: Double) -> (SimTime) -> Coordinate? {
  { t in offset(speed * t.seconds) }
}

@Suite struct LocationUpdateTests {
  /// The phone holds the app's managers without keeping them alive: a manager the app lets go
  /// of hears nothing more, callbacks already queued for it are dropped, and the phone goes on.
  @Test func aManagerTheAppLetsGoOfHearsNothingMore() throws {
    let (phone, _, app) = try authorizedPhone(configure: { $0.startUpdatingLocation() })
    try phone.simulation.run(until: .seconds(3.5))
    #expect(app()!.fixes.count == 3)
    let authorizationsHeard = app()!.names.filter { $0.hasPrefix("auth:") }.count
    // A second manager queues its authorization callback when it is made; it goes at once.
    var other: LocationManager? = LocationManager(phone: phone)
    other?.delegate = app()
    other = nil
    app()!.manager = nil
    try phone.simulation.run(until: .seconds(10.5))
    #expect(app()!.fixes.count == 3)
    #expect(app()!.names.filter { $0.hasPrefix("auth:") }.count == authorizationsHeard)
    let lastFix = phone.simulation.log.entries.last { $0.event == "didUpdateLocations" }
    #expect(lastFix?.time == .seconds(3))
    // A new manager gets fixes again.
    app()!.manager = LocationManager(phone: phone)
    app()!.manager.delegate = app()
    app()!.manager.startUpdatingLocation()
    try phone.simulation.run(until: .seconds(13.5))
    #expect(app()!.fixes.count == 6)
  }

  @Test func fixesArriveOncePerSecondWhileUpdating() throws {
    let (phone, _, app) = try authorizedPhone(configure: { $0.startUpdatingLocation() })
    try phone.simulation.run(until: .seconds(10.5))
    #expect(app()!.fixes.count == 10)
    app()!.manager.stopUpdatingLocation()
    try phone.simulation.run(until: .seconds(20))
    #expect(app()!.fixes.count == 10)
  }

  @Test func theDistanceFilterCountsFromTheLastDeliveredFix() throws {
    let (phone, _, app) = try authorizedPhone(
      configure: {
        $0.distanceFilter = 10
        $0.startUpdatingLocation()
      }, truth: walkingEast(3))
    try phone.simulation.run(until: .seconds(30.5))
    let fixes = app()!.fixes
    // 3 m/s: every fourth second is the first at least 10 m from the last delivered fix.
    #expect(fixes.map(\.timestamp.seconds) == [1, 5, 9, 13, 17, 21, 25, 29])
    for (a, b) in zip(fixes, fixes.dropFirst()) { #expect(b.distance(from: a) >= 10) }
  }

  @Test func insideATunnelThereIsNeitherAFixNorAnError() throws {
    let (phone, sensor, app) = try authorizedPhone(configure: { $0.startUpdatingLocation() })
    sensor.silences = [SimTime.seconds(3)...SimTime.seconds(8)]
    try phone.simulation.run(until: .seconds(12.5))
    #expect(app()!.fixes.map(\.timestamp.seconds) == [1, 2, 9, 10, 11, 12])
    #expect(!app()!.names.contains { $0.hasPrefix("error") })
  }

  @Test func aStaleCachedFixMayComeFirstWithItsOldTimestamp() throws {
    var parameters = PhoneParameters()
    parameters.staleFirstFixProbability = 1
    let made = makePhone(
      parameters: parameters,
      user: UserScript(answers: [.location: [.allowWhileUsing]], answerDelay: .zero),
      configure: { $0.requestWhenInUseAuthorization() }, truth: walkingEast(2))
    try made.phone.launchApp()
    try made.phone.simulation.run(until: .seconds(0.5))
    let app = made.app()!
    app.manager.startUpdatingLocation()
    try made.phone.simulation.run(until: .seconds(3.5))
    app.manager.stopUpdatingLocation()
    try made.phone.simulation.run(until: .seconds(60))
    app.manager.startUpdatingLocation()
    try made.phone.simulation.run(until: .seconds(60.5))
    // The restart delivers the last fix before the stop (t = 3.5 s) at t = 60 s.
    #expect(app.fixes.last?.timestamp == .seconds(3.5))
    #expect(app.events.last?.time == .seconds(60))
  }

  @Test func aSuspendedAppGetsNothingAndHearsTheCurrentPositionWhenItReturns() throws {
    let (phone, _, app) = try authorizedPhone(
      configure: { $0.startUpdatingLocation() }, truth: walkingEast(1))
    try phone.simulation.run(until: .seconds(5.5))
    phone.sendAppToBackground()
    try phone.simulation.run(until: .seconds(60.5))
    #expect(phone.appState == .suspended)
    let countWhileAway = app()!.fixes.count
    // Fixes keep coming during the five-second grace period, then stop.
    #expect(app()!.fixes.last!.timestamp <= .seconds(10.5))
    phone.bringAppToForeground()
    try phone.simulation.run(until: .seconds(60.7))
    #expect(app()!.fixes.count == countWhileAway + 1)
    #expect(app()!.fixes.last!.timestamp == .seconds(60.5))
  }

  @Test func backgroundUpdatesContinueWhenAllowedAndStartedInUse() throws {
    let (phone, _, app) = try authorizedPhone(configure: {
      $0.allowsBackgroundLocationUpdates = true
      $0.startUpdatingLocation()
    })
    phone.sendAppToBackground()
    try phone.simulation.run(until: .seconds(100.5))
    #expect(phone.appState == .background)
    #expect(app()!.fixes.count == 100)
  }

  @Test func updatesPauseAfterTheDeviceStaysStillAndTheAppMustRestartThem() throws {
    var parameters = PhoneParameters()
    parameters.pauseAfter[.automotiveNavigation] = .seconds(30)
    let (phone, _, app) = try authorizedPhone(
      parameters: parameters,
      configure: {
        $0.activityType = .automotiveNavigation
        $0.startUpdatingLocation()
      })
    // ExactSensor reports 1 m/s, above the stationary threshold; make it stationary.
    parameters.stationarySpeed = 2
    let (phone2, _, app2) = try authorizedPhone(
      parameters: parameters,
      configure: {
        $0.activityType = .automotiveNavigation
        $0.startUpdatingLocation()
      })
    try phone.simulation.run(until: .seconds(100))
    try phone2.simulation.run(until: .seconds(100))
    #expect(!app()!.names.contains("paused"))
    #expect(app2()!.names.contains("paused"))
    let count = app2()!.fixes.count
    #expect(count < 35)
    try phone2.simulation.run(until: .seconds(200))
    #expect(app2()!.fixes.count == count)
  }

  @Test func requestLocationDeliversOneGoodFixThenStops() throws {
    let (phone, _, app) = try authorizedPhone(configure: {
      $0.desiredAccuracy = LocationAccuracy.kilometer
      $0.requestLocation()
    })
    try phone.simulation.run(until: .seconds(30))
    #expect(app()!.fixes.count == 1)
  }

  @Test func requestLocationFailsWithLocationUnknownWhenNothingArrivesInTime() throws {
    let (phone, sensor, app) = try authorizedPhone()
    sensor.silences = [SimTime.zero...SimTime.seconds(100)]
    app()!.manager.requestLocation()
    try phone.simulation.run(until: .seconds(30))
    // The phone keeps asking until the 10 s timeout; nothing arrives, so the request fails.
    #expect(app()!.fixes.isEmpty)
    let failure = try #require(app()!.events.first { $0.what == "error:locationUnknown" })
    #expect(failure.time == .seconds(10.5))
  }
}
