import Device
import Geo
import SimKernel
import Testing

/// A sensor that reports the truth exactly and knows the true speed (the motion coprocessor),
/// for the live-updates stream's stillness rule.
final class MotionSensor: LocationSensor {
  let updateInterval = SimDuration.seconds(1)
  let truth: (SimTime) -> Coordinate
  /// The desired accuracy of every reading, in order.
  var accuracies: [Double] = []
  /// Seconds (inclusive ranges) in which the sensor is silent, like a tunnel.
  var silences: [ClosedRange<Double>] = []

  init(truth: @escaping (SimTime) -> Coordinate) {
    self.truth = truth
  }

  func reading(at time: SimTime, desiredAccuracy: Double, reducedAccuracy: Bool) -> SensorReading {
    accuracies.append(desiredAccuracy)
    if silences.contains(where: { $0.contains(time.seconds) }) { return .silent }
    return .fix(
      Location(
        coordinate: truth(time), horizontalAccuracy: 5, speed: trueSpeed(at: time) ?? -1,
        timestamp: time))
  }

  func coarseEstimate(at time: SimTime) -> Location? {
    Location(coordinate: truth(time), horizontalAccuracy: 100, timestamp: time)
  }

  func trueSpeed(at time: SimTime) -> Double? {
    let before = time - SimDuration.seconds(1)
    return Geodesic.wgs84.inverse(from: truth(before), to: truth(time)).distance
  }
}

/// An app that starts a live-updates stream at launch (when `start` is set) and records every
/// update with the virtual time.
final class LiveApp: SimulatedApp {
  let infoPlist: InfoPlist
  let configuration: LiveConfiguration
  let start: Bool
  var stream: LiveUpdateStream?
  var updates: [(time: SimTime, update: LiveUpdate)] = []
  private weak var phone: Phone?

  init(infoPlist: InfoPlist, configuration: LiveConfiguration, start: Bool) {
    self.infoPlist = infoPlist
    self.configuration = configuration
    self.start = start
  }

  func didLaunch(on phone: Phone, reason: LaunchReason) {
    self.phone = phone
    if start { startStream() }
  }

  func startStream() {
    guard let phone else { return }
    stream = phone.startLiveUpdates(configuration) { [weak self, unowned phone] in
      self?.updates.append((phone.simulation.now, $0))
    }
  }

  /// The seconds at which updates with a location came.
  var fixTimes: [Double] { updates.filter { $0.update.location != nil }.map(\.time.seconds) }
  /// The diagnostics of the updates without a location, in order.
  var diagnostics: [[String]] {
    updates.filter { $0.update.location == nil }.map(\.update.diagnostics)
  }
}

/// A phone following `truth` with a ``MotionSensor``, running a ``LiveApp``.
func livePhone(
  user: UserScript = UserScript(answers: [.location: [.allowWhileUsing]]),
  infoPlist: InfoPlist = InfoPlist(), configuration: LiveConfiguration = .default,
  start: Bool = true, parameters: PhoneParameters = deterministic(),
  silences: [ClosedRange<Double>] = [],
  truth: @escaping (SimTime) -> Coordinate = { _ in tokyoStation }
) -> (phone: Phone, app: () -> LiveApp?) {
  let simulation = Simulation(seed: 1)
  let sensor = MotionSensor(truth: truth)
  sensor.silences = silences
  let phone = Phone(
    simulation: simulation, geos: GEOSContext(), sensor: sensor, parameters: parameters,
    user: user)
  var latest: LiveApp?
  phone.install {
    let app = LiveApp(infoPlist: infoPlist, configuration: configuration, start: start)
    latest = app
    return app
  }
  return (phone, { latest })
}

/// Walks east at 1.4 m/s until `stop`, stands still until `resume`, then walks on.
func walkWithStop(stop: Double, resume: Double) -> (SimTime) -> Coordinate {
  { time in
    let t = time.seconds
    let walked = min(t, stop) + max(0, t - resume)
    return offset(1.4 * walked)
  }
}

/// `CLLocationUpdate.liveUpdates(_:)` on the phone: the same sensor and authorization as
/// delegate-era updates, automatic pausing while still, and the background rules.
@Suite struct LiveUpdatesTests {
  func names(_ phone: Phone) -> [String] {
    phone.simulation.log.entries.filter { $0.source == "location" }.map(\.event)
  }

  @Test func aStreamGetsTheOneSensorsFixesThroughAManagerOfItsOwn() throws {
    let (phone, app) = livePhone(configuration: .automotiveNavigation)
    phone.setLocationSetting(.whileUsing)
    try phone.launchApp()
    try phone.simulation.run(until: .seconds(5.5))
    #expect(app()!.fixTimes == [1, 2, 3, 4, 5])
    let started = phone.simulation.log.events(LiveLocationEvent.self).first?.event
    #expect(
      started == .liveUpdatesStarted(stream: 1, manager: 1, configuration: .automotiveNavigation))
    let fixes = phone.simulation.log.events(LocationEvent.self).filter {
      if case .didUpdateLocations(1, _) = $0.event { return true }
      return false
    }
    #expect(fixes.count == 5, "the stream's fixes are its manager's")
    #expect(
      LiveConfiguration.automotiveNavigation.desiredAccuracy == LocationAccuracy.bestForNavigation)
    #expect(LiveConfiguration.fitness.activityType == .fitness)
  }

  @Test func aStreamAndADelegateManagerShareTheOneSensorAtTheStricterAccuracy() throws {
    let sensor = MotionSensor { _ in tokyoStation }
    let phone = Phone(
      simulation: Simulation(seed: 1), geos: GEOSContext(), sensor: sensor,
      parameters: deterministic())
    var app: RecordingApp?
    var stream: LiveUpdateStream?
    phone.install {
      let made = RecordingApp { manager, phone in
        manager.desiredAccuracy = LocationAccuracy.kilometer
        manager.startUpdatingLocation()
        stream = phone.startLiveUpdates(.automotiveNavigation) { _ in }
      }
      app = made
      return made
    }
    phone.setLocationSetting(.whileUsing)
    try phone.launchApp()
    try phone.simulation.run(until: .seconds(3.5))
    #expect(sensor.accuracies == Array(repeating: LocationAccuracy.bestForNavigation, count: 3))
    #expect(app!.fixes.count == 3, "one reading per second, offered to both")
    stream?.stop()
    try phone.simulation.run(until: .seconds(5.5))
    #expect(
      sensor.accuracies.suffix(2) == [LocationAccuracy.kilometer, LocationAccuracy.kilometer])
  }

  @Test func itPausesWhileTheDeviceIsStillAndResumesWhenItMoves() throws {
    let (phone, app) = livePhone(truth: walkWithStop(stop: 100, resume: 400))
    phone.setLocationSetting(.whileUsing)
    try phone.launchApp()
    try phone.simulation.run(until: .seconds(450.5))
    let updates = app()!.updates
    // Still from 101 s on: 120 s later one update says so, then nothing until it moves.
    let stationary = updates.filter(\.update.isStationary)
    #expect(stationary.map(\.time.seconds) == [221])
    #expect(stationary.first?.update.location != nil)
    let times = app()!.fixTimes
    #expect(!times.contains { $0 > 221 && $0 < 401 })
    #expect(times.contains(402))
    #expect(times.last == 450)
    let live = phone.simulation.log.events(LiveLocationEvent.self).map(\.event)
    #expect(live.contains(.liveUpdatesStationary(stream: 1)))
    #expect(live.contains(.liveUpdatesResumed(stream: 1)))
  }

  @Test func anOutageIsReportedOnceAsLocationUnavailableAndFixesFollowIt() throws {
    let (phone, app) = livePhone(
      silences: [20...60], truth: walkWithStop(stop: 1000, resume: 1000))
    phone.setLocationSetting(.whileUsing)
    try phone.launchApp()
    try phone.simulation.run(until: .seconds(65.5))
    let unavailable = app()!.updates.filter(\.update.locationUnavailable)
    #expect(unavailable.map(\.time.seconds) == [29], "10 s after the last fix, at 19 s")
    #expect(unavailable.first?.update.location == nil)
    #expect(app()!.fixTimes.suffix(5) == [61, 62, 63, 64, 65])
    #expect(app()!.diagnostics == [["locationUnavailable"]])
  }

  @Test func theStillnessTimeIsAParameter() throws {
    var parameters = deterministic()
    parameters.liveUpdatesStationaryAfter = .seconds(30)
    let (phone, app) = livePhone(
      parameters: parameters, truth: walkWithStop(stop: 100, resume: 400))
    phone.setLocationSetting(.whileUsing)
    try phone.launchApp()
    try phone.simulation.run(until: .seconds(200))
    #expect(app()!.updates.filter(\.update.isStationary).map(\.time.seconds) == [131])
  }

  @Test func inTheBackgroundWithoutASessionItStopsAndTheAppIsSuspended() throws {
    let (phone, app) = livePhone(truth: walkWithStop(stop: 1000, resume: 1000))
    phone.setLocationSetting(.whileUsing)
    try phone.launchApp()
    try phone.simulation.run(until: .seconds(10.5))
    phone.sendAppToBackground()
    try phone.simulation.run(until: .seconds(60))
    #expect(phone.appState == .suspended)
    #expect(app()!.fixTimes.last == 10)
    #expect(app()!.diagnostics == [["insufficientlyInUse"]])
    #expect(!phone.showsBackgroundLocationIndicator)
    try phone.simulation.run(until: .seconds(60.5))
    phone.bringAppToForeground()
    try phone.simulation.run(until: .seconds(62.5))
    #expect(app()!.fixTimes.suffix(3) == [60.5, 61, 62], "the current position once, then fixes")
  }

  @Test func aBackgroundActivitySessionKeepsItDeliveringUntilInvalidated() throws {
    let (phone, app) = livePhone(truth: walkWithStop(stop: 1000, resume: 1000))
    phone.setLocationSetting(.whileUsing)
    try phone.launchApp()
    let session = phone.startBackgroundActivitySession()
    #expect(session.isActive)
    try phone.simulation.run(until: .seconds(10.5))
    phone.sendAppToBackground()
    try phone.simulation.run(until: .seconds(60.5))
    #expect(phone.appState == .background)
    #expect(phone.showsBackgroundLocationIndicator, "When In Use kept in use: the blue pill")
    #expect(app()!.fixTimes.last == 60)
    #expect(app()!.diagnostics.isEmpty)
    session.invalidate()
    try phone.simulation.run(until: .seconds(90))
    #expect(phone.appState == .suspended)
    #expect(app()!.fixTimes.last == 60)
    #expect(
      phone.simulation.log.events(LiveLocationEvent.self).map(\.event).contains(
        .backgroundActivitySessionInvalidated(session: 1)))
  }

  @Test func aBackgroundActivitySessionCreatedInTheBackgroundKeepsNothingRunning() throws {
    let (phone, app) = livePhone(truth: walkWithStop(stop: 1000, resume: 1000))
    phone.setLocationSetting(.whileUsing)
    try phone.launchApp()
    try phone.simulation.run(until: .seconds(10.5))
    phone.sendAppToBackground()
    let session = phone.startBackgroundActivitySession()
    #expect(!session.isActive)
    try phone.simulation.run(until: .seconds(15))
    #expect(phone.appState == .background, "the grace period is not cut short")
    try phone.simulation.run(until: .seconds(60))
    #expect(phone.appState == .suspended)
    #expect(app()!.fixTimes.last == 10)
  }

  @Test func permissionWithdrawnMidStreamYieldsAuthorizationDeniedAndUpdatesComeBack() throws {
    let (phone, app) = livePhone()
    phone.setLocationSetting(.whileUsing)
    try phone.launchApp()
    try phone.simulation.run(until: .seconds(10.5))
    phone.setLocationSetting(.never)
    try phone.simulation.run(until: .seconds(20.5))
    #expect(app()!.diagnostics == [["authorizationDenied"]])
    #expect(app()!.fixTimes.last == 10)
    phone.setLocationSetting(.whileUsing)
    try phone.simulation.run(until: .seconds(30))
    #expect(app()!.fixTimes.filter { $0 > 20.5 }.count == 9, "fixes resume by themselves")
    phone.setLocationServices(false)
    try phone.simulation.run(until: .seconds(40))
    #expect(app()!.diagnostics == [["authorizationDenied"], ["authorizationDeniedGlobally"]])
    #expect(app()!.fixTimes.last! <= 30)
    phone.setLocationServices(true)
    try phone.simulation.run(until: .seconds(44.5))
    #expect(app()!.fixTimes.filter { $0 > 40 }.count == 4)
  }

  @Test func aStreamStartedWhileDeniedSaysSoAndStartsOnceAllowed() throws {
    let (phone, app) = livePhone()
    phone.setLocationSetting(.never)
    try phone.launchApp()
    try phone.simulation.run(until: .seconds(5.5))
    #expect(app()!.diagnostics == [["authorizationDenied"]])
    #expect(app()!.fixTimes.isEmpty)
    phone.setLocationSetting(.whileUsing)
    try phone.simulation.run(until: .seconds(8.6))
    #expect(app()!.fixTimes == [6.5, 7.5, 8.5])
  }

  @Test func iteratingCreatesAnImplicitSessionThatPrompts() throws {
    let (phone, app) = livePhone()
    try phone.launchApp()
    try phone.simulation.run(until: .seconds(5.5))
    let live = phone.simulation.log.events(LiveLocationEvent.self).map(\.event)
    #expect(
      live.contains(
        .serviceSessionCreated(
          session: 1, authorization: .whenInUse, purposeKey: nil, implicit: true)))
    #expect(phone.simulation.log.events(PromptEvent.self).first?.event == .shown(.location))
    #expect(app()!.diagnostics.first == ["authorizationRequestInProgress"])
    #expect(app()!.fixTimes.first == 3, "after the user's answer at 2 s")
    app()!.stream?.stop()
    #expect(
      phone.simulation.log.events(LiveLocationEvent.self).map(\.event).suffix(2) == [
        .serviceSessionInvalidated(session: 1), .liveUpdatesStopped(stream: 1),
      ])
  }

  @Test func withExplicitSessionsRequiredNothingStartsUntilTheAppHoldsOne() throws {
    let (phone, app) = livePhone(infoPlist: InfoPlist(requiresExplicitServiceSession: true))
    try phone.launchApp()
    try phone.simulation.run(until: .seconds(10.5))
    #expect(app()!.diagnostics == [["serviceSessionRequired"]])
    #expect(phone.simulation.log.events(PromptEvent.self).isEmpty)
    #expect(app()!.fixTimes.isEmpty)
    let session = phone.makeServiceSession(authorization: .whenInUse)
    try phone.simulation.run(until: .seconds(15.5))
    #expect(phone.simulation.log.events(PromptEvent.self).first?.event == .shown(.location))
    #expect(app()!.fixTimes.first == 13.5, "a second after the user's answer at 12.5 s")
    session.invalidate()
  }

  @Test func aMonitorGetsAnImplicitSessionUnlessExplicitOnesAreRequired() throws {
    let (phone, _) = livePhone(start: false)
    try phone.launchApp()
    guard case .session(let session) = phone.startImplicitServiceSession() else {
      Issue.record("expected an implicit session")
      return
    }
    #expect(session.isImplicit && session.authorization == .whenInUse)
    let (strict, _) = livePhone(
      infoPlist: InfoPlist(requiresExplicitServiceSession: true), start: false)
    try strict.launchApp()
    guard case .serviceSessionRequired = strict.startImplicitServiceSession() else {
      Issue.record("expected serviceSessionRequired")
      return
    }
    let held = strict.makeServiceSession(authorization: .none)
    guard case .explicitSessionHeld = strict.startImplicitServiceSession() else {
      Issue.record("expected the explicit session to serve")
      return
    }
    held.invalidate()
  }

  @Test func aTerminatedAppsStreamEndsWithItsProcess() throws {
    let (phone, app) = livePhone()
    phone.setLocationSetting(.whileUsing)
    try phone.launchApp()
    try phone.simulation.run(until: .seconds(3.5))
    let first = app()!
    phone.terminateApp()
    try phone.simulation.run(until: .seconds(10))
    #expect(first.fixTimes == [1, 2, 3])
    #expect(first.stream?.isStopped == true)
  }
}

/// A CLMonitor's events are a client of the session model too [A]: iterating them holds an
/// implicit When In Use session, or, for an app that requires explicit sessions, waits for one.
@Suite struct MonitorSessionTests {
  private let fence = MonitorCondition.circle(
    latitude: tokyoStation.latitude, longitude: tokyoStation.longitude, radius: 300)

  @Test func iteratingAMonitorsEventsHoldsAnImplicitSessionThatPrompts() throws {
    let (phone, _) = livePhone(start: false)
    try phone.launchApp()
    let monitor = ConditionMonitor(name: "m", phone: phone)
    var states: [ConditionState] = []
    monitor.onEvent = { states.append($0.state) }
    monitor.add(fence, identifier: "tokyo")
    monitor.beginIterating()
    try phone.simulation.run(until: .seconds(30))
    let live = phone.simulation.log.events(LiveLocationEvent.self).map(\.event)
    #expect(
      live.contains(
        .serviceSessionCreated(
          session: 1, authorization: .whenInUse, purposeKey: nil, implicit: true)))
    #expect(phone.simulation.log.events(PromptEvent.self).first?.event == .shown(.location))
    #expect(states.last == .satisfied)
  }

  @Test func withExplicitSessionsRequiredAMonitorWaitsForOne() throws {
    let (phone, _) = livePhone(
      user: UserScript(answers: [.location: [.allowWhileUsing]], answerDelay: .zero),
      infoPlist: InfoPlist(requiresExplicitServiceSession: true), start: false)
    try phone.launchApp()
    let monitor = ConditionMonitor(name: "m", phone: phone)
    var events: [ConditionEvent] = []
    monitor.onEvent = { events.append($0) }
    monitor.add(fence, identifier: "tokyo")
    monitor.beginIterating()
    try phone.simulation.run(until: .seconds(20))
    #expect(phone.simulation.log.events(PromptEvent.self).isEmpty)
    #expect(events.allSatisfy { $0.diagnostics.contains(.serviceSessionRequired) })
    #expect(!events.isEmpty)
    let session = phone.makeServiceSession(authorization: .whenInUse)
    try phone.simulation.run(until: .seconds(60))
    #expect(events.last?.state == .satisfied)
    #expect(events.last?.diagnostics.contains(.serviceSessionRequired) == false)
    // Without its session again, the monitor waits for another, and says so.
    session.invalidate()
    try phone.simulation.run(until: .seconds(70))
    #expect(events.last?.diagnostics.contains(.serviceSessionRequired) == true)
    _ = phone.makeServiceSession(authorization: .whenInUse)
    try phone.simulation.run(until: .seconds(80))
    #expect(events.last?.diagnostics.contains(.serviceSessionRequired) == false)
  }
}
