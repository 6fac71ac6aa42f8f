/// A share of trials that succeeded — `successes` of `trials` — with the Wilson score interval
/// around it.
///
/// A rate expectation (docs/SCENARIOS.md, "Runs and rates") is judged with one of these: the
/// runs in which the expectation held out of the runs replayed.
public struct Proportion: Sendable, Hashable {
  /// The trials that succeeded, 0 ... ``trials``.
  public let successes: Int
  /// The trials, at least 1.
  public let trials: Int

  /// The normal quantile of a two-sided 95 % interval, Φ⁻¹(0.975).
  public static let z95 = 1.959963984540054

  /// `successes` of `trials`.
  ///
  /// - Precondition: `trials ≥ 1` and `0 ≤ successes ≤ trials`.
  public init(successes: Int, trials: Int) {
    precondition(trials >= 1, "a proportion needs at least one trial, got \(trials)")
    precondition(
      (0...trials).contains(successes),
      "a proportion's successes must lie in 0...\(trials), got \(successes)")
    self.successes = successes
    self.trials = trials
  }

  /// The observed share, `successes / trials`.
  public var estimate: Double { Double(successes) / Double(trials) }

  /// The Wilson score interval (Wilson 1927) at the normal quantile `z` (95 % by default):
  /// the shares p whose score test at `z` does not reject the observation,
  ///
  ///     centre = (p̂ + z²/2n) / (1 + z²/n)
  ///     half   = z / (1 + z²/n) · √(p̂(1 − p̂)/n + z²/4n²)
  ///
  /// with p̂ = ``estimate`` and n = ``trials``. Unlike the normal (Wald) interval it stays
  /// inside [0, 1] and does not collapse to a point at 0 or n successes: 0 of 10 gives
  /// [0, 0.2775], 10 of 10 gives [0.7225, 1] and 82 of 100 gives [0.7333, 0.8830]. Newcombe
  /// (Statistics in Medicine 17, 1998, table II, method 3) lists it for 81/263, 15/148, 0/20 and
  /// 1/29; the tests check those rows.
  public func wilsonInterval(z: Double = Proportion.z95) -> ClosedRange<Double> {
    let n = Double(trials)
    let p = estimate
    let z2 = z * z
    let denominator = 1 + z2 / n
    let centre = (p + z2 / (2 * n)) / denominator
    let half = z / denominator * (p * (1 - p) / n + z2 / (4 * n * n)).squareRoot()
    // At 0 and n successes the bound is exactly 0 or 1; rounding must not move it off.
    let lower = successes == 0 ? 0 : max(0, centre - half)
    let upper = successes == trials ? 1 : min(1, centre + half)
    return lower...upper
  }
}
