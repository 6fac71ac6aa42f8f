import Device
import Foundation
import Geo
import JSON
import Replay

/// One scenario's report: what it is, how it ended, and — for a replay that ran to its end —
/// the geofence-accuracy and search-performance analyses and the figures.
///
/// A scenario that could not be read or assembled, whose app crashed, or whose replay ran out
/// of its budget gets a report that says so (`status` `invalid`, `crashed` or `timedOut`) and
/// carries no analyses: a partial analysis is never presented as complete.
public struct ScenarioReport {
  /// How the replay ended.
  public enum Status: String, Sendable, Hashable, CaseIterable {
    /// The world ran to its end; the analyses are complete.
    case complete
    /// The app model trapped; only the verdict and the last events are known.
    case crashed
    /// The replay ran out of its event or time budget before its end; only the verdict and
    /// the last events are known.
    case timedOut
    /// The scenario could not be read or assembled; nothing ran.
    case invalid
  }

  /// The scenario's name (its file's name when it could not be read).
  public let name: String
  /// How the replay ended.
  public let status: Status
  /// The verdicts (absent for an invalid scenario).
  public let result: ReplayResult?
  /// What was wrong with an invalid scenario.
  public let error: String?
  /// The geofence-accuracy analysis of a complete replay.
  public let geofence: GeofenceReport?
  /// The search-performance analysis of a complete replay.
  public let search: SearchReport?
  /// What the run's report needs of this one: written into ``json`` and read back from it.
  public let summary: ScenarioSummary
  /// The scenario's members of `scenario` beyond the summary's (its description, app, seed, …).
  private let scenario: [String: JSONValue]
  private let trueSamples: [TrajectorySample]
  private let weatherRequests: [WeatherRequestPoint]

  /// The report of a replay that ran to its end.
  public init(input: ReportInput, context: GEOSContext, resources: ReplayResources) throws {
    name = input.scenario.name
    status = .complete
    result = input.result
    error = nil
    geofence = try GeofenceReport(input: input, context: context, resources: resources)
    search = SearchReport(input: input, resources: resources)
    var summary = ScenarioSummary(
      name: name, file: input.scenario.file, expectedOutcome: input.scenario.expectedOutcome,
      status: status, result: result, error: nil)
    summary.describe(input.scenario)
    self.summary = summary
    scenario = Self.describe(input.scenario)
    trueSamples = input.trueSamples
    weatherRequests = WeatherRequestPoint.all(in: input.events)
  }

  /// The report of a replay that did not reach its end: its app crashed (`result.crash` set)
  /// or it ran out of its budget (`result.timeout`).
  public init(stopped result: ReplayResult, scenario: Scenario?) {
    name = result.scenario
    status = result.crash == nil && result.timeout != nil ? .timedOut : .crashed
    self.result = result
    error = nil
    geofence = nil
    search = nil
    // The result knows the file and the expected outcome even when the scenario cannot be
    // read again.
    var summary = ScenarioSummary(
      name: name, file: scenario?.file ?? result.file,
      expectedOutcome: scenario?.expectedOutcome ?? result.expectedOutcome, status: status,
      result: result, error: nil)
    if let scenario { summary.describe(scenario) }
    self.summary = summary
    self.scenario = scenario.map(Self.describe) ?? [:]
    trueSamples = []
    weatherRequests = []
  }

  /// The report of a scenario that could not be read or assembled.
  public init(invalid file: String, name: String, error: String) {
    self.name = name
    status = .invalid
    result = nil
    self.error = error
    geofence = nil
    search = nil
    summary = ScenarioSummary(
      name: name, file: file, expectedOutcome: nil, status: status, result: nil, error: error)
    scenario = [:]
    trueSamples = []
    weatherRequests = []
  }

  /// The scenario's members that only its own report shows (the summary writes its name, file
  /// and expected outcome).
  static func describe(_ s: Scenario) -> [String: JSONValue] {
    [
      "description": .string(s.description), "app": .string(s.app.name),
      "variant": s.app.variant.map(JSONValue.string) ?? .null, "seed": .string(String(s.seed)),
      "start": .string(Self.iso8601(s.start)), "timeZone": .string(s.timeZone.identifier),
      "duration": .number(s.duration),
      "deviceProfile": .object([
        "name": .string(s.device.profileName),
        "file": s.device.profileFile.map(JSONValue.string) ?? .null,
      ]),
    ]
  }

  /// `2026-04-01T08:30:00Z`: whole seconds in UTC.
  static func iso8601(_ date: Date) -> String {
    // A format style is a value: one for every report, not a formatter object per report.
    date.formatted(iso8601Style)
  }

  private static let iso8601Style = Date.ISO8601FormatStyle(timeZone: .gmt)

  /// The verdict; `nil` for an invalid scenario, which never ran (``status`` says so).
  public var verdict: ReplayResult.Verdict? { summary.verdict }

  /// The report as JSON (schema in `docs/REPORTS.md`); the same inputs give the same bytes.
  public var json: JSONValue {
    var o = summary.members
    o["scenario"] = .object(scenario.merging(summary.scenarioMembers) { $1 })
    o["geofence"] = geofence?.json ?? .null
    o["search"] = search?.json ?? .null
    o["eventCount"] = result.map { .number(Double($0.eventCount)) } ?? .null
    return .object(o)
  }

  /// The report as Markdown: the verdict, the expectations, then each analysis's tables.
  public func markdown() -> String {
    var md = "## \(name)\n\n"
    if case .string(let d)? = scenario["description"], !d.isEmpty {
      md += d + "\n\n"
    }
    md += "Verdict: **\(summary.verdictLabel)** (\(status.rawValue))\n\n"
    if case .object(let profile)? = scenario["deviceProfile"],
      case .string(let name)? = profile["name"]
    {
      let file = profile["file"].flatMap {
        if case .string(let f) = $0 { " (`\(f)`)" } else { nil }
      }
      md += "Device profile: `\(name)`\(file ?? "")\n\n"
    }
    if let error { md += "The scenario could not be replayed: `\(error)`\n\n" }
    if let crash = result?.crash {
      md += "The app crashed: `\(crash.reason)`. Its last events:\n\n"
      md += crash.lastEvents.map { "- `\($0)`" }.joined(separator: "\n") + "\n\n"
      md += "No geofence or search analysis: the replay did not reach its end.\n\n"
    } else if let timeout = result?.timeout {
      md += "The replay was stopped: \(timeout.reason). Its last events:\n\n"
      md += timeout.lastEvents.map { "- `\($0)`" }.joined(separator: "\n") + "\n\n"
      md += "No geofence or search analysis: the replay did not reach its end.\n\n"
    }
    if let result, !result.timelineErrors.isEmpty {
      md += "Timeline errors:\n\n"
      md += result.timelineErrors.map { "- \($0)" }.joined(separator: "\n") + "\n\n"
    }
    if let result, !result.traceIssues.isEmpty {
      md += "What the trace importers skipped or noted:\n\n"
      md +=
        result.traceIssues.map {
          "- `\($0.file)`" + ($0.line.map { " line \($0)" } ?? "") + " (\($0.trace)): \($0.message)"
            + ($0.allowed ? " (allowed)" : " (**not allowed**: the replay fails)")
        }.joined(separator: "\n") + "\n\n"
    }
    if let result, !result.pendingWork.isEmpty {
      md += "Work the app's code had queued that had not run when the replay ended:\n\n"
      md +=
        result.pendingWork.map { "- \(Markup.tableCell($0.description))" }.joined(separator: "\n")
        + "\n\n"
    }
    if let result, !result.expectations.isEmpty {
      md += "| expectation | held | time (s) | what was expected and what happened |\n"
      md += "|---|---|---|---|\n"
      for e in result.expectations {
        let time = e.time.map { Markup.number($0) } ?? ""
        md +=
          "| \(Markup.tableCell(e.name)) | \(e.passed ? "yes" : "**no**") | \(time) | \(Markup.tableCell(e.message)) |\n"
      }
      md += "\n"
    }
    if let result { md += AssumptionsSection.markdown(result.assumptions) }
    if let geofence, !geofence.fences.isEmpty { md += Self.demoted(geofence.markdown()) + "\n" }
    if let search, !search.requests.isEmpty { md += Self.demoted(search.markdown()) + "\n" }
    // Text from scenarios and apps is never raw HTML where the report is rendered.
    return Markup.escapingHTML(inMarkdown: md)
  }

  /// `markdown` with every heading one level deeper (its sections sit under the scenario's).
  static func demoted(_ markdown: String) -> String {
    // Lines are found by their bytes: a line feed is a character of its own, unless it ends a
    // carriage return's (one character, "\r\n"). A line whose first byte is "#" starts with
    // the character "#" unless a mark combines with it, which its own text tells.
    let bytes = Array(markdown.utf8)
    var out: [UInt8] = []
    out.reserveCapacity(bytes.count + 64)
    var start = 0
    while start <= bytes.count {
      var end = start
      while end < bytes.count,
        bytes[end] != UInt8(ascii: "\n") || (end > start && bytes[end - 1] == UInt8(ascii: "\r"))
      {
        end += 1
      }
      if end > start, bytes[start] == UInt8(ascii: "#"),
        String(decoding: bytes[start..<end], as: UTF8.self).first == "#"
      {
        out.append(UInt8(ascii: "#"))
      }
      out.append(contentsOf: bytes[start..<end])
      if end < bytes.count { out.append(UInt8(ascii: "\n")) }
      start = end + 1
    }
    return String(decoding: out, as: UTF8.self)
  }

  /// The map figure of a complete replay.
  public func mapSVG() -> String? {
    guard status == .complete else { return nil }
    return ScenarioFigures.map(
      title: "\(name): what happened and the truth", trueSamples: trueSamples,
      geofence: geofence, search: search, weatherRequests: weatherRequests)
  }

  /// The latency histogram of a complete replay.
  public func latencySVG() -> String? {
    guard status == .complete else { return nil }
    return ScenarioFigures.latencies(
      title: "\(name): latencies", geofence: geofence, search: search)
  }
}
