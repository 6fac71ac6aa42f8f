import Device
import Foundation
import Geo
import Replay
import SimKernel
import Testing
import Traces

@Suite struct TrajectoryConversionTests {
  @Test func timedTrackStartsAtTheGivenInstantAndKeepsItsOffsets() throws {
    let track = try Trace(
      data: Data(
        """
        <gpx version="1.1" xmlns="http://www.topografix.com/GPX/1/1"><rte>
          <rtept lat="37.331" lon="-122.031"><time>2014-09-24T14:55:37Z</time></rtept>
          <rtept lat="37.332" lon="-122.032"><time>2014-09-24T14:55:40Z</time></rtept>
          <rtept lat="37.333" lon="-122.033"><time>2014-09-24T14:55:43Z</time></rtept>
        </rte></gpx>
        """.utf8), file: "waypoints.gpx"
    ).tracks[0]
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
    var dropped: [Int] = []
    let samples = try track.trajectorySamples(startingAt: .zero, dropped: &dropped)
    #expect(samples.map(\.time) == [.zero, .seconds(1.5)])
    #expect(dropped == [1, 2])
    #expect(samples.map(\.altitude) == [5, 0])
  }

  @Test func untimedTrackIsRefusedWithAdvice() throws {
    let c = try Coordinate(latitude: 1, longitude: 2)
    let track = TraceTrack(points: [TracePoint(coordinate: c), TracePoint(coordinate: c)])
    let error = try #require(throws: DeviceError.self) {
      try track.trajectorySamples(startingAt: .zero)
    }
    #expect(error.message.contains("give the trace times from a speed first"))
  }
}
