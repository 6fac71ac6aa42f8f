import Device
import Geo
import Referee
import SimKernel

/// Ground truth from the true trajectory: when it enters a circle.
enum Truth {
  /// The first instant the trajectory is inside `circle`, and where it is then; `nil` if it
  /// never is. The crossing is ``CircleVisits``'s (interpolated along the segment, placed by
  /// GEOS linear referencing); a trajectory that starts inside enters at its first sample.
  ///
  /// - Throws: ``GeoError`` if GEOS fails.
  static func firstEntry(
    into circle: Expectation.Circle, along samples: [TrajectorySample],
    geos: GEOSContext = GEOSContext()
  ) throws -> (time: SimTime, coordinate: Coordinate)? {
    let visits = try CircleVisits(
      center: circle.center, radius: circle.radius, track: TrueTrack(points(of: samples)),
      geos: geos)
    guard let first = visits.visits.first else { return nil }
    if let entry = first.entry { return (entry.time, entry.coordinate) }
    return (samples[0].time, samples[0].coordinate)
  }

  /// The referee's view of the phone's trajectory: its instants and positions.
  static func points(of samples: [TrajectorySample]) -> [TrueTrack.Point] {
    samples.map { TrueTrack.Point(time: $0.time, coordinate: $0.coordinate) }
  }
}

extension World {
  /// The first instant the true trajectory is inside `circle` (interpolated between samples),
  /// and where it is then; `nil` if it never enters.
  ///
  /// - Throws: `GeoError` if GEOS fails.
  public func firstTrueEntry(into circle: Expectation.Circle) throws -> (
    time: SimTime, coordinate: Coordinate
  )? {
    try Truth.firstEntry(into: circle, along: trueSamples, geos: geos)
  }
}
