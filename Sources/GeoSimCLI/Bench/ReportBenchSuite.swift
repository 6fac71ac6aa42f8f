import Device
import Foundation
import Geo
import Referee
import ReferenceAppCatalog
import Replay
import Reporting
import SimKernel

/// `geosim bench report`: the truth behind the geofence accuracy report. A 24-hour, 1 Hz true
/// trajectory (86,401 positions, the drive looping round central Tokyo of `bench device`)
/// against 20 fences of 200 m on the loop: every visit to every fence, with its entry and exit
/// interpolated between samples and placed by GEOS linear referencing. Target: ≤ 50 ms.
///
/// The baseline is the naive per-sample test: the geodesic distance from every fence's centre
/// to every sample, compared with the radius (inside or not, no interpolation).
///
/// The suite times what the report runs for its truth: ``TrueTrack`` and ``CircleVisits``.
///
/// `sweep.arrival-alarm-1000`: `geosim sweep` of the shipped corrected arrival alarm (a train
/// to Shinagawa) over 5 radii × 2 travel modes × 100 seeds = 1,000 replays with their reports,
/// in worker processes on every core, per run. Target: ≤ 60 s for the whole sweep (60 ms per
/// run). Baseline: one replay and report of the same scenario in this process. Run from the
/// repository's root.
enum ReportBenchSuite {
  static func run(_ bench: inout Bench) throws {
    let trajectory = try DeviceBenchSuite.loopingDrive()
    let samples = trajectory.samples
    let fences = (0..<20).map { i -> (center: Coordinate, radius: Double) in
      (samples[(i * 4_001) % samples.count].coordinate, 200)
    }
    bench.samples = 5
    bench.measure("truth.day-20-fences.naive-per-sample", maximumIterations: 1) { _ in
      var inside = 0
      for fence in fences {
        for sample in samples
        where Geodesic.wgs84.inverse(from: fence.center, to: sample.coordinate).distance
          < fence.radius
        {
          inside += 1
        }
      }
      blackHole(inside)
    }
    bench.samples = 11
    bench.measure(
      "truth.day-20-fences.circle-visits", baseline: "truth.day-20-fences.naive-per-sample",
      maximumIterations: 1
    ) { _ in
      let context = GEOSContext()
      let track = TrueTrack(samples.map { .init(time: $0.time, coordinate: $0.coordinate) })
      var crossings = 0
      for fence in fences {
        guard
          let visits = try? CircleVisits(
            center: fence.center, radius: fence.radius, track: track, geos: context)
        else { return }
        for visit in visits.visits {
          crossings += (visit.entry == nil ? 0 : 1) + (visit.exit == nil ? 0 : 1)
        }
      }
      blackHole(crossings)
    }
    try sweep(&bench)
  }

  static func sweep(_ bench: inout Bench) throws {
    let base = "Scenarios/arrival-alarm/train-to-shinagawa-corrected.scenario.json"
    guard FileManager.default.fileExists(atPath: base) else { return }
    let resources = ReplayResources()
    let scenario = try Scenario(contentsOf: base)
    bench.samples = 5
    bench.measure("sweep.one-run.in-process", maximumIterations: 1) { _ in
      guard let run = try? ScenarioRun(scenario, catalog: .referenceApps, resources: resources),
        let report = try? ScenarioReport(
          input: ReportInput(run), context: run.world.geos, resources: resources)
      else { return }
      blackHole(report.verdict)
    }
    let out = FileManager.default.temporaryDirectory.appendingPathComponent(
      "geosim-bench-sweep-\(ProcessInfo.processInfo.processIdentifier)")
    defer { try? FileManager.default.removeItem(at: out) }
    guard let tool = bench.tool,
      Set(AppCatalog.referenceApps.names).isSubset(of: tool.apps.names)
    else { return }
    let quiet = tool.quiet
    let sweep = try SweepCommand.parse([
      base, "--out", out.path,
      "--vary", "app.configuration.radius,expectations[0].region.radius=100,200,300,400,500",
      "--vary", "trace.speed=car,train", "--vary", "seed=1..100",
    ])
    bench.samples = 3
    bench.measure(
      "sweep.arrival-alarm-1000", baseline: "sweep.one-run.in-process", maximumIterations: 1,
      unitsPerOperation: 1_000, unit: "ns/run"
    ) { _ in
      blackHole((try? sweep.run(in: quiet)) ?? -1)
    }
  }
}
