import SimKernel

/// Touch streams for common gestures, to replay with ``View/replay(_:)``.
///
/// Each shorthand throws ``DeviceError`` for a negative duration or a non-finite point, naming
/// the argument. Moving fingers are sampled every ``sampleInterval`` (1/60 s, the touch rate
/// of a 60 Hz display [?]).
public enum Touches {
  /// The interval between samples of a moving finger: 1/60 s [?].
  public static let sampleInterval = SimDuration(nanoseconds: 16_666_667)

  /// How long a finger rests on the glass in a tap: 0.1 s [?].
  public static let tapDuration = SimDuration.milliseconds(100)

  /// One finger tapping `point` at `time`, lifting after `duration`.
  public static func tap(
    at point: Point, time: SimTime, duration: SimDuration = tapDuration, finger: Int = 0
  ) throws -> [TouchSample] {
    try check(duration, "tap duration")
    return [
      TouchSample(finger: finger, phase: .began, point: point, time: time),
      TouchSample(finger: finger, phase: .ended, point: point, time: time + duration),
    ]
  }

  /// Two taps on `point`, the second touching down `interval` after the first (0.2 s [?]).
  public static func doubleTap(
    at point: Point, time: SimTime, interval: SimDuration = .milliseconds(200),
    duration: SimDuration = tapDuration
  ) throws -> [TouchSample] {
    try check(interval, "double-tap interval")
    guard interval >= duration else {
      throw DeviceError(
        .invalidArgument,
        "double-tap interval \(interval) is shorter than the tap duration \(duration)")
    }
    return try tap(at: point, time: time, duration: duration)
      + tap(at: point, time: time + interval, duration: duration)
  }

  /// One finger pressing `point` from `time` for `duration`, without moving.
  public static func longPress(at point: Point, time: SimTime, duration: SimDuration) throws
    -> [TouchSample]
  {
    try check(duration, "long-press duration")
    return try tap(at: point, time: time, duration: duration)
  }

  /// One finger touching down at the first point of `path` and moving along it at constant
  /// speed over `duration`, then lifting at its last point (after holding it for `hold`).
  public static func drag(
    along path: [Point], time: SimTime, duration: SimDuration, hold: SimDuration = .zero,
    finger: Int = 0
  ) throws -> [TouchSample] {
    try check(duration, "drag duration")
    try check(hold, "drag hold")
    guard let first = path.first else {
      throw DeviceError(.invalidArgument, "a drag needs at least one point; the path is empty")
    }
    for (i, p) in path.enumerated() where !p.isFinite {
      throw DeviceError(.invalidArgument, "drag path point \(i) \(p) is not finite")
    }
    var samples = [TouchSample(finger: finger, phase: .began, point: first, time: time)]
    let points = resample(path, steps: steps(duration))
    for (i, p) in points.enumerated().dropFirst() {
      let t = time + duration * (Double(i) / Double(points.count - 1))
      samples.append(TouchSample(finger: finger, phase: .moved, point: p, time: t))
    }
    samples.append(
      TouchSample(
        finger: finger, phase: .ended, point: path.last!, time: time + duration + hold))
    return samples
  }

  /// Two fingers either side of `center`, `distance` apart horizontally, spreading (scale > 1)
  /// or closing (scale < 1) until they are `distance × scale` apart, over `duration`.
  public static func pinch(
    center: Point, distance: Double = 100, scale: Double, time: SimTime,
    duration: SimDuration
  ) throws -> [TouchSample] {
    try check(duration, "pinch duration")
    guard scale.isFinite, scale > 0, distance.isFinite, distance > 0 else {
      throw DeviceError(
        .invalidArgument,
        "pinch scale \(scale) and distance \(distance) must be positive finite numbers")
    }
    let n = steps(duration)
    var samples: [TouchSample] = []
    func at(_ d: Double, _ phase: TouchPhase, _ t: SimTime) {
      samples.append(
        TouchSample(
          finger: 0, phase: phase, point: Point(x: center.x - d / 2, y: center.y), time: t))
      samples.append(
        TouchSample(
          finger: 1, phase: phase, point: Point(x: center.x + d / 2, y: center.y), time: t))
    }
    at(distance, .began, time)
    for i in 1...n {
      let f = Double(i) / Double(n)
      at(distance * (1 + (scale - 1) * f), .moved, time + duration * f)
    }
    at(distance * scale, .ended, time + duration)
    return samples
  }

  private static func check(_ duration: SimDuration, _ name: String) throws {
    guard duration >= .zero else {
      throw DeviceError(.invalidArgument, "\(name) \(duration) is negative")
    }
  }

  private static func steps(_ duration: SimDuration) -> Int {
    max(1, Int((duration.seconds / sampleInterval.seconds).rounded(.up)))
  }

  /// `steps + 1` points along `path` at equal arc-length intervals, both ends included.
  private static func resample(_ path: [Point], steps: Int) -> [Point] {
    guard path.count > 1 else { return Array(repeating: path[0], count: steps + 1) }
    var cumulative = [0.0]
    for i in 1..<path.count {
      cumulative.append(cumulative[i - 1] + path[i - 1].distance(to: path[i]))
    }
    let total = cumulative.last!
    var result: [Point] = []
    var segment = 1
    for k in 0...steps {
      let s = total * Double(k) / Double(steps)
      while segment < path.count - 1 && cumulative[segment] < s { segment += 1 }
      let a = path[segment - 1]
      let b = path[segment]
      let length = cumulative[segment] - cumulative[segment - 1]
      let f = length > 0 ? (s - cumulative[segment - 1]) / length : 1
      result.append(Point(x: a.x + (b.x - a.x) * f, y: a.y + (b.y - a.y) * f))
    }
    return result
  }
}
