import Device
import Geo
import SimKernel
import Testing

/// A day in Tokyo, in seconds: at home (Tokyo Station) until 1800; a 2-minute drive 3 km east
/// to work; at work until 5400; a drive 3 km on to a shop; 5 minutes there (too short for a
/// visit); a drive 3 km on to a café, where the device stays.
private func day(_ t: SimTime) -> Coordinate? {
  let s = t.seconds
  let speed = 25.0
  switch s {
  case ..<1_800: return offset(0)
  case ..<1_920: return offset(speed * (s - 1_800))
  case ..<5_400: return offset(3_000)
  case ..<5_520: return offset(3_000 + speed * (s - 5_400))
  case ..<5_820: return offset(6_000)
  case ..<5_940: return offset(6_000 + speed * (s - 5_820))
  default: return offset(9_000)
  }
}

/// A phone whose app starts visit monitoring at every launch, with the location permission set
/// in Settings beforehand.
private func visitPhone(
  setting: LocationSetting = .always, parameters: PhoneParameters = deterministic(),
  truth: @escaping (SimTime) -> Coordinate? = day
) throws -> (phone: Phone, sensor: ExactSensor, app: () -> RecordingApp?) {
  let made = makePhone(
    parameters: parameters, configure: { $0.startMonitoringVisits() }, truth: truth)
  made.phone.setLocationSetting(setting)
  try made.phone.launchApp()
  return made
}

@Suite struct VisitTests {
  @Test func staysBecomeVisitsWithTheirDatesAndAreDeliveredAfterTheDelays() throws {
    let (phone, _, app) = try visitPhone()
    try phone.simulation.run(until: .seconds(8_000))
    let visits = app()!.visits
    // Home: already there when monitoring began, so no arrival and an unknown arrival date on
    // the departure (the last sample there, at 1800 s), told 5 minutes after the first sample
    // away (1860 s). Work: arrived at 1920 s, a visit after 10 minutes (2520 s), told 5 minutes
    // later; left at 5400 s. The shop's 5 minutes make no visit. The café: arrived at 5940 s.
    #expect(visits.map(\.time.seconds) == [2_160, 2_820, 5_760, 6_840])
    #expect(visits.map(\.visit.arrival?.seconds) == [nil, 1_920, 1_920, 5_940])
    #expect(visits.map(\.visit.departure?.seconds) == [1_800, nil, 5_400, nil])
    let work = try #require(visits.dropFirst().first?.visit)
    #expect(Geodesic.wgs84.inverse(from: work.coordinate, to: offset(3_000)).distance < 0.01)
    // The visit's accuracy is the coarse estimate's (100 m from the exact test sensor).
    #expect(work.horizontalAccuracy == 100)
    let log = phone.simulation.log
    #expect(log.entries(source: "visit", event: "arrived").map(\.time.seconds) == [2_520, 6_540])
    #expect(log.entries(source: "visit", event: "departed").map(\.time.seconds) == [1_860, 5_460])
    #expect(log.entries(source: "visit", event: "didVisit").count == 4)
  }

  @Test func aStopShorterThanTheDwellIsNoVisit() throws {
    var parameters = deterministic()
    // With a dwell of 4 minutes the shop's 5 minutes count.
    parameters.visits.minimumDwell = .minutes(4)
    let (phone, _, app) = try visitPhone(parameters: parameters)
    try phone.simulation.run(until: .seconds(8_000))
    let shopArrival = 5_520.0
    #expect(app()!.visits.contains { $0.visit.arrival?.seconds == shopArrival })
    let (defaults, _, defaultApp) = try visitPhone()
    try defaults.simulation.run(until: .seconds(8_000))
    #expect(!defaultApp()!.visits.contains { $0.visit.arrival?.seconds == shopArrival })
  }

  @Test func theDelaysAreParameters() throws {
    var parameters = deterministic()
    parameters.visits.arrivalDelay = .minutes(20)
    parameters.visits.departureDelay = .zero
    let (phone, _, app) = try visitPhone(parameters: parameters)
    try phone.simulation.run(until: .seconds(8_000))
    #expect(app()!.visits.map(\.time.seconds) == [1_860, 3_720, 5_460, 7_740])
  }

  @Test func aVisitRelaunchesTheTerminatedAppWithAlways() throws {
    let (phone, _, app) = try visitPhone()
    try phone.simulation.run(until: .seconds(3_000))
    phone.terminateApp()
    try phone.simulation.run(until: .seconds(5_760))
    let relaunched = try #require(app())
    #expect(relaunched.launchReasons == [.location])
    #expect(relaunched.visits.map(\.time.seconds) == [5_760])
    #expect(relaunched.visits.first?.visit.departure?.seconds == 5_400)
    #expect(phone.appState == .background)
  }

  @Test func withWhenInUseOnlyAnAppInUseHearsVisits() throws {
    let (phone, _, app) = try visitPhone(setting: .whileUsing)
    try phone.simulation.run(until: .seconds(2_500))
    // In the foreground, the departure from home at 2160 s arrives.
    #expect(app()!.visits.map(\.time.seconds) == [2_160])
    phone.sendAppToBackground()
    try phone.simulation.run(until: .seconds(8_000))
    #expect(app()!.visits.count == 1)
    let suppressed = phone.simulation.log.entries(source: "visit", event: "suppressed")
    #expect(suppressed.count == 3)
    phone.terminateApp()
    #expect(app()!.launchReasons == [.user])
  }

  @Test func aVisitWhileThePermissionIsWithdrawnIsSuppressed() throws {
    let (phone, _, app) = try visitPhone()
    try phone.simulation.run(until: .seconds(2_600))
    phone.setLocationSetting(.never)
    try phone.simulation.run(until: .seconds(5_000))
    #expect(app()!.visits.map(\.time.seconds) == [2_160])
    let suppressed = phone.simulation.log.entries(source: "visit", event: "suppressed")
    #expect(suppressed.map(\.time.seconds) == [2_820])
    #expect(suppressed.first?.fields.first?.value == .string("permission"))
    phone.setLocationSetting(.always)
    try phone.simulation.run(until: .seconds(8_000))
    #expect(app()!.visits.map(\.time.seconds) == [2_160, 5_760, 6_840])
  }

  @Test func withApproximateLocationVisitsCarryTheReducedAccuracy() throws {
    let (phone, _, app) = try visitPhone()
    phone.setPreciseLocation(false)
    try phone.simulation.run(until: .seconds(3_000))
    #expect(app()!.visits.map(\.visit.horizontalAccuracy) == [3_000, 3_000])
    #expect(app()!.visits.map(\.time.seconds) == [2_160, 2_820])
  }

  @Test func aStoppedServiceDeliversNothingMoreAndADeniedAppIsTold() throws {
    let (phone, _, app) = try visitPhone()
    try phone.simulation.run(until: .seconds(2_600))
    app()!.manager.stopMonitoringVisits()
    try phone.simulation.run(until: .seconds(8_000))
    #expect(app()!.visits.map(\.time.seconds) == [2_160])
    let (denied, _, deniedApp) = try visitPhone(setting: .never)
    try denied.simulation.run(until: .seconds(8_000))
    #expect(deniedApp()!.names.contains("error:denied"))
    #expect(deniedApp()!.visits.isEmpty)
  }
}
