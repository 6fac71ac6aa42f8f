import Geo
import SimKernel
import Testing

@testable import Device

/// The region engine with the realistic sensor, against the published field measurements
/// (docs/DEVICE.md): walking entries of small fences mostly detected within about 30 s, about
/// 80–90 % detected overall, some triggers early and far from the fence, exits minutes late.
@Suite struct RegionCalibrationTests {
  struct Outcome {
    var detected = 0
    var entryLatencies: [Double] = []
    var exitLatencies: [Double] = []
  }

  /// `trials` straight walks through a fence centred on Tokyo Station, one seed each.
  func walk(radius: Double, speed: Double = 1.4, trials: Int) throws -> Outcome {
    var outcome = Outcome()
    let start = -1_500.0
    let duration = -2 * start / speed
    for trial in 0..<trials {
      let samples = [
        TrajectorySample(time: .zero, coordinate: offset(start)),
        TrajectorySample(time: .seconds(duration), coordinate: offset(-start)),
      ]
      let (phone, latest) = try realisticPhone(seed: UInt64(trial), samples: samples) {
        manager, _ in
        manager.requestAlwaysAuthorization()
        manager.startMonitoring(
          for: CircularRegion(center: tokyoStation, radius: radius, identifier: "fence"))
      }
      try phone.simulation.run(until: .seconds(duration))
      let app = try #require(latest())
      let trueEntry = (-start - radius) / speed
      let trueExit = (-start + radius) / speed
      if let entry = app.events.first(where: { $0.what == "enter:fence" }) {
        outcome.detected += 1
        outcome.entryLatencies.append(entry.time.seconds - trueEntry)
      }
      if let exit = app.events.first(where: { $0.what == "exit:fence" }) {
        outcome.exitLatencies.append(exit.time.seconds - trueExit)
      }
    }
    outcome.entryLatencies.sort()
    outcome.exitLatencies.sort()
    return outcome
  }

  func median(_ values: [Double]) -> Double { values[values.count / 2] }

  @Test func walkingThroughASixtyMetreFenceIsMostlyDetectedWithinHalfAMinute() throws {
    let outcome = try walk(radius: 60, trials: 120)
    let rate = Double(outcome.detected) / 120
    #expect(rate >= 0.75 && rate <= 0.95, "detection rate \(rate)")
    #expect(
      median(outcome.entryLatencies) <= 30, "median latency \(median(outcome.entryLatencies))")
  }

  @Test func someTriggersComeEarlyAndExitsComeMinutesLate() throws {
    let outcome = try walk(radius: 100, trials: 120)
    #expect(outcome.entryLatencies.first! < 0)
    #expect(median(outcome.exitLatencies) >= 60)
  }
}
