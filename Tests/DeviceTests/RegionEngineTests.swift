import Geo
import SimKernel
import Testing

@testable import Device

@Suite struct RegionEngineTests {
  @Test func theChordPreCheckDecidesExactlyAsTheGeodesic() throws {
    var random = RandomStream(seed: 31)
    let monitor = RegionMonitor(parameters: RegionMonitoringParameters())
    var checked = 0
    for i in 0..<200 {
      let latitude = random.uniform(-80, 80)
      let center = try Coordinate(latitude: latitude, longitude: random.uniform(-180, 180))
      let region = CircularRegion(
        center: center, radius: random.uniform(50, 2_000), identifier: "r\(i)")
      monitor.watch(region, owner: .app)
      for _ in 0..<200 {
        let estimate = try Geodesic.wgs84.direct(
          from: center, azimuth: random.uniform(0, 360), distance: random.uniform(0, 3_000)
        ).coordinate
        // GNSS, Wi-Fi and cell accuracies: the last two beyond the hysteresis.
        let accuracy = [5.0, 65, 300, 1_000][checked % 4]
        let slow = monitor.observedState(of: region, estimate: estimate, accuracy: accuracy)
        var fast: RegionState?? = .none
        let single = RegionMonitor(parameters: RegionMonitoringParameters())
        single.watch(region, owner: .app)
        // The first evaluation adopts the fast path's answer as the believed state.
        single.evaluate(estimate: estimate, accuracy: accuracy, now: .zero) { _, _, _ in }
        let believed = single.watches[0].believed
        fast = believed == .unknown ? .some(nil) : .some(believed)
        #expect(fast == .some(slow), "estimate \(estimate) around \(center)")
        checked += 1
      }
    }
    #expect(checked == 40_000)
  }
}

@Suite struct PhoneDeterminismTests {
  /// Replays ten minutes of walking through a monitored region with the realistic sensor and
  /// returns the event log as JSON Lines.
  func replay(seed: UInt64) throws -> String {
    let samples = (0...600).map { s in
      TrajectorySample(time: .seconds(Double(s)), coordinate: offset(1.4 * Double(s) - 400))
    }
    let (phone, _) = try realisticPhone(seed: seed, samples: samples) { manager, _ in
      manager.requestAlwaysAuthorization()
      manager.startUpdatingLocation()
      manager.startMonitoring(
        for: CircularRegion(center: tokyoStation, radius: 150, identifier: "station"))
    }
    let simulation = phone.simulation
    try simulation.run(until: .seconds(600))
    return simulation.log.jsonLines
  }

  @Test func theSameSeedGivesTheSameLogByteForByte() throws {
    #expect(try replay(seed: 7) == replay(seed: 7))
  }

  @Test func aDifferentSeedGivesDifferentNoise() throws {
    #expect(try replay(seed: 7) != replay(seed: 8))
  }
}
