import JSON
import Referee

extension ReplayResult {
  /// What a scenario replayed several times came to over its runs: how often each rate
  /// expectation held, and which runs did not pass.
  public struct Runs: Sendable, Hashable {
    /// The number of runs.
    public var count: Int
    /// The runs that passed (every expectation held, the timeline ran as written, nothing
    /// crashed or ran out of its budget).
    public var passed: Int
    /// One entry per expectation with a rate, in the scenario's order.
    public var rates: [RateResult]
    /// The runs that did not pass, in run order.
    public var failed: [FailedRun]

    /// A summary of runs.
    public init(count: Int, passed: Int, rates: [RateResult], failed: [FailedRun]) {
      self.count = count
      self.passed = passed
      self.rates = rates
      self.failed = failed
    }
  }

  /// How often one rate expectation held.
  public struct RateResult: Sendable, Hashable {
    /// The expectation's index in the scenario's `expectations`.
    public var expectation: Int
    /// Its name.
    public var name: String
    /// The runs it held in, of the runs that were judged.
    public var share: Proportion
    /// The least share it must hold in.
    public var atLeast: Double

    /// A rate's result.
    public init(expectation: Int, name: String, share: Proportion, atLeast: Double) {
      self.expectation = expectation
      self.name = name
      self.share = share
      self.atLeast = atLeast
    }

    /// Whether it held: the observed share is at least the target (docs/REPORTS.md says why
    /// the point estimate and not the interval's lower bound).
    public var passed: Bool { share.estimate >= atLeast }
  }

  /// A run that did not pass: its index, its seed (to replay it alone with `--runs 1 --seed`),
  /// its verdict and what failed in it.
  public struct FailedRun: Sendable, Hashable {
    /// The run's index, 0 for the scenario's own seed.
    public var run: Int
    /// The seed it ran with.
    public var seed: UInt64
    /// Its verdict as a run of its own.
    public var verdict: Verdict
    /// The names of the expectations that failed in it, then `timeline` for timeline errors,
    /// `trace` for a trace issue not allowed, `crash` or `timeout`.
    public var failures: [String]

    /// A failed run.
    public init(run: Int, seed: UInt64, verdict: Verdict, failures: [String]) {
      self.run = run
      self.seed = seed
      self.verdict = verdict
      self.failures = failures
    }
  }

  /// The result of `scenario` over its runs, `runs[i]` being run i's result (run 0 with the
  /// scenario's own seed).
  ///
  /// An expectation without a rate holds when it held in every run; one with a rate when the
  /// share of runs it held in is at least its target. Its message says in how many runs it
  /// held and, for a failure, the first run it failed in with that run's own message. Timeline
  /// errors and trace issues are those of every run (each error once, with the first run that
  /// had it); the first crash or timeout makes the whole scenario's verdict `crash` or
  /// `timeout` and no expectation is judged. The event count is the sum over the runs; the
  /// pending work is run 0's.
  ///
  /// - Precondition: `runs` is not empty.
  public init(aggregating runs: [ReplayResult], scenario: Scenario) {
    precondition(!runs.isEmpty, "a scenario's result needs at least one run")
    self.init(scenario: scenario)
    seed = runs[0].seed
    eventCount = runs.reduce(0) { $0 + $1.eventCount }
    pendingWork = runs[0].pendingWork
    traceIssues = runs[0].traceIssues
    assumptions = AssumptionUse.aggregating(runs.map(\.assumptions))
    func label(_ i: Int) -> String { "run \(i) (seed \(runs[i].seed))" }

    var seen: [String: (first: Int, count: Int)] = [:]
    var order: [String] = []
    for (i, run) in runs.enumerated() {
      for error in run.timelineErrors {
        if let s = seen[error] {
          seen[error] = (s.first, s.count + 1)
        } else {
          seen[error] = (i, 1)
          order.append(error)
        }
      }
    }
    timelineErrors = order.map { error in
      let s = seen[error]!
      return "\(error) (in \(s.count) of \(runs.count) runs; first \(label(s.first)))"
    }

    if let i = runs.firstIndex(where: { $0.crash != nil }), let crash = runs[i].crash {
      self.crash = Crash(reason: "\(label(i)): \(crash.reason)", lastEvents: crash.lastEvents)
    } else if let i = runs.firstIndex(where: { $0.timeout != nil }), let timeout = runs[i].timeout {
      self.timeout = Timeout(
        reason: "\(label(i)): \(timeout.reason)", lastEvents: timeout.lastEvents)
    }

    var rates: [RateResult] = []
    if crash == nil && timeout == nil {
      expectations = scenario.expectations.enumerated().map { j, expectation in
        // Every run that reached its end judged every expectation; one that did not (its
        // result damaged or from another version of the file) counts as not holding.
        let results = runs.map { run in
          j < run.expectations.count
            ? run.expectations[j]
            : ExpectationResult(
              name: expectation.name, kind: expectation.rule.kind, passed: false,
              message: "not judged in this run")
        }
        let held = results.filter(\.passed).count
        let firstFailure = results.firstIndex { !$0.passed }
        let kind = expectation.rule.kind
        var message: String
        let passed: Bool
        if let rate = expectation.rate {
          let result = RateResult(
            expectation: j, name: expectation.name,
            share: Proportion(successes: held, trials: runs.count), atLeast: rate.atLeast)
          rates.append(result)
          passed = result.passed
          message = Self.describe(result)
        } else {
          passed = held == runs.count
          message =
            passed
            ? "held in every run (\(held) of \(runs.count))"
            : "held in \(held) of \(runs.count) runs; expected every run"
        }
        if let f = firstFailure {
          message += "; first failed in \(label(f)): \(results[f].message)"
        } else {
          message += "; run 0: \(results[0].message)"
        }
        return ExpectationResult(
          name: expectation.name, kind: kind, passed: passed, message: message,
          time: results[firstFailure ?? 0].time)
      }
    }

    let failed = runs.enumerated().compactMap { i, run -> FailedRun? in
      guard !run.passed else { return nil }
      var failures = run.expectations.filter { !$0.passed }.map(\.name)
      if !run.timelineErrors.isEmpty { failures.append("timeline") }
      if !run.refusedTraceIssues.isEmpty { failures.append("trace") }
      if run.crash != nil { failures.append("crash") }
      if run.timeout != nil { failures.append("timeout") }
      return FailedRun(run: i, seed: run.seed, verdict: run.verdict, failures: failures)
    }
    self.runs = Runs(
      count: runs.count, passed: runs.count - failed.count, rates: rates, failed: failed)
  }

  /// "held in 87 of 100 runs (87 %, 95 % interval 79 %–92 %); at least 90 % required".
  static func describe(_ rate: RateResult) -> String {
    let interval = rate.share.wilsonInterval()
    return
      "held in \(rate.share.successes) of \(rate.share.trials) runs "
      + "(\(percent(rate.share.estimate)), 95 % interval \(percent(interval.lowerBound))–"
      + "\(percent(interval.upperBound))); at least \(percent(rate.atLeast)) required"
  }

  /// A share as a percentage with at most one decimal: `87 %`, `82.5 %`.
  public static func percent(_ share: Double) -> String {
    "\(JSONText.number((share * 1_000).rounded() / 10)) %"
  }
}

extension ReplayResult.Runs {
  /// A share rounded to four decimals, as the JSON writes it.
  static func rounded(_ x: Double) -> JSONValue { .number((x * 10_000).rounded() / 10_000) }

  /// The runs as JSON (docs/REPORTS.md, "Runs and rates"): `count`, `passed`, `rates` and
  /// `failed`.
  public var json: JSONValue {
    .object([
      "count": .number(Double(count)), "passed": .number(Double(passed)),
      "rates": .array(
        rates.map { r in
          let interval = r.share.wilsonInterval()
          return .object([
            "expectation": .number(Double(r.expectation)), "name": .string(r.name),
            "held": .number(Double(r.share.successes)), "runs": .number(Double(r.share.trials)),
            "rate": Self.rounded(r.share.estimate), "lower": Self.rounded(interval.lowerBound),
            "upper": Self.rounded(interval.upperBound), "atLeast": .number(r.atLeast),
            "passed": .bool(r.passed),
          ])
        }),
      "failed": .array(
        failed.map { f in
          .object([
            "run": .number(Double(f.run)), "seed": .string(String(f.seed)),
            "verdict": .string(f.verdict.rawValue),
            "failures": .array(f.failures.map(JSONValue.string)),
          ])
        }),
    ])
  }

  /// Reads runs back from ``json``, or `nil` if it is not what ``json`` writes.
  public init?(json: JSONValue) {
    func whole(_ v: JSONValue?, _ range: ClosedRange<Int>) -> Int? {
      guard case .number(let n)? = v, n == n.rounded(), n >= Double(range.lowerBound),
        n <= Double(range.upperBound)
      else { return nil }
      return Int(n)
    }
    guard case .object(let o) = json, let count = whole(o["count"], 1...Scenario.maximumRuns),
      let passed = whole(o["passed"], 0...count), case .array(let rateList)? = o["rates"],
      case .array(let failedList)? = o["failed"]
    else { return nil }
    var rates: [ReplayResult.RateResult] = []
    for item in rateList {
      guard case .object(let r) = item, let index = whole(r["expectation"], 0...Int(Int32.max)),
        case .string(let name)? = r["name"], let trials = whole(r["runs"], 1...count),
        let held = whole(r["held"], 0...trials), case .number(let atLeast)? = r["atLeast"],
        atLeast > 0, atLeast <= 1
      else { return nil }
      rates.append(
        .init(
          expectation: index, name: name, share: Proportion(successes: held, trials: trials),
          atLeast: atLeast))
    }
    var failed: [ReplayResult.FailedRun] = []
    for item in failedList {
      guard case .object(let f) = item, let run = whole(f["run"], 0...(count - 1)),
        case .string(let seedText)? = f["seed"], let seed = UInt64(seedText),
        case .string(let verdictName)? = f["verdict"],
        let verdict = ReplayResult.Verdict(rawValue: verdictName),
        case .array(let names)? = f["failures"]
      else { return nil }
      let failures = names.compactMap { if case .string(let s) = $0 { s } else { nil } }
      guard failures.count == names.count else { return nil }
      failed.append(.init(run: run, seed: seed, verdict: verdict, failures: failures))
    }
    self.init(count: count, passed: passed, rates: rates, failed: failed)
  }
}
