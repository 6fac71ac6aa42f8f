import Referee
import Testing

/// One quantile for every report: linear between the closest ranks (Hyndman–Fan type 7).
@Suite struct QuantileTests {
  @Test func theMedianIsTheMiddleValueOrTheMeanOfTheMiddleTwo() {
    #expect(quantile([3, 1, 2], 0.5) == 2)
    #expect(quantile([4, 1, 3, 2], 0.5) == 2.5)
  }

  @Test func p90InterpolatesBetweenTheClosestRanks() throws {
    let values: [Double] = [10, 9, 8, 7, 6, 5, 4, 3, 2, 1]
    #expect(abs(try #require(quantile(values, 0.9)) - 9.1) < 1e-12)
    #expect(abs(try #require(quantile([1, 2], 0.9)) - 1.9) < 1e-12)
  }

  @Test func theEndsAreTheMinimumAndMaximum() {
    #expect(quantile([5, -1, 7], 0) == -1)
    #expect(quantile([5, -1, 7], 1) == 7)
    #expect(quantile([4], 0.9) == 4)
  }

  @Test func noValuesHaveNoQuantile() {
    #expect(quantile([], 0.5) == nil)
  }
}
