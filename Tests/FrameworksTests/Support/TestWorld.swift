import Device
import Foundation
import Geo
import GeoSimFrameworks
import SimKernel

/// A sensor that reports a path exactly, for checking the framework layer apart from noise.
final class PathSensor: LocationSensor {
  let updateInterval = SimDuration.seconds(1)
  let truth: (SimTime) -> Coordinate?

  init(truth: @escaping (SimTime) -> Coordinate?) {
    self.truth = truth
  }

  func reading(at time: SimTime, desiredAccuracy: Double, reducedAccuracy: Bool) -> SensorReading {
    guard let coordinate = truth(time) else { return .silent }
    return .fix(
      Location(coordinate: coordinate, horizontalAccuracy: 5, speed: 1, course: 0, timestamp: time))
  }

  func coarseEstimate(at time: SimTime) -> Location? {
    truth(time).map { Location(coordinate: $0, horizontalAccuracy: 100, timestamp: time) }
  }

  /// The speed along the path over the last second (what the motion sensors feel).
  func trueSpeed(at time: SimTime) -> Double? {
    guard let now = truth(time), let before = truth(time - SimDuration.seconds(1)) else {
      return nil
    }
    return Geodesic.wgs84.inverse(from: before, to: now).distance
  }
}

/// Launches whatever `make` builds, as the phone launches an app: a fresh object per process.
final class HostApp: SimulatedApp {
  let make: () -> AnyObject
  let infoPlist: InfoPlist
  private(set) var app: AnyObject?

  init(infoPlist: InfoPlist = InfoPlist(), _ make: @escaping () -> AnyObject) {
    self.infoPlist = infoPlist
    self.make = make
  }

  func didLaunch(on phone: Phone, reason: LaunchReason) {
    app = make()
  }
}

/// A world of one phone running iOS-style code: the phone is current while the world runs.
final class TestWorld {
  let simulation: Simulation
  let phone: Phone
  /// The host of an app given as an object to make; `nil` for a UIKit app.
  let host: HostApp?

  // As a replayed world does when it is over: the app's waiting tasks are released.
  deinit { phone.shutDown() }

  /// Phone parameters without the region monitoring's miss coin, so that a check of the
  /// framework layer does not depend on the calibration's randomness.
  static let certain: PhoneParameters = {
    var parameters = PhoneParameters()
    parameters.regionMonitoring.missProbability = 0
    return parameters
  }()

  /// The default path: standing at (35.68, 139.76).
  static func standing(_ time: SimTime) -> Coordinate? {
    try? Coordinate(latitude: 35.68, longitude: 139.76)
  }

  /// A world starting 2026-04-01T00:00:00Z whose phone follows `truth` and answers prompts
  /// with `user`, running whatever `make` builds at each launch, an app whose bundle declares
  /// `infoPlist`.
  convenience init(
    seed: UInt64 = 1, parameters: PhoneParameters = TestWorld.certain,
    user: UserScript = UserScript(), infoPlist: InfoPlist = InfoPlist(),
    truth: @escaping (SimTime) -> Coordinate? = TestWorld.standing,
    app make: @escaping () -> AnyObject
  ) {
    let host = HostApp(infoPlist: infoPlist, make)
    self.init(seed: seed, parameters: parameters, user: user, truth: truth, host: host) {
      $0.install { host }
    }
  }

  /// The same world running a UIKit app whose bundle declares `infoPlist`: `makeDelegate`
  /// creates its app delegate at each launch, as `UIApplicationMain` does.
  convenience init(
    seed: UInt64 = 1, parameters: PhoneParameters = TestWorld.certain,
    user: UserScript = UserScript(), infoPlist: InfoPlist = InfoPlist(),
    truth: @escaping (SimTime) -> Coordinate? = TestWorld.standing,
    delegate makeDelegate: @escaping @MainActor @Sendable () -> any UIApplicationDelegate
  ) {
    self.init(seed: seed, parameters: parameters, user: user, truth: truth, host: nil) {
      $0.install(ApplicationHost.factory(infoPlist: infoPlist, makeDelegate))
    }
  }

  private init(
    seed: UInt64, parameters: PhoneParameters, user: UserScript,
    truth: @escaping (SimTime) -> Coordinate?, host: HostApp?, install: (Phone) -> Void
  ) {
    simulation = Simulation(epoch: Date(timeIntervalSince1970: 1_775_001_600), seed: seed)
    phone = Phone(
      simulation: simulation, geos: GEOSContext(), sensor: PathSensor(truth: truth),
      parameters: parameters, user: user)
    self.host = host
    install(phone)
  }

  /// The running UIKit app's host and delegate, if a UIKit app runs.
  var applicationHost: ApplicationHost? { phone.runningApp as? ApplicationHost }

  /// Reads or runs main-actor code of the app (its delegate's state), with the phone current.
  func onMainActor<T: Sendable>(_ body: @MainActor @Sendable () throws -> T) rethrows -> T {
    try phone.makeCurrent { try MainActor.assumeIsolated(body) }
  }

  /// Launches the app at once and runs the world to `seconds`.
  func launchAndRun(until seconds: Double) throws {
    try phone.makeCurrent {
      try phone.launchApp()
      try simulation.run(until: .seconds(seconds))
    }
  }

  /// Runs the world further, to `seconds`.
  func run(until seconds: Double) throws {
    try phone.makeCurrent { try simulation.run(until: .seconds(seconds)) }
  }

  /// The log's `source`/`event` names, in order.
  var logNames: [String] { simulation.log.entries.map { "\($0.source).\($0.event)" } }
}

extension TestWorld {
  /// The app's process ends (the user swipes it away), as the world's driver would do it.
  func terminate() {
    phone.makeCurrent { phone.terminateApp() }
  }

  /// The user opens the app again: a fresh process, with what the phone kept.
  func relaunch() throws {
    try phone.makeCurrent { try phone.launchApp() }
  }

  /// Runs `body` as app code on the world's thread, with its phone current.
  @discardableResult
  func inApp<T>(_ body: () throws -> T) rethrows -> T {
    try phone.makeCurrent(during: body)
  }

  /// The log's entries from `source` named `event`.
  func entries(_ source: String, _ event: String) -> [LogEntry] {
    simulation.log.entries(source: source, event: event)
  }

  /// The log entries of `source`, as `event` names, in order.
  func events(_ source: String) -> [String] {
    simulation.log.entries.filter { $0.source == source }.map(\.event)
  }
}

/// A made-up gazetteer around Tokyo Station: a prefecture, a ward, two chōme sharing an edge at
/// longitude 139.765, and one named place.
func tokyoStationGazetteer(_ phone: Phone) throws -> Gazetteer {
  func box(_ west: Double, _ south: Double, _ east: Double, _ north: Double, _ props: String)
    -> String
  {
    """
    {"type":"Feature","properties":{\(props)},"geometry":{"type":"Polygon","coordinates":[[\
    [\(west),\(south)],[\(east),\(south)],[\(east),\(north)],[\(west),\(north)],[\(west),\(south)]]]}}
    """
  }
  let json = """
    {"type":"FeatureCollection","features":[
    \(box(139.70, 35.65, 139.80, 35.72,
      #""administrativeArea":"東京都","country":"日本","isoCountryCode":"JP""#)),
    \(box(139.74, 35.67, 139.78, 35.70, #""locality":"千代田区""#)),
    \(box(139.755, 35.675, 139.765, 35.685,
      #""subLocality":"丸の内","thoroughfare":"丸の内１丁目","postalCode":"100-0005""#)),
    \(box(139.765, 35.675, 139.775, 35.685, #""subLocality":"丸の内","thoroughfare":"丸の内２丁目""#)),
    {"type":"Feature","properties":{"name":"東京駅","locality":"千代田区"},
     "geometry":{"type":"Point","coordinates":[139.767125,35.681236]}}
    ]}
    """
  return try Gazetteer(geoJSON: Data(json.utf8), context: phone.geos)
}
