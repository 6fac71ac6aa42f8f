import Device
import JSON
import SimKernel

extension ReplayResult {
  /// An unconfirmed default (`Assumption`, tagged `[?]`) that a replay actually depended on,
  /// with how often and when it first did.
  ///
  /// A report lists one for each assumption the phone recorded (source `assumption` in the
  /// event log), in `Assumption`'s order, so that a verdict's reader sees which of its causes
  /// no source confirms, and which scenario keys would change it.
  public struct AssumptionUse: Sendable, Hashable {
    /// The assumption.
    public var assumption: Assumption
    /// Its value in the replayed scenario, as text (`0.5`).
    public var value: String
    /// How many times the runs depended on it.
    public var count: Int
    /// The simulated second it was first depended on (in ``firstRun`` for several runs).
    public var firstTime: Double
    /// For a scenario replayed several times, in how many runs it was depended on; `nil` for
    /// one run.
    public var runs: Int?
    /// For a scenario replayed several times, the first run that depended on it.
    public var firstRun: Int?

    /// A use.
    public init(
      assumption: Assumption, value: String, count: Int, firstTime: Double, runs: Int? = nil,
      firstRun: Int? = nil
    ) {
      self.assumption = assumption
      self.value = value
      self.count = count
      self.firstTime = firstTime
      self.runs = runs
      self.firstRun = firstRun
    }

    /// Its source tag: `[?]`, as every `Assumption` is unconfirmed.
    public var tag: String { "[?]" }

    /// The scenario keys that change it (docs/SCENARIOS.md).
    public var scenarioKeys: [String] { Self.scenarioKeys(of: assumption) }

    /// The scenario keys that change `assumption`.
    public static func scenarioKeys(of assumption: Assumption) -> [String] {
      switch assumption {
      case .staleFirstFix: ["device.parameters.staleFirstFixProbability"]
      case .invalidFix: ["device.sensor.invalidFixProbability"]
      case .locationTriggerAddedInside: ["device.parameters.locationTriggerFiresWhenAddedInside"]
      }
    }

    /// `assumption`'s value in a phone with `device`'s settings.
    public static func value(of assumption: Assumption, in device: DeviceSetup) -> String {
      switch assumption {
      case .staleFirstFix: JSONText.number(device.parameters.staleFirstFixProbability)
      case .invalidFix: JSONText.number(device.sensor.invalidFixProbability)
      case .locationTriggerAddedInside:
        device.parameters.locationTriggerFiresWhenAddedInside ? "true" : "false"
      }
    }

    /// The uses the events in `log` record, in `Assumption`'s order; values from `device`.
    public static func uses(in log: EventLog, device: DeviceSetup) -> [AssumptionUse] {
      var first: [Assumption: SimTime] = [:]
      var counts: [Assumption: Int] = [:]
      for (entry, event) in log.events(AssumptionEvent.self) {
        let a = event.assumption
        if first[a] == nil { first[a] = entry.time }
        counts[a, default: 0] += 1
      }
      return Assumption.allCases.compactMap { a in
        guard let time = first[a], let count = counts[a] else { return nil }
        return AssumptionUse(
          assumption: a, value: value(of: a, in: device), count: count, firstTime: time.seconds)
      }
    }

    /// The uses of several runs together, `runs[i]` being run i's: each assumption any run
    /// depended on, with its count over the runs, the number of runs and the first of them.
    public static func aggregating(_ runs: [[AssumptionUse]]) -> [AssumptionUse] {
      Assumption.allCases.compactMap { a in
        let found = runs.enumerated().compactMap { i, uses in
          uses.first { $0.assumption == a }.map { (run: i, use: $0) }
        }
        guard let first = found.first else { return nil }
        return AssumptionUse(
          assumption: a, value: first.use.value, count: found.reduce(0) { $0 + $1.use.count },
          firstTime: first.use.firstTime, runs: found.count, firstRun: first.run)
      }
    }

    /// How often, as the reports write it: `2 times`, or `in 37 of 100 runs (41 times)`.
    public func exercisedText(of totalRuns: Int?) -> String {
      let times = count == 1 ? "once" : "\(count) times"
      guard let runs, let totalRuns else { return times }
      return "in \(runs) of \(totalRuns) runs (\(times))"
    }

    /// When first, as the reports write it: `12.5 s`, or `run 3, 12.5 s`.
    public var firstText: String {
      (firstRun.map { "run \($0), " } ?? "") + "\(JSONText.number(firstTime)) s"
    }

    /// The use as JSON (docs/REPORTS.md, "Assumptions"); the same use gives the same bytes.
    public var json: JSONValue {
      .object([
        "assumption": .string(assumption.rawValue), "parameter": .string(assumption.parameter),
        "value": .string(value), "tag": .string(tag), "meaning": .string(assumption.summary),
        "scenarioKeys": .array(scenarioKeys.map(JSONValue.string)),
        "count": .number(Double(count)), "firstTime": .number(firstTime),
        "runs": runs.map { .number(Double($0)) } ?? .null,
        "firstRun": firstRun.map { .number(Double($0)) } ?? .null,
      ])
    }

    /// Reads a use back from ``json``, or `nil` if it is not what ``json`` writes.
    public init?(json: JSONValue) {
      func whole(_ v: JSONValue?) -> Int? {
        guard case .number(let n)? = v, n == n.rounded(), n >= 0, n <= Double(Int32.max)
        else { return nil }
        return Int(n)
      }
      guard case .object(let o) = json, case .string(let name)? = o["assumption"],
        let assumption = Assumption(rawValue: name), case .string(let value)? = o["value"],
        let count = whole(o["count"]), count >= 1, case .number(let firstTime)? = o["firstTime"],
        firstTime >= 0
      else { return nil }
      var runs: Int?
      var firstRun: Int?
      if (o["runs"] ?? .null) != .null || (o["firstRun"] ?? .null) != .null {
        guard let r = whole(o["runs"]), r >= 1, let f = whole(o["firstRun"]) else { return nil }
        runs = r
        firstRun = f
      }
      self.init(
        assumption: assumption, value: value, count: count, firstTime: firstTime, runs: runs,
        firstRun: firstRun)
    }
  }
}
