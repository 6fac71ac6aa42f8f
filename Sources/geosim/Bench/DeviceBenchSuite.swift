import Device
import Foundation
import Geo
import SimKernel

/// `geosim bench device`: a whole day on one simulated phone. A 24-hour, 1 Hz true trajectory
/// (86,400 positions, a drive looping round central Tokyo) runs through the sensor model, the
/// location manager (best accuracy, background updates, every fix delivered to the app) and
/// the region engine watching 20 regions. Target: ≤ 100 ms per simulated day.
///
/// The baseline is the sensor model alone producing the day's 86,400 fixes.
enum DeviceBenchSuite {
  static let day = 86_400

  static func run(_ bench: inout Bench) throws {
    let trajectory = try loopingDrive()
    let regions = (0..<20).map { i -> CircularRegion in
      let sample = trajectory.samples[(i * 4_001) % trajectory.samples.count]
      return CircularRegion(center: sample.coordinate, radius: 200, identifier: "r\(i)")
    }
    bench.samples = 5
    bench.measure("day.sensor-only", maximumIterations: 1) { _ in
      guard
        let sensor = try? SensorModel(
          trajectory: trajectory, environment: nil, random: RandomStream(seed: 1))
      else { return }
      var valid = 0
      for second in 1...day {
        if case .fix(let fix) = sensor.reading(
          at: .seconds(Double(second)), desiredAccuracy: LocationAccuracy.best,
          reducedAccuracy: false), fix.horizontalAccuracy >= 0
        {
          valid += 1
        }
      }
      blackHole(valid)
    }
    bench.measure("day.phone-with-20-regions", baseline: "day.sensor-only", maximumIterations: 1) {
      _ in
      let delivered = (try? replayDay(trajectory: trajectory, regions: regions)) ?? -1
      blackHole(delivered)
    }
  }

  /// Replays the day and returns the number of fixes the app received.
  static func replayDay(trajectory: Trajectory, regions: [CircularRegion]) throws -> Int {
    let simulation = Simulation(seed: 1)
    let sensor = try SensorModel(
      trajectory: trajectory, environment: nil, random: simulation.random.stream("sensor"))
    var user = UserScript(answers: [.location: [.allowWhileUsing]])
    user.answerDelay = .zero
    let phone = Phone(simulation: simulation, geos: GEOSContext(), sensor: sensor, user: user)
    let app = CountingApp(regions: regions)
    phone.install { app }
    try phone.launchApp()
    phone.sendAppToBackground()
    try simulation.run(until: .seconds(Double(day)))
    return app.fixes
  }

  /// A drive at 10 m/s round a 15 km loop centred on Tokyo Station, one sample a second.
  static func loopingDrive() throws -> Trajectory {
    let centre = try Coordinate(latitude: 35.681236, longitude: 139.767125)
    let radius = 2_400.0
    let samples = try (0...day).map { second -> TrajectorySample in
      let angle = Double(second) * 10 / radius
      let point = try Geodesic.wgs84.direct(
        from: centre, azimuth: angle * 180 / Double.pi, distance: radius
      ).coordinate
      return TrajectorySample(time: .seconds(Double(second)), coordinate: point)
    }
    return try Trajectory(samples)
  }
}

/// The benchmark's app: asks for permission, monitors the regions, counts what arrives.
private final class CountingApp: SimulatedApp, LocationManagerDelegate {
  let regions: [CircularRegion]
  var manager: LocationManager?
  var fixes = 0
  var regionEvents = 0

  init(regions: [CircularRegion]) { self.regions = regions }

  func didLaunch(on phone: Phone, reason: LaunchReason) {
    let manager = LocationManager(phone: phone)
    manager.delegate = self
    manager.allowsBackgroundLocationUpdates = true
    manager.pausesLocationUpdatesAutomatically = false
    manager.requestAlwaysAuthorization()
    manager.startUpdatingLocation()
    for region in regions { manager.startMonitoring(for: region) }
    self.manager = manager
  }

  func locationManager(_ manager: LocationManager, didUpdateLocations locations: [Location]) {
    fixes += locations.count
  }

  func locationManager(_ manager: LocationManager, didEnterRegion region: CircularRegion) {
    regionEvents += 1
  }

  func locationManager(_ manager: LocationManager, didExitRegion region: CircularRegion) {
    regionEvents += 1
  }
}
