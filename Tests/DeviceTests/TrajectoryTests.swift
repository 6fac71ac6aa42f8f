import Device
import Geo
import SimKernel
import Testing

@Suite struct TrajectoryTests {
  let tokyo = try! Coordinate(latitude: 35.681236, longitude: 139.767125)
  let shinjuku = try! Coordinate(latitude: 35.690921, longitude: 139.700258)

  func sample(_ seconds: Double, _ coordinate: Coordinate, altitude: Double = 0)
    -> TrajectorySample
  {
    TrajectorySample(time: .seconds(seconds), coordinate: coordinate, altitude: altitude)
  }

  @Test func theMidpointInTimeLiesHalfwayAlongTheGeodesic() throws {
    let trajectory = try Trajectory([sample(0, tokyo), sample(600, shinjuku)])
    let whole = Geodesic.wgs84.inverse(from: tokyo, to: shinjuku).distance
    let middle = try #require(trajectory.state(at: .seconds(300))).coordinate
    let fromStart = Geodesic.wgs84.inverse(from: tokyo, to: middle).distance
    let toEnd = Geodesic.wgs84.inverse(from: middle, to: shinjuku).distance
    #expect(abs(fromStart - whole / 2) < 1e-6)
    #expect(abs(toEnd - whole / 2) < 1e-6)
  }

  @Test func speedIsSegmentLengthOverDurationAndCourseIsTheLocalAzimuth() throws {
    let trajectory = try Trajectory([sample(0, tokyo), sample(600, shinjuku)])
    let line = Geodesic.wgs84.inverse(from: tokyo, to: shinjuku)
    let atStart = try #require(trajectory.state(at: .zero))
    #expect(abs(atStart.speed - line.distance / 600) < 1e-12)
    #expect(abs(atStart.course - (line.initialAzimuth + 360)) < 1e-9)
    let later = try #require(trajectory.state(at: .seconds(450)))
    let ahead = Geodesic.wgs84.inverse(from: later.coordinate, to: shinjuku)
    #expect(abs(later.speed - line.distance / 600) < 1e-12)
    #expect(abs(later.course - (ahead.initialAzimuth + 360)) < 1e-7)
    #expect((0..<360).contains(later.course))
  }

  @Test func altitudeIsInterpolatedLinearly() throws {
    let trajectory = try Trajectory([
      sample(0, tokyo, altitude: 10), sample(100, shinjuku, altitude: 30),
    ])
    #expect(trajectory.state(at: .seconds(25))?.altitude == 15)
  }

  @Test func beforeTheFirstSampleThereIsNoState() throws {
    let trajectory = try Trajectory([sample(10, tokyo), sample(20, shinjuku)])
    #expect(trajectory.state(at: .seconds(9.999)) == nil)
    #expect(trajectory.state(at: .seconds(10))?.coordinate == tokyo)
    #expect(trajectory.startTime == .seconds(10))
    #expect(trajectory.endTime == .seconds(20))
  }

  @Test func afterTheLastSampleTheDeviceStandsStillThere() throws {
    let trajectory = try Trajectory([sample(0, tokyo), sample(60, shinjuku, altitude: 4)])
    for time in [60.0, 61, 86_400] {
      let state = try #require(trajectory.state(at: .seconds(time)))
      #expect(state == TrueState(coordinate: shinjuku, altitude: 4, speed: 0, course: 0))
    }
  }

  @Test func aSingleSampleIsAStationaryTrajectory() throws {
    let trajectory = try Trajectory([sample(5, tokyo)])
    #expect(trajectory.state(at: .seconds(4)) == nil)
    #expect(trajectory.state(at: .seconds(5))?.speed == 0)
    #expect(trajectory.state(at: .seconds(500))?.coordinate == tokyo)
  }

  @Test func aSegmentAcrossTheAntimeridianStaysOnTheShortGeodesic() throws {
    let west = try Coordinate(latitude: -16.5, longitude: 179.9)
    let east = try Coordinate(latitude: -16.4, longitude: -179.8)
    let trajectory = try Trajectory([sample(0, west), sample(100, east)])
    let whole = Geodesic.wgs84.inverse(from: west, to: east).distance
    #expect(whole < 40_000)
    for step in 1..<100 {
      let state = try #require(trajectory.state(at: .seconds(Double(step))))
      let travelled = Geodesic.wgs84.inverse(from: west, to: state.coordinate).distance
      #expect(abs(travelled - whole * Double(step) / 100) < 1e-6)
      #expect(abs(state.coordinate.longitude) > 179.7)
    }
    let middle = try #require(trajectory.state(at: .seconds(60))).coordinate
    #expect(middle.longitude < 0)
  }

  @Test func aPauseBetweenTwoEqualSamplesHasSpeedAndCourseZero() throws {
    let trajectory = try Trajectory([sample(0, tokyo), sample(30, tokyo), sample(90, shinjuku)])
    let paused = try #require(trajectory.state(at: .seconds(15)))
    #expect(paused == TrueState(coordinate: tokyo, speed: 0, course: 0))
    #expect(try #require(trajectory.state(at: .seconds(30))).speed > 0)
  }

  @Test func anEmptyTrajectoryIsRejected() throws {
    let error = try #require(throws: DeviceError.self) { try Trajectory([]) }
    #expect(error.code == .invalidTrajectory)
  }

  @Test func timesThatDoNotStrictlyIncreaseAreRejectedNamingTheSample() throws {
    let samples = [sample(0, tokyo), sample(1, shinjuku), sample(2, tokyo), sample(2, shinjuku)]
    let error = try #require(throws: DeviceError.self) { try Trajectory(samples) }
    #expect(error.code == .invalidTrajectory)
    #expect(error.message.contains("sample 3 at t=2.000000000s"))
    #expect(error.message.contains("sample 2 at t=2.000000000s"))
    let backwards = [sample(5, tokyo), sample(4, shinjuku)]
    let second = try #require(throws: DeviceError.self) { try Trajectory(backwards) }
    #expect(second.message.contains("sample 1 at t=4.000000000s"))
  }

  @Test func aNonFiniteAltitudeIsRejectedNamingTheSample() throws {
    let samples = [sample(0, tokyo), sample(1, shinjuku, altitude: .nan)]
    let error = try #require(throws: DeviceError.self) { try Trajectory(samples) }
    #expect(error.code == .invalidTrajectory)
    #expect(error.message.contains("sample 1"))
  }

  @Test func aCursorGivesTheSameStatesAsRandomAccessWhateverTheQueryOrder() throws {
    // A 1 Hz walk east, queried forwards at and between sample times, then with jumps both ways.
    var samples: [TrajectorySample] = []
    for second in 0..<2_000 {
      let point = try Geodesic.wgs84.direct(
        from: tokyo, azimuth: 80 + Double(second % 7), distance: 1.4 * Double(second))
      samples.append(sample(Double(second), point.coordinate))
    }
    let trajectory = try Trajectory(samples)
    #expect(trajectory.samples == samples)
    var cursor = Trajectory.Cursor()
    var times = stride(from: -5, to: 20_050, by: 7).map { SimTime.seconds(Double($0) / 10) }
    times += [1_500, 3, 1_999, 0, 700, 701, 2_500, 10].map { SimTime.seconds($0) }
    for time in times {
      #expect(trajectory.state(at: time, cursor: &cursor) == trajectory.state(at: time))
    }
    #expect(trajectory.state(at: .seconds(42))?.coordinate == samples[42].coordinate)
  }

  @Test func theFastStateIsWithinAFifthOfAMillimetreOfTheExactOne() throws {
    // Random segments of up to 5 km from the equator to 89°, some across the antimeridian: short
    // low-latitude steps take the midpoint rule, the rest the direct problem.
    var random = RandomStream(seed: 17)
    for _ in 0..<2_000 {
      let start = try Coordinate(
        latitude: random.uniform(-89, 89), longitude: random.uniform(-180, 180))
      let length = random.bernoulli(0.8) ? random.uniform(1, 1_500) : random.uniform(1, 5_000)
      let end = try Geodesic.wgs84.direct(
        from: start, azimuth: random.uniform(-180, 180), distance: length)
      let trajectory = try Trajectory([
        sample(0, start), sample(length / 10, end.coordinate),
      ])
      var cursor = Trajectory.Cursor()
      for step in 0..<10 {
        let time = SimTime.seconds(Double(step) * length / 100 + random.uniform(0, 0.1))
        let exact = try #require(trajectory.state(at: time))
        let fast = try #require(trajectory.fastState(at: time, cursor: &cursor))
        let gap = Geodesic.wgs84.inverse(from: exact.coordinate, to: fast.coordinate).distance
        #expect(gap < 2e-4)
        let turn = (fast.course - exact.course).remainder(dividingBy: 360)
        #expect(abs(turn) < 1e-8)
        #expect(fast.speed == exact.speed && fast.altitude == exact.altitude)
      }
    }
  }
}
