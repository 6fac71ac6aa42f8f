import Device
import Geo
import SimKernel
import Testing

/// A launched phone whose user allows While Using (and notifications) at once.
private func grantedPhone(
  staleFirstFixProbability: Double = 0, triggerFiresWhenAddedInside: Bool = false,
  truth: @escaping (SimTime) -> Coordinate? = { _ in tokyoStation }
) throws -> (phone: Phone, sensor: ExactSensor, app: RecordingApp) {
  var parameters = deterministic()
  parameters.staleFirstFixProbability = staleFirstFixProbability
  parameters.locationTriggerFiresWhenAddedInside = triggerFiresWhenAddedInside
  let made = makePhone(
    parameters: parameters,
    user: UserScript(
      answers: [.location: [.allowWhileUsing], .notifications: [.allow]], answerDelay: .zero),
    launch: { manager, phone in
      // One prompt at a time: notifications first, location once they are answered.
      phone.notificationCenter.requestAuthorization(options: [.alert]) { _, _ in
        manager.requestWhenInUseAuthorization()
      }
    }, truth: truth)
  try made.phone.launchApp()
  try made.phone.simulation.run(until: .seconds(0.5))
  #expect(made.app()!.manager.authorizationStatus == .authorizedWhenInUse)
  return (made.phone, made.sensor, made.app()!)
}

private func assumptions(_ phone: Phone) -> [(time: SimTime, event: AssumptionEvent)] {
  phone.simulation.log.events(AssumptionEvent.self).map { ($0.entry.time, $0.event) }
}

private func arrival(at center: Coordinate, radius: Double = 300) throws -> NotificationRequest {
  var region = CircularRegion(center: center, radius: radius, identifier: "destination")
  region.notifyOnExit = false
  return try NotificationRequest(
    identifier: "arrive", content: NotificationContent(title: "Arrival", body: "arrive"),
    trigger: .location(region, repeats: false))
}

/// The phone says when a run depends on a default no source confirms, so that the report can.
@Suite struct AssumptionEventTests {
  @Test func aStaleFirstFixThatReachesTheAppIsRecordedWithItsAge() throws {
    let (phone, _, app) = try grantedPhone(staleFirstFixProbability: 1)
    app.manager.startUpdatingLocation()
    try phone.simulation.run(until: .seconds(3.5))
    #expect(assumptions(phone).isEmpty, "the first start has no cached fix to hand back")
    app.manager.stopUpdatingLocation()
    try phone.simulation.run(until: .seconds(60))
    app.manager.startUpdatingLocation()
    try phone.simulation.run(until: .seconds(60.5))
    let recorded = assumptions(phone)
    #expect(recorded.count == 1)
    #expect(recorded.first?.time == .seconds(60))
    // The cached fix is the one of t = 3.5 s, 56.5 s old when it arrives.
    #expect(
      recorded.first?.event == .staleFirstFix(manager: app.manager.identifier, age: 56.5))
  }

  @Test func noStaleFixMeansNoAssumptionRecorded() throws {
    let (phone, _, app) = try grantedPhone(staleFirstFixProbability: 0)
    app.manager.startUpdatingLocation()
    try phone.simulation.run(until: .seconds(3.5))
    app.manager.stopUpdatingLocation()
    try phone.simulation.run(until: .seconds(60))
    app.manager.startUpdatingLocation()
    try phone.simulation.run(until: .seconds(65))
    #expect(assumptions(phone).isEmpty)
  }

  @Test func anInvalidFixThatReachesTheAppIsRecorded() throws {
    let (phone, sensor, app) = try grantedPhone()
    sensor.invalid = [.seconds(3.5)]
    app.manager.startUpdatingLocation()
    try phone.simulation.run(until: .seconds(6))
    #expect(app.fixes.contains { $0.horizontalAccuracy < 0 })
    let recorded = assumptions(phone)
    #expect(recorded.map(\.time) == [.seconds(3.5)])
    #expect(recorded.first?.event == .invalidFix(manager: app.manager.identifier))
  }

  @Test func anInvalidFixThatNoAppHearsIsNotRecorded() throws {
    let (phone, sensor, app) = try grantedPhone()
    sensor.invalid = [.seconds(3.5)]
    app.manager.startUpdatingLocation()
    try phone.simulation.run(until: .seconds(2))
    app.manager.stopUpdatingLocation()
    try phone.simulation.run(until: .seconds(6))
    #expect(assumptions(phone).isEmpty)
  }

  @Test func aLocationTriggerAddedInsideItsRegionIsRecorded() throws {
    let (phone, _, _) = try grantedPhone()
    phone.notificationCenter.add(try arrival(at: tokyoStation))
    try phone.simulation.run(until: .seconds(1))
    let recorded = assumptions(phone)
    #expect(recorded.map(\.time) == [.seconds(0.5)])
    #expect(
      recorded.first?.event
        == .locationTriggerAddedInside(identifier: "arrive", region: "destination"))
  }

  @Test func byDefaultATriggerAddedInsideWaitsForTheNextEntry() throws {
    let (phone, _, _) = try grantedPhone()
    phone.notificationCenter.add(try arrival(at: tokyoStation))
    try phone.simulation.run(until: .seconds(600))
    #expect(phone.simulation.log.entries(source: "notifications", event: "delivered").isEmpty)
  }

  @Test func theOtherReadingFiresATriggerAddedInsideAtOnce() throws {
    let (phone, _, _) = try grantedPhone(triggerFiresWhenAddedInside: true)
    phone.notificationCenter.add(try arrival(at: tokyoStation))
    try phone.simulation.run(until: .seconds(600))
    let delivered = phone.simulation.log.entries(source: "notifications", event: "delivered")
    #expect(delivered.map(\.time) == [.seconds(0.5)])
    #expect(assumptions(phone).count == 1)
  }

  @Test func theOtherReadingLeavesATriggerAddedOutsideToItsCrossing() throws {
    let (phone, _, _) = try grantedPhone(triggerFiresWhenAddedInside: true)
    phone.notificationCenter.add(try arrival(at: offset(2_000)))
    try phone.simulation.run(until: .seconds(600))
    #expect(phone.simulation.log.entries(source: "notifications", event: "delivered").isEmpty)
  }

  @Test func aLocationTriggerAddedOutsideItsRegionIsNotRecorded() throws {
    let (phone, _, _) = try grantedPhone()
    phone.notificationCenter.add(try arrival(at: offset(2_000)))
    try phone.simulation.run(until: .seconds(1))
    #expect(assumptions(phone).isEmpty)
  }
}
