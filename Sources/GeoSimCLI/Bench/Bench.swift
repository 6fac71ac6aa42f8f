/// One measured row of a benchmark suite: the per-operation time of `name`.
struct BenchResult: Equatable {
  let name: String
  let unit: String
  let median: Double
  let p90: Double
  /// The row this one is compared with, measured in the same run.
  let baseline: String?
  /// `median / baseline's median`; `nil` for rows without a baseline.
  let ratio: Double?
}

/// Times closures on the host's monotonic clock.
///
/// Host timings belong to `geosim bench` only; nothing inside a simulated world reads a clock.
/// Each case is calibrated so one sample lasts at least `minimumSampleTime`, then sampled
/// `samples` times; the median and 90th percentile of the per-operation times are reported.
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

  /// Measures `body`, which must perform `iterations` operations (using the index to vary its
  /// input), and records the result in nanoseconds per operation. When one operation of `body`
  /// stands for `unitsPerOperation` smaller ones (the points of a file), the time per unit is
  /// recorded instead.
  mutating func measure(
    _ name: String, baseline: String? = nil, maximumIterations: Int = 1 << 30,
    unitsPerOperation: Int = 1, unit: String = "ns/op", _ body: (_ iterations: Int) -> Void
  ) {
    let clock = ContinuousClock()
    var iterations = 1
    while iterations < maximumIterations {
      let elapsed = clock.measure { body(iterations) }
      if elapsed >= minimumSampleTime { break }
      iterations = min(iterations * 4, maximumIterations)
    }
    var perOperation: [Double] = []
    for _ in 0..<samples {
      let elapsed = clock.measure { body(iterations) }
      perOperation.append(
        Bench.nanoseconds(elapsed) / Double(iterations) / Double(unitsPerOperation))
    }
    record(samples: perOperation, as: name, unit: unit, baseline: baseline)
  }

  /// The host time `body` takes, in nanoseconds: for cases a suite samples itself (to
  /// alternate two of them), recorded with ``record(samples:as:baseline:)``.
  static func time(_ body: () -> Void) -> Double {
    nanoseconds(ContinuousClock().measure(body))
  }

  /// Records per-operation times in nanoseconds that a suite sampled itself.
  mutating func record(
    samples: [Double], as name: String, unit: String = "ns/op", baseline: String? = nil
  ) {
    let sorted = samples.sorted()
    let median = sorted[sorted.count / 2]
    let p90 = sorted[min(sorted.count - 1, Int(Double(sorted.count) * 0.9))]
    let ratio = baseline.flatMap { name in results.first { $0.name == name } }.map {
      median / $0.median
    }
    results.append(
      BenchResult(
        name: name, unit: unit, median: median, p90: p90, baseline: baseline, ratio: ratio))
  }

  /// Records a figure that is not a timing (a peak memory, a total), in its own unit.
  mutating func record(_ name: String, unit: String, value: Double) {
    results.append(
      BenchResult(name: name, unit: unit, median: value, p90: value, baseline: nil, ratio: nil))
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
