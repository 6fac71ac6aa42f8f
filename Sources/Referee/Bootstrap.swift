import SimKernel

/// The percentile bootstrap (Efron 1979), shared by every report that gives a statistic an
/// interval by resampling: the calibration's means, the sweep's latency medians.
public enum Bootstrap {
  /// How many resamples an interval draws unless told otherwise.
  public static let resamples = 2_000

  /// The 95 % interval of `statistic` over `values`: `resamples` resamples of the values drawn
  /// with replacement from `random` (value `random.next() % n` each time, in order, the
  /// remainder found by multiplication), and the 2.5th and 97.5th percentiles
  /// (``quantile(_:_:)``) of the statistic over them.
  ///
  /// The same values and the same stream give the same interval on every machine.
  ///
  /// - Returns: the interval, or `nil` when there are no values or the statistic came out NaN.
  public static func interval(
    _ values: [Double], random: RandomStream, resamples: Int = Bootstrap.resamples,
    statistic: ([Double]) -> Double?
  ) -> ClosedRange<Double>? {
    let n = values.count
    guard n > 0, resamples > 0 else { return nil }
    var random = random
    let remainder = Remainder(UInt64(n))
    var draws: [Double] = []
    draws.reserveCapacity(resamples)
    var sample = [Double](repeating: 0, count: n)
    for _ in 0..<resamples {
      for i in 0..<n { sample[i] = values[Int(remainder.of(random.next()))] }
      if let value = statistic(sample) { draws.append(value) }
    }
    return percentiles(of: draws)
  }

  /// The 95 % interval of the `p` quantile over `values`: the same interval as
  /// ``interval(_:random:resamples:statistic:)`` with `statistic` ``quantile(_:_:)`` at `p`, the
  /// same draws in the same order, found without building each resample.
  ///
  /// A resample's quantile depends only on how often it drew each value, so a resample is
  /// counted into the values' ranks and its two ranks are read off the counts: O(*n*) a resample
  /// with no copying or selecting. Values holding NaN or −0 take the general path, where the
  /// order of equal keys is the selection's.
  ///
  /// - Precondition: `p` is in [0, 1].
  public static func quantileInterval(
    _ values: [Double], _ p: Double, random: RandomStream, resamples: Int = Bootstrap.resamples
  ) -> ClosedRange<Double>? {
    precondition(p >= 0 && p <= 1, "a quantile's probability must lie in [0, 1], got \(p)")
    let n = values.count
    guard n > 0, resamples > 0 else { return nil }
    guard !values.contains(where: { $0.isNaN || ($0 == 0 && $0.sign == .minus) }) else {
      return interval(values, random: random, resamples: resamples) { quantile($0, p) }
    }
    let order = values.indices.sorted { values[$0] < values[$1] }
    let sorted = order.map { values[$0] }
    var rank = [Int](repeating: 0, count: n)
    for (r, i) in order.enumerated() { rank[i] = r }
    // The ranks quantile(_:_:) interpolates between.
    let position = p * Double(n - 1)
    let lower = Int(position.rounded(.down))
    let upper = min(lower + 1, n - 1)
    let weight = position - Double(lower)
    var random = random
    let remainder = Remainder(UInt64(n))
    var draws: [Double] = []
    draws.reserveCapacity(resamples)
    // Millions of draws: read and counted through unchecked pointers (every index is below
    // `n` by construction: a remainder by `n`, a rank, and ranks up to `upper` < `n`).
    var counts = [Int](repeating: 0, count: n)
    rank.withUnsafeBufferPointer { rank in
      counts.withUnsafeMutableBufferPointer { counts in
        for _ in 0..<resamples {
          counts.update(repeating: 0)
          for _ in 0..<n { counts[rank[Int(remainder.of(random.next()))]] &+= 1 }
          // The resample's `lower`-th smallest value, then its next.
          var below = 0
          var r = 0
          while below &+ counts[r] <= lower {
            below &+= counts[r]
            r &+= 1
          }
          let low = sorted[r]
          var high = low
          if upper > lower, below &+ counts[r] <= upper {
            r &+= 1
            while counts[r] == 0 { r &+= 1 }
            high = sorted[r]
          }
          draws.append(low + (high - low) * weight)
        }
      }
    }
    return percentiles(of: draws)
  }

  /// The 2.5th and 97.5th percentiles of the resamples' statistics; `nil` when there are none
  /// or a statistic came out NaN (NaN among the values: the bounds cannot be ordered).
  private static func percentiles(of draws: [Double]) -> ClosedRange<Double>? {
    let tail = (1 - 0.95) / 2
    guard let lower = quantile(draws, tail), let upper = quantile(draws, 1 - tail),
      lower <= upper
    else { return nil }
    return lower...upper
  }

  /// The mean of `values`, summed in order; `nil` when there are none.
  public static func mean(_ values: [Double]) -> Double? {
    values.isEmpty ? nil : values.reduce(0, +) / Double(values.count)
  }
}

/// `x % divisor` by multiplication, exact for every 64-bit `x` (Lemire, Kaser & Kurz, "Faster
/// remainder by direct computation", Software: Practice and Experience, 2019): a bootstrap
/// takes millions of remainders by one divisor, and a 64-bit division costs more than the four
/// multiplications.
struct Remainder {
  let divisor: UInt64
  /// ⌈2¹²⁸ ÷ `divisor`⌉ modulo 2¹²⁸: 0 for a divisor of 1, every remainder by which is 0.
  let inverse: UInt128

  /// - Precondition: `divisor` > 0.
  init(_ divisor: UInt64) {
    precondition(divisor > 0, "a remainder by 0")
    self.divisor = divisor
    inverse = UInt128.max / UInt128(divisor) &+ 1
  }

  /// `x % divisor`: the top 64 bits of the fraction `inverse · x` (modulo 2¹²⁸) times `divisor`.
  @inline(__always)
  func of(_ x: UInt64) -> UInt64 {
    let fraction = inverse &* UInt128(x)
    let d = UInt128(divisor)
    let low = (UInt128(UInt64(truncatingIfNeeded: fraction)) &* d) >> 64
    return UInt64(truncatingIfNeeded: ((fraction >> 64) &* d &+ low) >> 64)
  }
}
