import Foundation
import JSON
import Referee
import Replay

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
    ])
  }

  /// Why a run read back from JSON is not one a sweep can have written: the member, if one
  /// is to blame, and what was expected.
  public struct Problem: Error, Sendable, Hashable, CustomStringConvertible {
    /// The run's member (`detected`), or `nil` for the run as a whole.
    public let member: String?
    /// What was expected.
    public let message: String

    /// "detected: expected a whole number of crossings from 0 to trueCrossings (2), found 999".
    public var description: String { member.map { "\($0): \(message)" } ?? message }
  }

  /// Reads a run back from ``json``, or `nil` if it is not one a sweep can have written.
  public init?(json: JSONValue) {
    guard let run = try? Self.reading(json) else { return nil }
    self = run
  }

  /// Reads a run back from ``json``: every member present, of its type and in its range — a
  /// whole index and counts from 0 (no more detected than true crossings, no more failed
  /// than sent searches), finite latencies, a known verdict, a crash exactly when the verdict
  /// is `crash` and a timeout exactly when it is `timeout`.
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
    return SweepRun(
      index: index, values: values, verdict: verdict, crash: crash, timeout: timeout,
      trueCrossings: trueCrossings, detected: detected, falseTriggers: falseTriggers,
      latencies: latencies, searchRequests: searchRequests, searchErrors: searchErrors)
  }

  private init(
    index: Int, values: [JSONValue], verdict: ReplayResult.Verdict, crash: String?,
    timeout: String?, trueCrossings: Int, detected: Int, falseTriggers: Int, latencies: [Double],
    searchRequests: Int, searchErrors: Int
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
  }
}

/// A sweep's aggregate: the runs grouped by every parameter but the seed, with sensitivity,
/// precision and latency per group, as JSON, Markdown and SVG charts.
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
    /// The group's values, one per grouped parameter.
    public let values: [JSONValue]
    /// Its runs.
    public let runs: [SweepRun]

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
  }

  /// The grid's parameters that group runs (all but `seed`).
  public var groupedParameters: [Int] {
    grid.parameters.indices.filter { grid.parameters[$0].name != "seed" }
  }

  /// The groups, in grid order.
  public var groups: [Group] {
    let grouped = groupedParameters
    var order: [[JSONValue]] = []
    var members: [[JSONValue]: [SweepRun]] = [:]
    for run in runs {
      let key = grouped.map { run.values[$0] }
      if members[key] == nil { order.append(key) }
      members[key, default: []].append(run)
    }
    return order.map { Group(values: $0, runs: members[$0]!) }
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
            "precision": Self.rounded(g.precision, 10_000),
            "latencyMedian": Self.rounded(quantile(g.latencies, 0.5), 1_000),
            "latencyP90": Self.rounded(quantile(g.latencies, 0.9), 1_000),
          ])
        }),
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
    md +=
      "| "
      + (names + [
        "runs", "healthy", "crashes", "timeouts", "sensitivity", "precision",
        "false triggers", "latency median", "latency p90",
      ]).joined(separator: " | ") + " |\n"
    md += "|" + String(repeating: "---|", count: names.count + 9) + "\n"
    for g in groups {
      let cells =
        g.values.map(Self.text) + [
          "\(g.runs.count)", "\(g.passed)", "\(g.crashes)", "\(g.timeouts)",
          Self.percent(g.sensitivity),
          Self.percent(g.precision), "\(g.falseTriggers)",
          Self.seconds(quantile(g.latencies, 0.5)),
          Self.seconds(quantile(g.latencies, 0.9)),
        ]
      md +=
        "| "
        + cells.map { $0.replacingOccurrences(of: "|", with: "\\|") }.joined(
          separator: " | ") + " |\n"
    }
    // Text from scenarios and apps is never raw HTML where the report is rendered.
    return Markup.escapingHTML(inMarkdown: md)
  }

  /// A grouped bar chart of sensitivity by the first grouped parameter (x) and the second
  /// (series).
  public func sensitivitySVG() -> String {
    chart(
      title: "Sensitivity by \(axisNames)", axis: "sensitivity (%)", maximum: 100,
      value: { $0.sensitivity.map { $0 * 100 } })
  }

  /// A grouped bar chart of the median detection latency.
  public func latencySVG() -> String {
    let top = groups.compactMap { quantile($0.latencies, 0.5) }.max() ?? 1
    return chart(
      title: "Median latency by \(axisNames)", axis: "median latency (s)",
      maximum: max(1, top * 1.2), value: { quantile($0.latencies, 0.5) })
  }

  private var axisNames: String {
    let names = groupedParameters.prefix(2).map { grid.parameters[$0].name }
    return names.isEmpty ? "sweep" : names.joined(separator: " × ")
  }

  private func chart(
    title: String, axis: String, maximum: Double, value: (Group) -> Double?
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
      guard let v = value(g) else {
        svg.text(x + barWidth / 2, y(0) - 4, "n/a", size: 9, anchor: "middle")
        continue
      }
      svg.rect(
        x, y(v), barWidth - 2, y(0) - y(v), fill: palette[s % palette.count],
        title: "\(key(g, 0)) \(sName): \(Markup.number(v)) (\(g.runs.count) runs)")
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
    var page = RunReport.pageHead(title: "GeoSim sweep")
    page +=
      "<p>Files: <a href=\"sweep.json\">sweep.json</a>, <a href=\"sweep.md\">sweep.md</a>, "
      + "<a href=\"sensitivity.svg\">sensitivity.svg</a>, <a href=\"latency.svg\">latency.svg</a>; "
      + "each point in <code>runs/</code>.</p>\n"
    page += MarkdownHTML.render(markdown())
    for svg in [sensitivitySVG(), latencySVG()] {
      page += "<figure>\n" + RunReport.inline(svg) + "\n</figure>\n"
    }
    page += "</body>\n</html>\n"
    return page
  }
}
