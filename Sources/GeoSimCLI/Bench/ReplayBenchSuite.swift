import Device
import Foundation
import Geo
import JSON
import ReferenceAppCatalog
import Replay
import Reporting
import SimKernel

/// `geosim bench replay`: whole replays.
///
/// - `walk-1h.arrival-alarm`: a one-hour walk at 1 Hz (about 5 km across central Tokyo) through
///   the corrected ArrivalAlarm with the full stack — scenario assembly, phone, sensor model,
///   background location updates at ten-metre accuracy, region monitoring, the location
///   trigger, the network, expectation evaluation. Target ≤ 20 ms. Baseline: the sensor model
///   alone producing the hour's 3,600 fixes.
/// - `scenarios-folder.workers.jobs-1`, `.jobs-2`: `geosim replay Scenarios/` as the tool runs
///   it (validation, then worker processes), with one worker process and with two
///   (`--jobs 1`, `--jobs 2`, alternated, five rounds each); `.speedup` is the first's median
///   over the second's. Target ≤ 0.3 s with two. Baseline: the same scenarios replayed once
///   each, one after the other in this process, without isolation (the tool also replays a
///   scenario's `runs`).
///   Run from the repository's root.
/// - `drive-24h.*`: the event log's share of a 24-hour replay: the arrival alarm set for a place
///   never reached, on a car driving back and forth for a day, every 1 Hz fix delivered (about
///   86,000 entries, 19 MB of JSON Lines). `drive-24h.replay` replays without writing the log;
///   `drive-24h.events-jsonl` also writes `events.jsonl` once at the end, as a replay in this
///   process does; `drive-24h.events-streamed` streams each entry to `events.jsonl` as a
///   `replay-worker` does. Both write into a folder without the file (deleting a previous
///   replay's 19 MB is not this replay's log). The three are alternated in the same run (11
///   rounds); the `…-share` rows are the part of each replay spent on the log,
///   `(with − without) / with`, from the medians. Target ≤ 15 %.
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
      "walk-1h.arrival-alarm", baseline: "walk-1h.sensor-only", target: "≤ 20 ms",
      maximumIterations: 1
    ) { _ in
      let run = try? ScenarioRun(walk, catalog: .referenceApps, resources: resources)
      blackHole(run?.result.passed ?? false)
    }

    try measureDay(&bench, resources: resources)

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
    let replays = try [1, 2].map { jobs in
      try ReplayCommand.parse([folder, "--out", out.path, "--jobs", String(jobs)])
    }
    let samples = ReportBenchSuite.alternate(bench.quick ? 1 : 5) { jobs in
      blackHole((try? replays[jobs - 1].run(in: quiet)) ?? -1)
    }
    ReportBenchSuite.recordJobs(
      &bench, samples, as: "scenarios-folder.workers", baseline: "scenarios-folder.in-process",
      perOperation: 1, unit: "ns/op", targets: (nil, "≤ 0.3 s", nil))
    bench.record("scenarios-folder.count", unit: "scenarios", value: Double(scenarios.count))
  }

  /// The `drive-24h` cases: a day's replay without its event log, with `events.jsonl` written
  /// at the end, and with it streamed as a worker streams it, alternated sample by sample.
  private static func measureDay(_ bench: inout Bench, resources: ReplayResources) throws {
    let day = try dayDrive(hours: bench.quick ? 2 : 24)
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
      "geosim-bench-events-\(ProcessInfo.processInfo.processIdentifier)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let file = folder.appendingPathComponent("events.jsonl")
    var plain: [Double] = []
    var written: [Double] = []
    var streamed: [Double] = []
    var entries = 0
    // The first round warms all three up and is not recorded; on a busy machine the three
    // vary with it together, so the medians of many rounds are compared.
    for round in 0...(bench.quick ? 3 : 11) {
      let a = Bench.time {
        let run = try? ScenarioRun(day, catalog: .referenceApps, resources: resources)
        entries = run?.log.entries.count ?? 0
        blackHole(run?.result.passed ?? false)
      }
      // Written as a replay in this process writes it into a cleared folder: a file that
      // already held these bytes would be left as it is, and the write not timed.
      unlink(file.path)
      let b = Bench.time {
        let run = try? ScenarioRun(day, catalog: .referenceApps, resources: resources)
        blackHole(run.map { try? ReportWriter.write($0.log.jsonLinesData, to: file) })
      }
      unlink(file.path)
      let c = Bench.time {
        guard let events = try? EventFile(path: file.path) else { return }
        let run = try? ScenarioRun(
          day, catalog: .referenceApps, resources: resources, eventSink: events.append)
        blackHole((try? events.close()) != nil && run != nil)
      }
      guard round > 0 else { continue }
      plain.append(a)
      written.append(b)
      streamed.append(c)
    }
    bench.record(samples: plain, as: "drive-24h.replay")
    bench.record(samples: written, as: "drive-24h.events-jsonl", baseline: "drive-24h.replay")
    bench.record(samples: streamed, as: "drive-24h.events-streamed", baseline: "drive-24h.replay")
    let median = { (samples: [Double]) in samples.sorted()[samples.count / 2] }
    for (name, samples) in [("events-jsonl", written), ("events-streamed", streamed)] {
      bench.record(
        "drive-24h.\(name)-share", unit: "%",
        value: 100 * (median(samples) - median(plain)) / median(samples), target: "≤ 15 %")
    }
    bench.record("drive-24h.entries", unit: "entries", value: Double(entries))
  }

  /// `hours` of driving back and forth between Tokyo Station and a point 20 km south-west,
  /// with the arrival alarm set for a place 20 km north-east that the car never reaches: the
  /// app keeps its updates on, and at car speed every fix passes its 10 m distance filter.
  static func dayDrive(hours: Int) throws -> Scenario {
    let start = try Coordinate(latitude: 35.681236, longitude: 139.767125)
    let away = try Geodesic.wgs84.direct(from: start, azimuth: 225, distance: 20_000).coordinate
    let alarm = try Geodesic.wgs84.direct(from: start, azimuth: 45, distance: 20_000).coordinate
    var scenario = try hourWalk()
    scenario.name = "bench-drive-\(hours)h"
    scenario.duration = 3_600 * Double(hours)
    scenario.app.configuration = .object([
      "destination": .object([
        "latitude": .number(alarm.latitude), "longitude": .number(alarm.longitude),
      ]),
      "radius": .number(200),
    ])
    // A leg takes some 25 minutes: enough legs for the whole time, and the trace ends after.
    scenario.trace = .synthesized(
      waypoints: (0...(3 * hours)).map { .init(coordinate: $0.isMultiple(of: 2) ? start : away) },
      speed: "car", interval: 1, startAt: 0)
    scenario.expectations = []
    return scenario
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
