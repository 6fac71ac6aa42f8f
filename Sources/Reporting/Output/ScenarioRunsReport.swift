import Foundation
import JSON
import Replay

/// The report of a scenario replayed several times: the verdict over its runs, each rate
/// expectation's share with its 95 % interval and target, the runs that did not pass with
/// their seeds, and — as an example of one run — run 0's analyses (its own report is in
/// `runs/0/`, every other run's in `runs/<i>/`).
public struct ScenarioRunsReport {
  /// The result over the runs (`ReplayResult.init(aggregating:scenario:)`).
  public let result: ReplayResult
  /// What the run's report needs of this one.
  public let summary: ScenarioSummary
  private let scenario: Scenario
  private let first: JSONValue?
  private let firstMarkdown: String?

  /// The report of `scenario` (its seed the one run 0 used) over its runs, from `result` and
  /// run 0's own report (its `report.json` root and `report.md`, `nil` when it wrote none).
  ///
  /// - Precondition: `result.runs` is set.
  public init(
    result: ReplayResult, scenario: Scenario, firstReport: JSONValue?, firstMarkdown: String?
  ) {
    precondition(result.runs != nil, "a report over runs needs the runs' result")
    self.result = result
    self.scenario = scenario
    first = firstReport
    self.firstMarkdown = firstMarkdown
    let status: ScenarioReport.Status =
      result.crash != nil ? .crashed : result.timeout != nil ? .timedOut : .complete
    var summary = ScenarioSummary(
      name: scenario.name, file: scenario.file, expectedOutcome: scenario.expectedOutcome,
      status: status, result: result, error: nil)
    summary.describe(scenario)
    self.summary = summary
  }

  /// The report as JSON: a scenario report (`geosim-scenario-report/1`) whose verdict,
  /// expectations and errors are over all runs, with `runs` (docs/REPORTS.md) and run 0's
  /// `geofence` and `search`.
  public var json: JSONValue {
    var o = summary.members
    o["scenario"] = .object(
      ScenarioReport.describe(scenario).merging(summary.scenarioMembers) { $1 })
    var geofence = JSONValue.null
    var search = JSONValue.null
    if summary.status == .complete, case .object(let r)? = first {
      geofence = r["geofence"] ?? .null
      search = r["search"] ?? .null
    }
    o["geofence"] = geofence
    o["search"] = search
    o["eventCount"] = .number(Double(result.eventCount))
    return .object(o)
  }

  /// The report as Markdown: the verdict over the runs, the rates, the runs that did not
  /// pass, the expectations, then run 0's own report.
  public func markdown() -> String {
    let runs = result.runs!
    var md = "## \(scenario.name)\n\n"
    if !scenario.description.isEmpty { md += scenario.description + "\n\n" }
    md += "Verdict: **\(summary.verdictLabel)** (\(summary.status.rawValue)) over "
    md += "\(runs.count) runs: \(runs.passed) passed, \(runs.count - runs.passed) did not.\n\n"
    if let crash = result.crash {
      md += "The app crashed in \(crash.reason). No expectation is judged over the runs.\n\n"
    } else if let timeout = result.timeout {
      md += "A run was stopped: \(timeout.reason). No expectation is judged over the runs.\n\n"
    }
    if !runs.rates.isEmpty {
      md += "| expectation | held in | rate | 95 % interval | at least | held |\n"
      md += "|---|---|---|---|---|---|\n"
      for r in runs.rates {
        let interval = r.share.wilsonInterval()
        md +=
          "| \(Markup.tableCell(r.name)) | \(r.share.successes) of \(r.share.trials) | "
          + "\(ReplayResult.percent(r.share.estimate)) | "
          + "\(ReplayResult.percent(interval.lowerBound))–"
          + "\(ReplayResult.percent(interval.upperBound)) | \(ReplayResult.percent(r.atLeast)) | "
          + "\(r.passed ? "yes" : "**no**") |\n"
      }
      md +=
        "\nA rate holds when the share of runs is at least its target; the interval (Wilson, "
        + "95 %) says how far the share of many more runs could lie from it.\n\n"
    }
    if !result.timelineErrors.isEmpty {
      md += "Timeline errors:\n\n"
      md +=
        result.timelineErrors.map { "- \(Markup.tableCell($0))" }.joined(separator: "\n") + "\n\n"
    }
    if !result.expectations.isEmpty {
      md += "| expectation | held | what was expected and what happened |\n|---|---|---|\n"
      for e in result.expectations {
        md +=
          "| \(Markup.tableCell(e.name)) | \(e.passed ? "yes" : "**no**") | \(Markup.tableCell(e.message)) |\n"
      }
      md += "\n"
    }
    md += AssumptionsSection.markdown(result.assumptions, runs: runs.count)
    if !runs.failed.isEmpty {
      let shown = runs.failed.prefix(Self.listedRuns)
      md += "Runs that did not pass (replay one alone with `--runs 1 --seed SEED`):\n\n"
      md += "| run | seed | verdict | what failed |\n|---|---|---|---|\n"
      for f in shown {
        md +=
          "| \(f.run) | \(f.seed) | \(f.verdict.label) | "
          + "\(Markup.tableCell(f.failures.joined(separator: ", "))) |\n"
      }
      if runs.failed.count > shown.count {
        md += "\n… and \(runs.failed.count - shown.count) more (report.json lists every one).\n"
      }
      md += "\n"
    }
    md = Markup.escapingHTML(inMarkdown: md)
    if let firstMarkdown {
      // Run 0's own report, a level down, under its own heading (it is escaped already).
      var lines = firstMarkdown.split(separator: "\n", omittingEmptySubsequences: false)
      if lines.first?.hasPrefix("## ") == true { lines.removeFirst() }
      md += "### Run 0 (seed \(result.seed), the scenario's own)\n"
      md += ScenarioReport.demoted(lines.joined(separator: "\n"))
      if !md.hasSuffix("\n") { md += "\n" }
    }
    return md
  }

  /// How many runs that did not pass the Markdown lists (the JSON lists all).
  static let listedRuns = 20

}
