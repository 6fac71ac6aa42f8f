import SimKernel
import Testing

@testable import Referee

/// The percentile bootstrap of a quantile, counted rather than resampled, is the general
/// bootstrap's interval to the bit.
@Suite struct BootstrapTests {
  @Test func aQuantilesIntervalIsTheGeneralBootstrapsToTheBit() {
    var random = SplitMix64(seed: 5)
    for size in [1, 2, 3, 7, 10, 64, 101] {
      for shape in 0..<4 {
        let values = (0..<size).map { _ -> Double in
          switch shape {
          case 0: Double(random.next() % 5)  // many ties
          case 1: Double(random.next() % 100_000) / 7
          case 2: 2.5  // all equal
          default: Double(random.next() % 3) == 0 ? .infinity : Double(random.next() % 50)
          }
        }
        for p in [0, 0.1, 0.5, 0.9, 1] {
          let stream = RandomStream(seed: UInt64(size * 10 + shape))
          let general = Bootstrap.interval(values, random: stream, resamples: 300) {
            quantile($0, p)
          }
          let counted = Bootstrap.quantileInterval(values, p, random: stream, resamples: 300)
          #expect(counted == general, "size \(size), shape \(shape), p \(p)")
        }
      }
    }
  }

  @Test func valuesWithNegativeZeroTakeTheGeneralPath() {
    let stream = RandomStream(seed: 3)
    let values: [Double] = [0, -0.0, 1, -0.0]
    let general = Bootstrap.interval(values, random: stream, resamples: 200) {
      quantile($0, 0.5)
    }
    let counted = Bootstrap.quantileInterval(values, 0.5, random: stream, resamples: 200)
    #expect(counted?.lowerBound.bitPattern == general?.lowerBound.bitPattern)
    #expect(counted?.upperBound.bitPattern == general?.upperBound.bitPattern)
    #expect(Bootstrap.quantileInterval([], 0.5, random: stream) == nil)
  }

  /// A NaN among the values makes the statistic NaN in some resamples: there is no interval
  /// (the bounds cannot be ordered), rather than a trap.
  @Test func aNaNAmongTheValuesGivesNoInterval() {
    let stream = RandomStream(seed: 3)
    let values: [Double] = [1, .nan, 3, 2]
    #expect(Bootstrap.interval(values, random: stream, resamples: 200) { quantile($0, 0.5) } == nil)
    #expect(Bootstrap.quantileInterval(values, 0.5, random: stream, resamples: 200) == nil)
  }

  /// The resamples' draws take `x % n` by multiplication: the same remainder as a division for
  /// every 64-bit `x`, at the edges of the range and of the divisors too.
  @Test func aRemainderByMultiplicationIsTheDivisionsRemainder() {
    var random = SplitMix64(seed: 11)
    let divisors: [UInt64] =
      [
        1, 2, 3, 7, 10, 64, 100, 101, 1_000, 65_535, 1 << 32, (1 << 32) + 1, 1 << 63, .max - 1,
        .max,
      ]
      + (0..<200).map { _ in random.next() >> (random.next() % 64) | 1 }
    for divisor in divisors {
      let remainder = Remainder(divisor)
      let edges: [UInt64] = [0, 1, divisor - 1, divisor, divisor &+ 1, .max - 1, .max]
      for x in edges + (0..<500).map({ _ in random.next() >> (random.next() % 64) }) {
        #expect(remainder.of(x) == x % divisor, "\(x) % \(divisor)")
      }
    }
  }
}
