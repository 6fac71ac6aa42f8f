import Geo

/// A point a synthesized trace passes through.
public struct Waypoint: Hashable, Sendable {
  /// Where the waypoint is.
  public var coordinate: Coordinate
  /// Seconds spent standing at the waypoint after arriving (at the first waypoint: before
  /// setting off).
  public var dwell: Double
  /// Whether the traveller jumps here from the previous waypoint instead of travelling.
  public var teleport: Bool

  /// Creates a waypoint.
  public init(coordinate: Coordinate, dwell: Double = 0, teleport: Bool = false) {
    self.coordinate = coordinate
    self.dwell = dwell
    self.teleport = teleport
  }

  /// Parses `lat,lon[,dwell][,teleport]` items separated by `;` or newlines
  /// (`35.68,139.76;35.69,139.70,60;34.70,135.50,0,teleport`); dwell is in seconds.
  ///
  /// - Throws: ``TraceError`` with code ``TraceError/Code/invalidArgument`` naming the item.
  public static func list(parsing text: String) throws -> [Waypoint] {
    var result: [Waypoint] = []
    let items = text.split { $0 == ";" || $0 == "\n" }.map { $0.trimmingSpaces }.filter {
      !$0.isEmpty && !$0.hasPrefix("#")
    }
    for (index, item) in items.enumerated() {
      let fields = item.split(separator: ",").map { $0.trimmingSpaces }
      func fail(_ why: String) -> TraceError {
        TraceError(
          .invalidArgument, file: nil,
          "waypoint \(index + 1) '\(item)': \(why); expected lat,lon[,dwell seconds][,teleport]")
      }
      guard fields.count >= 2, fields.count <= 4, let lat = ByteScan.double(fields[0]),
        let lon = ByteScan.double(fields[1])
      else { throw fail("not a latitude and longitude") }
      guard let coordinate = try? Coordinate(latitude: lat, longitude: lon) else {
        throw fail("out of range")
      }
      var waypoint = Waypoint(coordinate: coordinate)
      for field in fields.dropFirst(2) {
        if field == "teleport" {
          waypoint.teleport = true
        } else if let dwell = ByteScan.double(field), dwell >= 0 {
          waypoint.dwell = dwell
        } else {
          throw fail("'\(field)' is neither a dwell in seconds nor 'teleport'")
        }
      }
      result.append(waypoint)
    }
    return result
  }
}

/// Makes a realistic trace from waypoints and a speed profile.
///
/// The traveller starts at rest at the first waypoint, stands there for its dwell, if any, then
/// follows WGS84 geodesics from waypoint to waypoint, and stops only where it must: at a waypoint with a dwell, before a teleport and at
/// the end. Between two stops it accelerates at the profile's acceleration up to the cruise
/// speed, cruises, and decelerates to arrive at rest (a trapezoidal speed profile; a triangle
/// when the stretch is too short to reach the cruise speed). It does not slow down for turns at
/// waypoints it passes through. A teleport moves it instantly: it is at the previous waypoint at
/// one sample and at the teleport target, at rest, one interval later.
///
/// Samples are taken every `interval` seconds from the start and also at every arrival and
/// departure, so stops are exact; each carries the speed and the course of the geodesic there.
/// This is what `simctl location start --speed --interval` does along straight lines at
/// constant speed, with acceleration added.
public enum TraceSynthesis {
  /// The shortest sampling interval, in seconds: finer sampling adds points, not accuracy.
  public static let minimumInterval = 0.01
  /// The most points one synthesized trace may have (about 80 bytes each in memory).
  public static let maximumPointCount = 10_000_000

  /// The trace through `waypoints`, starting at `start` seconds since the epoch.
  ///
  /// - Throws: ``TraceError`` with code ``TraceError/Code/invalidArgument`` for fewer than two
  ///   waypoints, an interval shorter than ``minimumInterval`` seconds, a trace that would have
  ///   more than ``maximumPointCount`` points, or times outside ``TracePoint/timeRange``.
  public static func trace(
    through waypoints: [Waypoint], profile: SpeedProfile, interval: Double = 1,
    start: Double = 0, name: String? = nil
  ) throws -> Trace {
    guard waypoints.count >= 2 else {
      throw TraceError(
        .invalidArgument, file: nil,
        "expected at least two waypoints, got \(waypoints.count)")
    }
    guard interval.isFinite, interval >= minimumInterval else {
      throw TraceError(
        .invalidArgument, file: nil,
        "interval \(interval): expected a number of seconds of at least \(minimumInterval)")
    }
    guard TracePoint.timeRange.contains(start) else {
      throw TraceError(
        .invalidArgument, file: nil,
        "start \(start): expected seconds since 1970 within the years 0000 to 9999")
    }
    var points: [TracePoint] = []
    var time = start
    func emit(_ coordinate: Coordinate, speed: Double, course: Double?) {
      points.append(TracePoint(time: time, coordinate: coordinate, speed: speed, course: course))
    }
    emit(waypoints[0].coordinate, speed: 0, course: nil)
    if waypoints[0].dwell > 0 {
      // Standing at the start for its dwell: departure is a sample of its own, at rest.
      time += waypoints[0].dwell
      guard TracePoint.timeRange.contains(time) else {
        throw TraceError(
          .invalidArgument, file: nil,
          "the trace would leave waypoint 1 \(time) s after 1970, outside the years 0000 to "
            + "9999 that a trace time may lie in; expected a shorter dwell")
      }
      emit(waypoints[0].coordinate, speed: 0, course: nil)
    }
    var index = 0
    while index < waypoints.count - 1 {
      // A run: from waypoints[index] through waypoints that need no stop, to the next stop.
      var end = index + 1
      if waypoints[end].teleport {
        time += interval
        emit(waypoints[end].coordinate, speed: 0, course: nil)
      } else {
        while end < waypoints.count - 1, waypoints[end].dwell == 0, !waypoints[end + 1].teleport {
          end += 1
        }
        try travel(waypoints[index...end].map(\.coordinate), profile, interval, &time, &points)
      }
      if waypoints[end].dwell > 0 {
        time += waypoints[end].dwell
        emit(waypoints[end].coordinate, speed: 0, course: nil)
      }
      guard TracePoint.timeRange.contains(time) else {
        throw TraceError(
          .invalidArgument, file: nil,
          "the trace would reach waypoint \(end + 1) \(time) s after 1970, outside the years "
            + "0000 to 9999 that a trace time may lie in; expected a faster speed or shorter dwells"
        )
      }
      index = end
    }
    return Trace(name: name, format: .gpx, tracks: [TraceTrack(name: name, points: points)])
  }

  /// Appends samples along the geodesic polyline `path` from rest to rest.
  private static func travel(
    _ path: [Coordinate], _ profile: SpeedProfile, _ interval: Double, _ time: inout Double,
    _ points: inout [TracePoint]
  ) throws {
    let legs = zip(path, path.dropFirst()).map { Geodesic.wgs84.inverse(from: $0, to: $1) }
    let total = legs.reduce(0) { $0 + $1.distance }
    guard total > 0 else { return }
    let a = profile.acceleration
    let b = profile.deceleration
    // Peak speed: the cruise speed, or lower when the run is too short to reach it.
    let peak = min(profile.speed, (2 * total * a * b / (a + b)).squareRoot())
    let accelerating = peak / a
    let decelerating = peak / b
    let accelerationDistance = peak * peak / (2 * a)
    let decelerationDistance = peak * peak / (2 * b)
    let cruising = (total - accelerationDistance - decelerationDistance) / peak
    let duration = accelerating + max(0, cruising) + decelerating
    func state(_ t: Double) -> (distance: Double, speed: Double) {
      if t <= accelerating { return (0.5 * a * t * t, a * t) }
      if t <= accelerating + cruising {
        return (accelerationDistance + peak * (t - accelerating), peak)
      }
      let u = max(0, duration - t)
      return (total - 0.5 * b * u * u, b * u)
    }
    guard TracePoint.timeRange.contains(time + duration) else {
      throw TraceError(
        .invalidArgument, file: nil,
        "\(duration) s of travel from \(time) s after 1970 would end outside the years 0000 to "
          + "9999 that a trace time may lie in; expected a faster speed")
    }
    let samples = (duration / interval).rounded(.up)
    guard samples.isFinite, Double(points.count) + samples <= Double(maximumPointCount) else {
      throw TraceError(
        .invalidArgument, file: nil,
        "sampling \(duration) s of travel every \(interval) s would make \(samples < 1e15 ? String(Int(samples)) : "\(samples)") points, "
          + "more than the \(maximumPointCount) a trace may have; expected a longer interval")
    }
    let t0 = time
    var k = 1.0
    while true {
      let t = min(k * interval, duration)
      let (distance, speed) = state(t)
      var along = min(distance, total)
      var leg = 0
      while leg < legs.count - 1, along > legs[leg].distance {
        along -= legs[leg].distance
        leg += 1
      }
      let line = legs[leg]
      // Finite azimuth and distance: the direct problem cannot fail.
      let point = try! Geodesic.wgs84.direct(
        from: path[leg], azimuth: line.initialAzimuth, distance: min(along, line.distance))
      var course = point.finalAzimuth
      if course < 0 { course += 360 }
      if course >= 360 { course = 0 }
      time = t0 + t
      points.append(
        TracePoint(
          time: time, coordinate: t >= duration ? path[path.count - 1] : point.coordinate,
          speed: t >= duration ? 0 : speed, course: course))
      if t >= duration { break }
      k += 1
    }
  }
}

extension Trace {
  /// The trace with times for points that have none, from a constant speed.
  ///
  /// In each track an untimed first point gets `start`; every other untimed point gets the
  /// previous point's time plus the geodesic distance between them over `speed`. Points that have
  /// a time keep it. This is how Xcode plays a GPX file without times: straight at constant
  /// speed.
  ///
  /// - Throws: ``TraceError`` with code ``TraceError/Code/invalidArgument`` unless `speed` is a
  ///   finite positive number of m/s and every time it gives lies in ``TracePoint/timeRange``.
  public func timed(speed: Double, start: Double = 0) throws -> Trace {
    guard speed.isFinite, speed > 0 else {
      throw TraceError(
        .invalidArgument, file: nil, "speed \(speed) is not a positive number of m/s")
    }
    guard TracePoint.timeRange.contains(start) else {
      throw TraceError(
        .invalidArgument, file: nil,
        "start \(start): expected seconds since 1970 within the years 0000 to 9999")
    }
    var copy = self
    for t in copy.tracks.indices {
      var previous: TracePoint?
      for p in copy.tracks[t].points.indices {
        var point = copy.tracks[t].points[p]
        if point.time == nil {
          if let previous, let time = previous.time {
            let distance = Geodesic.wgs84.inverse(from: previous.coordinate, to: point.coordinate)
              .distance
            let timed = time + distance / speed
            guard TracePoint.timeRange.contains(timed) else {
              throw TraceError(
                .invalidArgument, file: nil,
                "speed \(speed) m/s would time point \(p + 1) of track \(t + 1) at \(timed) s "
                  + "after 1970, outside the years 0000 to 9999 that a trace time may lie in; "
                  + "expected a faster speed")
            }
            point.time = timed
          } else {
            point.time = start
          }
          copy.tracks[t].points[p] = point
        }
        previous = point
      }
    }
    return copy
  }
}
