import Geo
import SimKernel

/// Where the device truly is at one instant: the ground truth the sensor model degrades.
public struct TrueState: Hashable, Sendable {
  /// The true position.
  public let coordinate: Coordinate
  /// Metres above sea level.
  public let altitude: Double
  /// Metres per second over the ground.
  public let speed: Double
  /// Degrees clockwise from true north in [0, 360) (0 when not moving).
  public let course: Double

  /// Creates a state.
  public init(coordinate: Coordinate, altitude: Double = 0, speed: Double, course: Double) {
    self.coordinate = coordinate
    self.altitude = altitude
    self.speed = speed
    self.course = course
  }
}

/// One known position of the device at one instant: a vertex of a ``Trajectory``.
public struct TrajectorySample: Hashable, Sendable {
  /// When the device is at ``coordinate``.
  public var time: SimTime
  /// Where the device is at ``time``.
  public var coordinate: Coordinate
  /// Metres above sea level at ``time``.
  public var altitude: Double

  /// Creates a sample.
  public init(time: SimTime, coordinate: Coordinate, altitude: Double = 0) {
    self.time = time
    self.coordinate = coordinate
    self.altitude = altitude
  }
}

/// The ground truth of a simulated phone's movement over virtual time.
///
/// A trajectory is a list of timed samples. Between two samples the device moves along the WGS84
/// geodesic joining them at constant speed: the position at a time is found by solving the direct
/// problem from the earlier sample with the segment's initial azimuth and the fraction of its
/// length that the elapsed time stands for (Karney 2013, through `Geodesic`). That is exact to
/// round-off, and the antimeridian and the poles need no special care. Altitude is interpolated
/// linearly. This is how Xcode's GPX playback moves a simulated device too (straight lines between
/// waypoints at constant speed, FIDELITY "What developers use instead today"), except that the
/// lines here are geodesics.
///
/// Before the first sample the device is nowhere (``state(at:)`` returns `nil`); from the last
/// sample on it stays at the last point with speed 0.
///
/// Segment lengths and azimuths are solved once, when the trajectory is created, so a query costs
/// one binary search and at most one direct geodesic solution.
public struct Trajectory: Sendable {
  /// The samples, in strictly increasing time order.
  public let samples: [TrajectorySample]
  /// The sample times in nanoseconds, apart from ``samples`` so that searching touches only them.
  let times: [Int64]
  /// `segments[i]` runs from `samples[i]` to `samples[i + 1]`.
  let segments: [Segment]

  /// The geodesic from one sample to the next, solved once.
  struct Segment: Sendable {
    /// Length in metres.
    let distance: Double
    /// Azimuth at the start, degrees clockwise from north in (−180, 180].
    let azimuth: Double
    /// Metres per second.
    let speed: Double
    /// The course at the start in [0, 360); 0 for a segment of length 0.
    let course: Double
    /// The start's latitude and azimuth, prepared for ``Trajectory/fastState(at:cursor:)``.
    let start: MidpointStep.Start
  }

  /// Creates a trajectory from samples in strictly increasing time order.
  ///
  /// - Throws: ``DeviceError`` with code ``DeviceErrorCode/invalidTrajectory`` if `samples` is
  ///   empty, if a sample's time is not after the previous one's, or if an altitude is not a
  ///   finite number; the message names the sample's index and time.
  /// - Complexity: O(*n*): one inverse geodesic solution per segment.
  public init(_ samples: [TrajectorySample]) throws {
    guard !samples.isEmpty else {
      throw DeviceError(.invalidTrajectory, "a trajectory needs at least one sample, got none")
    }
    var segments: [Segment] = []
    segments.reserveCapacity(samples.count - 1)
    for (index, sample) in samples.enumerated() {
      guard sample.altitude.isFinite else {
        throw DeviceError(
          .invalidTrajectory,
          "sample \(index) at \(sample.time) has altitude \(sample.altitude), "
            + "not a finite number of metres")
      }
      guard index > 0 else { continue }
      let previous = samples[index - 1]
      guard sample.time > previous.time else {
        throw DeviceError(
          .invalidTrajectory,
          "sample \(index) at \(sample.time) is not after sample \(index - 1) at "
            + "\(previous.time); sample times must strictly increase")
      }
      let (gap, overflow) = sample.time.nanoseconds.subtractingReportingOverflow(
        previous.time.nanoseconds)
      guard !overflow else {
        throw DeviceError(
          .invalidTrajectory,
          "sample \(index) at \(sample.time) is too far after sample \(index - 1) at "
            + "\(previous.time) to measure the gap in nanoseconds")
      }
      let line = Geodesic.wgs84.inverse(from: previous.coordinate, to: sample.coordinate)
      let moving = line.distance > 0
      segments.append(
        Segment(
          distance: line.distance, azimuth: line.initialAzimuth,
          speed: line.distance / (Double(gap) / 1e9),
          course: moving ? Trajectory.course(line.initialAzimuth) : 0,
          start: MidpointStep.Start(
            latitude: previous.coordinate.latitude, azimuth: line.initialAzimuth)))
    }
    self.samples = samples
    self.times = samples.map(\.time.nanoseconds)
    self.segments = segments
  }

  /// The time of the first sample: the device's state is unknown before it.
  public var startTime: SimTime { samples[0].time }

  /// The time of the last sample: from then on the device stands still.
  public var endTime: SimTime { samples[samples.count - 1].time }

  /// Where the device truly is at `time`, or `nil` before the first sample.
  ///
  /// Between two samples the device is on the geodesic joining them, at the fraction of its length
  /// that the elapsed fraction of the segment's duration stands for; its speed is the segment's
  /// length over its duration and its course the geodesic's azimuth at that point, in [0, 360).
  /// At a sample's time the state is the sample with the speed and course of the segment that
  /// starts there. From ``endTime`` on the device stays at the last sample with speed and course
  /// 0.
  ///
  /// - Complexity: O(log *n*) for *n* samples. Components that query in increasing time order
  ///   keep a `Cursor` and pay O(1) per query instead.
  public func state(at time: SimTime) -> TrueState? {
    var cursor = Cursor()
    return state(at: time, cursor: &cursor)
  }

  /// A position hint for queries that mostly move forward in time.
  ///
  /// It remembers the segment of the last query, so the next query checks that segment and the
  /// one after it before falling back to a binary search. A cursor belongs to the trajectory it
  /// was used with; it only speeds queries up and never changes their answers.
  package struct Cursor {
    /// The segment the last query fell in.
    var segment = 0

    /// A cursor at the start.
    package init() {}
  }

  /// ``state(at:)``, starting the search from `cursor` and leaving it at the segment found.
  ///
  /// - Complexity: O(1) when `time` falls in the cursor's segment or the next one, O(log *n*)
  ///   otherwise.
  package func state(at time: SimTime, cursor: inout Cursor) -> TrueState? {
    state(at: time, cursor: &cursor, fast: false)
  }

  /// The state at `time`; between samples by the direct geodesic problem or, when `fast` is set
  /// and the step is short enough to be as good, by one ``MidpointStep``.
  @inline(__always)
  func state(at time: SimTime, cursor: inout Cursor, fast: Bool) -> TrueState? {
    let t = time.nanoseconds
    let last = times.count - 1
    guard t >= times[0] else { return nil }
    guard t < times[last] else {
      let sample = samples[last]
      return TrueState(
        coordinate: sample.coordinate, altitude: sample.altitude, speed: 0, course: 0)
    }
    let index = segment(containing: t, hint: cursor.segment)
    cursor.segment = index
    return interpolate(segment: index, at: t, fast: fast)
  }

  /// The index `i` with `times[i] ≤ t < times[i + 1]`, for `times[0] ≤ t < times[last]`.
  @inline(__always)
  private func segment(containing t: Int64, hint: Int) -> Int {
    if hint < segments.count, times[hint] <= t {
      if t < times[hint + 1] { return hint }
      if hint + 2 < times.count, t < times[hint + 2] { return hint + 1 }
    }
    // Invariant: times[low] ≤ t < times[high].
    var low = 0
    var high = times.count - 1
    while high - low > 1 {
      let middle = (low + high) >> 1
      if times[middle] <= t { low = middle } else { high = middle }
    }
    return low
  }

  /// The state at `t` within segment `index`.
  @inline(__always)
  private func interpolate(segment index: Int, at t: Int64, fast: Bool) -> TrueState {
    let start = samples[index]
    let segment = segments[index]
    let t0 = times[index]
    let fraction = Double(t - t0) / Double(times[index + 1] - t0)
    let altitude = start.altitude + fraction * (samples[index + 1].altitude - start.altitude)
    guard t != t0, segment.distance > 0 else {
      return TrueState(
        coordinate: start.coordinate, altitude: altitude, speed: segment.speed,
        course: segment.course)
    }
    let distance = segment.distance * fraction
    if fast, segment.start.allowsStep(distance) {
      let end = segment.start.step(from: start.coordinate, distance: distance)
      return TrueState(
        coordinate: end.coordinate, altitude: altitude, speed: segment.speed,
        course: Trajectory.course(end.azimuth))
    }
    // The azimuth and distance are finite by construction, so the direct problem cannot throw.
    let point = try! Geodesic.wgs84.direct(
      from: start.coordinate, azimuth: segment.azimuth, distance: distance)
    return TrueState(
      coordinate: point.coordinate, altitude: altitude, speed: segment.speed,
      course: Trajectory.course(point.finalAzimuth))
  }

  /// An azimuth in (−180, 180] as a course in [0, 360).
  static func course(_ azimuth: Double) -> Double {
    guard azimuth < 0 else { return azimuth }
    // A tiny negative azimuth would round to 360 itself.
    let course = azimuth + 360
    return course < 360 ? course : 0
  }
}
