import Foundation
import JSON
import Referee
import Replay
import Synchronization

/// One point of a sweep: its parameter values and the figures its replay gave.
public struct SweepRun: Sendable, Hashable {
  /// The point's index in the grid.
  public let index: Int
  /// The point's value of each parameter, in the grid's order.
  public let values: [JSONValue]
  /// The verdict.
  public let verdict: ReplayResult.Verdict
  /// The crash's reason, if the app crashed.
  public let crash: String?
  /// The budget the replay ran out of, if it was stopped before its end.
  public let timeout: String?
  /// True crossings of the replay's fences.
  public let trueCrossings: Int
  /// Crossings detected.
  public let detected: Int
  /// Triggers with no true crossing.
  public let falseTriggers: Int
  /// Latencies (s) of the detections, in the order they happened.
  public let latencies: [Double]
  /// Search requests and those that failed.
  public let searchRequests: Int
  /// Search requests that failed.
  public let searchErrors: Int
  /// The names of the expectations that did not hold, in the scenario's order.
  public let failedExpectations: [String]
  /// The figures of each fence of the replay, in registration order: never pooled.
  public let fences: [Fence]
  /// The figures of each alarm (the fences at one place active together, counted once), in
  /// the order of their first fence; an alarm's latency is its earliest fence's answer.
  public let alarms: [Fence]
  /// The run's report folder, relative to the sweep's folder (`runs/7`), when the sweep wrote
  /// one: it holds `report.md`, `index.html` and the scenario's own folder, as a replay's
  /// output folder does.
  public var folder: String?

  /// One fence's (or one alarm's) figures in one run.
  public struct Fence: Sendable, Hashable {
    /// The fence as the sweep names it across runs: kind, identifier and registration
    /// (`region arrival #1`); an alarm's is its fences' names joined by ` + `.
    public let name: String
    /// Its true crossings.
    public let trueCrossings: Int
    /// Those it detected.
    public let detected: Int
    /// Its triggers with no true crossing.
    public let falseTriggers: Int
    /// The latencies (s) of its detections, in the order they happened.
    public let latencies: [Double]

    /// A fence's figures.
    public init(
      name: String, trueCrossings: Int, detected: Int, falseTriggers: Int, latencies: [Double]
    ) {
      self.name = name
      self.trueCrossings = trueCrossings
      self.detected = detected
      self.falseTriggers = falseTriggers
      self.latencies = latencies
    }

    var json: JSONValue {
      .object([
        "name": .string(name), "trueCrossings": .number(Double(trueCrossings)),
        "detected": .number(Double(detected)), "falseTriggers": .number(Double(falseTriggers)),
        "latencies": .array(latencies.map { .number($0) }),
      ])
    }
  }

  /// The figures of a replay that ran to its end: its result and its report's analyses.
  public init(
    index: Int, values: [JSONValue], result: ReplayResult, geofence: GeofenceReport?,
    search: SearchReport?
  ) {
    self.index = index
    self.values = values
    verdict = result.verdict
    crash = result.crash?.reason
    timeout = result.timeout?.reason
    let summary = geofence?.summary
    trueCrossings = summary?.trueCrossings ?? 0
    detected = summary?.detected ?? 0
    falseTriggers = summary?.falseTriggers ?? 0
    latencies = (geofence?.observations ?? []).compactMap(\.latency).map {
      ($0 * 1_000).rounded() / 1_000
    }
    searchRequests = search?.requests.count ?? 0
    searchErrors = search?.requests.filter(\.isError).count ?? 0
    failedExpectations = result.expectations.filter { !$0.passed }.map(\.name)
    let report = geofence
    let names = (report?.fences ?? []).map {
      "\($0.kind.rawValue) \($0.identifier) #\($0.registration)"
    }
    fences = (report?.fenceSummaries ?? []).enumerated().map { i, summary in
      Fence(
        name: names[i], trueCrossings: summary.trueCrossings, detected: summary.detected,
        falseTriggers: summary.falseTriggers,
        latencies: (report?.observations ?? []).filter { $0.fence == i }.compactMap(\.latency)
          .map { ($0 * 1_000).rounded() / 1_000 })
    }
    alarms = (report?.alarms ?? []).map { alarm in
      Fence(
        name: alarm.fences.map { names[$0] }.joined(separator: " + "),
        trueCrossings: alarm.summary.trueCrossings, detected: alarm.summary.detected,
        falseTriggers: alarm.summary.falseTriggers,
        latencies: alarm.latencies.map { ($0 * 1_000).rounded() / 1_000 })
    }
    folder = nil
  }

  /// The figures of `run`, point `index` of its grid: its analyses when it reached its end,
  /// none when it was stopped for its event budget.
  public init(index: Int, values: [JSONValue], run: ScenarioRun, resources: ReplayResources)
    throws
  {
    if run.result.timeout != nil {
      self.init(index: index, values: values, result: run.result, geofence: nil, search: nil)
      return
    }
    let report = try ScenarioReport(
      input: ReportInput(run), context: run.world.geos, resources: resources)
    self.init(
      index: index, values: values, result: run.result, geofence: report.geofence,
      search: report.search)
  }

  /// A point whose app crashed.
  public init(index: Int, values: [JSONValue], crash: String) {
    self.init(index: index, values: values, crash: crash, timeout: nil)
  }

  /// A point whose replay ran out of its time budget in its worker.
  public init(index: Int, values: [JSONValue], timeout: String) {
    self.init(index: index, values: values, crash: nil, timeout: timeout)
  }

  private init(index: Int, values: [JSONValue], crash: String?, timeout: String?) {
    self.index = index
    self.values = values
    verdict = crash != nil ? .crash : .timeout
    self.crash = crash
    self.timeout = timeout
    trueCrossings = 0
    detected = 0
    falseTriggers = 0
    latencies = []
    searchRequests = 0
    searchErrors = 0
    failedExpectations = []
    fences = []
    alarms = []
    folder = nil
  }

  /// The run as JSON.
  public var json: JSONValue {
    .object([
      "index": .number(Double(index)), "values": .array(values),
      "verdict": .string(verdict.rawValue),
      "crash": crash.map(JSONValue.string) ?? .null,
      "timeout": timeout.map(JSONValue.string) ?? .null,
      "trueCrossings": .number(Double(trueCrossings)), "detected": .number(Double(detected)),
      "falseTriggers": .number(Double(falseTriggers)),
      "latencies": .array(latencies.map { .number($0) }),
      "searchRequests": .number(Double(searchRequests)),
      "searchErrors": .number(Double(searchErrors)),
      "failedExpectations": .array(failedExpectations.map(JSONValue.string)),
      "fences": .array(fences.map(\.json)), "alarms": .array(alarms.map(\.json)),
      "folder": folder.map(JSONValue.string) ?? .null,
    ])
  }

  /// Why a run read back from JSON is not one a sweep can have written: the member, if one
  /// is to blame, and what was expected.
  public struct Problem: Error, Sendable, Hashable, CustomStringConvertible {
    /// The run's member (`detected`), or `nil` for the run as a whole.
    public let member: String?
    /// The place inside the member, for a member that holds objects (`[0, "detected"]` of
    /// `fences`); empty otherwise.
    public let within: JSONPath
    /// What was expected.
    public let message: String

    /// A problem with `member`, at `within` inside it.
    public init(member: String?, within: JSONPath = [], message: String) {
      self.member = member
      self.within = within
      self.message = message
    }

    /// "detected: expected a whole number of crossings from 0 to trueCrossings (2), found 999".
    public var description: String {
      guard let member else { return message }
      return "\(JSONPath([.key(member)]).appending(within)): \(message)"
    }
  }

  /// Reads a run back from ``json``, or `nil` if it is not one a sweep can have written.
  public init?(json: JSONValue) {
    guard let run = try? Self.reading(json) else { return nil }
    self = run
  }

  /// Reads a run back from ``json``: every member present, of its type and in its range — a
  /// whole index and counts from 0 (no more detected than true crossings, no more failed
  /// than sent searches), finite latencies, a known verdict, a crash exactly when the verdict
  /// is `crash` and a timeout exactly when it is `timeout`, expectation names as strings,
  /// fences and alarms with counts and latencies alike, and a folder that is `null` or the
  /// run's own (``folder(of:)``).
  ///
  /// - Throws: ``Problem`` naming the first member that is not so.
  public static func reading(_ json: JSONValue) throws(Problem) -> SweepRun {
    guard case .object(let o) = json else {
      throw Problem(member: nil, message: "expected an object, found \(json.typeName)")
    }
    func count(_ key: String, atMost limit: Int = Int(Int32.max), _ what: String) throws(Problem)
      -> Int
    {
      guard case .number(let n)? = o[key], n >= 0, n == n.rounded(), n <= Double(limit) else {
        throw Problem(
          member: key,
          message: "expected \(what) from 0 to \(limit), found \(o[key]?.jsonText ?? "nothing")")
      }
      return Int(n)
    }
    let index = try count("index", "a whole index")
    guard case .array(let values)? = o["values"] else {
      throw Problem(member: "values", message: "expected the point's parameter values, an array")
    }
    guard case .string(let verdictName)? = o["verdict"],
      let verdict = ReplayResult.Verdict(rawValue: verdictName)
    else {
      let names = ReplayResult.Verdict.allCases.map { "\"\($0.rawValue)\"" }
      throw Problem(
        member: "verdict",
        message:
          "expected one of \(names.joined(separator: ", ")), found \(o["verdict"]?.jsonText ?? "nothing")"
      )
    }
    let crash: String?
    switch o["crash"] {
    case .string(let reason)?: crash = reason
    case .null?: crash = nil
    default: throw Problem(member: "crash", message: "expected the crash's reason or null")
    }
    guard (verdict == .crash) == (crash != nil) else {
      throw Problem(
        member: "crash",
        message: verdict == .crash
          ? "expected the reason of the crash its verdict names, found null"
          : "expected null for a \"\(verdict.rawValue)\" run, found a crash")
    }
    let timeout: String?
    switch o["timeout"] {
    case .string(let reason)?: timeout = reason
    case .null?: timeout = nil
    default: throw Problem(member: "timeout", message: "expected the timeout's reason or null")
    }
    guard (verdict == .timeout) == (timeout != nil) else {
      throw Problem(
        member: "timeout",
        message: verdict == .timeout
          ? "expected the budget a \"timeout\" run ran out of, found null"
          : "expected null for a \"\(verdict.rawValue)\" run, found a timeout")
    }
    let trueCrossings = try count("trueCrossings", "a whole number of true crossings")
    let detected = try count(
      "detected", atMost: trueCrossings, "a whole number of detected crossings")
    let falseTriggers = try count("falseTriggers", "a whole number of false triggers")
    guard case .array(let latencyValues)? = o["latencies"] else {
      throw Problem(member: "latencies", message: "expected an array of seconds")
    }
    var latencies: [Double] = []
    for value in latencyValues {
      guard case .number(let seconds) = value, abs(seconds) <= 1e9 else {
        throw Problem(
          member: "latencies",
          message: "expected seconds within ±1e9, found \(value.jsonText)")
      }
      latencies.append(seconds)
    }
    let searchRequests = try count("searchRequests", "a whole number of search requests")
    let searchErrors = try count(
      "searchErrors", atMost: searchRequests, "a whole number of failed searches")
    guard case .array(let failedValues)? = o["failedExpectations"] else {
      throw Problem(
        member: "failedExpectations", message: "expected an array of expectation names")
    }
    var failedExpectations: [String] = []
    for value in failedValues {
      guard case .string(let name) = value else {
        throw Problem(
          member: "failedExpectations",
          message: "expected an expectation's name, found \(value.jsonText)")
      }
      failedExpectations.append(name)
    }
    let fences = try readingFences("fences", in: o)
    let alarms = try readingFences("alarms", in: o)
    let folder: String?
    switch o["folder"] {
    case .string(let path)? where Self.isRunFolder(path, index: index): folder = path
    case .null?: folder = nil
    default:
      throw Problem(
        member: "folder",
        message: "expected null or \"runs/\(index)\", found \(o["folder"]?.jsonText ?? "nothing")")
    }
    var run = SweepRun(
      index: index, values: values, verdict: verdict, crash: crash, timeout: timeout,
      trueCrossings: trueCrossings, detected: detected, falseTriggers: falseTriggers,
      latencies: latencies, searchRequests: searchRequests, searchErrors: searchErrors,
      failedExpectations: failedExpectations, fences: fences, alarms: alarms)
    run.folder = folder
    return run
  }

  /// The folder a sweep writes run `index`'s report in, relative to the sweep's folder.
  public static func folder(of index: Int) -> String { "runs/\(index)" }

  static func isRunFolder(_ path: String, index: Int) -> Bool { path == folder(of: index) }

  private static func readingFences(_ key: String, in o: [String: JSONValue]) throws(Problem)
    -> [Fence]
  {
    guard case .array(let list)? = o[key] else {
      throw Problem(member: key, message: "expected an array of fences' figures")
    }
    var fences: [Fence] = []
    for (i, item) in list.enumerated() {
      func problem(_ what: String, at field: String? = nil) -> Problem {
        Problem(
          member: key, within: field.map { [.index(i), .key($0)] } ?? [.index(i)], message: what)
      }
      guard case .object(let f) = item, case .string(let name)? = f["name"] else {
        throw problem("expected an object with a name")
      }
      func count(_ member: String, atMost limit: Int = Int(Int32.max)) throws(Problem) -> Int {
        guard case .number(let n)? = f[member], n >= 0, n == n.rounded(), n <= Double(limit)
        else {
          throw problem(
            "expected a whole number from 0 to \(limit), found \(f[member]?.jsonText ?? "nothing")",
            at: member)
        }
        return Int(n)
      }
      let trueCrossings = try count("trueCrossings")
      let detected = try count("detected", atMost: trueCrossings)
      let falseTriggers = try count("falseTriggers")
      guard case .array(let values)? = f["latencies"] else {
        throw problem("expected an array of seconds", at: "latencies")
      }
      var latencies: [Double] = []
      for value in values {
        guard case .number(let seconds) = value, abs(seconds) <= 1e9 else {
          throw problem("expected seconds within ±1e9, found \(value.jsonText)", at: "latencies")
        }
        latencies.append(seconds)
      }
      fences.append(
        Fence(
          name: name, trueCrossings: trueCrossings, detected: detected,
          falseTriggers: falseTriggers, latencies: latencies))
    }
    return fences
  }

  private init(
    index: Int, values: [JSONValue], verdict: ReplayResult.Verdict, crash: String?,
    timeout: String?, trueCrossings: Int, detected: Int, falseTriggers: Int, latencies: [Double],
    searchRequests: Int, searchErrors: Int, failedExpectations: [String], fences: [Fence],
    alarms: [Fence]
  ) {
    self.index = index
    self.values = values
    self.verdict = verdict
    self.crash = crash
    self.timeout = timeout
    self.trueCrossings = trueCrossings
    self.detected = detected
    self.falseTriggers = falseTriggers
    self.latencies = latencies
    self.searchRequests = searchRequests
    self.searchErrors = searchErrors
    self.failedExpectations = failedExpectations
    self.fences = fences
    self.alarms = alarms
    folder = nil
  }
}

/// A sweep's aggregate: the runs grouped by every parameter but the seed, with sensitivity,
/// precision and latency per group and per fence and alarm, each with its 95 % interval, the
/// expectations that failed and the runs to open, as JSON, Markdown and SVG charts.
public struct SweepReport {
  /// The scenario file the sweep varies.
  public let base: String
  /// The grid.
  public let grid: SweepGrid
  /// `i/n` for one shard of a sweep; `nil` for a whole (or merged) sweep.
  public let shard: String?
  /// The runs, by index.
  public let runs: [SweepRun]
  /// The indices this report should hold but does not (a shard's or a merge's gaps).
  public let missing: [Int]

  /// One group of runs: the same values of every parameter except `seed`.
  public struct Group: Sendable {
    /// The group's name: its parameters and values (`radius=100, trace.speed=car`), or
    /// `sweep` when every parameter is `seed`. Its bootstrap streams are named after it.
    public let name: String
    /// The group's values, one per grouped parameter.
    public let values: [JSONValue]
    /// Its runs.
    public let runs: [SweepRun]
    /// The median of its latencies, with its bootstrap interval from the stream named after
    /// the group (`sweep.latency.<group name>`).
    public let latencyEstimate: SweepEstimate
    /// Per fence, by name, in the order the fences first appear.
    public let fences: [FenceFigures]
    /// Per alarm, by name, in the order the alarms first appear.
    public let alarms: [FenceFigures]

    /// The group `name` of `runs`, its figures computed once (a bootstrap is not cheap).
    init(name: String, values: [JSONValue], runs: [SweepRun]) {
      self.name = name
      self.values = values
      self.runs = runs
      latencyEstimate = .median(
        runs.flatMap(\.latencies).sorted(), stream: "sweep.latency.\(name)")
      fences = Self.figures(runs, \.fences, group: name, kind: "fence")
      alarms = Self.figures(runs, \.alarms, group: name, kind: "alarm")
    }

    /// Runs whose verdict is healthy (pass or expected failure).
    public var passed: Int { runs.filter(\.verdict.isHealthy).count }
    /// Runs that crashed.
    public var crashes: Int { runs.filter { $0.verdict == .crash }.count }
    /// Runs stopped for their event or time budget.
    public var timeouts: Int { runs.filter { $0.verdict == .timeout }.count }
    /// True crossings in all runs.
    public var trueCrossings: Int { runs.reduce(0) { $0 + $1.trueCrossings } }
    /// Detections in all runs.
    public var detected: Int { runs.reduce(0) { $0 + $1.detected } }
    /// False triggers in all runs.
    public var falseTriggers: Int { runs.reduce(0) { $0 + $1.falseTriggers } }
    /// Detected / true crossings.
    public var sensitivity: Double? {
      trueCrossings == 0 ? nil : Double(detected) / Double(trueCrossings)
    }
    /// Detections / (detections + false triggers).
    public var precision: Double? {
      detected + falseTriggers == 0
        ? nil : Double(detected) / Double(detected + falseTriggers)
    }
    /// All detection latencies, sorted.
    public var latencies: [Double] { runs.flatMap(\.latencies).sorted() }
  }

  /// A report over `runs`, expected to cover `expected` indices.
  public init(
    base: String, grid: SweepGrid, shard: String?, runs: [SweepRun], expected: [Int]
  ) {
    self.base = base
    self.grid = grid
    self.shard = shard
    self.runs = runs.sorted { $0.index < $1.index }
    let have = Set(runs.map(\.index))
    self.missing = expected.filter { !have.contains($0) }
    groups = Self.grouping(self.runs, grid: grid)
  }

  /// The grid's parameters that group runs (all but `seed`).
  public var groupedParameters: [Int] { Self.groupedParameters(grid) }

  static func groupedParameters(_ grid: SweepGrid) -> [Int] {
    grid.parameters.indices.filter { grid.parameters[$0].name != "seed" }
  }

  /// The groups, in grid order.
  public let groups: [Group]

  static func grouping(_ runs: [SweepRun], grid: SweepGrid) -> [Group] {
    let grouped = groupedParameters(grid)
    var order: [[JSONValue]] = []
    var members: [[JSONValue]: [SweepRun]] = [:]
    for run in runs {
      let key = grouped.map { run.values[$0] }
      if members[key] == nil { order.append(key) }
      members[key, default: []].append(run)
    }
    let names = grouped.map { grid.parameters[$0].name }
    // A group's figures (their bootstrap intervals above all) are most of the report's time,
    // and each draws from streams of its own: the groups are made on every core.
    let parts = order.map { ($0, members[$0]!) }
    let threads = max(1, min(ProcessInfo.processInfo.activeProcessorCount, parts.count))
    let made = Mutex([Group?](repeating: nil, count: parts.count))
    // Each thread takes the next group not taken: groups differ in size, and fixed shares
    // could leave one thread working alone at the end.
    let next = Atomic(0)
    DispatchQueue.concurrentPerform(iterations: threads) { _ in
      while true {
        let i = next.add(1, ordering: .relaxed).oldValue
        guard i < parts.count else { return }
        let (values, runs) = parts[i]
        let name = zip(names, values).map { "\($0)=\(Self.text($1))" }.joined(separator: ", ")
        let group = Group(name: name.isEmpty ? "sweep" : name, values: values, runs: runs)
        made.withLock { $0[i] = group }
      }
    }
    return made.withLock { $0.map { $0! } }
  }

  /// Whether every point expected is here.
  public var isComplete: Bool { missing.isEmpty }

  static func rounded(_ x: Double?, _ scale: Double) -> JSONValue {
    x.map { .number(($0 * scale).rounded() / scale) } ?? .null
  }

  /// The sweep as JSON: the grid, every run, and the groups' figures.
  public var json: JSONValue {
    let names = groupedParameters.map { grid.parameters[$0].name }
    return .object([
      "format": .string("geosim-sweep/1"), "base": .string(base), "grid": grid.json,
      "shard": shard.map(JSONValue.string) ?? .null, "complete": .bool(isComplete),
      "missing": .array(missing.map { .number(Double($0)) }),
      "runs": .array(runs.map(\.json)),
      "groups": .array(
        groups.map { g in
          .object([
            "values": .object(Dictionary(uniqueKeysWithValues: zip(names, g.values))),
            "runs": .number(Double(g.runs.count)), "passed": .number(Double(g.passed)),
            "crashes": .number(Double(g.crashes)), "timeouts": .number(Double(g.timeouts)),
            "trueCrossings": .number(Double(g.trueCrossings)),
            "detected": .number(Double(g.detected)),
            "falseTriggers": .number(Double(g.falseTriggers)),
            "sensitivity": Self.rounded(g.sensitivity, 10_000),
            "sensitivityInterval": g.sensitivityEstimate.intervalJSON(10_000),
            "precision": Self.rounded(g.precision, 10_000),
            "precisionInterval": g.precisionEstimate.intervalJSON(10_000),
            "latencyMedian": Self.rounded(quantile(g.latencies, 0.5), 1_000),
            "latencyMedianInterval": g.latencyEstimate.intervalJSON(1_000),
            "latencyP90": Self.rounded(quantile(g.latencies, 0.9), 1_000),
            "failures": .array(
              g.failures.map { f in
                .object([
                  "expectation": .string(f.expectation),
                  "failed": .number(Double(f.runs.count)),
                  "of": .number(Double(g.runs.count)),
                  "share": Self.rounded(f.share.value, 10_000),
                  "shareInterval": f.share.intervalJSON(10_000),
                  "runs": .array(f.runs.map { .number(Double($0)) }),
                ])
              }),
            "runsToOpen": .array(
              g.runsToOpen.map { run in
                .object([
                  "index": .number(Double(run.index)), "verdict": .string(run.verdict.rawValue),
                  "folder": run.folder.map(JSONValue.string) ?? .null,
                ])
              }),
            "fences": .array(g.fences.map(Self.json)),
            "alarms": .array(g.alarms.map(Self.json)),
          ])
        }),
    ])
  }

  static func json(_ f: Group.FenceFigures) -> JSONValue {
    .object([
      "name": .string(f.name), "runs": .number(Double(f.runs)),
      "trueCrossings": .number(Double(f.trueCrossings)), "detected": .number(Double(f.detected)),
      "falseTriggers": .number(Double(f.falseTriggers)),
      "sensitivity": rounded(f.sensitivity.value, 10_000),
      "sensitivityInterval": f.sensitivity.intervalJSON(10_000),
      "precision": rounded(f.precision.value, 10_000),
      "precisionInterval": f.precision.intervalJSON(10_000),
      "latencyMedian": rounded(f.latency.value, 1_000),
      "latencyMedianInterval": f.latency.intervalJSON(1_000),
    ])
  }

  /// A value as a table shows it: strings bare, anything else as JSON.
  public static func text(_ v: JSONValue) -> String {
    if case .string(let s) = v { return s }
    return v.jsonText
  }

  static func percent(_ x: Double?) -> String {
    x.map { "\(Markup.number($0 * 100)) %" } ?? "–"
  }

  static func seconds(_ x: Double?) -> String { x.map { "\(Markup.number($0)) s" } ?? "–" }

  /// `80 % (49–94 %)`: a proportion with its interval.
  static func percent(_ e: SweepEstimate) -> String {
    guard let value = e.value else { return "–" }
    let interval = e.interval.map {
      " (\(Markup.number($0.lowerBound * 100))–\(Markup.number($0.upperBound * 100)) %)"
    }
    return "\(Markup.number(value * 100)) %" + (interval ?? "")
  }

  /// `12.5 s (10–15 s)`: a latency with its interval.
  static func seconds(_ e: SweepEstimate) -> String {
    guard let value = e.value else { return "–" }
    let interval = e.interval.map {
      " (\(Markup.number($0.lowerBound))–\(Markup.number($0.upperBound)) s)"
    }
    return "\(Markup.number(value)) s" + (interval ?? "")
  }

  static func row(_ cells: [String]) -> String {
    // Most cells have no `|`: Foundation's replacing costs microseconds even when it finds none.
    let cells = cells.map {
      $0.utf8.contains(UInt8(ascii: "|")) ? $0.replacingOccurrences(of: "|", with: "\\|") : $0
    }
    return "| " + cells.joined(separator: " | ") + " |\n"
  }

  /// A run as a link to its report folder, or its index when it has none.
  static func link(_ run: SweepRun) -> String {
    guard let folder = run.folder else { return "\(run.index)" }
    return "[\(run.index)](\(folder)/report.md) ([page](\(folder)/index.html))"
  }

  /// The details of one group: its failed expectations, the runs to open, and its figures
  /// per fence and per alarm.
  func markdown(_ g: Group) -> String {
    var md = "### \(g.name)\n\n"
    let byIndex = Dictionary(uniqueKeysWithValues: g.runs.map { ($0.index, $0) })
    if g.failures.isEmpty {
      md += "Every expectation held in every run.\n\n"
    } else {
      md += "Expectations that failed (runs of \(g.runs.count), Wilson 95 %):\n\n"
      for f in g.failures {
        md +=
          "- `\(f.expectation)`: \(f.runs.count) of \(g.runs.count), \(Self.percent(f.share)); runs "
          + f.runs.map { byIndex[$0].map(Self.link) ?? "\($0)" }.joined(separator: ", ") + "\n"
      }
      md += "\n"
    }
    let open = g.runsToOpen
    if !open.isEmpty {
      md +=
        "Runs to open: "
        + open.map { "\(Self.link($0)) \($0.verdict.label)" }.joined(separator: ", ") + "\n\n"
    }
    for (title, list) in [("fence", g.fences), ("alarm", g.alarms)] where !list.isEmpty {
      let header = [
        title, "runs", "true crossings", "detected", "false triggers", "sensitivity",
        "precision", "latency median",
      ]
      md += Self.row(header)
      md += "|" + String(repeating: "---|", count: header.count) + "\n"
      for f in list {
        md += Self.row([
          f.name, "\(f.runs)", "\(f.trueCrossings)", "\(f.detected)", "\(f.falseTriggers)",
          Self.percent(f.sensitivity), Self.percent(f.precision), Self.seconds(f.latency),
        ])
      }
      md += "\n"
    }
    return md
  }

  /// The sweep as Markdown: one row per group.
  public func markdown() -> String {
    let names = groupedParameters.map { grid.parameters[$0].name }
    var md = "# Sweep of \(URL(fileURLWithPath: base).lastPathComponent)\n\n"
    md += "\(runs.count) run(s)" + (shard.map { " (shard \($0))" } ?? "")
    md += isComplete ? ".\n\n" : "; **incomplete**: \(missing.count) point(s) missing.\n\n"
    md +=
      "Parameters: "
      + grid.parameters.map { "`\($0.name)` (\($0.values.count))" }.joined(separator: ", ")
      + ".\n\n"
    md += Self.row(
      names + [
        "runs", "healthy", "crashes", "timeouts", "sensitivity", "precision",
        "false triggers", "latency median", "latency p90",
      ])
    md += "|" + String(repeating: "---|", count: names.count + 9) + "\n"
    let groups = self.groups
    for g in groups {
      md += Self.row(
        g.values.map(Self.text) + [
          "\(g.runs.count)", "\(g.passed)", "\(g.crashes)", "\(g.timeouts)",
          Self.percent(g.sensitivityEstimate), Self.percent(g.precisionEstimate),
          "\(g.falseTriggers)", Self.seconds(g.latencyEstimate),
          Self.seconds(quantile(g.latencies, 0.9)),
        ])
    }
    md +=
      "\nIntervals are 95 %: Wilson's for sensitivity and precision (over the group's pooled "
      + "counts), a seeded percentile bootstrap for the latency median.\n\n"
    md += "## Groups\n\n"
    for g in groups { md += markdown(g) }
    // Text from scenarios and apps is never raw HTML where the report is rendered.
    return Markup.escapingHTML(inMarkdown: md)
  }

  /// A grouped bar chart of sensitivity by the first grouped parameter (x) and the second
  /// (series), each bar with its Wilson 95 % interval as an error bar.
  public func sensitivitySVG() -> String {
    chart(
      title: "Sensitivity by \(axisNames)", axis: "sensitivity (%)", maximum: 100,
      value: { g in
        let e = g.sensitivityEstimate
        return e.value.map {
          ($0 * 100, e.interval.map { $0.lowerBound * 100...$0.upperBound * 100 })
        }
      })
  }

  /// A grouped bar chart of the median detection latency, each bar with its bootstrap 95 %
  /// interval as an error bar.
  public func latencySVG() -> String {
    let estimates = groups.map(\.latencyEstimate)
    let top = estimates.compactMap { $0.interval?.upperBound ?? $0.value }.max() ?? 1
    var byName: [String: SweepEstimate] = [:]
    for (g, e) in zip(groups, estimates) { byName[g.name] = e }
    return chart(
      title: "Median latency by \(axisNames)", axis: "median latency (s)",
      maximum: max(1, top * 1.1),
      value: { g in byName[g.name].flatMap { e in e.value.map { ($0, e.interval) } } })
  }

  private var axisNames: String {
    let names = groupedParameters.prefix(2).map { grid.parameters[$0].name }
    return names.isEmpty ? "sweep" : names.joined(separator: " × ")
  }

  private func chart(
    title: String, axis: String, maximum: Double,
    value: (Group) -> (Double, ClosedRange<Double>?)?
  ) -> String {
    let grouped = groupedParameters
    let width = 820.0
    let height = 420.0
    let left = 70.0
    let right = 170.0
    let top = 50.0
    let bottom = 60.0
    var svg = SVGDocument(width: width, height: height, title: title)
    svg.text(width / 2, 26, title, size: 15, anchor: "middle", weight: "bold")
    let groups = self.groups
    guard !groups.isEmpty else {
      svg.text(width / 2, height / 2, "no runs", anchor: "middle")
      return svg.text
    }
    // x categories: values of the first grouped parameter; series: of the second.
    func key(_ g: Group, _ position: Int) -> String {
      position < g.values.count ? Self.text(g.values[position]) : ""
    }
    var categories: [String] = []
    var series: [String] = []
    for g in groups {
      let c = key(g, 0)
      let s = grouped.count > 1 ? g.values.dropFirst().map(Self.text).joined(separator: ", ") : ""
      if !categories.contains(c) { categories.append(c) }
      if !series.contains(s) { series.append(s) }
    }
    let palette = ["#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b", "#e377c2"]
    let plotW = width - left - right
    let plotH = height - top - bottom
    func y(_ v: Double) -> Double { top + plotH - min(v, maximum) / maximum * plotH }
    for tick in niceTicks(0, maximum, count: 5) {
      svg.line(left, y(tick), left + plotW, y(tick), stroke: "#dddddd")
      svg.text(left - 6, y(tick) + 4, Markup.number(tick), size: 11, anchor: "end")
    }
    let slot = plotW / Double(categories.count)
    let barWidth = slot * 0.8 / Double(max(1, series.count))
    for g in groups {
      let c = categories.firstIndex(of: key(g, 0))!
      let sName =
        grouped.count > 1 ? g.values.dropFirst().map(Self.text).joined(separator: ", ") : ""
      let s = series.firstIndex(of: sName)!
      let x = left + slot * Double(c) + slot * 0.1 + barWidth * Double(s)
      guard let (v, interval) = value(g) else {
        svg.text(x + barWidth / 2, y(0) - 4, "n/a", size: 9, anchor: "middle")
        continue
      }
      let range = interval.map {
        " [\(Markup.number($0.lowerBound))–\(Markup.number($0.upperBound))]"
      }
      svg.rect(
        x, y(v), barWidth - 2, y(0) - y(v), fill: palette[s % palette.count],
        title: "\(key(g, 0)) \(sName): \(Markup.number(v))\(range ?? "") (\(g.runs.count) runs)")
      if let interval {
        // The error bar: the interval as a whisker with caps, over the bar's middle.
        let middle = x + (barWidth - 2) / 2
        let cap = min(6, (barWidth - 2) / 3)
        let low = y(interval.lowerBound)
        let high = y(interval.upperBound)
        svg.line(middle, low, middle, high, stroke: "#222222")
        svg.line(middle - cap, low, middle + cap, low, stroke: "#222222")
        svg.line(middle - cap, high, middle + cap, high, stroke: "#222222")
      }
    }
    for (i, c) in categories.enumerated() {
      svg.text(left + slot * (Double(i) + 0.5), top + plotH + 18, c, size: 11, anchor: "middle")
    }
    svg.line(left, top + plotH, left + plotW, top + plotH, stroke: "#333333")
    svg.line(left, top, left, top + plotH, stroke: "#333333")
    let xName = grouped.first.map { grid.parameters[$0].name } ?? ""
    svg.text(left + plotW / 2, height - 16, xName, size: 12, anchor: "middle")
    svg.text(18, top + plotH / 2, axis, size: 12, anchor: "middle", rotate: -90)
    if grouped.count > 1 {
      svg.legend(
        series.enumerated().map { (palette[$0.offset % palette.count], $0.element) },
        x: left + plotW + 12, y: top)
    }
    return svg.text
  }

  /// One self-contained HTML page: the table, both charts inline, and links to the sweep's
  /// files. Opens offline; no scripts, no outside resources.
  public func html() -> String {
    html(markdown: markdown(), figures: [sensitivitySVG(), latencySVG()])
  }

  /// ``html()`` around `markdown` and `figures`, which must be this report's ``markdown()`` and
  /// its ``sensitivitySVG()`` and ``latencySVG()``: for a writer that has made them already.
  func html(markdown: String, figures: [String]) -> String {
    var page = RunReport.pageHead(title: "GeoSim sweep")
    page +=
      "<p>Files: <a href=\"sweep.json\">sweep.json</a>, <a href=\"sweep.md\">sweep.md</a>, "
      + "<a href=\"sensitivity.svg\">sensitivity.svg</a>, <a href=\"latency.svg\">latency.svg</a>; "
      + "each point in <code>runs/</code>.</p>\n"
    page += MarkdownHTML.render(markdown)
    for svg in figures {
      page += "<figure>\n" + RunReport.inline(svg) + "\n</figure>\n"
    }
    page += "</body>\n</html>\n"
    return page
  }
}
