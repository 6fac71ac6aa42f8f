/// One measured row of a benchmark suite: the per-operation time of `name`.
struct BenchResult: Equatable {
  let name: String
  let unit: String
  let median: Double
  /// The spread of the samples: their 10th and 90th percentiles.
  let p10: Double
  let p90: Double
  /// The row this one is compared with, measured in the same run.
  let baseline: String?
  /// `median / baseline's median`; `nil` for rows without a baseline.
  let ratio: Double?
  /// The figure the case is meant to reach ("≤ 1 µs"), where it has one.
  var target: String?
}

/// A case that did other work than it was checked against (a brute force, or its baseline): a
/// benchmark that answers wrongly fast would measure nothing.
struct BenchCheckFailure: Error, CustomStringConvertible {
  let description: String
  init(_ description: String) { self.description = "bench check failed: " + description }
}

/// Times closures on the host's monotonic clock.
///
/// Host timings belong to `geosim bench` only; nothing inside a simulated world reads a clock.
/// Every case first runs once over all of its inputs untimed (so that lazily built indexes,
/// caches and page faults are not timed), is then calibrated so one sample lasts at least
/// `minimumSampleTime` and covers whole cycles of its inputs, and is sampled `samples` times;
/// the median, the 10th and the 90th percentile of the per-operation times are reported.
struct Bench {
  var samples = 11
  var minimumSampleTime: Duration = .milliseconds(20)
  /// Set by `--quick`: suites may shrink their inputs too.
  var quick = false
  /// The tool the suites run in: its worker processes replay the shipped scenarios, so the
  /// cases that start workers run only in a tool whose catalog has the reference apps.
  var tool: ToolContext?
  /// A PostGIS server for the suites that can time one (`--database` or `GEOSIM_POSTGIS_URL`).
  var database: String?
  private(set) var results: [BenchResult] = []

  /// Measures `body`, which must perform `iterations` operations, operation `i` on input
  /// `i % inputs`, and records the result in nanoseconds per operation. When one operation of
  /// `body` stands for `unitsPerOperation` smaller ones (the points of a file), the time per
  /// unit is recorded instead. A case whose operations cost too much to repeat (a linear scan
  /// as a baseline) caps them with `maximumIterations`, and then sees only that many inputs.
  mutating func measure(
    _ name: String, baseline: String? = nil, target: String? = nil, inputs: Int = 1,
    maximumIterations: Int = 1 << 30, unitsPerOperation: Int = 1, unit: String = "ns/op",
    _ body: (_ iterations: Int) -> Void
  ) {
    let samples = timed(
      inputs: inputs, maximumIterations: maximumIterations, unitsPerOperation: unitsPerOperation
    ) { n in
      body(n)
      return 0
    }
    record(
      samples: samples.dropFirst().map(\.perUnit), as: name, unit: unit, baseline: baseline,
      target: target)
  }

  /// Measures `body` as ``measure(_:baseline:target:inputs:maximumIterations:unitsPerOperation:unit:_:)``
  /// does, and checks its work: `body` returns what it found (a count of results, say), which
  /// must be `expecting` for each whole cycle of the inputs, in the warm-up and in every
  /// sample. `expecting` comes from an independent computation (a brute force).
  ///
  /// - Throws: ``BenchCheckFailure`` when the work differs.
  mutating func measure(
    _ name: String, baseline: String? = nil, target: String? = nil, inputs: Int,
    expecting work: Int, maximumIterations: Int = 1 << 30, unitsPerOperation: Int = 1,
    unit: String = "ns/op", _ body: (_ iterations: Int) -> Int
  ) throws {
    let samples = timed(
      inputs: inputs, maximumIterations: maximumIterations, unitsPerOperation: unitsPerOperation,
      body)
    for sample in samples where sample.iterations % inputs == 0 {
      let expected = work * (sample.iterations / inputs)
      guard sample.work == expected else {
        throw BenchCheckFailure(
          "\(name): \(sample.iterations) operations over \(inputs) inputs found "
            + "\(sample.work), expected \(expected)")
      }
    }
    record(
      samples: samples.dropFirst().map(\.perUnit), as: name, unit: unit, baseline: baseline,
      target: target)
  }

  /// The warm-up (first) and the samples of `body`: iterations, work and time per unit.
  private func timed(
    inputs: Int, maximumIterations: Int, unitsPerOperation: Int,
    _ body: (_ iterations: Int) -> Int
  ) -> [(iterations: Int, work: Int, perUnit: Double)] {
    let clock = ContinuousClock()
    let cycle = max(1, min(inputs, maximumIterations))
    // Every input once, untimed.
    var runs = [(iterations: cycle, work: body(cycle), perUnit: Double.nan)]
    // Whole cycles (×4 each step), up to the largest multiple of a cycle the cap allows.
    let cap = max(cycle, maximumIterations / cycle * cycle)
    var iterations = cycle
    while iterations < cap {
      let elapsed = clock.measure { blackHole(body(iterations)) }
      if elapsed >= minimumSampleTime { break }
      iterations = min(iterations * 4, cap)
    }
    for _ in 0..<samples {
      var work = 0
      let elapsed = clock.measure { work = body(iterations) }
      runs.append(
        (
          iterations, work,
          Bench.nanoseconds(elapsed) / Double(iterations) / Double(unitsPerOperation)
        ))
    }
    return runs
  }

  /// The host time `body` takes, in nanoseconds: for cases a suite samples itself (to
  /// alternate two of them), recorded with ``record(samples:as:unit:baseline:target:)``.
  static func time(_ body: () -> Void) -> Double {
    nanoseconds(ContinuousClock().measure(body))
  }

  /// Records per-operation times in nanoseconds that a suite sampled itself.
  mutating func record(
    samples: [Double], as name: String, unit: String = "ns/op", baseline: String? = nil,
    target: String? = nil
  ) {
    let sorted = samples.sorted()
    let median = sorted[sorted.count / 2]
    let p10 = sorted[Int(Double(sorted.count - 1) * 0.1)]
    let p90 = sorted[min(sorted.count - 1, Int(Double(sorted.count) * 0.9))]
    let ratio = baseline.flatMap { name in results.first { $0.name == name } }.map {
      median / $0.median
    }
    results.append(
      BenchResult(
        name: name, unit: unit, median: median, p10: p10, p90: p90, baseline: baseline,
        ratio: ratio, target: target))
  }

  /// Records a figure that is not a timing (a peak memory, a total), in its own unit.
  mutating func record(_ name: String, unit: String, value: Double, target: String? = nil) {
    results.append(
      BenchResult(
        name: name, unit: unit, median: value, p10: value, p90: value, baseline: nil, ratio: nil,
        target: target))
  }

  static func nanoseconds(_ d: Duration) -> Double {
    Double(d.components.seconds) * 1e9 + Double(d.components.attoseconds) / 1e9
  }
}

/// Consumes a computed value so the optimizer cannot delete the work that produced it.
///
/// Unoptimized and never inlined, so the call stays opaque even though it does nothing.
@inline(never) @_optimize(none)
func blackHole<T>(_ value: T) {}
