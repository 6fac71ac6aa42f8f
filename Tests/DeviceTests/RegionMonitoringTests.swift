import Device
import Geo
import SimKernel
import Testing

/// A trip east from 2 km west of Tokyo Station, passing through it at `speed` m/s.
private func eastboundThroughTokyo(speed: Double) -> (SimTime) -> Coordinate? {
  { t in offset(speed * t.seconds - 2_000) }
}

private func monitoringPhone(
  permission: PromptAnswer = .allowWhileUsing, always: Bool = true,
  parameters: PhoneParameters = deterministic(),
  truth: @escaping (SimTime) -> Coordinate?,
  configure: @escaping (LocationManager) -> Void
) throws -> (phone: Phone, sensor: ExactSensor, app: () -> RecordingApp?) {
  let made = makePhone(
    parameters: parameters,
    user: UserScript(answers: [.location: [permission]], answerDelay: .zero),
    configure: {
      if always { $0.requestAlwaysAuthorization() } else { $0.requestWhenInUseAuthorization() }
      configure($0)
    }, truth: truth)
  try made.phone.launchApp()
  return made
}

@Suite struct RegionMonitoringTests {
  let region = CircularRegion(center: tokyoStation, radius: 300, identifier: "tokyo")

  @Test func entryIsDeliveredAfterTheDwellAndTheLatency() throws {
    let (phone, _, app) = try monitoringPhone(
      truth: eastboundThroughTokyo(speed: 10),
      configure: {
        $0.startMonitoring(for: self.region)
      })
    try phone.simulation.run(until: .seconds(400))
    let enter = try #require(app()!.events.first { $0.what == "enter:tokyo" })
    // The estimate crosses the 300 m boundary at t = 170 s; evaluations run every 10 s, so the
    // dwell of 20 s is complete at t = 200 s, and the entry arrives 2 s later.
    #expect(enter.time == .seconds(202))
    let decided = phone.simulation.log.entries(source: "region", event: "decided")
    #expect(decided.first?.time == .seconds(200))
    let names = app()!.names
    let stateIndex = try #require(names.firstIndex(of: "state:tokyo:inside"))
    #expect(names[stateIndex + 1] == "enter:tokyo")
  }

  @Test func exitNeedsTheHysteresisPastTheBoundary() throws {
    let (phone, _, app) = try monitoringPhone(
      truth: eastboundThroughTokyo(speed: 10),
      configure: {
        $0.startMonitoring(for: self.region)
      })
    try phone.simulation.run(until: .seconds(600))
    let exit = try #require(app()!.events.first { $0.what == "exit:tokyo" })
    // 500 m past the centre (300 m radius + 200 m) at t = 250 s; dwell to 270 s, then the
    // exit's median latency of 150 s.
    #expect(exit.time == .seconds(420))
  }

  @Test func aRegionsTransitionsArriveInTheOrderTheyWereDecided() throws {
    // An entry slow to arrive and an exit quick to: the exit, decided while the entry is still
    // on its way, waits for it, so the app never ends outside while the user was last inside
    // or the other way round.
    var slowEntries = deterministic()
    slowEntries.regionMonitoring.entryLatencyMedian = .seconds(100)
    slowEntries.regionMonitoring.exitLatencyMedian = .seconds(1)
    let (phone, _, app) = try monitoringPhone(
      parameters: slowEntries, truth: eastboundThroughTokyo(speed: 10),
      configure: { $0.startMonitoring(for: self.region) })
    try phone.simulation.run(until: .seconds(600))
    let decided = phone.simulation.log.entries(source: "region", event: "decided")
    #expect(decided.map(\.time) == [.seconds(200), .seconds(270)])
    let transitions = app()!.events.filter { $0.what == "enter:tokyo" || $0.what == "exit:tokyo" }
    #expect(transitions.map(\.what) == ["enter:tokyo", "exit:tokyo"])
    #expect(transitions.map(\.time) == [.seconds(300), .seconds(300)])
  }

  @Test func anExitOfARegionThatDoesNotNotifyOnExitWakesNoApp() throws {
    var quiet = region
    quiet.notifyOnExit = false
    let (phone, _, app) = try monitoringPhone(
      truth: eastboundThroughTokyo(speed: 10), configure: { $0.startMonitoring(for: quiet) })
    try phone.simulation.run(until: .seconds(230))
    #expect(app()!.names.contains("enter:tokyo"))
    phone.terminateApp()
    try phone.simulation.run(until: .seconds(600))
    // The exit is decided and logged, but generates no notification: no relaunch [A].
    let exits = phone.simulation.log.entries(source: "region", event: "didExitRegion")
    #expect(exits.map { $0["notified"] } == [.bool(false)])
    #expect(!app()!.launchReasons.contains(.location))
    #expect(phone.appState == .notRunning)
  }

  @Test func startingToMonitorWhileInsideFiresNoEntry() throws {
    let (phone, _, app) = try monitoringPhone(
      truth: { _ in tokyoStation },
      configure: {
        $0.startMonitoring(for: self.region)
      })
    try phone.simulation.run(until: .seconds(600))
    #expect(!app()!.names.contains("enter:tokyo"))
    app()!.manager.requestState(for: region)
    try phone.simulation.run(until: .seconds(601))
    #expect(app()!.names.last == "state:tokyo:inside")
  }

  @Test func stoppingAMonitoredRegionIsLoggedOnce() throws {
    let (phone, _, app) = try monitoringPhone(
      truth: eastboundThroughTokyo(speed: 10),
      configure: {
        $0.startMonitoring(for: self.region)
      })
    try phone.simulation.run(until: .seconds(10))
    app()!.manager.stopMonitoring(for: region)
    app()!.manager.stopMonitoring(for: region)
    try phone.simulation.run(until: .seconds(400))
    let stops = phone.simulation.log.entries(source: "region", event: "stopMonitoring")
    #expect(stops.map { $0["identifier"] } == [.string("tokyo")])
    #expect(stops.first?.time == .seconds(10))
    #expect(!app()!.names.contains("enter:tokyo"))
  }

  /// The region engine runs while something is watched: stopping the last region stops its
  /// evaluations at once rather than at the next one.
  @Test func stoppingTheLastRegionStopsTheRegionEngineAtOnce() throws {
    let (phone, _, app) = try monitoringPhone(
      truth: eastboundThroughTokyo(speed: 10),
      configure: { $0.startMonitoring(for: self.region) })
    try phone.simulation.run(until: .seconds(10))
    #expect(phone.simulation.pendingEventCount == 1)
    app()!.manager.stopMonitoring(for: region)
    #expect(phone.simulation.pendingEventCount == 0)
    app()!.manager.startMonitoring(for: region)
    #expect(phone.simulation.pendingEventCount == 1)
  }

  @Test func theTwentyFirstRegionFails() throws {
    let (phone, _, app) = try monitoringPhone(
      truth: { _ in tokyoStation },
      configure: { manager in
        for i in 0..<21 {
          manager.startMonitoring(
            for: CircularRegion(center: offset(Double(i) * 1_000), radius: 100, identifier: "r\(i)")
          )
        }
        // Replacing an existing identifier is not a new region.
        manager.startMonitoring(
          for: CircularRegion(center: tokyoStation, radius: 150, identifier: "r3"))
      })
    try phone.simulation.run(until: .seconds(1))
    #expect(app()!.manager.monitoredRegions.count == 20)
    #expect(
      app()!.names.filter { $0.hasPrefix("monitoringFailed") } == [
        "monitoringFailed:r20:regionMonitoringFailure"
      ])
    #expect(app()!.manager.monitoredRegions.first { $0.identifier == "r3" }?.radius == 150)
  }

  @Test func aRadiusBeyondTheMaximumOrNegativeFails() throws {
    let (phone, _, app) = try monitoringPhone(
      truth: { _ in tokyoStation },
      configure: {
        $0.startMonitoring(
          for: CircularRegion(center: tokyoStation, radius: 500_000, identifier: "huge"))
        $0.startMonitoring(
          for: CircularRegion(center: tokyoStation, radius: -5, identifier: "negative"))
        $0.startMonitoring(
          for: CircularRegion(center: tokyoStation, radius: .nan, identifier: "nan"))
      })
    try phone.simulation.run(until: .seconds(1))
    #expect(app()!.manager.monitoredRegions.isEmpty)
    #expect(app()!.names.filter { $0.hasPrefix("monitoringFailed") }.count == 3)
  }

  @Test func aTerminatedAppIsRelaunchedInTheBackgroundForARegionEvent() throws {
    let (phone, _, app) = try monitoringPhone(
      truth: eastboundThroughTokyo(speed: 10),
      configure: {
        $0.startMonitoring(for: self.region)
      })
    try phone.simulation.run(until: .seconds(30))
    let first = app()!
    phone.terminateApp()
    try phone.simulation.run(until: .seconds(400))
    let relaunched = try #require(app())
    #expect(relaunched !== first)
    #expect(relaunched.launchReasons == [.location])
    #expect(relaunched.names.contains("enter:tokyo"))
    try phone.simulation.run(until: .seconds(500))
    #expect(phone.appState == .suspended)
  }

  @Test func whenInUseEventsAreSuppressedWhileTheAppIsNotInUse() throws {
    let (phone, _, app) = try monitoringPhone(
      always: false, truth: eastboundThroughTokyo(speed: 10)
    ) {
      $0.startMonitoring(for: self.region)
    }
    try phone.simulation.run(until: .seconds(30))
    phone.sendAppToBackground()
    try phone.simulation.run(until: .seconds(400))
    #expect(!app()!.names.contains("enter:tokyo"))
    let suppressed = phone.simulation.log.entries(source: "region", event: "suppressed")
    #expect(suppressed.first?["cause"] == .string("appNotInUse"))
  }

  @Test func regionsStayRegisteredWhileDeniedAndEventsAreSuppressed() throws {
    let (phone, _, app) = try monitoringPhone(
      permission: .dontAllow, truth: eastboundThroughTokyo(speed: 10)
    ) {
      $0.startMonitoring(for: self.region)
    }
    try phone.simulation.run(until: .seconds(400))
    #expect(app()!.manager.monitoredRegions.count == 1)
    #expect(!app()!.names.contains("enter:tokyo"))
    #expect(
      phone.simulation.log.entries(source: "region", event: "suppressed").first?["cause"]
        == .string("permission"))
  }

  @Test func rebootForgetsMonitoredRegions() throws {
    let (phone, _, app) = try monitoringPhone(
      truth: { _ in tokyoStation },
      configure: {
        $0.startMonitoring(for: self.region)
      })
    try phone.simulation.run(until: .seconds(5))
    phone.reboot()
    try phone.launchApp()
    // The new app instance's configure call monitors the region again; check the reboot wiped
    // the old registration by looking at the log.
    #expect(phone.simulation.log.entries(source: "phone", event: "reboot").count == 1)
    #expect(app()!.manager.monitoredRegions.count == 1)
  }

  @Test func misfiresEmergeFromTheMissProbability() throws {
    var p = deterministic()
    p.regionMonitoring.missProbability = 1
    let (phone, _, app) = try monitoringPhone(
      parameters: p, truth: eastboundThroughTokyo(speed: 10)
    ) {
      $0.startMonitoring(for: self.region)
    }
    try phone.simulation.run(until: .seconds(600))
    #expect(!app()!.names.contains("enter:tokyo"))
    #expect(phone.simulation.log.entries(source: "region", event: "missed").count == 2)
  }
}
