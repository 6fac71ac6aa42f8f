import Foundation
import SimKernel

/// A two-dimensional first-order Gauss–Markov (AR(1)) process with unit variance per axis.
///
/// The two axes are independent Ornstein–Uhlenbeck processes sampled at the query times. Between
/// two queries `Δt` apart the exact transition is `x′ = ρ x + √(1 − ρ²) · N(0, 1)` with
/// `ρ = exp(−Δt / τ)`, so the process has the same law however often it is sampled: querying at
/// 1 Hz or once an hour gives the right correlation for that gap. The first query draws from the
/// stationary distribution N(0, 1). A query at or before the previous one's time returns the
/// previous value unchanged.
///
/// Scale the values by a standard deviation to get metres; changing the scale between queries
/// (moving from open sky into an urban canyon) keeps the correlation of the underlying process.
struct GaussMarkovProcess {
  /// The current value of the east axis.
  private(set) var east = 0.0
  /// The current value of the north axis.
  private(set) var north = 0.0
  private var random: RandomStream
  private let correlationTime: Double
  private var time = Int64.min
  private var started = false
  /// ρ and √(1 − ρ²) for the last gap, which repeats for periodic queries.
  private var cachedGap: Int64 = -1
  private var rho = 0.0
  private var innovation = 1.0

  /// A process with correlation time `correlationTime` (0: independent values) drawing from
  /// `random`.
  init(correlationTime: SimDuration, random: RandomStream) {
    self.correlationTime = correlationTime.seconds
    self.random = random
  }

  /// Moves the process to `nanoseconds` and returns its value there.
  @inline(__always)
  mutating func advance(to nanoseconds: Int64) -> (east: Double, north: Double) {
    guard started else {
      started = true
      time = nanoseconds
      (east, north) = random.normalPair()
      return (east, north)
    }
    let gap = nanoseconds &- time
    guard gap > 0 else { return (east, north) }
    time = nanoseconds
    if gap != cachedGap {
      cachedGap = gap
      rho = correlationTime > 0 ? exp(-(Double(gap) / 1e9) / correlationTime) : 0
      innovation = (1 - rho * rho).squareRoot()
    }
    let (a, b) = random.normalPair()
    east = rho * east + innovation * a
    north = rho * north + innovation * b
    return (east, north)
  }
}

extension RandomStream {
  /// Two independent standard normal deviates (both halves of one Box–Muller transform).
  @inline(__always)
  mutating func normalPair() -> (Double, Double) {
    let u1 = 1 - nextUnit()  // (0, 1]: the logarithm stays finite
    let u2 = nextUnit()
    let radius = (-2 * log(u1)).squareRoot()
    let angle = 2 * Double.pi * u2
    return (radius * cos(angle), radius * sin(angle))
  }
}

/// Episodes during which the coarse estimate is far off: a renewal process in virtual time.
///
/// Gaps between episodes and their lengths are exponentially distributed; each episode moves the
/// estimate by a fixed offset in a uniformly random direction. Episodes are drawn from their own
/// stream in time order, independent of when they are queried, so the schedule depends only on
/// the seed.
struct OutlierSchedule {
  private var random: RandomStream
  private let meanGap: Double
  private let meanDuration: Double
  private let distance: ClosedRange<Double>
  private var start = Int64.max
  private var end = Int64.max
  private var offset = (east: 0.0, north: 0.0)

  /// A schedule of `perHour` episodes per hour on average, each lasting `meanDuration` on
  /// average, starting after `origin`.
  init(
    origin: Int64, perHour: Double, meanDuration: SimDuration, distance: ClosedRange<Double>,
    random: RandomStream
  ) {
    self.random = random
    self.meanGap = perHour > 0 ? 3_600 / perHour : .infinity
    self.meanDuration = meanDuration.seconds
    self.distance = distance
    schedule(after: origin)
  }

  /// The offset in metres in force at `nanoseconds`, if an episode is running; queries must not
  /// go back in time by more than the current episode.
  @inline(__always)
  mutating func offset(at nanoseconds: Int64) -> (east: Double, north: Double)? {
    while nanoseconds >= end, end != .max { schedule(after: end) }
    return nanoseconds >= start ? offset : nil
  }

  private mutating func schedule(after time: Int64) {
    guard meanGap.isFinite else {
      start = .max
      end = .max
      return
    }
    start = OutlierSchedule.adding(random.exponential(mean: meanGap), to: time)
    end = OutlierSchedule.adding(random.exponential(mean: meanDuration), to: start)
    if end == start { end = start &+ 1 }
    let size = random.uniform(distance.lowerBound, distance.upperBound)
    let angle = random.uniform(0, 2 * Double.pi)
    offset = (size * sin(angle), size * cos(angle))
  }

  /// `time` plus `seconds`, saturating at the end of representable time.
  private static func adding(_ seconds: Double, to time: Int64) -> Int64 {
    let nanoseconds = seconds * 1e9
    guard nanoseconds < Double(Int64.max - max(time, 0)) else { return .max }
    return time &+ Int64(nanoseconds)
  }
}
