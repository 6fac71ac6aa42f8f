/// SplitMix64, the seeded 64-bit generator of Steele, Lea & Flood ("Fast splittable
/// pseudorandom number generators", OOPSLA 2014).
///
/// One addition and three xor-shift-multiply steps per number; every seed gives a full-period
/// (2⁶⁴) sequence that passes BigCrush. GeoSim uses it wherever reproducible numbers are needed
/// (benchmark data, randomized tests), and to seed the per-component streams of a world.
public struct SplitMix64: RandomNumberGenerator, Sendable {
  private var state: UInt64

  /// Creates a generator whose sequence is fixed by `seed`.
  public init(seed: UInt64) { state = seed }

  /// The next 64 random bits.
  public mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }
}
