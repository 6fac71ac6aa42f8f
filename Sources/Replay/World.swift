import Cloud
import Device
import Foundation
import Geo
import JSON
import SimKernel
import Traces

/// One scenario's world: a simulation, a phone with the scenario's app, the simulated cloud and
/// the timeline, ready to run.
///
/// A world is single-threaded and deterministic: everything in it runs on its simulation's
/// virtual clock and draws randomness from streams derived from the scenario's seed. Several
/// worlds may run side by side on different threads; nothing is shared between them.
public final class World {
  /// The scenario being replayed.
  public let scenario: Scenario
  /// The kernel.
  public let simulation: Simulation
  /// This world's GEOS context.
  public let geos: GEOSContext
  /// The phone.
  public let phone: Phone
  /// The phone's connection to the cloud.
  public let network: SimulatedNetwork
  /// The NCMB-compatible datastore, with the scenario's datasets loaded.
  public let datastore: GeoDatastore
  /// The stations of the scenario's datasets, as loaded.
  public let stations: [StationRecord]

  let sensor: ReplaySensor
  /// The areas that degrade positioning, as the sensor model reads them (in ``geos``); `nil`
  /// for a scenario without any.
  package let sensorEnvironment: SensorEnvironment?
  private let endTime: SimTime
  private var traces: [Int: [TrajectorySample]] = [:]
  private(set) var snapshots: [Double: JSONValue] = [:]
  private(set) var timelineErrors: [TimelineError] = []
  /// What the importers skipped or noted in the trace files the scenario uses, in the order the
  /// scenario names the traces (known once the world is assembled, before it runs).
  public private(set) var traceIssues: [ReplayResult.TraceIssue] = []
  private var airplaneMode: Bool
  private var outage = false

  /// A timeline event that could not happen as written (no prompt on screen, no map, an
  /// unknown field): the scenario, not the app, is at fault, and the replay fails.
  public struct TimelineError: Sendable, Hashable, CustomStringConvertible {
    /// Seconds after the start.
    public let time: Double
    /// Where the event is in the scenario (`timeline[3]`).
    public let origin: String
    /// What went wrong.
    public let message: String
    /// `at 12 s, timeline[3]: …`.
    public var description: String {
      "at \(JSONText.number(time)) s, \(origin): \(message)"
    }
  }

  /// Assembles the world for `scenario` with the app from `catalog`.
  ///
  /// Everything a file provides (traces, datasets, gazetteer) is read here, so that bad input
  /// is reported before anything runs.
  ///
  /// - Parameters:
  ///   - scenario: the scenario to assemble.
  ///   - catalog: the apps the scenario may name.
  ///   - resources: shared read-only data, loaded once per process.
  /// - Throws: ``ScenarioError`` naming the scenario file, the place in it and what was
  ///   expected.
  public init(scenario: Scenario, catalog: AppCatalog, resources: ReplayResources) throws {
    self.scenario = scenario
    let file = scenario.file ?? "<scenario>"
    func fail(_ path: String, _ message: String) -> ScenarioError {
      ScenarioError(file: file, path: path, message)
    }
    try Self.checkName(of: scenario, fail: fail)
    let simulation = Simulation(epoch: scenario.start, seed: scenario.seed)
    self.simulation = simulation
    let geos = GEOSContext()
    self.geos = geos
    endTime = .seconds(scenario.duration)

    let environment = try Self.sensorEnvironment(of: scenario, context: geos, fail: fail)
    sensorEnvironment = environment
    sensor = ReplaySensor(
      environment: environment, parameters: scenario.device.sensor,
      random: simulation.random.stream("sensor"), resources: resources)
    var user = UserScript(answers: scenario.device.promptAnswers)
    if let delay = scenario.device.answerDelay { user.answerDelay = .seconds(delay) }
    phone = Phone(
      simulation: simulation, geos: geos, sensor: sensor, parameters: scenario.device.parameters,
      user: user)
    airplaneMode = scenario.device.airplaneMode
    network = SimulatedNetwork(simulation: simulation)
    datastore = GeoDatastore(seed: scenario.seed, backend: scenario.backend, simulation: simulation)

    stations = try Self.loadStations(of: scenario, into: datastore, fail: fail)
    let gazetteer = try Self.gazetteer(
      of: scenario, resources: resources, context: geos, fail: fail)
    try Self.register(
      network: network, datastore: datastore, simulation: simulation, resources: resources,
      scenario: scenario, fail: fail)
    let entry = try Self.entry(of: scenario, in: catalog, fail: fail)
    // One server per world: the app's geocoders, whether made from the context or with
    // Apple's names on the phone, share its rate limit.
    phone.geocodingService = GeocodingService(gazetteer: gazetteer)
    phone.install(
      try Self.makeApp(
        entry, scenario: scenario, network: network, geocodingService: phone.geocodingService,
        fail: fail))

    (traces, traceIssues) = try Self.loadTraces(
      of: scenario, resources: resources, endTime: endTime, fail: fail)
    try setUp()
  }

  /// Checks `scenario` as ``init(scenario:catalog:resources:)`` checks it, with the same
  /// errors in the same order, without assembling the world: its files are read (traces
  /// through `resources`, so that a world assembled after the check in the same process does
  /// not parse them again), the app is made from its configuration and the trajectories are
  /// built, but no phone, sensor or timeline is, and the built-in gazetteer is not.
  ///
  /// - Returns: what the importers skipped or noted in the trace files
  ///   (``traceIssues`` of the world).
  /// - Throws: ``ScenarioError`` naming the scenario file, the place in it and what was
  ///   expected.
  public static func check(
    scenario: Scenario, catalog: AppCatalog, resources: ReplayResources
  ) throws -> [ReplayResult.TraceIssue] {
    let file = scenario.file ?? "<scenario>"
    func fail(_ path: String, _ message: String) -> ScenarioError {
      ScenarioError(file: file, path: path, message)
    }
    try checkName(of: scenario, fail: fail)
    let simulation = Simulation(epoch: scenario.start, seed: scenario.seed)
    let geos = GEOSContext()
    _ = try sensorEnvironment(of: scenario, context: geos, fail: fail)
    let network = SimulatedNetwork(simulation: simulation)
    let datastore = GeoDatastore(
      seed: scenario.seed, backend: scenario.backend, simulation: simulation)
    _ = try loadStations(of: scenario, into: datastore, fail: fail)
    // The built-in gazetteer cannot be wrong; a scenario's own is read and built.
    let gazetteer =
      scenario.gazetteer == nil
      ? try Gazetteer(features: [], context: geos)
      : try Self.gazetteer(of: scenario, resources: resources, context: geos, fail: fail)
    try register(
      network: network, datastore: datastore, simulation: simulation, resources: resources,
      scenario: scenario, fail: fail)
    let entry = try entry(of: scenario, in: catalog, fail: fail)
    _ = try makeApp(
      entry, scenario: scenario, network: network,
      geocodingService: GeocodingService(gazetteer: gazetteer), fail: fail)
    return try loadTraces(
      of: scenario, resources: resources, endTime: .seconds(scenario.duration), fail: fail
    ).issues
  }

  private static func checkName(
    of scenario: Scenario, fail: (String, String) -> ScenarioError
  ) throws {
    // A scenario built in code is checked here; a file's name was checked when it was read.
    guard Scenario.isValidName(scenario.name) else {
      throw fail(
        "name", "expected a name of letters, digits, '.', '_' and '-', found '\(scenario.name)'")
    }
  }

  private static func sensorEnvironment(
    of scenario: Scenario, context: GEOSContext, fail: (String, String) -> ScenarioError
  ) throws -> SensorEnvironment? {
    do {
      return scenario.environment.areas.isEmpty
        ? nil : try SensorEnvironment(areas: scenario.environment.areas, context: context)
    } catch {
      throw fail("environment.areas", "\(error)")
    }
  }

  /// Reads the scenario's datasets (and its PostGIS table) into `datastore`; returns the
  /// stations loaded.
  private static func loadStations(
    of scenario: Scenario, into datastore: GeoDatastore, fail: (String, String) -> ScenarioError
  ) throws -> [StationRecord] {
    var stations: [StationRecord] = []
    for (index, dataset) in scenario.datasets.enumerated() {
      do {
        let text = try String(contentsOf: dataset.file, encoding: .utf8)
        let records =
          dataset.file.pathExtension.lowercased() == "csv"
          ? try GeoDatastore.stations(csv: text, file: dataset.file.path)
          : try GeoDatastore.stations(json: text, file: dataset.file.path)
        try datastore.importStations(
          records, className: dataset.className, geoField: dataset.geoField)
        stations += records
      } catch let error as CloudError {
        throw fail("datasets[\(index)]", error.message)
      } catch {
        throw fail("datasets[\(index)]", "\(dataset.file.path): \(error)")
      }
    }
    if let target = scenario.postGISTable {
      // The truth needs the same points as the server: they are read from the table once.
      let table = scenario.tableStations
      do {
        let records = try PostGISBackend.stations(in: target)
        try datastore.importStations(records, className: table.className, geoField: table.geoField)
        stations += records
      } catch let error as CloudError {
        throw fail("table", error.message)
      } catch {
        throw fail("table", "\(target.displayName): \(error)")
      }
    }
    if case .postgis = scenario.backend {
      // A server that cannot be reached, or a table that changed, is the scenario's error
      // before anything runs, not an E500001 in the middle of the run.
      var fields = scenario.datasets.map { ($0.className, $0.geoField) }
      if scenario.postGISTable != nil {
        fields.append((scenario.tableStations.className, scenario.tableStations.geoField))
      }
      for (className, field) in fields {
        do {
          try datastore.prepareIndex(className: className, field: field)
        } catch let error as CloudError {
          throw fail("database", error.message)
        } catch {
          throw fail("database", "\(error)")
        }
      }
    }
    return stations

  }

  /// The scenario's gazetteer, or the built-in one, in `context`.
  private static func gazetteer(
    of scenario: Scenario, resources: ReplayResources, context: GEOSContext,
    fail: (String, String) -> ScenarioError
  ) throws -> Gazetteer {
    do {
      return try scenario.gazetteer.map {
        let features = try GeoJSON.features(from: Data(contentsOf: $0), file: $0.path)
        return try Gazetteer(features: features, context: context)
      } ?? Gazetteer(features: resources.centralTokyoFeatures(), context: context)
    } catch let error as GeoError {
      throw fail("gazetteer", error.message)
    } catch {
      // The error's own sentence: its description lists a dictionary, in no fixed order.
      throw fail(
        "gazetteer",
        "\(scenario.gazetteer?.path ?? "built-in"): cannot be read: \(error.localizedDescription)")
    }

  }

  /// Registers the cloud's services on `network` with the scenario's link profiles.
  private static func register(
    network: SimulatedNetwork, datastore: GeoDatastore, simulation: Simulation,
    resources: ReplayResources, scenario: Scenario, fail: (String, String) -> ScenarioError
  ) throws {
    do {
      try network.register(NCMBEndpoint(datastore: datastore), profile: link("ncmb"))
      try network.register(
        LazyThreeWordService(resources: resources), profile: link("threewords"))
      try network.register(
        WeatherService(simulation: simulation, seed: scenario.seed), profile: link("weather"))
    } catch {
      throw fail("environment.network", "\(error)")
    }

    func link(_ service: String) -> LinkProfile {
      var profile = LinkProfile()
      for setup in [scenario.environment.network, scenario.environment.services[service]] {
        guard let setup else { continue }
        if let v = setup.latencyMedian { profile.latencyMedian = .seconds(v) }
        if let v = setup.latencySigma { profile.latencySigma = v }
        if let v = setup.failureRate { profile.failureRate = v }
        if let v = setup.timeout { profile.timeout = .seconds(v) }
        if let v = setup.maximumConcurrentRequests { profile.maximumConcurrentRequests = v }
      }
      return profile
    }
  }

  /// The catalog's entry for the scenario's app, with its variant and the events its `count`
  /// expectations name checked.
  private static func entry(
    of scenario: Scenario, in catalog: AppCatalog, fail: (String, String) -> ScenarioError
  ) throws -> AppCatalog.Entry {
    let file = scenario.file ?? "<scenario>"
    guard let entry = catalog.entry(scenario.app.name) else {
      let known = catalog.names.joined(separator: ", ")
      throw ScenarioError(
        file: file, path: "app.name", code: .unknownApp,
        "no app called '\(scenario.app.name)' (known: \(known))")
    }
    if !entry.variants.isEmpty {
      guard let variant = scenario.app.variant, entry.variants.contains(variant) else {
        throw fail(
          "app.variant",
          "expected one of \(entry.variants.map { "'\($0)'" }.joined(separator: ", "))"
            + (scenario.app.variant.map { ", got '\($0)'" } ?? ""))
      }
    } else if scenario.app.variant != nil {
      throw fail("app.variant", "the app '\(scenario.app.name)' has no variants")
    }
    for (index, expectation) in scenario.expectations.enumerated() {
      guard case .count(let source, let event, _, _, _, _, _) = expectation.rule else { continue }
      if let problem = LoggedEvents.problem(
        source: source, event: event, appEvents: entry.events, appName: scenario.app.name)
      {
        throw fail("expectations[\(index)].\(problem.member)", problem.message)
      }
    }
    return entry
  }

  /// The app's launch factory, made from the scenario's configuration.
  private static func makeApp(
    _ entry: AppCatalog.Entry, scenario: Scenario, network: SimulatedNetwork,
    geocodingService: GeocodingService, fail: (String, String) -> ScenarioError
  ) throws -> () -> any SimulatedApp {
    let context = AppContext(
      network: network, geocodingService: geocodingService,
      variant: scenario.app.variant, configuration: scenario.app.configuration)
    do {
      return try entry.make(context)
    } catch let error as AppConfigurationError {
      let path = error.path.isEmpty ? "app.configuration" : "app.configuration.\(error.path)"
      throw fail(path, error.message)
    } catch {
      throw fail("app.configuration", "\(error)")
    }
  }

  /// The samples of every trace the scenario uses, read (or synthesized) before the run, and
  /// what the importers skipped or noted in them.
  private static func loadTraces(
    of scenario: Scenario, resources: ReplayResources, endTime: SimTime,
    fail: (String, String) -> ScenarioError
  ) throws -> (samples: [Int: [TrajectorySample]], issues: [ReplayResult.TraceIssue]) {
    var traces: [Int: [TrajectorySample]] = [:]
    var issues: [ReplayResult.TraceIssue] = []
    if let trace = scenario.trace {
      traces[-1] = try samples(
        of: trace, at: "trace", scenario: scenario, resources: resources, endTime: endTime,
        issues: &issues, fail: fail)
    }
    for (index, event) in scenario.timeline.enumerated() {
      if case .trace(let source) = event.action {
        traces[index] = try samples(
          of: source, at: event.origin + ".trace", scenario: scenario, resources: resources,
          endTime: endTime, issues: &issues, fail: fail)
      }
    }
    return (traces, issues)
  }

  private static func samples(
    of source: TraceSource, at path: String, scenario: Scenario, resources: ReplayResources,
    endTime: SimTime, issues traceIssues: inout [ReplayResult.TraceIssue],
    fail: (String, String) -> ScenarioError
  ) throws -> [TrajectorySample] {
    do {
      switch source {
      case .file(let url, let track, let startAt, let allowSkipped, let gpxWaypoints):
        let trace = try resources.trace(contentsOf: url.path, gpxWaypoints: gpxWaypoints)
        let name = displayName(of: url, in: scenario, resources: resources)
        traceIssues += trace.skipped.map {
          ReplayResult.TraceIssue(
            trace: path, file: name, line: $0.line, message: $0.message, allowed: allowSkipped)
        }
        guard trace.tracks.indices.contains(track) else {
          throw fail(
            path + ".track",
            "\(url.path) has \(trace.tracks.count) track(s); track \(track) does not exist")
        }
        var dropped: [Int] = []
        let samples: [TrajectorySample]
        do {
          samples = try trace.tracks[track].trajectorySamples(
            startingAt: .seconds(startAt), dropped: &dropped)
        } catch let error as DeviceError {
          throw fail(path, "\(name): track \(track): \(error.message)")
        }
        if !dropped.isEmpty {
          // A trajectory's times must increase; the points are named by their 1-based place.
          var points = dropped.prefix(5).map { String($0 + 1) }
          if dropped.count > 5 { points.append("…") }
          let message =
            "dropped \(dropped.count) point(s) of track \(track) whose time does not come "
            + "after the point before: the track's point(s) \(points.joined(separator: ", "))"
          traceIssues.append(
            ReplayResult.TraceIssue(
              trace: path, file: name, line: nil, message: message, allowed: allowSkipped))
        }
        return samples
      case .synthesized(let waypoints, let speed, let interval, let startAt):
        return try resources.samples(of: source) {
          let trace = try TraceSynthesis.trace(
            through: waypoints, profile: SpeedProfile(parsing: speed), interval: interval)
          return try trace.tracks[0].trajectorySamples(startingAt: .seconds(startAt))
        }
      case .stationary(let coordinate, let startAt):
        let start = SimTime.seconds(startAt)
        let end = max(endTime, start) + .seconds(1)
        return [
          TrajectorySample(time: start, coordinate: coordinate),
          TrajectorySample(time: end, coordinate: coordinate),
        ]
      }
    } catch let error as ScenarioError {
      throw error
    } catch {
      throw fail(path, "\(error)")
    }
  }

  /// A trace file's path relative to the scenario's folder where it is inside it (so that
  /// reports do not depend on where the scenarios are checked out), else the full path.
  private static func displayName(
    of url: URL, in scenario: Scenario, resources: ReplayResources
  ) -> String {
    guard let file = scenario.file else { return url.path }
    let folder = resources.resolvingSymlinks(
      URL(fileURLWithPath: file).deletingLastPathComponent()
    ).path
    let base = folder.hasSuffix("/") ? folder : folder + "/"
    return url.path.hasPrefix(base) ? String(url.path.dropFirst(base.count)) : url.path
  }

  /// Applies the starting settings and schedules the timeline, the trace, the offline windows
  /// and the state snapshots the expectations read.
  private func setUp() throws {
    let device = scenario.device
    if !device.locationServices { phone.setLocationServices(false) }
    if device.restricted { phone.setRestricted(true) }
    if let setting = device.locationSetting { phone.setLocationSetting(setting) }
    if !device.preciseLocation { phone.setPreciseLocation(false) }
    if device.airplaneMode { phone.setAirplaneMode(true) }
    updateConnectivity()

    if let first = traces[-1] { try sensor.follow(first, from: .zero) }
    for window in scenario.environment.offline {
      try simulation.schedule(at: .seconds(window.lowerBound)) { [unowned self] in
        self.outage = true
        self.updateConnectivity()
      }
      try simulation.schedule(at: .seconds(window.upperBound)) { [unowned self] in
        self.outage = false
        self.updateConnectivity()
      }
    }
    for (index, event) in scenario.timeline.enumerated() {
      try simulation.schedule(at: .seconds(event.at)) { [unowned self] in
        self.perform(event, index: index)
      }
    }
    var snapshotTimes = Set<Double>()
    for expectation in scenario.expectations {
      switch expectation.rule {
      case .state(_, _, let at?), .markersMatch(_, _, let at?): snapshotTimes.insert(at)
      default: break
      }
    }
    for time in snapshotTimes.sorted() {
      try simulation.schedule(at: .seconds(time), priority: .late) { [unowned self] in
        self.snapshots[time] = self.screenState
      }
    }
  }

  /// The app's observable state now (`null` when it is not running or has no screen), read
  /// with the phone current, as the app's Apple-named objects need wherever it is asked.
  public var screenState: JSONValue {
    phone.makeCurrent { phone.screen?.observableState ?? .null }
  }

  private func updateConnectivity() {
    network.setOffline(outage || airplaneMode)
    phone.isConnected = !outage
  }

  private func perform(_ event: TimelineEvent, index: Int) {
    simulation.log.record(TimelineLogEvent.applied(event.action, index: index), at: simulation.now)
    do {
      try apply(event, index: index)
    } catch {
      let failure = TimelineError(
        time: event.at, origin: event.origin, message: "\(error)")
      timelineErrors.append(failure)
      simulation.log.record(
        TimelineLogEvent.failed(index: index, message: failure.message), at: simulation.now)
    }
  }

  private func apply(_ event: TimelineEvent, index: Int) throws {
    let now = simulation.now
    switch event.action {
    case .launch: try phone.launchApp()
    case .background: phone.sendAppToBackground()
    case .foreground: phone.bringAppToForeground()
    case .terminate: phone.terminateApp()
    case .relaunch:
      phone.terminateApp()
      try phone.launchApp()
    case .reboot: phone.reboot()
    case .answerPrompt(let answer): try phone.answerPrompt(answer)
    case .locationSetting(let setting): phone.setLocationSetting(setting)
    case .preciseLocation(let on): phone.setPreciseLocation(on)
    case .locationServices(let on): phone.setLocationServices(on)
    case .airplaneMode(let on):
      phone.setAirplaneMode(on)
      airplaneMode = on
      updateConnectivity()
    case .network(let online):
      outage = !online
      updateConnectivity()
    case .tap(let target):
      let map = try requireMap()
      try map.replay(Touches.tap(at: point(target, on: map), time: now))
    case .doubleTap(let target):
      let map = try requireMap()
      try map.replay(Touches.doubleTap(at: point(target, on: map), time: now))
    case .longPress(let target, let duration):
      let map = try requireMap()
      try map.replay(
        Touches.longPress(at: point(target, on: map), time: now, duration: .seconds(duration)))
    case .drag(let path, let duration):
      let map = try requireMap()
      try map.replay(Touches.drag(along: path, time: now, duration: .seconds(duration)))
    case .touches(let samples):
      let map = try requireMap()
      try map.replay(
        samples.map {
          TouchSample(
            finger: $0.finger, phase: $0.phase, point: $0.point, time: now + ($0.time - .zero))
        })
    case .enterText(let field, let text):
      try requireScreen().enterText(text, in: field)
    case .tapButton(let button):
      try requireScreen().tapButton(button)
    case .trace:
      try sensor.follow(traces[index] ?? [], from: now)
    }
  }

  private func requireScreen() throws -> any AppScreen {
    guard let screen = phone.screen else {
      throw DeviceError(
        .invalidState,
        phone.appState == .notRunning
          ? "the app is not running" : "the app shows no screen GeoSim can drive")
    }
    guard phone.appState == .foreground else {
      throw DeviceError(.invalidState, "the app is not in the foreground (\(phone.appState))")
    }
    return screen
  }

  private func requireMap() throws -> MapView {
    guard let map = try requireScreen().mapView else {
      throw DeviceError(.invalidState, "the app shows no map")
    }
    return map
  }

  private func point(_ target: TimelineEvent.TouchTarget, on map: MapView) -> Point {
    switch target {
    case .screen(let point): point
    case .coordinate(let coordinate): map.convert(coordinate)
    }
  }

  deinit {
    phone.shutDown()
  }

  /// The most kernel events a replay fires unless told otherwise: 100 million, about a
  /// thousand times what a day of the arrival alarm with a fix every second takes; a world
  /// that needs more has an app (or a scenario) that keeps queuing work without virtual time
  /// passing.
  public static let defaultEventLimit = 100_000_000

  /// Runs the world to the end of the scenario, with its phone current on the calling thread
  /// (so that the app's Apple-named objects and its queued work find it).
  ///
  /// - Parameter eventLimit: the most kernel events to fire; a world that needs more stops
  ///   where it is, and its result says so (``ReplayResult/timeout``), not the expectations.
  public func run(eventLimit: Int = World.defaultEventLimit) throws {
    do {
      try phone.makeCurrent { try simulation.run(until: endTime, eventLimit: eventLimit) }
    } catch let error as SimKernelError where error.code == .eventLimitReached {
      let lines = simulation.log.entries.suffix(Self.stopContext).map(EventLog.jsonLine)
      budgetStop = ReplayResult.Timeout(
        reason: "stopped at \(JSONText.number(simulation.now.seconds)) s of "
          + "\(JSONText.number(scenario.duration)) s after \(eventLimit) kernel events, its event "
          + "budget (a world that needs more usually has work queued over and over at one "
          + "instant: an app that re-queues itself, a zero-delay timer)",
        lastEvents: Array(lines))
      return
    }
    snapshots[scenario.duration] = snapshots[scenario.duration] ?? screenState
  }

  /// How many of the last log lines a stopped replay's result keeps.
  static let stopContext = 20

  /// Why the run stopped before its end, if it ran out of its event budget.
  private(set) var budgetStop: ReplayResult.Timeout?

  /// The true trajectory the phone followed.
  public var trueSamples: [TrajectorySample] { sensor.samples }
}

extension TimelineEvent.Action {
  /// The event's name in scenario documents and the event log.
  public var name: String {
    switch self {
    case .launch: "launch"
    case .background: "background"
    case .foreground: "foreground"
    case .terminate: "terminate"
    case .relaunch: "relaunch"
    case .reboot: "reboot"
    case .answerPrompt: "answerPrompt"
    case .locationSetting: "locationSetting"
    case .preciseLocation: "preciseLocation"
    case .locationServices: "locationServices"
    case .airplaneMode: "airplaneMode"
    case .network: "network"
    case .tap: "tap"
    case .doubleTap: "doubleTap"
    case .longPress: "longPress"
    case .drag: "drag"
    case .touches: "touches"
    case .enterText: "enterText"
    case .tapButton: "tapButton"
    case .trace: "trace"
    }
  }
}
