import SimKernel

/// The percentile bootstrap (Efron 1979), shared by every report that gives a statistic an
/// interval by resampling: the calibration's means, the sweep's latency medians.
public enum Bootstrap {
  /// How many resamples an interval draws unless told otherwise.
  public static let resamples = 2_000

  /// The 95 % interval of `statistic` over `values`: `resamples` resamples of the values drawn
  /// with replacement from `random` (value `random.next() % n` each time, in order), and the
  /// 2.5th and 97.5th percentiles (``quantile(_:_:)``) of the statistic over them.
  ///
  /// The same values and the same stream give the same interval on every machine.
  ///
  /// - Returns: the interval, or `nil` when there are no values.
  public static func interval(
    _ values: [Double], random: RandomStream, resamples: Int = Bootstrap.resamples,
    statistic: ([Double]) -> Double?
  ) -> ClosedRange<Double>? {
    let n = values.count
    guard n > 0, resamples > 0 else { return nil }
    var random = random
    var draws: [Double] = []
    draws.reserveCapacity(resamples)
    var sample = [Double](repeating: 0, count: n)
    for _ in 0..<resamples {
      for i in 0..<n { sample[i] = values[Int(random.next() % UInt64(n))] }
      if let value = statistic(sample) { draws.append(value) }
    }
    let tail = (1 - 0.95) / 2
    guard let lower = quantile(draws, tail), let upper = quantile(draws, 1 - tail) else {
      return nil
    }
    return lower...upper
  }

  /// The mean of `values`, summed in order; `nil` when there are none.
  public static func mean(_ values: [Double]) -> Double? {
    values.isEmpty ? nil : values.reduce(0, +) / Double(values.count)
  }
}
