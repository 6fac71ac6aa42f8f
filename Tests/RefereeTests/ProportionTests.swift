import Referee
import Testing

/// The share of runs a rate expectation is judged by, and its Wilson score interval.
@Suite struct ProportionTests {
  /// `interval` equals `lower...upper` to four decimals.
  func matches(_ interval: ClosedRange<Double>, _ lower: Double, _ upper: Double) -> Bool {
    abs(interval.lowerBound - lower) < 5e-5 && abs(interval.upperBound - upper) < 5e-5
  }

  /// Worked by hand from the formula (z = 1.96, z² = 3.8415): for 82/100 the centre is
  /// (0.82 + 0.019207) / 1.038415 = 0.80823 and the half-width
  /// 1.96 / 1.038415 · √(0.001476 + 0.000096) = 0.07484.
  @Test func eightyTwoOfAHundredIsSeventyThreeToEightyEightPercent() {
    let share = Proportion(successes: 82, trials: 100)
    #expect(share.estimate == 0.82)
    #expect(matches(share.wilsonInterval(), 0.7333, 0.8830))
  }

  /// At 0 and n successes the interval reaches exactly 0 and 1, and the other bound is
  /// z²/(n + z²) away: 3.8415 / 13.8415 = 0.2775 for ten trials.
  @Test func noneOrAllOfTenReachTheEndExactly() {
    let none = Proportion(successes: 0, trials: 10).wilsonInterval()
    #expect(none.lowerBound == 0)
    #expect(matches(none, 0, 0.2775))
    let all = Proportion(successes: 10, trials: 10).wilsonInterval()
    #expect(all.upperBound == 1)
    #expect(matches(all, 0.7225, 1))
  }

  /// Newcombe (1998), "Two-sided confidence intervals for the single proportion: comparison of
  /// seven methods", Statistics in Medicine 17:857–872, table II, method 3 (the score method
  /// without continuity correction).
  @Test(arguments: [
    (81, 263, 0.2553, 0.3662), (15, 148, 0.0624, 0.1605), (0, 20, 0.0, 0.1611),
    (1, 29, 0.0061, 0.1718),
  ])
  func newcombesExamplesGiveHisTable(k: Int, n: Int, lower: Double, upper: Double) {
    #expect(matches(Proportion(successes: k, trials: n).wilsonInterval(), lower, upper))
  }

  @Test func oneTrialLeavesAWideInterval() {
    // A single run says little: 1 of 1 is 20.7 % to 100 %.
    #expect(matches(Proportion(successes: 1, trials: 1).wilsonInterval(), 0.2065, 1))
  }

  @Test func moreRunsNarrowTheIntervalAroundTheSameShare() {
    let few = Proportion(successes: 9, trials: 10).wilsonInterval()
    let many = Proportion(successes: 900, trials: 1_000).wilsonInterval()
    #expect(many.lowerBound > few.lowerBound && many.upperBound < few.upperBound)
    #expect(many.contains(0.9) && few.contains(0.9))
  }
}
