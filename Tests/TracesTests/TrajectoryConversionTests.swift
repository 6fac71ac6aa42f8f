import Device
import Geo
import SimKernel
import Testing
import Traces

@Suite struct TrajectoryConversionTests {
  @Test func timedTrackStartsAtTheGivenInstantAndKeepsItsOffsets() throws {
    let track = try readFixture("xcode-waypoints.gpx").tracks[0]
    let samples = try track.trajectorySamples(startingAt: .seconds(100))
    #expect(samples.map(\.time) == [SimTime.seconds(100), .seconds(103), .seconds(106)])
    #expect(samples[0].coordinate == track.points[0].coordinate)
    let trajectory = try Trajectory(samples)
    #expect(trajectory.endTime == .seconds(106))
  }

  @Test func pointsThatDoNotMoveTimeForwardAreDropped() throws {
    let c = try Coordinate(latitude: 1, longitude: 2)
    let track = TraceTrack(points: [
      TracePoint(time: 10, coordinate: c, elevation: 5), TracePoint(time: 10, coordinate: c),
      TracePoint(time: 9, coordinate: c), TracePoint(time: 11.5, coordinate: c),
    ])
    let samples = try track.trajectorySamples(startingAt: .zero)
    #expect(samples.map(\.time) == [.zero, .seconds(1.5)])
    #expect(samples.map(\.altitude) == [5, 0])
  }

  @Test func untimedTrackIsRefusedWithAdvice() throws {
    let track = try readFixture("routes-only.gpx").tracks[0]
    let error = try #require(throws: DeviceError.self) {
      try track.trajectorySamples(startingAt: .zero)
    }
    #expect(error.message.contains("give the trace times from a speed first"))
  }
}
