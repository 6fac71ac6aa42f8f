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

  /// The ranks are selected rather than sorted for: on every shape of input (many ties, sorted,
  /// reversed, all equal, signed) the quantile is the one the sorted values give.
  @Test func selectedRanksGiveTheQuantileOfTheSortedValues() throws {
    var x: UInt64 = 2_024
    func next(_ bound: UInt64) -> UInt64 {
      x = x &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
      return (x >> 33) % bound
    }
    for size in 1...160 {
      for shape in 0..<5 {
        var values = (0..<size).map { _ in Double(next(shape == 0 ? 4 : 1_000)) - 300 }
        if shape == 1 { values.sort() }
        if shape == 2 { values.sort(by: >) }
        if shape == 3 { values = Array(repeating: 2.5, count: size) }
        let sorted = values.sorted()
        for p in [0, 0.05, 0.1, 0.25, 0.5, 0.75, 0.9, 0.95, 0.975, 1] {
          let h = p * Double(size - 1)
          let k = Int(h.rounded(.down))
          let expected = sorted[k] + (sorted[min(k + 1, size - 1)] - sorted[k]) * (h - Double(k))
          #expect(quantile(values, p) == expected, "size \(size), shape \(shape), p \(p)")
        }
      }
    }
  }

  @Test func noValuesHaveNoQuantile() {
    #expect(quantile([], 0.5) == nil)
  }
}
