import Foundation
import Geo
import SimKernel

/// When and where a true trajectory is inside a circle: its visits, each opened and closed by a
/// boundary crossing interpolated between samples.
///
/// ## The model
/// Between two samples the device moves along the geodesic joining them at constant speed
/// (as Device's `Trajectory` moves the simulated phone). Each segment is taken in the azimuthal equidistant projection centred on
/// the circle (`LocalProjection`), where distances from the centre are exact, so the circle is
/// a true circle of the given radius in metres. A geodesic segment is not quite straight there,
/// but its bow is about L² s / (8 R²) for a segment of length L at s from the centre (R the
/// Earth's radius): under a micrometre for a kilometre-long segment near a kilometre-wide fence.
/// So the segment is intersected with the circle analytically (a quadratic in the segment's
/// fraction), which is exact to round-off, and the crossing's instant is then found by GEOS
/// linear referencing: the crossing point is projected onto the segment (`GEOSProject`) and
/// interpolated back (`GEOSInterpolate`); the distance along it over the segment's length is the
/// fraction of the segment's duration elapsed. GEOS is the referee: the tests intersect the
/// track with a GEOS polygon of the circle and find the same points.
///
/// ## What counts
/// *Inside* is strictly within the radius. A visit is a stretch of positive length inside; a
/// path that only touches the circle (a tangent, or a sample exactly on the boundary between two
/// outside stretches) makes no visit, nor does a line that reaches less than a millimetre
/// inside (which also absorbs round-off at a tangent). Consecutive
/// stretches that meet (within a microsecond) are one visit. A visit open at the first sample
/// has no entry (the trace starts inside); one open at the last sample has no exit.
///
/// ## Speed
/// Segments are first bounded cheaply with unit-vector chords (no geodesic): a segment certainly
/// outside (its nearer end, less half its length, beyond the radius) or certainly inside is
/// settled at once; only the segments near the boundary are projected.
///
/// - Complexity: O(*n*) per circle, with geodesics only for the segments near its boundary.
public struct CircleVisits: Sendable {
  /// A boundary crossing of the true trajectory.
  public struct Crossing: Hashable, Sendable {
    /// The instant of the crossing, to the nanosecond.
    public let time: SimTime
    /// Where the device is then.
    public let coordinate: Coordinate
    /// The same point in metres east (`x`) and north (`y`) of the circle's centre.
    public let position: Position
    /// The index of the sample that starts the segment the crossing lies on.
    public let segment: Int
    /// The fraction of that segment elapsed at the crossing, in [0, 1].
    public let fraction: Double
  }

  /// A stretch of time the true trajectory spends inside the circle.
  public struct Visit: Hashable, Sendable {
    /// The crossing into the circle; `nil` when the trajectory starts inside.
    public let entry: Crossing?
    /// The crossing out of it; `nil` when the trajectory ends inside.
    public let exit: Crossing?
    /// When the visit starts: the entry, or the first sample.
    public let start: SimTime
    /// When the visit ends: the exit, or the last sample.
    public let end: SimTime
  }

  /// The circle's centre.
  public let center: Coordinate
  /// The circle's radius in metres.
  public let radius: Double
  /// The visits, in time order.
  public let visits: [Visit]

  /// The visits of `track` to the circle of `radius` metres around `center`.
  ///
  /// - Throws: `GeoError` if GEOS fails on a crossing's linear referencing.
  public init(center: Coordinate, radius: Double, track: TrueTrack, geos: GEOSContext) throws {
    self.center = center
    self.radius = radius
    let samples = track.points
    guard !samples.isEmpty, radius > 0 else {
      visits = []
      return
    }
    let projection = LocalProjection(center: center)
    let c = unitVector(center)
    let r = radius
    let r2 = r * r
    let touchDepth = r > 1e-3 ? r2 - (r - 1e-3) * (r - 1e-3) : 0

    /// One stretch inside, on a segment (or at a lone sample): fractions in [0, 1].
    struct Piece {
      var startSegment: Int
      var startFraction: Double
      var startTime: Double
      var endSegment: Int
      var endFraction: Double
      var endTime: Double
    }
    var pieces: [Piece] = []
    func time(_ i: Int, _ fraction: Double) -> Double {
      guard i + 1 < samples.count else { return Double(samples[i].time.nanoseconds) }
      let t0 = Double(samples[i].time.nanoseconds)
      let t1 = Double(samples[i + 1].time.nanoseconds)
      return t0 + (t1 - t0) * fraction
    }
    func add(_ i: Int, _ lo: Double, _ hi: Double) {
      let start = time(i, lo)
      let end = time(i, hi)
      if var last = pieces.last, start - last.endTime <= 1_000 {
        last.endSegment = i
        last.endFraction = hi
        last.endTime = end
        pieces[pieces.count - 1] = last
      } else {
        pieces.append(
          Piece(
            startSegment: i, startFraction: lo, startTime: start, endSegment: i, endFraction: hi,
            endTime: end))
      }
    }

    var cachedIndex = -1
    var cachedPosition = Position(x: 0, y: 0)
    func projected(_ i: Int) -> Position {
      if i != cachedIndex {
        cachedPosition = projection.project(samples[i].coordinate)
        cachedIndex = i
      }
      return cachedPosition
    }
    func chord(_ i: Int) -> Double {
      let dx = track.x[i] - c.x
      let dy = track.y[i] - c.y
      let dz = track.z[i] - c.z
      return (dx * dx + dy * dy + dz * dz).squareRoot()
    }

    if samples.count == 1 {
      let p = projected(0)
      if p.x * p.x + p.y * p.y < r2 { add(0, 0, 0) }
    }
    var chordA = chord(0)
    for i in 0..<(samples.count - 1) {
      let chordB = chord(i + 1)
      defer { chordA = chordB }
      let half = track.halfLengthBound[i]
      if min(TrueTrack.lowerBound(chord: chordA), TrueTrack.lowerBound(chord: chordB)) - half > r {
        continue
      }
      if max(TrueTrack.upperBound(chord: chordA), TrueTrack.upperBound(chord: chordB)) + half < r {
        add(i, 0, 1)
        continue
      }
      let a = projected(i)
      let b = projected(i + 1)
      // |a + t (b − a)|² = r²  ⇔  q t² + 2 p t + k = 0
      let dx = b.x - a.x
      let dy = b.y - a.y
      let q = dx * dx + dy * dy
      let p = a.x * dx + a.y * dy
      let k = a.x * a.x + a.y * a.y - r2
      if q < 1e-18 {
        if k < 0 { add(i, 0, 1) }
        continue
      }
      let discriminant = p * p - q * k
      guard discriminant > 0 else { continue }
      // Inside strictly between the roots. discriminant / q is r² minus the squared distance
      // of the line from the centre: a line that comes less than a millimetre inside only
      // touches the circle (this also absorbs round-off at a tangent).
      guard discriminant / q >= touchDepth else { continue }
      let root = discriminant.squareRoot()
      let t1 = (-p - root) / q
      let t2 = (-p + root) / q
      let lo = max(t1, 0)
      let hi = min(t2, 1)
      if lo < hi { add(i, lo, hi) }
    }

    let last = samples.count - 1
    func crossing(_ segment: Int, _ fraction: Double) throws -> Crossing {
      let a = projection.project(samples[segment].coordinate)
      let b = projection.project(samples[min(segment + 1, last)].coordinate)
      let guess = Position(x: a.x + fraction * (b.x - a.x), y: a.y + fraction * (b.y - a.y))
      var point = guess
      var refined = fraction
      let length = hypot(b.x - a.x, b.y - a.y)
      if length > 0 {
        let line = try LineString([a, b])
        let along = try geos.project(guess, onto: line)
        point = try geos.interpolate(line, distance: along)
        refined = min(max(along / length, 0), 1)
      }
      let t0 = samples[segment].time.nanoseconds
      let t1 = samples[min(segment + 1, last)].time.nanoseconds
      let time = SimTime(nanoseconds: t0 + Int64((Double(t1 - t0) * refined).rounded()))
      let coordinate = (try? projection.unproject(point)) ?? samples[segment].coordinate
      return Crossing(
        time: time, coordinate: coordinate, position: point, segment: segment, fraction: refined)
    }
    let endTime = Double(samples[last].time.nanoseconds)
    let startTime = Double(samples[0].time.nanoseconds)
    visits = try pieces.map { piece in
      let entry =
        piece.startTime <= startTime
        ? nil : try crossing(piece.startSegment, piece.startFraction)
      let exit =
        piece.endTime >= endTime ? nil : try crossing(piece.endSegment, piece.endFraction)
      return Visit(
        entry: entry, exit: exit, start: entry?.time ?? samples[0].time,
        end: exit?.time ?? samples[last].time)
    }
  }
}
