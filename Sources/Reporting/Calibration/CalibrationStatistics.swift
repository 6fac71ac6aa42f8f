import Foundation
import Referee
import SimKernel

/// An estimate from a calibration row's trials, with its 95 % interval and how it was computed.
public struct CalibrationEstimate: Hashable, Sendable {
  /// How an interval was computed.
  public enum Method: String, Hashable, Sendable {
    /// Wilson's score interval for a proportion (Wilson 1927): good coverage down to a handful
    /// of trials and proportions near 0 or 1, where the normal approximation fails.
    case wilson
    /// The distribution-free interval for a median between two order statistics, chosen from
    /// the binomial(n, ½) distribution so that it covers the median with at least 95 %
    /// probability (with fewer than 6 values it is the range, and covers less).
    case orderStatistic
    /// The percentile bootstrap for a mean (or the interquartile range a fit reports): 2,000
    /// resamples drawn from a seeded stream, the 2.5th and 97.5th percentiles of their means.
    case bootstrap
  }

  /// The point estimate, in the row's unit; `nil` when the trials gave nothing to estimate
  /// from (no event at all for a latency).
  public let value: Double?
  /// The interval's lower end.
  public let lower: Double?
  /// The interval's upper end.
  public let upper: Double?
  /// How many values (trials, crossings or events) the estimate rests on.
  public let count: Int
  /// For a proportion, how many of them counted.
  public let successes: Int?
  /// How the interval was computed.
  public let method: Method

  /// The confidence level of every interval.
  public static let confidence = 0.95
  /// The standard normal quantile for a two-sided 95 % interval.
  static let z = 1.959963984540054

  /// The proportion `successes` / `trials` with Wilson's score interval.
  ///
  /// - Precondition: 0 ≤ `successes` ≤ `trials`.
  public static func proportion(_ successes: Int, of trials: Int) -> CalibrationEstimate {
    precondition(successes >= 0 && successes <= trials, "\(successes) of \(trials)")
    guard trials > 0 else {
      return CalibrationEstimate(
        value: nil, lower: nil, upper: nil, count: 0, successes: 0, method: .wilson)
    }
    let n = Double(trials)
    let p = Double(successes) / n
    let z2 = z * z
    let denominator = 1 + z2 / n
    let centre = (p + z2 / (2 * n)) / denominator
    let half = z / denominator * (p * (1 - p) / n + z2 / (4 * n * n)).squareRoot()
    return CalibrationEstimate(
      value: p, lower: max(0, centre - half), upper: min(1, centre + half), count: trials,
      successes: successes, method: .wilson)
  }

  /// The median of `values` (`quantile(_:_:)` at ½) with the order-statistic interval.
  public static func median(_ values: [Double]) -> CalibrationEstimate {
    let sorted = values.sorted()
    let n = sorted.count
    guard n > 0 else {
      return CalibrationEstimate(
        value: nil, lower: nil, upper: nil, count: 0, successes: nil, method: .orderStatistic)
    }
    let (low, high) = medianRanks(n)
    return CalibrationEstimate(
      value: quantile(sorted, 0.5), lower: sorted[low - 1], upper: sorted[high - 1], count: n,
      successes: nil, method: .orderStatistic)
  }

  /// The 1-based ranks (l, u) of the order statistics that bound the median of `n` values with
  /// at least 95 % probability: the largest l with P(B < l) ≤ 2.5 % for B ~ binomial(n, ½),
  /// and u = n + 1 − l; (1, n) when no such l exists.
  static func medianRanks(_ n: Int) -> (Int, Int) {
    // log P(B = k) by recurrence, summed in linear space once scaled: n stays small.
    var logPMF = Double(n) * log(0.5)
    var cumulative = 0.0
    var low = 0
    for k in 0..<n {
      let p = exp(logPMF)
      // P(B < k + 1) = P(B ≤ k).
      if cumulative + p <= (1 - confidence) / 2 {
        cumulative += p
        low = k + 1
      } else {
        break
      }
      logPMF += log(Double(n - k)) - log(Double(k + 1))
    }
    guard low >= 1 else { return (1, n) }
    return (low, n + 1 - low)
  }

  /// The mean of `values` with a percentile-bootstrap interval from `random`'s draws.
  public static func mean(_ values: [Double], random: RandomStream) -> CalibrationEstimate {
    let n = values.count
    guard n > 0 else {
      return CalibrationEstimate(
        value: nil, lower: nil, upper: nil, count: 0, successes: nil, method: .bootstrap)
    }
    let mean = values.reduce(0, +) / Double(n)
    let interval = Bootstrap.interval(
      values, random: random, resamples: bootstrapResamples, statistic: Bootstrap.mean)
    return CalibrationEstimate(
      value: mean, lower: interval?.lowerBound, upper: interval?.upperBound, count: n,
      successes: nil, method: .bootstrap)
  }

  /// How many resamples a bootstrap interval draws.
  public static let bootstrapResamples = Bootstrap.resamples
}
