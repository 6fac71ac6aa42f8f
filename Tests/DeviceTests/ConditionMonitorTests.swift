import Device
import Geo
import SimKernel
import Testing

/// What a monitor told the app, with the virtual time.
private final class MonitorLog {
  var events: [(time: SimTime, event: ConditionEvent)] = []
  var monitor: ConditionMonitor?
  var launches = 0

  var states: [String] { events.map { "\($0.event.identifier):\($0.event.state)" } }
}

private let fence = MonitorCondition.circle(
  latitude: tokyoStation.latitude, longitude: tokyoStation.longitude, radius: 300)

/// A phone whose app asks for Always and, at each launch, opens the monitor "fences"; at the
/// first launch `setUp` adds its conditions. The user allows While Using at once.
private func monitorPhone(
  parameters: PhoneParameters = deterministic(), always: Bool = true,
  truth: @escaping (SimTime) -> Coordinate?,
  setUp: @escaping (ConditionMonitor, LocationManager) -> Void = { m, _ in
    m.add(fence, identifier: "tokyo")
  }
) throws -> (phone: Phone, log: MonitorLog, app: () -> RecordingApp?) {
  let log = MonitorLog()
  let made = makePhone(
    parameters: parameters,
    user: UserScript(answers: [.location: [.allowWhileUsing]], answerDelay: .zero),
    launch: { manager, phone in
      log.launches += 1
      if always {
        manager.requestAlwaysAuthorization()
      } else {
        manager.requestWhenInUseAuthorization()
      }
      let monitor = ConditionMonitor(name: "fences", phone: phone)
      // Weak: the log holds the monitor, and the monitor its handler.
      monitor.onEvent = { [unowned phone, weak log] in
        log?.events.append((phone.simulation.now, $0))
      }
      log.monitor = monitor
      if log.launches == 1 { setUp(monitor, manager) }
    }, truth: truth)
  try made.phone.launchApp()
  return (made.phone, log, made.app)
}

/// A trip east from 2 km west of Tokyo Station at `speed` m/s.
private func eastbound(speed: Double) -> (SimTime) -> Coordinate? {
  { t in offset(speed * t.seconds - 2_000) }
}

@Suite struct ConditionMonitorTests {
  @Test func aNewConditionHearsItsFirstStateThenTheEntryAfterTheDwellAndLatency() throws {
    let (phone, log, _) = try monitorPhone(truth: eastbound(speed: 10))
    try phone.simulation.run(until: .seconds(250))  // before the exit
    #expect(log.states == ["tokyo:unsatisfied", "tokyo:satisfied"])
    // The first determination comes with the first evaluation; the entry as a region's does:
    // inside at 170 s, the dwell done at 200 s, the median latency of 2 s.
    #expect(log.events.map(\.time) == [.zero, .seconds(202)])
    #expect(log.monitor?.record(for: "tokyo")?.lastEvent.state == .satisfied)
  }

  @Test func conditionsShareTheRegionLimitWithTheAppsRegions() throws {
    let (phone, log, app) = try monitorPhone(
      truth: { _ in offset(5_000) },
      setUp: { monitor, manager in
        for i in 0..<19 {
          manager.startMonitoring(
            for: CircularRegion(center: offset(Double(i) * 1_000), radius: 100, identifier: "r\(i)")
          )
        }
        monitor.add(fence, identifier: "twentieth")
        monitor.add(fence, identifier: "twentyFirst")
        manager.startMonitoring(
          for: CircularRegion(center: tokyoStation, radius: 100, identifier: "late"))
      })
    try phone.simulation.run(until: .seconds(30))
    let flagged = log.events.filter { $0.event.diagnostics.contains(.conditionLimitExceeded) }
    #expect(flagged.map(\.event.identifier) == ["twentyFirst"])
    #expect(flagged.first?.event.state == .unmonitored)
    #expect(log.states.contains("twentieth:unsatisfied"))
    #expect(app()!.names.contains("monitoringFailed:late:regionMonitoringFailure"))
    #expect(log.monitor?.identifiers == ["twentieth", "twentyFirst"])
  }

  @Test func aSeparateLimitCanBeChosen() throws {
    var parameters = deterministic()
    parameters.monitorConditionsShareRegionLimit = false
    parameters.maximumMonitorConditions = 1
    let (phone, log, _) = try monitorPhone(
      parameters: parameters, truth: { _ in offset(5_000) },
      setUp: { monitor, _ in
        monitor.add(fence, identifier: "a")
        monitor.add(fence, identifier: "b")
      })
    try phone.simulation.run(until: .seconds(30))
    #expect(log.states == ["b:unmonitored", "a:unsatisfied"])
  }

  @Test func aConditionOverTheLimitIsWatchedOnceASlotIsFree() throws {
    var parameters = deterministic()
    parameters.monitorConditionsShareRegionLimit = false
    parameters.maximumMonitorConditions = 1
    let (phone, log, _) = try monitorPhone(
      parameters: parameters, truth: { _ in offset(5_000) },
      setUp: { monitor, _ in
        monitor.add(fence, identifier: "a")
        monitor.add(fence, identifier: "b")
      })
    try phone.simulation.run(until: .seconds(30))
    log.monitor?.remove("a")
    try phone.simulation.run(until: .seconds(60))
    #expect(log.states == ["b:unmonitored", "a:unsatisfied", "b:unsatisfied"])
    #expect(log.events.last?.event.diagnostics == [])
    #expect(log.events.last?.time == .seconds(30))
  }

  @Test func conditionsOutliveTheProcessAndAPendingEventRelaunchesTheApp() throws {
    let (phone, log, app) = try monitorPhone(truth: eastbound(speed: 10))
    try phone.simulation.run(until: .seconds(60))
    phone.terminateApp()
    try phone.simulation.run(until: .seconds(250))
    // The entry waited for a monitor named "fences"; the relaunched app opened one.
    #expect(log.launches == 2)
    #expect(app()!.launchReasons == [.location])
    #expect(log.states == ["tokyo:unsatisfied", "tokyo:satisfied"])
    #expect(log.events.last?.time == .seconds(202))
    let pending = phone.simulation.log.entries(source: "monitor", event: "eventPending")
    #expect(pending.map(\.time) == [.seconds(202)])
    #expect(log.monitor?.identifiers == ["tokyo"])
  }

  @Test func aPendingEventStopsTheConditionUntilAMonitorTakesIt() throws {
    // The app never opens its monitor again: after the pending entry nothing else is decided.
    let log = MonitorLog()
    let made = makePhone(
      parameters: deterministic(),
      user: UserScript(answers: [.location: [.allowWhileUsing]], answerDelay: .zero),
      launch: { manager, phone in
        log.launches += 1
        guard log.launches == 1 else { return }
        manager.requestAlwaysAuthorization()
        let monitor = ConditionMonitor(name: "fences", phone: phone)
        monitor.add(fence, identifier: "tokyo")
        log.monitor = monitor
      }, truth: eastbound(speed: 10))
    try made.phone.launchApp()
    try made.phone.simulation.run(until: .seconds(60))
    made.phone.terminateApp()
    try made.phone.simulation.run(until: .seconds(1_000))
    let decided = made.phone.simulation.log.entries(source: "monitor", event: "decided")
    #expect(decided.map { $0["state"] } == [.string("unsatisfied"), .string("satisfied")])
    #expect(made.phone.simulation.log.entries(source: "monitor", event: "eventPending").count == 1)
  }

  @Test func conditionsSurviveARebootUnlikeRegions() throws {
    let (phone, log, _) = try monitorPhone(
      truth: eastbound(speed: 10),
      setUp: { monitor, manager in
        monitor.add(fence, identifier: "tokyo")
        manager.startMonitoring(
          for: CircularRegion(center: tokyoStation, radius: 300, identifier: "r"))
      })
    try phone.simulation.run(until: .seconds(60))
    phone.reboot()
    try phone.simulation.run(until: .seconds(250))
    // The region is forgotten [A]; the condition is watched again and its entry relaunches
    // the app, whose new monitor receives it.
    #expect(phone.simulation.log.entries(source: "region", event: "decided").isEmpty)
    #expect(log.launches == 2)
    #expect(log.states == ["tokyo:unsatisfied", "tokyo:satisfied"])
  }

  @Test func anAssumedStateTheFirstEvaluationContradictsIsCorrected() throws {
    let (phone, log, _) = try monitorPhone(
      truth: { _ in tokyoStation },
      setUp: { monitor, _ in monitor.add(fence, identifier: "tokyo", assuming: .unsatisfied) })
    try phone.simulation.run(until: .seconds(300))
    #expect(log.states == ["tokyo:satisfied"])
    // Evaluated inside at 0 s, 10 s and 20 s: the dwell is done at 20 s, plus the latency.
    #expect(log.events.first?.time == .seconds(22))
  }

  @Test func anAssumedStateTheEvaluationConfirmsIsQuiet() throws {
    let (phone, log, _) = try monitorPhone(
      truth: { _ in tokyoStation },
      setUp: { monitor, _ in monitor.add(fence, identifier: "tokyo", assuming: .satisfied) })
    try phone.simulation.run(until: .seconds(300))
    #expect(log.events.isEmpty)
    #expect(log.monitor?.record(for: "tokyo")?.lastEvent.state == .satisfied)
  }

  @Test func denyingMidStreamFlagsTheEventsAndHoldsTransitionsBack() throws {
    let (phone, log, _) = try monitorPhone(truth: eastbound(speed: 10))
    try phone.simulation.run(until: .seconds(100))
    phone.setLocationSetting(.never)
    try phone.simulation.run(until: .seconds(240))
    #expect(log.states == ["tokyo:unsatisfied", "tokyo:unsatisfied"])
    #expect(log.events.last?.event.diagnostics == [.authorizationDenied])
    let suppressed = phone.simulation.log.entries(source: "monitor", event: "suppressed")
    #expect(suppressed.map { $0["cause"] } == [.string("permission")])
    // Allowed again: the app hears the state the phone now knows, without the flag.
    phone.setLocationSetting(.always)
    try phone.simulation.run(until: .seconds(241))
    #expect(log.events.last?.event.state == .satisfied)
    #expect(log.events.last?.event.diagnostics == [])
  }

  @Test func withWhenInUseABackgroundAppHearsInsufficientlyInUseThenItsStateInUse() throws {
    let (phone, log, _) = try monitorPhone(always: false, truth: eastbound(speed: 10))
    try phone.simulation.run(until: .seconds(30))
    phone.sendAppToBackground()
    try phone.simulation.run(until: .seconds(240))
    let suppressed = phone.simulation.log.entries(source: "monitor", event: "suppressed")
    #expect(suppressed.map { $0["cause"] } == [.string("appNotInUse")])
    #expect(log.states == ["tokyo:unsatisfied"])
    // Back in use: the held-back event, then the state the phone knows, without the flag.
    phone.bringAppToForeground()
    try phone.simulation.run(until: .seconds(241))
    #expect(log.states == ["tokyo:unsatisfied", "tokyo:unsatisfied", "tokyo:satisfied"])
    #expect(log.events[1].event.diagnostics == [.insufficientlyInUse])
    #expect(log.events[2].event.diagnostics == [])
  }

  /// Each Settings change that changes what blocks the condition is an event of its own.
  @Test func restrictionsAndLocationServicesHaveTheirOwnDiagnostics() throws {
    let (phone, log, _) = try monitorPhone(truth: { _ in offset(5_000) })
    try phone.simulation.run(until: .seconds(30))
    phone.setRestricted(true)
    try phone.simulation.run(until: .seconds(40))
    phone.setRestricted(false)
    phone.setLocationServices(false)
    try phone.simulation.run(until: .seconds(50))
    phone.setLocationServices(true)
    phone.setPreciseLocation(false)
    try phone.simulation.run(until: .seconds(60))
    #expect(
      log.events.map(\.event.diagnostics) == [
        [], [.authorizationRestricted], [], [.authorizationDeniedGlobally], [],
        [.accuracyLimited],
      ])
    #expect(log.states.allSatisfy { $0 == "tokyo:unsatisfied" })
  }

  @Test func removingAConditionStopsItsEvents() throws {
    let (phone, log, _) = try monitorPhone(truth: eastbound(speed: 10))
    try phone.simulation.run(until: .seconds(100))
    log.monitor?.remove("tokyo")
    try phone.simulation.run(until: .seconds(400))
    #expect(log.states == ["tokyo:unsatisfied"])
    #expect(log.monitor?.record(for: "tokyo") == nil)
    #expect(log.monitor?.identifiers == [])
  }

  @Test func aBeaconConditionIsUnsupported() throws {
    let (phone, log, _) = try monitorPhone(
      truth: { _ in tokyoStation },
      setUp: { monitor, _ in
        monitor.add(
          .beacon(uuid: "E2C56DB5-DFFB-48D2-B060-D0F5A71096E0", major: 1, minor: nil),
          identifier: "shop")
      })
    try phone.simulation.run(until: .seconds(60))
    #expect(log.states == ["shop:unmonitored"])
    #expect(log.events.first?.event.diagnostics.contains(.conditionUnsupported) == true)
  }

  @Test func theSessionModelCanAskWhetherAMonitorIsIterated() throws {
    let (phone, log, _) = try monitorPhone(truth: { _ in tokyoStation })
    #expect(phone.iteratedConditionMonitors == [])
    log.monitor?.beginIterating()
    #expect(phone.iteratedConditionMonitors == ["fences"])
    phone.terminateApp()
    #expect(phone.iteratedConditionMonitors == [])
  }
}
