import JSON
import Referee
import SimKernel

/// A figure of a sweep group with its 95 % interval: a proportion with Wilson's score
/// interval, or a latency median with a seeded percentile-bootstrap interval.
public struct SweepEstimate: Sendable, Hashable {
  /// The figure; `nil` when there was nothing to compute it from.
  public let value: Double?
  /// The interval; `nil` with ``value``.
  public let interval: ClosedRange<Double>?

  /// `successes` of `trials` with Wilson's score interval (`Referee.Proportion`); no value for no
  /// trials.
  public static func proportion(_ successes: Int, of trials: Int) -> SweepEstimate {
    guard trials > 0 else { return SweepEstimate(value: nil, interval: nil) }
    let share = Proportion(successes: successes, trials: trials)
    return SweepEstimate(value: share.estimate, interval: share.wilsonInterval())
  }

  /// The median of `latencies` with the percentile-bootstrap interval of the median
  /// (`Referee.Bootstrap`), drawn from the stream named `stream` of seed 0: the same latencies and
  /// the same name give the same interval, whatever else the sweep holds and however it was
  /// sharded.
  public static func median(_ latencies: [Double], stream: String) -> SweepEstimate {
    guard let median = quantile(latencies, 0.5) else {
      return SweepEstimate(value: nil, interval: nil)
    }
    let interval = Bootstrap.quantileInterval(
      latencies, 0.5, random: RandomStream(seed: 0).split(stream))
    return SweepEstimate(value: median, interval: interval)
  }

  /// The interval as JSON, `[lower, upper]` rounded to `1/scale`, or `null`.
  func intervalJSON(_ scale: Double) -> JSONValue {
    interval.map {
      .array([SweepReport.rounded($0.lowerBound, scale), SweepReport.rounded($0.upperBound, scale)])
    }
      ?? .null
  }
}

extension SweepReport.Group {
  /// Sensitivity over the group's runs: detections of true crossings, with its interval.
  public var sensitivityEstimate: SweepEstimate { .proportion(detected, of: trueCrossings) }

  /// Precision over the group's runs: detections of all triggers, with its interval.
  public var precisionEstimate: SweepEstimate {
    .proportion(detected, of: detected + falseTriggers)
  }

  /// An expectation that did not hold in some of the group's runs.
  public struct Failure: Sendable, Hashable {
    /// The expectation's name.
    public let expectation: String
    /// The runs (indices) in which it did not hold, in grid order.
    public let runs: [Int]
    /// How many of the group's runs that is, with its interval.
    public let share: SweepEstimate
  }

  /// The expectations that failed in some run, in the order they first failed.
  public var failures: [Failure] {
    var order: [String] = []
    var failing: [String: [Int]] = [:]
    for run in runs {
      // An expectation named twice in a scenario counts once per run.
      var seen: Set<String> = []
      for name in run.failedExpectations where seen.insert(name).inserted {
        if failing[name] == nil { order.append(name) }
        failing[name, default: []].append(run.index)
      }
    }
    return order.map { name in
      Failure(
        expectation: name, runs: failing[name]!,
        share: .proportion(failing[name]!.count, of: runs.count))
    }
  }

  /// The runs worth opening: every one whose verdict is not `pass` or in which an expectation
  /// did not hold, in grid order.
  public var runsToOpen: [SweepRun] {
    runs.filter { $0.verdict != .pass || !$0.failedExpectations.isEmpty }
  }

  /// One fence's (or alarm's) figures over the group's runs: the runs' counts of that fence
  /// pooled, never those of another fence.
  public struct FenceFigures: Sendable, Hashable {
    /// The fence's name (``SweepRun/Fence/name``).
    public let name: String
    /// Runs in which it was registered.
    public let runs: Int
    /// True crossings over those runs.
    public let trueCrossings: Int
    /// Detections over those runs.
    public let detected: Int
    /// False triggers over those runs.
    public let falseTriggers: Int
    /// Detected / true crossings, with its interval.
    public let sensitivity: SweepEstimate
    /// Detected / (detected + false triggers), with its interval.
    public let precision: SweepEstimate
    /// The median latency, with its interval (an alarm's: its earliest fence's answer).
    public let latency: SweepEstimate
  }

  static func figures(
    _ runs: [SweepRun], _ list: KeyPath<SweepRun, [SweepRun.Fence]>, group: String, kind: String
  ) -> [FenceFigures] {
    var order: [String] = []
    var members: [String: [SweepRun.Fence]] = [:]
    for run in runs {
      for fence in run[keyPath: list] {
        if members[fence.name] == nil { order.append(fence.name) }
        members[fence.name, default: []].append(fence)
      }
    }
    return order.map { name in
      let all = members[name]!
      let trueCrossings = all.reduce(0) { $0 + $1.trueCrossings }
      let detected = all.reduce(0) { $0 + $1.detected }
      let falseTriggers = all.reduce(0) { $0 + $1.falseTriggers }
      return FenceFigures(
        name: name, runs: all.count, trueCrossings: trueCrossings, detected: detected,
        falseTriggers: falseTriggers, sensitivity: .proportion(detected, of: trueCrossings),
        precision: .proportion(detected, of: detected + falseTriggers),
        latency: .median(
          all.flatMap(\.latencies).sorted(), stream: "sweep.latency.\(group).\(kind).\(name)"))
    }
  }
}
