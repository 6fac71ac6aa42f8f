import Device
import Foundation
import Geo
import JSON
import ReferenceAppCatalog
import Replay
import SimKernel

/// `geosim bench replay`: whole replays.
///
/// - `walk-1h.arrival-alarm`: a one-hour walk at 1 Hz (about 5 km across central Tokyo) through
///   the corrected ArrivalAlarm with the full stack — scenario assembly, phone, sensor model,
///   background location updates at ten-metre accuracy, region monitoring, the location
///   trigger, the network, expectation evaluation. Target ≤ 20 ms. Baseline: the sensor model
///   alone producing the hour's 3,600 fixes.
/// - `scenarios-folder.workers`: `geosim replay Scenarios/` as the tool runs it (validation,
///   then worker processes on every core). Target ≤ 2 s. Baseline: the same scenarios replayed
///   one after the other in this process, without isolation. Run from the repository's root.
enum ReplayBenchSuite {
  static func run(_ bench: inout Bench) throws {
    let resources = ReplayResources()
    let walk = try hourWalk()
    bench.samples = 7
    let trajectory = try Trajectory(
      ScenarioRun(walk, catalog: .referenceApps, resources: resources).world.trueSamples)
    bench.measure("walk-1h.sensor-only", maximumIterations: 1) { _ in
      guard
        let sensor = try? SensorModel(
          trajectory: trajectory, environment: nil, random: RandomStream(seed: 1))
      else { return }
      var valid = 0
      for second in 1...3_600 {
        if case .fix(let fix) = sensor.reading(
          at: .seconds(Double(second)), desiredAccuracy: LocationAccuracy.nearestTenMeters,
          reducedAccuracy: false), fix.horizontalAccuracy >= 0
        {
          valid += 1
        }
      }
      blackHole(valid)
    }
    bench.measure(
      "walk-1h.arrival-alarm", baseline: "walk-1h.sensor-only", maximumIterations: 1
    ) { _ in
      let run = try? ScenarioRun(walk, catalog: .referenceApps, resources: resources)
      blackHole(run?.result.passed ?? false)
    }

    // The shipped scenarios, in a tool whose workers can replay them.
    let folder = "Scenarios"
    guard FileManager.default.fileExists(atPath: folder), let tool = bench.tool,
      Set(AppCatalog.referenceApps.names).isSubset(of: tool.apps.names)
    else { return }
    let quiet = tool.quiet
    let inputs = try ScenarioInputs([folder], tool: quiet)
    let scenarios = try inputs.files.map { try Scenario(contentsOf: $0) }
    bench.samples = 5
    bench.measure("scenarios-folder.in-process", maximumIterations: 1) { _ in
      var healthy = 0
      for scenario in scenarios {
        let run = try? ScenarioRun(scenario, catalog: .referenceApps, resources: resources)
        if run?.result.verdict.isHealthy == true { healthy += 1 }
      }
      blackHole(healthy)
    }
    let out = FileManager.default.temporaryDirectory.appendingPathComponent(
      "geosim-bench-replay-\(ProcessInfo.processInfo.processIdentifier)")
    defer { try? FileManager.default.removeItem(at: out) }
    let replay = try ReplayCommand.parse([folder, "--out", out.path])
    bench.measure(
      "scenarios-folder.workers", baseline: "scenarios-folder.in-process", maximumIterations: 1
    ) { _ in
      blackHole((try? replay.run(in: quiet)) ?? -1)
    }
    bench.record("scenarios-folder.count", unit: "scenarios", value: Double(scenarios.count))
  }

  /// A one-hour walk from Tokyo Station to an alarm set at its end.
  static func hourWalk() throws -> Scenario {
    let start = try Coordinate(latitude: 35.681236, longitude: 139.767125)
    // 1.4 m/s for an hour, south-west through Hibiya and Toranomon, arriving at rest.
    let end = try Geodesic.wgs84.direct(from: start, azimuth: 225, distance: 4_950).coordinate
    var scenario = Scenario(
      name: "bench-walk-1h", start: Date(timeIntervalSince1970: 1_775_000_000), duration: 3_660,
      app: AppSelection(
        name: "ArrivalAlarm", variant: "corrected",
        configuration: .object([
          "destination": .object([
            "latitude": .number(end.latitude), "longitude": .number(end.longitude),
          ]),
          "radius": .number(200),
        ])))
    scenario.device.promptAnswers = [.notifications: [.allow], .location: [.allowWhileUsing]]
    scenario.trace = .synthesized(
      waypoints: [.init(coordinate: start), .init(coordinate: end)], speed: "walk", interval: 1,
      startAt: 0)
    scenario.timeline = [
      TimelineEvent(at: 0, .launch), TimelineEvent(at: 5, .tapButton("pin")),
      TimelineEvent(at: 10, .background),
    ]
    scenario.expectations = [
      Expectation(
        name: "arrival",
        .notificationAfterEntry(
          identifierPrefix: "arrival", region: .init(center: end, radius: 200), within: 120))
    ]
    return scenario
  }
}
