import SimKernel
import Testing

@Suite struct RandomStreamTests {
  @Test func sameSeedAndNameGiveTheSameNumbers() {
    var a = RandomSource(seed: 5).stream("sensor")
    var b = RandomSource(seed: 5).stream("sensor")
    #expect((0..<50).map { _ in a.next() } == (0..<50).map { _ in b.next() })
  }

  @Test func differentSeedsOrNamesGiveDifferentNumbers() {
    var a = RandomSource(seed: 5).stream("sensor")
    var b = RandomSource(seed: 6).stream("sensor")
    var c = RandomSource(seed: 5).stream("region")
    let sa = (0..<20).map { _ in a.next() }
    #expect(sa != (0..<20).map { _ in b.next() })
    #expect(sa != (0..<20).map { _ in c.next() })
  }

  @Test func aStreamDoesNotDependOnOtherStreamsOrTheirUse() {
    let source = RandomSource(seed: 11)
    var alone = source.stream("location")
    var busy = source.stream("network")
    for _ in 0..<1_000 { _ = busy.next() }
    var again = source.stream("location")
    #expect((0..<20).map { _ in alone.next() } == (0..<20).map { _ in again.next() })
  }

  @Test func splitStreamsDoNotDependOnTheParentsPosition() {
    var parent = RandomStream(seed: 3)
    var early = parent.split("child")
    for _ in 0..<100 { _ = parent.next() }
    var late = parent.split("child")
    #expect((0..<20).map { _ in early.next() } == (0..<20).map { _ in late.next() })
  }

  @Test func distributionsHaveTheirDocumentedMoments() {
    var r = RandomStream(seed: 2_024)
    let n = 200_000
    var sumU = 0.0
    var sumN = 0.0
    var sumN2 = 0.0
    var sumE = 0.0
    var hits = 0
    for _ in 0..<n {
      let u = r.nextUnit()
      #expect(u >= 0 && u < 1)
      sumU += u
      let z = r.normal()
      sumN += z
      sumN2 += z * z
      sumE += r.exponential(mean: 3)
      if r.bernoulli(0.25) { hits += 1 }
    }
    #expect(abs(sumU / Double(n) - 0.5) < 0.005)
    #expect(abs(sumN / Double(n)) < 0.01)
    #expect(abs(sumN2 / Double(n) - 1) < 0.02)
    #expect(abs(sumE / Double(n) - 3) < 0.05)
    #expect(abs(Double(hits) / Double(n) - 0.25) < 0.005)
    var medians: [Double] = (0..<10_001).map { _ in r.logNormal(median: 40, sigma: 0.8) }
    medians.sort()
    #expect(abs(medians[5_000] - 40) < 2)
  }
}
