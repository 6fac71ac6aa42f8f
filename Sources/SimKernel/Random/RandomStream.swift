import Foundation

/// The root of a world's randomness: a seed from which independent named streams are derived.
///
/// A stream's numbers depend only on the seed and the stream's name, never on which other
/// streams exist or how much they were used, so adding a component to a world does not shift
/// another component's numbers.
public struct RandomSource: Hashable, Sendable {
  /// The world's seed.
  public let seed: UInt64

  /// A source for `seed`.
  public init(seed: UInt64) { self.seed = seed }

  /// The stream called `name` (for example `"sensor"` or `"network.ncmb"`).
  public func stream(_ name: String) -> RandomStream {
    RandomStream(key: RandomStream.derive(seed, name))
  }
}

/// A seeded stream of random numbers: xoshiro256** (Blackman & Vigna, "Scrambled linear
/// pseudorandom number generators", ACM TOMS 2021), seeded through SplitMix64 as its authors
/// recommend.
///
/// Four 64-bit words of state, a period of 2²⁵⁶ − 1, a few nanoseconds per number. A stream can
/// be split by name into sub-streams that are independent of its own position.
public struct RandomStream: RandomNumberGenerator, Sendable {
  @usableFromInline var s0: UInt64
  @usableFromInline var s1: UInt64
  @usableFromInline var s2: UInt64
  @usableFromInline var s3: UInt64
  /// The stream's identity, from which its state and its sub-streams are derived.
  let key: UInt64

  init(key: UInt64) {
    self.key = key
    var seeder = SplitMix64(seed: key)
    s0 = seeder.next()
    s1 = seeder.next()
    s2 = seeder.next()
    s3 = seeder.next()
  }

  /// A stream seeded directly, for components and tests outside a world.
  public init(seed: UInt64) {
    self.init(key: seed)
  }

  /// The sub-stream called `name`: independent of this stream's position and of its other
  /// sub-streams.
  public func split(_ name: String) -> RandomStream {
    RandomStream(key: RandomStream.derive(key, name))
  }

  /// Mixes a name into a key: FNV-1a over the name's UTF-8 bytes, then one SplitMix64 step.
  static func derive(_ key: UInt64, _ name: String) -> UInt64 {
    var hash: UInt64 = 0xCBF2_9CE4_8422_2325
    for byte in name.utf8 {
      hash ^= UInt64(byte)
      hash &*= 0x0000_0100_0000_01B3
    }
    var mixer = SplitMix64(seed: key ^ hash)
    return mixer.next()
  }

  /// The next 64 random bits. (Inlinable: a bootstrap draws millions.)
  @inlinable @inline(__always)
  public mutating func next() -> UInt64 {
    let result = rotl(s1 &* 5, 7) &* 9
    let t = s1 << 17
    s2 ^= s0
    s3 ^= s1
    s1 ^= s2
    s0 ^= s3
    s2 ^= t
    s3 = rotl(s3, 45)
    return result
  }

  @inlinable @inline(__always)
  func rotl(_ x: UInt64, _ k: UInt64) -> UInt64 { (x << k) | (x >> (64 - k)) }

  /// A uniform double in [0, 1), with 53 random bits.
  @inline(__always)
  public mutating func nextUnit() -> Double { Double(next() >> 11) * 0x1p-53 }

  /// A uniform double in [`lower`, `upper`).
  public mutating func uniform(_ lower: Double, _ upper: Double) -> Double {
    lower + (upper - lower) * nextUnit()
  }

  /// `true` with probability `p` (clamped to [0, 1]).
  public mutating func bernoulli(_ p: Double) -> Bool { nextUnit() < p }

  /// A standard normal deviate (Box–Muller; one of the pair, so every call costs the same).
  public mutating func normal() -> Double {
    let u1 = 1 - nextUnit()  // (0, 1]: log stays finite
    let u2 = nextUnit()
    return (-2 * log(u1)).squareRoot() * cos(2 * Double.pi * u2)
  }

  /// A normal deviate with the given mean and standard deviation.
  public mutating func normal(mean: Double, standardDeviation: Double) -> Double {
    mean + standardDeviation * normal()
  }

  /// An exponential deviate with the given mean.
  public mutating func exponential(mean: Double) -> Double {
    -mean * log(1 - nextUnit())
  }

  /// A log-normal deviate whose *median* is `median` and whose logarithm has standard deviation
  /// `sigma`: the shape of latency distributions.
  public mutating func logNormal(median: Double, sigma: Double) -> Double {
    median * exp(sigma * normal())
  }
}
