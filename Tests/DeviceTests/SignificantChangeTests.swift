import Device
import Geo
import SimKernel
import Testing

/// A phone whose app starts the significant-change service at every launch, with the location
/// permission set in Settings beforehand; the device follows `truth`.
private func significantChangePhone(
  setting: LocationSetting = .always, parameters: PhoneParameters = deterministic(),
  truth: @escaping (SimTime) -> Coordinate?
) throws -> (phone: Phone, sensor: ExactSensor, app: () -> RecordingApp?) {
  let made = makePhone(
    parameters: parameters, configure: { $0.startMonitoringSignificantLocationChanges() },
    truth: truth)
  made.phone.setLocationSetting(setting)
  try made.phone.launchApp()
  return made
}

/// Heading east from Tokyo Station at `speed` m/s.
private func eastbound(_ speed: Double) -> (SimTime) -> Coordinate? {
  { t in offset(speed * t.seconds) }
}

@Suite struct SignificantChangeTests {
  /// When each fix reached the app, in seconds.
  func fixTimes(_ app: RecordingApp) -> [Double] {
    app.events.filter { $0.what == "fix" }.map(\.time.seconds)
  }

  @Test func theCurrentLocationComesFirstThenAChangeEvery500mAtMostEvery5Minutes() throws {
    // At 5 m/s the device is 500 m on after 100 s: the 5-minute rule decides.
    let (fast, _, fastApp) = try significantChangePhone(truth: eastbound(5))
    try fast.simulation.run(until: .seconds(1_000))
    #expect(fixTimes(fastApp()!) == [0, 300, 600, 900])
    // At 1 m/s the 500 m rule decides: 500 m from the fix at 0 is reached at 500 s, which the
    // next check (every 60 s) sees at 540 s; the next 500 m beyond that at 1080 s.
    let (slow, _, slowApp) = try significantChangePhone(truth: eastbound(1))
    try slow.simulation.run(until: .seconds(1_100))
    #expect(fixTimes(slowApp()!) == [0, 540, 1_080])
  }

  @Test func aDeviceThatStaysPutHearsOnlyTheFirstLocation() throws {
    let (phone, _, app) = try significantChangePhone(truth: { _ in offset(200) })
    try phone.simulation.run(until: .seconds(3_600))
    #expect(fixTimes(app()!) == [0])
    #expect(phone.simulation.log.entries(source: "location", event: "significantChange").isEmpty)
  }

  @Test func theLocationIsTheCoarseEstimateWithItsAccuracyAndIsLogged() throws {
    let (phone, _, app) = try significantChangePhone(truth: eastbound(5))
    try phone.simulation.run(until: .seconds(400))
    // The exact test sensor reports its coarse estimate with 100 m and its GNSS fixes with 5 m.
    #expect(app()!.fixes.map(\.horizontalAccuracy) == [100, 100])
    let decided = phone.simulation.log.entries(source: "location", event: "significantChange")
    #expect(decided.map(\.time) == [.seconds(300)])
    let delivered = phone.simulation.log.entries(source: "location", event: "didUpdateLocations")
    #expect(delivered.map(\.time) == [.zero, .seconds(300)])
    #expect(app()!.manager.location?.timestamp == .seconds(300))
  }

  @Test func theServiceDeliversInTheBackgroundAndWakesTheSuspendedApp() throws {
    let (phone, _, app) = try significantChangePhone(truth: eastbound(5))
    try phone.simulation.run(until: .seconds(10))
    phone.sendAppToBackground()
    try phone.simulation.run(until: .seconds(299))
    #expect(phone.appState == .suspended)
    try phone.simulation.run(until: .seconds(700))
    #expect(fixTimes(app()!) == [0, 300, 600])
    // Woken for each change, then suspended again after the relaunch window.
    #expect(phone.appState == .suspended)
  }

  @Test func withWhenInUseASuspendedAppHearsNothingAndTheChangeIsSuppressed() throws {
    let (phone, _, app) = try significantChangePhone(setting: .whileUsing, truth: eastbound(5))
    try phone.simulation.run(until: .seconds(10))
    phone.sendAppToBackground()
    try phone.simulation.run(until: .seconds(700))
    #expect(fixTimes(app()!) == [0])
    let suppressed = phone.simulation.log.entries(
      source: "location", event: "significantChangeSuppressed")
    #expect(suppressed.count == 2)
    #expect(suppressed.first?.fields.first?.value == .string("appNotInUse"))
    #expect(phone.appState == .suspended)
  }

  @Test func aChangeRelaunchesTheTerminatedAppWhichHearsItOnceItStartsAgain() throws {
    let (phone, _, app) = try significantChangePhone(truth: eastbound(5))
    try phone.simulation.run(until: .seconds(10))
    phone.terminateApp()
    #expect(phone.appState == .notRunning)
    try phone.simulation.run(until: .seconds(301))
    let relaunched = try #require(app())
    #expect(relaunched.launchReasons == [.location])
    #expect(phone.appState == .background)
    // The new process's manager started the service at launch and heard the change at once,
    // which is also its `location`.
    #expect(fixTimes(relaunched) == [300])
    #expect(relaunched.fixes.first?.timestamp == .seconds(300))
    #expect(relaunched.manager.location?.timestamp == .seconds(300))
    try phone.simulation.run(until: .seconds(320))
    #expect(phone.appState == .suspended)
  }

  @Test func withoutAlwaysATerminatedAppIsNotRelaunched() throws {
    let (phone, _, app) = try significantChangePhone(setting: .whileUsing, truth: eastbound(5))
    try phone.simulation.run(until: .seconds(10))
    phone.terminateApp()
    try phone.simulation.run(until: .seconds(700))
    #expect(phone.appState == .notRunning)
    #expect(app()!.launchReasons == [.user])
  }

  @Test func aDeniedAppIsToldAndAStoppedServiceFallsSilent() throws {
    let (denied, _, deniedApp) = try significantChangePhone(setting: .never, truth: eastbound(5))
    try denied.simulation.run(until: .seconds(700))
    #expect(deniedApp()!.names.contains("error:denied"))
    #expect(fixTimes(deniedApp()!).isEmpty)
    #expect(
      denied.simulation.log.entries(source: "location", event: "significantChangesRefused")
        .count == 1)

    let (phone, _, app) = try significantChangePhone(truth: eastbound(5))
    try phone.simulation.run(until: .seconds(100))
    app()!.manager.stopMonitoringSignificantLocationChanges()
    try phone.simulation.run(until: .seconds(1_000))
    #expect(fixTimes(app()!) == [0])
  }

  @Test func withdrawingThePermissionFailsTheServiceUntilItComesBack() throws {
    let (phone, _, app) = try significantChangePhone(truth: eastbound(5))
    try phone.simulation.run(until: .seconds(100))
    phone.setLocationSetting(.never)
    try phone.simulation.run(until: .seconds(400))
    #expect(app()!.names.contains("error:denied"))
    // Without permission the phone decides no change for the app.
    #expect(phone.simulation.log.entries(source: "location", event: "significantChange").isEmpty)
    phone.setLocationSetting(.always)
    try phone.simulation.run(until: .seconds(700))
    // The next check after the permission came back (every 60 s from 0) finds the change.
    #expect(fixTimes(app()!) == [0, 420])
  }

  @Test func withApproximateLocationTheAppIsToldTheApproximateLocation() throws {
    let (phone, _, app) = try significantChangePhone(truth: eastbound(5))
    phone.setPreciseLocation(false)
    try phone.simulation.run(until: .seconds(400))
    // The exact test sensor has no grid: it reports the position with the reduced accuracy.
    #expect(app()!.fixes.map(\.horizontalAccuracy) == [3_000, 3_000])
    // The phone decides from its own estimate all the same.
    let decided = phone.simulation.log.entries(source: "location", event: "significantChange")
    #expect(decided.first?.fields.first { $0.name == "horizontalAccuracy" }?.value == .double(100))
  }

  @Test func theRealisticSensorApproximatesAsItsOwnApproximateFixes() throws {
    let simulation = Simulation(seed: 1)
    let sensor = try SensorModel(
      trajectory: try Trajectory([
        TrajectorySample(time: .zero, coordinate: tokyoStation),
        TrajectorySample(time: .seconds(60), coordinate: tokyoStation),
      ]), environment: nil, random: simulation.random.stream("sensor"))
    guard
      case .fix(let fix) = sensor.reading(
        at: .seconds(1), desiredAccuracy: LocationAccuracy.best, reducedAccuracy: true)
    else {
      Issue.record("no approximate fix")
      return
    }
    let told = sensor.approximate(
      Location(coordinate: offset(20), horizontalAccuracy: 65, timestamp: .seconds(1)))
    #expect(told.coordinate == fix.coordinate)
    #expect(told.horizontalAccuracy == fix.horizontalAccuracy)
  }

  @Test func theDistanceAndIntervalAreParameters() throws {
    var parameters = deterministic()
    parameters.significantChanges.distance = 2_000
    parameters.significantChanges.minimumInterval = .seconds(60)
    parameters.significantChanges.evaluationInterval = .seconds(30)
    let (phone, _, app) = try significantChangePhone(
      parameters: parameters, truth: eastbound(5))
    try phone.simulation.run(until: .seconds(1_000))
    #expect(fixTimes(app()!) == [0, 420, 840])
  }
}
