import Device
import Geo
import SimKernel

/// Ground truth from the true trajectory: when it enters a circle.
enum Truth {
  /// The first instant the trajectory is inside `circle`, and where it is then, interpolated
  /// between samples; `nil` if it never is.
  ///
  /// Each segment is taken in the azimuthal equidistant projection around the circle's centre,
  /// where distances from the centre are exact, and intersected with the circle there; a start
  /// inside the circle is an entry at the first sample.
  static func firstEntry(into circle: Expectation.Circle, along samples: [TrajectorySample])
    -> (time: SimTime, coordinate: Coordinate)?
  {
    guard let first = samples.first else { return nil }
    let projection = LocalProjection(center: circle.center)
    let r = circle.radius
    var a = projection.project(first.coordinate)
    if a.x * a.x + a.y * a.y <= r * r { return (first.time, first.coordinate) }
    for i in samples.indices.dropFirst() {
      let b = projection.project(samples[i].coordinate)
      defer { a = b }
      // |a + t (b − a)|² = r²  ⇒  q t² + 2 p t + (|a|² − r²) = 0
      let dx = b.x - a.x
      let dy = b.y - a.y
      let q = dx * dx + dy * dy
      let p = a.x * dx + a.y * dy
      let c = a.x * a.x + a.y * a.y - r * r
      guard q > 0 else { continue }
      let discriminant = p * p - q * c
      guard discriminant >= 0 else { continue }
      let t = (-p - discriminant.squareRoot()) / q
      guard t >= 0, t <= 1 else { continue }
      let t0 = samples[i - 1].time.nanoseconds
      let t1 = samples[i].time.nanoseconds
      let time = SimTime(nanoseconds: t0 + Int64((Double(t1 - t0) * t).rounded()))
      let point = Position(x: a.x + t * dx, y: a.y + t * dy)
      let coordinate = (try? projection.unproject(point)) ?? samples[i].coordinate
      return (time, coordinate)
    }
    return nil
  }
}

extension World {
  /// The first instant the true trajectory is inside `circle` (interpolated between samples),
  /// and where it is then; `nil` if it never enters.
  public func firstTrueEntry(into circle: Expectation.Circle) -> (
    time: SimTime, coordinate: Coordinate
  )? {
    Truth.firstEntry(into: circle, along: trueSamples)
  }
}
