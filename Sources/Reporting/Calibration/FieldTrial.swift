import Device
import Geo
import Referee
import SimKernel

/// Where a field test's app stands once it has set itself up.
public enum FieldAppState: String, Hashable, Sendable, CaseIterable {
  /// On screen the whole time (a test app that shows the distance to the fence).
  case foreground
  /// Sent to the background and suspended, the phone locked in a pocket: region events wake it.
  case background
  /// Removed from memory after setting up: region events relaunch it into the background.
  case terminated
}

/// The phone's side of a field test: what is around it, what its app does, its parameters.
///
/// Everything the public API of the phone lets a tester set; the region engine itself is not
/// touched, so a trial means the same after the engine changes.
public struct FieldConditions: Hashable, Sendable {
  /// The positioning environment along the whole route (a `SensorEnvironment` area covering
  /// it; `EnvironmentKind.openSky` means no area).
  public var environment: EnvironmentKind = .openSky
  /// The app's state after it has asked for Always and started monitoring.
  public var app: FieldAppState = .background
  /// Whether the app also runs background location updates (10 m accuracy, 10 m distance
  /// filter, automotive navigation — as the arrival alarm of article 004 does), which keeps it
  /// running and GNSS on.
  public var runsLocationUpdates = false
  /// The phone's parameters (region monitoring among them).
  public var parameters = PhoneParameters()
  /// The sensor model's parameters.
  public var sensor = SensorParameters()

  /// Conditions with the defaults: open sky, the app in the background, no location updates.
  public init() {}

  /// The defaults, with the phone's and the sensor's parameters of `profile`.
  public init(profile: DeviceProfile) {
    parameters = profile.parameters
    sensor = profile.sensor
  }
}

/// Whether a crossing or an event is an entry or an exit.
public enum FieldCrossingKind: String, Hashable, Sendable {
  /// Into the fence.
  case entry
  /// Out of it.
  case exit
}

/// A region event the app heard, or a true crossing of a fence's circle.
public struct FieldEvent: Hashable, Sendable {
  /// When the app heard it, or when the true track crossed the circle.
  public let time: SimTime
  /// The fence's identifier.
  public let fence: String
  /// Entry or exit.
  public let kind: FieldCrossingKind
  /// Where the phone truly was at that time.
  public let coordinate: Coordinate

  /// An event or crossing.
  public init(time: SimTime, fence: String, kind: FieldCrossingKind, coordinate: Coordinate) {
    self.time = time
    self.fence = fence
    self.kind = kind
    self.coordinate = coordinate
  }
}

/// One run of a field test on the simulated phone: a true track, the fences an app monitors
/// on it, and the conditions.
///
/// A trial drives the phone only through its public API — a `Phone` following the
/// track, an app whose `LocationManager` asks for Always authorization and calls
/// `startMonitoring(for:)` on each fence — and records what the app's delegate hears. The
/// same trial describes a user's own recorded field log (their true track and fences), so
/// that simulated and recorded events can be compared.
public struct FieldTrial: Sendable {
  /// The true track, in time order (at least two samples; the trial starts at the first).
  public var samples: [TrajectorySample]
  /// The fences the app monitors, registered at the start.
  public var fences: [CircularRegion]
  /// The phone's conditions.
  public var conditions: FieldConditions
  /// When the trial ends (the run goes on after the track's last sample with the phone
  /// standing there); the track's end when `nil`.
  public var end: SimTime?

  /// When the app leaves the foreground after setting up.
  public static let setUpTime = SimTime.seconds(5)

  /// A trial.
  public init(
    samples: [TrajectorySample], fences: [CircularRegion], conditions: FieldConditions,
    end: SimTime? = nil
  ) {
    self.samples = samples
    self.fences = fences
    self.conditions = conditions
    self.end = end
  }

  /// Runs the trial in a world of its own seeded with `seed` and returns what the app heard
  /// and the true crossings.
  ///
  /// - Throws: `DeviceError` when the track is not a valid trajectory or the parameters are
  ///   out of range; `GeoError` when GEOS fails.
  public func run(seed: UInt64, geos: GEOSContext) throws -> FieldTrialRecord {
    let trajectory = try Trajectory(samples)
    let end = self.end ?? trajectory.endTime
    let simulation = Simulation(seed: seed)
    let environment = try self.environment(around: trajectory, geos: geos)
    let sensor = try SensorModel(
      trajectory: trajectory, environment: environment, parameters: conditions.sensor,
      random: simulation.random.stream("sensor"))
    let user = UserScript(
      answers: [.location: [.allowWhileUsing], .alwaysUpgrade: [.changeToAlways]],
      answerDelay: .zero)
    let phone = Phone(
      simulation: simulation, geos: geos, sensor: sensor, parameters: conditions.parameters,
      user: user)
    let recorder = FieldRecorder(simulation: simulation, sensor: sensor)
    let fences = self.fences
    let conditions = self.conditions
    phone.install { FieldTestApp(fences: fences, conditions: conditions, recorder: recorder) }
    try phone.launchApp()
    let setUp = min(Self.setUpTime, end)
    try simulation.run(until: setUp)
    switch conditions.app {
    case .foreground: break
    case .background: phone.sendAppToBackground()
    case .terminated: phone.terminateApp()
    }
    try simulation.run(until: end)
    phone.shutDown()

    let (crossings, startsInside) = try Self.trueCrossings(
      samples: trajectory.samples, fences: fences, geos: geos)
    return FieldTrialRecord(
      seed: seed, fences: fences, events: recorder.events, crossings: crossings,
      startsInside: startsInside)
  }

  /// The true crossings of `fences`' circles on the track `samples`, in time order
  /// (`Referee.CircleVisits`), and the fences the track starts inside of.
  static func trueCrossings(
    samples: [TrajectorySample], fences: [CircularRegion], geos: GEOSContext
  ) throws -> (crossings: [FieldEvent], startsInside: [String]) {
    let track = TrueTrack(samples.map { TrueTrack.Point(time: $0.time, coordinate: $0.coordinate) })
    var crossings: [FieldEvent] = []
    for fence in fences {
      let visits = try CircleVisits(
        center: fence.center, radius: fence.radius, track: track, geos: geos)
      for visit in visits.visits {
        if let entry = visit.entry {
          crossings.append(
            FieldEvent(
              time: entry.time, fence: fence.identifier, kind: .entry,
              coordinate: entry.coordinate))
        }
        if let exit = visit.exit {
          crossings.append(
            FieldEvent(
              time: exit.time, fence: fence.identifier, kind: .exit, coordinate: exit.coordinate))
        }
      }
    }
    crossings.sort { $0.time < $1.time }
    return (crossings, fences.filter { $0.contains(samples[0].coordinate) }.map(\.identifier))
  }

  /// An area of the trial's environment kind covering the track with a 5 km margin, or `nil`
  /// for open sky.
  private func environment(around trajectory: Trajectory, geos: GEOSContext) throws
    -> SensorEnvironment?
  {
    guard conditions.environment != .openSky else { return nil }
    let latitudes = trajectory.samples.map(\.coordinate.latitude)
    let longitudes = trajectory.samples.map(\.coordinate.longitude)
    let margin = 0.05  // degrees: about 5 km
    let south = max(-90, latitudes.min()! - margin)
    let north = min(90, latitudes.max()! + margin)
    let west = max(-180, longitudes.min()! - margin)
    let east = min(180, longitudes.max()! + margin)
    let ring = [
      Position(x: west, y: south), Position(x: east, y: south), Position(x: east, y: north),
      Position(x: west, y: north), Position(x: west, y: south),
    ]
    return try SensorEnvironment(
      areas: [(conditions.environment, .polygon(try Polygon(rings: [ring])))], context: geos)
  }
}

/// What one trial produced: the events the app heard and the true crossings.
public struct FieldTrialRecord: Hashable, Sendable {
  /// The trial's seed.
  public let seed: UInt64
  /// The fences monitored.
  public let fences: [CircularRegion]
  /// The region events the app's delegate heard, in order.
  public let events: [FieldEvent]
  /// The true crossings of the fences' circles, in time order.
  public let crossings: [FieldEvent]
  /// The fences the track starts inside of (they have an exit but no entry crossing).
  public let startsInside: [String]

  /// A record (for a user's recorded log, or to test the measures).
  public init(
    seed: UInt64, fences: [CircularRegion], events: [FieldEvent], crossings: [FieldEvent],
    startsInside: [String] = []
  ) {
    self.seed = seed
    self.fences = fences
    self.events = events
    self.crossings = crossings
    self.startsInside = startsInside
  }

  /// The first event of `kind` for `fence` the app heard.
  public func firstEvent(_ kind: FieldCrossingKind, fence: String) -> FieldEvent? {
    events.first { $0.kind == kind && $0.fence == fence }
  }

  /// The first true crossing of `kind` of `fence`.
  public func firstCrossing(_ kind: FieldCrossingKind, fence: String) -> FieldEvent? {
    crossings.first { $0.kind == kind && $0.fence == fence }
  }

  /// Seconds from the first true crossing of `kind` to the first such event; `nil` when either
  /// is missing. Negative when the event came before the crossing.
  public func latency(_ kind: FieldCrossingKind, fence: String) -> Double? {
    guard let event = firstEvent(kind, fence: fence),
      let crossing = firstCrossing(kind, fence: fence)
    else { return nil }
    return (event.time - crossing.time).seconds
  }

  /// How far outside `fence`'s circle (metres; negative inside) the phone truly was when it
  /// heard `event`.
  public func distanceOutside(_ event: FieldEvent) -> Double? {
    guard let fence = fences.first(where: { $0.identifier == event.fence }) else { return nil }
    return Geodesic.wgs84.inverse(from: fence.center, to: event.coordinate).distance
      - fence.radius
  }
}

/// Keeps what the app hears across its relaunches, with the true position at each event.
final class FieldRecorder {
  let simulation: Simulation
  let sensor: SensorModel
  private(set) var events: [FieldEvent] = []

  init(simulation: Simulation, sensor: SensorModel) {
    self.simulation = simulation
    self.sensor = sensor
  }

  func note(_ kind: FieldCrossingKind, _ region: CircularRegion) {
    let now = simulation.now
    guard let coordinate = sensor.truePosition(at: now) else { return }
    events.append(
      FieldEvent(time: now, fence: region.identifier, kind: kind, coordinate: coordinate))
  }
}

/// The field test's app: at its first launch it asks for Always, monitors the fences and, when
/// the conditions say so, starts background location updates; at every launch it makes a
/// location manager to hear region events.
final class FieldTestApp: SimulatedApp, LocationManagerDelegate {
  let fences: [CircularRegion]
  let conditions: FieldConditions
  let recorder: FieldRecorder
  var manager: LocationManager?

  init(fences: [CircularRegion], conditions: FieldConditions, recorder: FieldRecorder) {
    self.fences = fences
    self.conditions = conditions
    self.recorder = recorder
  }

  func didLaunch(on phone: Phone, reason: LaunchReason) {
    let manager = LocationManager(phone: phone)
    manager.delegate = self
    self.manager = manager
    guard reason == .user else { return }
    manager.requestAlwaysAuthorization()
    for fence in fences { manager.startMonitoring(for: fence) }
    if conditions.runsLocationUpdates {
      manager.allowsBackgroundLocationUpdates = true
      manager.desiredAccuracy = LocationAccuracy.nearestTenMeters
      manager.distanceFilter = 10
      manager.activityType = .automotiveNavigation
      manager.startUpdatingLocation()
    }
  }

  func locationManager(_ manager: LocationManager, didEnterRegion region: CircularRegion) {
    recorder.note(.entry, region)
  }

  func locationManager(_ manager: LocationManager, didExitRegion region: CircularRegion) {
    recorder.note(.exit, region)
  }
}
