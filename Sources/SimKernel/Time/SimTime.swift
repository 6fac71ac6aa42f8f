/// An instant of virtual time: whole nanoseconds since the simulation's epoch.
///
/// Integer time keeps event ordering exact and runs reproducible; ``Simulation/epoch`` maps it
/// to wall-clock dates for reports. Nothing in a world ever reads the host clock.
public struct SimTime: Hashable, Comparable, Sendable, CustomStringConvertible {
  /// Nanoseconds since the epoch.
  public var nanoseconds: Int64

  /// The instant `nanoseconds` after the epoch.
  public init(nanoseconds: Int64) { self.nanoseconds = nanoseconds }

  /// The epoch itself.
  public static let zero = SimTime(nanoseconds: 0)

  /// The instant `seconds` after the epoch, rounded to the nearest nanosecond.
  public static func seconds(_ seconds: Double) -> SimTime {
    SimTime(nanoseconds: SimDuration.seconds(seconds).nanoseconds)
  }

  /// Seconds since the epoch.
  public var seconds: Double { Double(nanoseconds) / 1e9 }

  /// Whether `a` comes before `b`.
  public static func < (a: SimTime, b: SimTime) -> Bool { a.nanoseconds < b.nanoseconds }

  /// The instant `d` later.
  public static func + (t: SimTime, d: SimDuration) -> SimTime {
    SimTime(nanoseconds: t.nanoseconds &+ d.nanoseconds)
  }

  /// The instant `d` earlier.
  public static func - (t: SimTime, d: SimDuration) -> SimTime {
    SimTime(nanoseconds: t.nanoseconds &- d.nanoseconds)
  }

  /// The duration from `b` to `a`.
  public static func - (a: SimTime, b: SimTime) -> SimDuration {
    SimDuration(nanoseconds: a.nanoseconds &- b.nanoseconds)
  }

  /// Seconds since the epoch, as in `"t=12.500000000s"`.
  public var description: String { "t=\(SimDuration(nanoseconds: nanoseconds))" }
}

/// A span of virtual time in whole nanoseconds; may be negative.
public struct SimDuration: Hashable, Comparable, Sendable, CustomStringConvertible {
  /// The length in nanoseconds.
  public var nanoseconds: Int64

  /// A duration of `nanoseconds`.
  public init(nanoseconds: Int64) { self.nanoseconds = nanoseconds }

  /// No time at all.
  public static let zero = SimDuration(nanoseconds: 0)

  /// `seconds`, rounded to the nearest nanosecond.
  public static func seconds(_ seconds: Double) -> SimDuration {
    SimDuration(nanoseconds: Int64((seconds * 1e9).rounded()))
  }

  /// `milliseconds` milliseconds.
  public static func milliseconds(_ milliseconds: Int64) -> SimDuration {
    SimDuration(nanoseconds: milliseconds * 1_000_000)
  }

  /// `minutes` minutes.
  public static func minutes(_ minutes: Double) -> SimDuration { .seconds(minutes * 60) }

  /// `hours` hours.
  public static func hours(_ hours: Double) -> SimDuration { .seconds(hours * 3_600) }

  /// The length in seconds.
  public var seconds: Double { Double(nanoseconds) / 1e9 }

  /// Whether `a` comes before `b`.
  public static func < (a: SimDuration, b: SimDuration) -> Bool { a.nanoseconds < b.nanoseconds }

  /// The sum of two durations.
  public static func + (a: SimDuration, b: SimDuration) -> SimDuration {
    SimDuration(nanoseconds: a.nanoseconds &+ b.nanoseconds)
  }

  /// The difference of two durations.
  public static func - (a: SimDuration, b: SimDuration) -> SimDuration {
    SimDuration(nanoseconds: a.nanoseconds &- b.nanoseconds)
  }

  /// The duration scaled by `factor`, rounded to the nearest nanosecond.
  public static func * (d: SimDuration, factor: Double) -> SimDuration {
    .seconds(d.seconds * factor)
  }

  /// Exact decimal seconds with nanosecond digits, as in `"-1.250000000s"`.
  public var description: String {
    let sign = nanoseconds < 0 ? "-" : ""
    let magnitude = nanoseconds.magnitude
    let fraction = String(magnitude % 1_000_000_000)
    return "\(sign)\(magnitude / 1_000_000_000)."
      + String(repeating: "0", count: 9 - fraction.count) + fraction + "s"
  }
}
