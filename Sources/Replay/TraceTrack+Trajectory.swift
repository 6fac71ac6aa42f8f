import Device
import Geo
import JSON
import SimKernel
import Traces

extension TraceTrack {
  /// The track as ground-truth samples, its first timed point at `start`.
  ///
  /// This is where a trace (which knows nothing of phones) becomes the trajectory a simulated
  /// phone follows; it lives in the replay layer, which sees both.
  ///
  /// Each point's time becomes `start` plus its offset from the first point's time, rounded to
  /// the nanosecond; elevation becomes altitude (0 where the file has none). Points whose time is
  /// not after the previous kept point's (duplicates, a clock stepping back) are dropped, because a
  /// trajectory's times must strictly increase.
  ///
  /// - Throws: `DeviceError` with code `DeviceErrorCode.invalidTrajectory` if a point has no
  ///   time (give the trace times from a speed first with `Trace.timed(speed:start:)`), or if a
  ///   point would fall more than ``maximumOffset`` seconds from the simulation's epoch, beyond
  ///   what its nanosecond clock holds.
  public func trajectorySamples(startingAt start: SimTime) throws -> [TrajectorySample] {
    var dropped: [Int] = []
    return try trajectorySamples(startingAt: start, dropped: &dropped)
  }

  /// The furthest a trajectory sample may lie from the simulation's epoch, in seconds: 9×10⁹
  /// (about 285 years), inside the ±2⁶³ nanoseconds a `SimTime` holds.
  public static let maximumOffset = 9e9

  /// ``trajectorySamples(startingAt:)``, appending the 0-based index of every point it drops
  /// to `dropped`.
  package func trajectorySamples(startingAt start: SimTime, dropped: inout [Int]) throws
    -> [TrajectorySample]
  {
    guard let origin = points.first?.time else {
      throw DeviceError(
        .invalidTrajectory,
        "the track's first point has no time; give the trace times from a speed first")
    }
    var samples: [TrajectorySample] = []
    samples.reserveCapacity(points.count)
    for (index, point) in points.enumerated() {
      guard let time = point.time else {
        throw DeviceError(
          .invalidTrajectory,
          "point \(index) of the track has no time; give the trace times from a speed first")
      }
      let seconds = start.seconds + (time - origin)
      guard abs(seconds) <= Self.maximumOffset else {
        throw DeviceError(
          .invalidTrajectory,
          "point \(index + 1) of the track, at \(ByteScan.isoText(time)), would be "
            + "\(JSONText.number(seconds)) s from the scenario's start: expected at most "
            + "\(JSONText.number(Self.maximumOffset)) s (about 285 years) either way")
      }
      let sample = TrajectorySample(
        time: .seconds(seconds), coordinate: point.coordinate,
        altitude: point.elevation ?? 0)
      if let last = samples.last, sample.time <= last.time {
        dropped.append(index)
        continue
      }
      samples.append(sample)
    }
    return samples
  }
}
