import Device
import Geo
import SimKernel

/// A sensor that reports the truth exactly, for testing the phone's logic apart from noise.
final class ExactSensor: LocationSensor {
  let updateInterval: SimDuration
  var truth: (SimTime) -> Coordinate?
  /// Instants (inclusive ranges) in which the sensor is silent, like a tunnel.
  var silences: [ClosedRange<SimTime>] = []
  /// Instants at which the fix is invalid: `horizontalAccuracy` −1 at (0, 0).
  var invalid: Set<SimTime> = []

  init(interval: SimDuration = .seconds(1), truth: @escaping (SimTime) -> Coordinate?) {
    self.updateInterval = interval
    self.truth = truth
  }

  func reading(at time: SimTime, desiredAccuracy: Double, reducedAccuracy: Bool) -> SensorReading {
    guard !silences.contains(where: { $0.contains(time) }), let c = truth(time) else {
      return .silent
    }
    if invalid.contains(time) {
      return .fix(
        Location(
          coordinate: try! Coordinate(latitude: 0, longitude: 0), horizontalAccuracy: -1,
          timestamp: time))
    }
    return .fix(
      Location(coordinate: c, horizontalAccuracy: 5, speed: 1, course: 0, timestamp: time))
  }

  func coarseEstimate(at time: SimTime) -> Location? {
    truth(time).map { Location(coordinate: $0, horizontalAccuracy: 100, timestamp: time) }
  }
}

/// An app that records everything its location manager tells it, with the virtual time.
final class RecordingApp: SimulatedApp, LocationManagerDelegate {
  var manager: LocationManager!
  var events: [(time: SimTime, what: String)] = []
  var fixes: [Location] = []
  var launchReasons: [LaunchReason] = []
  /// The visits the app heard, with when.
  var visits: [(time: SimTime, visit: Visit)] = []
  let configure: (LocationManager, Phone) -> Void
  /// The app's Info.plist: one purpose key for temporary full accuracy.
  let infoPlist = InfoPlist(locationTemporaryUsageDescriptionDictionary: [
    "navigation": "Directions need your precise location."
  ])
  /// Weak, as an app model should hold its phone: the phone owns the app.
  private weak var phone: Phone?

  init(configure: @escaping (LocationManager, Phone) -> Void) {
    self.configure = configure
  }

  func didLaunch(on phone: Phone, reason: LaunchReason) {
    self.phone = phone
    launchReasons.append(reason)
    manager = LocationManager(phone: phone)
    manager.delegate = self
    configure(manager, phone)
  }

  private func note(_ what: String) { events.append((phone?.simulation.now ?? .zero, what)) }

  var names: [String] { events.map(\.what) }

  func locationManagerDidChangeAuthorization(_ manager: LocationManager) {
    note("auth:\(manager.authorizationStatus)")
  }
  func locationManager(_ manager: LocationManager, didUpdateLocations locations: [Location]) {
    fixes += locations
    note("fix")
  }
  func locationManager(_ manager: LocationManager, didFailWithError error: LocationError) {
    note("error:\(error.code)")
  }
  func locationManager(_ manager: LocationManager, didEnterRegion region: CircularRegion) {
    note("enter:\(region.identifier)")
  }
  func locationManager(_ manager: LocationManager, didExitRegion region: CircularRegion) {
    note("exit:\(region.identifier)")
  }
  func locationManager(
    _ manager: LocationManager, didDetermineState state: RegionState, for region: CircularRegion
  ) {
    note("state:\(region.identifier):\(state)")
  }
  func locationManager(
    _ manager: LocationManager, monitoringDidFailFor region: CircularRegion?,
    withError error: LocationError
  ) {
    note("monitoringFailed:\(region?.identifier ?? "-"):\(error.code)")
  }
  func locationManagerDidPauseLocationUpdates(_ manager: LocationManager) { note("paused") }
  func locationManager(_ manager: LocationManager, didVisit visit: Visit) {
    visits.append((phone?.simulation.now ?? .zero, visit))
    note("visit")
  }
}

let tokyoStation = try! Coordinate(latitude: 35.681236, longitude: 139.767125)

/// A point `distance` metres from Tokyo Station towards `azimuth`.
func offset(_ distance: Double, azimuth: Double = 90, from origin: Coordinate = tokyoStation)
  -> Coordinate
{
  try! Geodesic.wgs84.direct(from: origin, azimuth: azimuth, distance: distance).coordinate
}

/// Parameters with no randomness: every decided transition is delivered after exactly the
/// median latency, and no first fix is stale.
func deterministic() -> PhoneParameters {
  var p = PhoneParameters()
  p.regionMonitoring.missProbability = 0
  p.regionMonitoring.latencySigma = 0
  p.staleFirstFixProbability = 0
  return p
}

/// A phone whose installed app is a ``RecordingApp`` (the latest instance is returned by
/// `app()`), with an exact sensor following `truth`.
func makePhone(
  seed: UInt64 = 1, parameters: PhoneParameters = PhoneParameters(),
  user: UserScript = UserScript(), interval: SimDuration = .seconds(1),
  configure: @escaping (LocationManager) -> Void = { _ in },
  launch: ((LocationManager, Phone) -> Void)? = nil,
  truth: @escaping (SimTime) -> Coordinate? = { _ in tokyoStation }
) -> (phone: Phone, sensor: ExactSensor, app: () -> RecordingApp?) {
  let simulation = Simulation(seed: seed)
  let sensor = ExactSensor(interval: interval, truth: truth)
  let phone = Phone(
    simulation: simulation, geos: GEOSContext(), sensor: sensor, parameters: parameters, user: user)
  var latest: RecordingApp?
  phone.install {
    let app = RecordingApp(configure: launch ?? { manager, _ in configure(manager) })
    latest = app
    return app
  }
  return (phone, sensor, { latest })
}

/// A launched phone with the realistic sensor model following `samples`, whose user grants
/// While Using at once, running a ``RecordingApp`` set up by `launch`.
func realisticPhone(
  seed: UInt64, samples: [TrajectorySample], sensor parameters: SensorParameters = .init(),
  environment: SensorEnvironment? = nil, phone phoneParameters: PhoneParameters = .init(),
  launch: @escaping (LocationManager, Phone) -> Void
) throws -> (phone: Phone, app: () -> RecordingApp?) {
  let simulation = Simulation(seed: seed)
  let sensor = try SensorModel(
    trajectory: try Trajectory(samples), environment: environment, parameters: parameters,
    random: simulation.random.stream("sensor"))
  let phone = Phone(
    simulation: simulation, geos: GEOSContext(), sensor: sensor, parameters: phoneParameters,
    user: UserScript(answers: [.location: [.allowWhileUsing]]))
  var latest: RecordingApp?
  phone.install {
    let app = RecordingApp(configure: launch)
    latest = app
    return app
  }
  try phone.launchApp()
  return (phone, { latest })
}
