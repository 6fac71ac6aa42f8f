import Device
import Geo
import Replay
import SimKernel

/// `geosim bench report`: the truth behind the geofence accuracy report. A 24-hour, 1 Hz true
/// trajectory (86,401 positions, the drive looping round central Tokyo of `bench device`)
/// against 20 fences of 200 m on the loop: every visit to every fence, with its entry and exit
/// interpolated between samples and placed by GEOS linear referencing. Target: ≤ 50 ms.
///
/// The baseline is the naive per-sample test: the geodesic distance from every fence's centre
/// to every sample, compared with the radius (inside or not, no interpolation).
///
/// `geosim` does not link the `Reporting` module, so the suite times what the report runs for
/// its truth: ``TrueTrack`` and ``CircleVisits`` from `Replay`.
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
      let track = TrueTrack(samples)
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
  }
}
