import Device
import Foundation
import Geo
import SimKernel

/// `geosim bench device`: a whole day on one simulated phone. A 24-hour, 1 Hz true trajectory
/// (86,400 positions, a drive looping round central Tokyo) runs through the sensor model, the
/// location manager (best accuracy, background updates, every fix delivered to the app) and
/// the region engine watching 20 regions. Target: ≤ 100 ms per simulated day.
///
/// The baseline is the sensor model alone producing the day's 86,400 fixes. The same day
/// through Apple's names (`CLLocationManager`, `CLLocation`, `CLRegion` from GeoSimFrameworks)
/// is timed against the day through the Device API, measured alternately in the same run.
/// Target: at most 1.2× the Device API.
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
    let centres = regions.map { ($0.center.latitude, $0.center.longitude) }
    // Alternate the two ways in, so that both see the same state of a noisy machine.
    var device: [Double] = []
    var frameworks: [Double] = []
    // The first of each pair warms both up and is not recorded.
    for sample in 0...bench.samples {
      device.append(
        Bench.time {
          let app = CountingApp(regions: regions)
          blackHole((try? replayDay(trajectory: trajectory) { app }) != nil ? app.fixes : -1)
        })
      frameworks.append(
        Bench.time {
          var app: FrameworksCountingApp?
          let host = HostedApp {
            app = FrameworksCountingApp(regions: FrameworksCountingApp.regions(centres))
          }
          blackHole(
            (try? replayDay(trajectory: trajectory) { host }) != nil ? app?.fixes ?? -1 : -1)
        })
      if sample == 0 {
        device.removeAll()
        frameworks.removeAll()
      }
    }
    bench.record(
      samples: device, as: "day.phone-with-20-regions", baseline: "day.sensor-only",
      target: "≤ 100 ms")
    bench.record(
      samples: frameworks, as: "day.frameworks-with-20-regions",
      baseline: "day.phone-with-20-regions", target: "≤ 1.2× the Device API")
  }

  /// Replays the day with the app `make` installs, its phone current while the world runs.
  static func replayDay(trajectory: Trajectory, _ make: @escaping () -> any SimulatedApp) throws {
    let simulation = Simulation(seed: 1)
    let sensor = try SensorModel(
      trajectory: trajectory, environment: nil, random: simulation.random.stream("sensor"))
    var user = UserScript(answers: [.location: [.allowWhileUsing]])
    user.answerDelay = .zero
    let phone = Phone(simulation: simulation, geos: GEOSContext(), sensor: sensor, user: user)
    phone.install(make)
    try phone.makeCurrent {
      try phone.launchApp()
      phone.sendAppToBackground()
      try simulation.run(until: .seconds(Double(day)))
    }
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

/// Launches an app written against Apple's names: `make` runs at each launch.
private final class HostedApp: SimulatedApp {
  let make: () -> Void
  init(_ make: @escaping () -> Void) { self.make = make }
  func didLaunch(on phone: Phone, reason: LaunchReason) { make() }
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
