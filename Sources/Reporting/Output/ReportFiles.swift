import Foundation
import JSON
import Replay

/// The files GeoSim's reports are written as, by `geosim replay` and `geosim sweep` and by a
/// test suite through `GeoSimTesting`: the same names, the same contents.
///
/// A replay's folder holds one folder per scenario (``scenarioFiles``, plus the event log
/// `events.jsonl`) and the run's own files (``runFiles``); a sweep's folder holds
/// ``sweepFiles``.
public enum ReportFiles {
  /// What a scenario's folder holds besides `events.jsonl`: `map.svg` and `latency.svg` only
  /// when there is something to draw, `index.html` the replay viewer; `result.json` is written
  /// last.
  public static let scenarioFiles = [
    "report.json", "report.md", "map.svg", "latency.svg", "index.html", "result.json",
  ]

  /// The run-level files of a replay's folder.
  public static let runFiles = [
    "report.json", "report.md", "junit.xml", "index.html", "results.json",
  ]

  /// The files of a sweep's (or a merge's) folder.
  public static let sweepFiles = [
    "sweep.json", "sweep.md", "sensitivity.svg", "latency.svg", "index.html",
  ]

  /// Why a scenario cannot be called `name` in a replay's folder, where its folder sits beside
  /// the run's own files; `nil` when it can.
  public static func problem(withScenarioName name: String) -> String? {
    let taken = runFiles + [".geosim-lock", ".standard-input.scenario.json"]
    guard taken.contains(name.lowercased()) || name.hasPrefix(".") else { return nil }
    return "the name '\(name)' is taken by a file a replay writes in its output folder"
  }

  /// Removes from a scenario's `folder` the files a replay writes there (and nothing else: the
  /// folder is named by the scenario, and may be a folder of the user's own), so that a new
  /// replay's files never sit beside an old one's.
  ///
  /// Each is unlinked, so a directory of the user's that has one of their names stays.
  public static func clearScenario(in folder: URL) {
    let path = folder.path
    for file in ["events.jsonl"] + scenarioFiles { unlink(path + "/" + file) }
  }

  /// Removes a unit's `events.jsonl` from its `folder` before the unit starts: a worker that
  /// dies before opening its own must not leave the last replay's to be read as this one's
  /// last events. (Its `result.json` stays: the parent reads it only once the worker has said
  /// the unit is done, and the worker writes it last; an unchanged one is not even written
  /// again.) The unit's other files are replaced as they are written (``ReportWriter`` leaves
  /// an unchanged one as it is), ``writeScenario(_:resources:to:events:eventLines:)`` removes a
  /// figure it does not draw again, and after a crash the parent removes the rest.
  public static func clearEvents(in folder: URL) {
    unlink(folder.path + "/events.jsonl")
  }

  /// Removes the per-run folders (`runs/<i>/`, for every `i` from `first` on) a scenario
  /// replayed several times left in its `folder`: the files a replay writes there, then each
  /// folder if that emptied it.
  public static func clearRuns(in folder: URL, from first: Int = 0) {
    let runs = folder.appendingPathComponent("runs")
    let names = (try? FileManager.default.contentsOfDirectory(atPath: runs.path)) ?? []
    for name in names where Int(name).map({ $0 >= first && String($0) == name }) ?? false {
      let run = runs.appendingPathComponent(name)
      clearScenario(in: run)
      // Only an empty folder is removed: what else is in it stays.
      rmdir(run.path)
    }
    rmdir(runs.path)
  }

  /// Writes the report of a scenario replayed several times into its `folder` — `report.json`,
  /// `report.md` and `result.json` (the result over the runs) — from run 0's report in
  /// `runs/0/` and every run's result.
  ///
  /// - Returns: the scenario's part of its run's report, with run 0's figures.
  @discardableResult
  public static func writeRuns(
    _ result: ReplayResult, scenario: Scenario, to folder: URL
  ) throws -> RunReport.Entry {
    let first = folder.appendingPathComponent("runs/0")
    let firstReport = (try? Data(contentsOf: first.appendingPathComponent("report.json")))
      .flatMap { try? JSONDocument(parsing: $0).root }
    let firstMarkdown = try? String(
      contentsOf: first.appendingPathComponent("report.md"), encoding: .utf8)
    let report = ScenarioRunsReport(
      result: result, scenario: scenario, firstReport: firstReport, firstMarkdown: firstMarkdown)
    let json = report.json
    let markdown = report.markdown()
    try ReportWriter.write(json.jsonText + "\n", to: folder.appendingPathComponent("report.json"))
    try ReportWriter.write(markdown, to: folder.appendingPathComponent("report.md"))
    let figures = ["map.svg", "latency.svg"].compactMap { name -> (String, String)? in
      (try? String(contentsOf: first.appendingPathComponent(name), encoding: .utf8))
        .map { ("runs/0/\(name)", $0) }
    }
    try ReportWriter.write(
      result.json.jsonText + "\n", to: folder.appendingPathComponent("result.json"))
    return RunReport.Entry(
      summary: report.summary, json: json, markdown: markdown, figures: figures)
  }

  /// Writes a scenario's report into `folder`: `report.json`, `report.md`, its figures, the
  /// replay viewer `index.html`, and `result.json` last (the scenario's other files are
  /// complete once it is written). With `events`, writes the event log as `events.jsonl`
  /// first; a caller that wrote it itself (as the replay ran) passes its text as
  /// `eventLines`, and the viewer takes its event lines from there instead of writing them
  /// again.
  ///
  /// - Returns: the scenario's part of its run's report.
  @discardableResult
  public static func writeScenario(
    _ run: ScenarioRun, resources: ReplayResources, to folder: URL, events: Bool = false,
    eventLines: [UInt8]? = nil
  ) throws -> RunReport.Entry {
    // Named as files: a URL left to find out stats the path.
    func file(_ name: String) -> URL { folder.appendingPathComponent(name, isDirectory: false) }
    var eventLines = eventLines
    if events {
      let text = run.world.simulation.log.jsonLinesData
      try ReportWriter.write(text, to: file("events.jsonl"))
      eventLines = [UInt8](text)
    }
    // A replay stopped for its event budget did not reach its end: no analyses.
    let report =
      run.result.timeout != nil
      ? ScenarioReport(stopped: run.result, scenario: run.scenario)
      : try ScenarioReport(input: ReportInput(run), context: run.world.geos, resources: resources)
    let json = report.json
    let markdown = report.markdown()
    try ReportWriter.write(json.jsonText + "\n", to: file("report.json"))
    try ReportWriter.write(markdown, to: file("report.md"))
    var figures: [(String, String)] = []
    if let map = report.mapSVG() { figures.append(("map.svg", map)) }
    if let latency = report.latencySVG() { figures.append(("latency.svg", latency)) }
    for (name, svg) in figures {
      try ReportWriter.write(svg, to: file(name))
    }
    // A figure an earlier replay drew and this one does not must not sit beside its report.
    for name in ["map.svg", "latency.svg"] where !figures.contains(where: { $0.0 == name }) {
      unlink(file(name).path)
    }
    try ReportWriter.write(
      ReplayViewer(run: run, report: report, jsonLines: eventLines, resources: resources)
        .html(),
      to: file("index.html"))
    try ReportWriter.write(
      run.result.json.jsonText + "\n", to: file("result.json"))
    return RunReport.Entry(
      summary: report.summary, json: json, markdown: markdown, figures: figures)
  }

  /// Writes a run's `report.json`, `report.md`, `junit.xml` and `index.html` into `folder`
  /// (`results.json`, the list of results, is the replay command's own).
  public static func writeRun(_ entries: [RunReport.Entry], to folder: URL) throws {
    let report = RunReport(entries: entries)
    try ReportWriter.write(
      report.json.jsonText + "\n", to: folder.appendingPathComponent("report.json"))
    try ReportWriter.write(report.markdown(), to: folder.appendingPathComponent("report.md"))
    try ReportWriter.write(report.junitXML(), to: folder.appendingPathComponent("junit.xml"))
    try ReportWriter.write(report.html(), to: folder.appendingPathComponent("index.html"))
  }

  /// Writes a sweep's report into `folder`; returns its Markdown (what `geosim sweep` prints).
  /// Each text is made once: the page embeds the Markdown and both figures.
  @discardableResult
  public static func writeSweep(_ report: SweepReport, to folder: URL) throws -> String {
    let markdown = report.markdown()
    let figures = [report.sensitivitySVG(), report.latencySVG()]
    try ReportWriter.write(
      report.json.jsonText + "\n", to: folder.appendingPathComponent("sweep.json"))
    try ReportWriter.write(markdown, to: folder.appendingPathComponent("sweep.md"))
    try ReportWriter.write(figures[0], to: folder.appendingPathComponent("sensitivity.svg"))
    try ReportWriter.write(figures[1], to: folder.appendingPathComponent("latency.svg"))
    try ReportWriter.write(
      report.html(markdown: markdown, figures: figures),
      to: folder.appendingPathComponent("index.html"))
    return markdown
  }
}
