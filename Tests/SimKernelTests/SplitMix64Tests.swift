import SimKernel
import Testing

@Suite struct SplitMix64Tests {
  @Test func matchesThePublishedReferenceSequence() {
    // Reference outputs for seed 1234567 (Vigna's splitmix64.c test vector).
    var generator = SplitMix64(seed: 1_234_567)
    let expected: [UInt64] = [
      6_457_827_717_110_365_317, 3_203_168_211_198_807_973, 9_817_491_932_198_370_423,
      4_593_380_528_125_082_431, 16_408_922_859_458_223_821,
    ]
    #expect((0..<5).map { _ in generator.next() } == expected)
  }

  @Test func sameSeedSameSequenceDifferentSeedDifferentSequence() {
    var a = SplitMix64(seed: 42)
    var b = SplitMix64(seed: 42)
    var c = SplitMix64(seed: 43)
    let sa = (0..<100).map { _ in a.next() }
    #expect(sa == (0..<100).map { _ in b.next() })
    #expect(sa != (0..<100).map { _ in c.next() })
  }
}
