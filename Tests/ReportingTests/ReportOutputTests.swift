import Foundation
import FoundationXML
import Geo
import JSON
import ReferenceAppCatalog
import Replay
import Testing

@testable import Reporting

private let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
  .deletingLastPathComponent().deletingLastPathComponent()
private let goldenFolder = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
  .appendingPathComponent("Golden")
private let resources = ReplayResources()

/// Replays a shipped scenario in this process and reports it.
private func report(_ path: String) throws -> ScenarioReport {
  let scenario = try Scenario(
    contentsOf: repository.appendingPathComponent("Scenarios/\(path)").path)
  let run = try ScenarioRun(scenario, catalog: .referenceApps, resources: resources)
  return try ScenarioReport(input: ReportInput(run), context: run.world.geos, resources: resources)
}

/// Parses `text` as XML and returns the name of its root element, or the parser's error.
private func rootElement(of text: String) -> Result<String, any Error> {
  final class Root: NSObject, XMLParserDelegate {
    var name: String?
    func parser(
      _ parser: XMLParser, didStartElement elementName: String, namespaceURI: String?,
      qualifiedName qName: String?, attributes attributeDict: [String: String] = [:]
    ) {
      if name == nil { name = elementName }
    }
  }
  let parser = XMLParser(data: Data(text.utf8))
  let root = Root()
  parser.delegate = root
  guard parser.parse(), let name = root.name else {
    return .failure(parser.parserError ?? CocoaError(.fileReadCorruptFile))
  }
  return .success(name)
}

/// Reports are what users read: stable bytes, well-formed files, honest about what is missing.
@Suite(.serialized) struct ReportOutputTests {
  /// Compares `text` with the golden file `name`; `GEOSIM_RECORD_GOLDEN=1` re-records it.
  func checkGolden(_ text: String, _ name: String) throws {
    let url = goldenFolder.appendingPathComponent(name)
    if ProcessInfo.processInfo.environment["GEOSIM_RECORD_GOLDEN"] == "1" {
      try ReportWriter.write(text, to: url)
      return
    }
    let golden = try String(contentsOf: url, encoding: .utf8)
    #expect(
      text == golden,
      "\(name) differs from its golden file; re-record on purpose with GEOSIM_RECORD_GOLDEN=1")
  }

  @Test(arguments: [
    ("arrival-alarm/train-to-shinagawa-corrected.scenario.json", "arrival-alarm-train-corrected"),
    (
      "station-finder/box-north-east-first-as-published.scenario.json",
      "station-finder-box-as-published"
    ),
  ])
  func reportsMatchTheirGoldenFiles(_ path: String, _ golden: String) throws {
    let r = try report(path)
    // The report names the scenario file as given; the checkout's own folder is not part of it.
    let json = r.json.jsonText.replacingOccurrences(of: repository.path, with: "<repository>")
    try checkGolden(json + "\n", "\(golden).report.json")
    try checkGolden(r.markdown(), "\(golden).report.md")
  }

  @Test func theSameSeedGivesTheSameBytes() throws {
    let a = try report("arrival-alarm/train-to-shinagawa-corrected.scenario.json")
    let b = try report("arrival-alarm/train-to-shinagawa-corrected.scenario.json")
    #expect(a.json.jsonText == b.json.jsonText)
    #expect(a.markdown() == b.markdown())
    #expect(a.mapSVG() == b.mapSVG())
    #expect(a.latencySVG() == b.latencySVG())
  }

  @Test func figuresAreWellFormedSVG() throws {
    for path in [
      "arrival-alarm/train-to-shinagawa-corrected.scenario.json",
      "station-finder/box-north-east-first-as-published.scenario.json",
      "weather-widget/first-launch-as-published.scenario.json",
    ] {
      let r = try report(path)
      let map = try #require(r.mapSVG())
      let latency = try #require(r.latencySVG())
      #expect(try rootElement(of: map).get() == "svg")
      #expect(try rootElement(of: latency).get() == "svg")
      #expect(map.contains("longitude (°)") && map.contains("latitude (°)"))
      #expect(
        (latency.contains("latency (s)") && latency.contains(">count<"))
          || latency.contains("no latencies recorded"))
    }
  }

  @Test func theRunsPagesAreWellFormedAndLinkEverything() throws {
    let complete = try report("arrival-alarm/train-to-shinagawa-corrected.scenario.json")
    let crashed = ScenarioReport(
      crashed: {
        var r = complete.result!
        r.crash = ReplayResult.Crash(
          reason: "signal 4 (SIGILL): Fatal error: <nil> & more", lastEvents: ["{\"seq\":1}"])
        r.scenario = "crashing"
        return r
      }(), scenario: nil)
    let invalid = ScenarioReport(
      invalid: "bad.scenario.json", name: "bad.scenario.json",
      error: "bad.scenario.json:2:5: sead: unknown key 'sead'")
    let run = RunReport(entries: [
      RunReport.Entry(
        name: complete.name, json: complete.json, markdown: complete.markdown(),
        figures: [("map.svg", complete.mapSVG()!), ("latency.svg", complete.latencySVG()!)]),
      RunReport.Entry(
        name: crashed.name, json: crashed.json, markdown: crashed.markdown(), figures: []),
      RunReport.Entry(
        name: invalid.name, json: invalid.json, markdown: invalid.markdown(), figures: []),
    ])
    #expect(try rootElement(of: run.html()).get() == "html")
    #expect(try rootElement(of: run.junitXML()).get() == "testsuites")
    let html = run.html()
    #expect(html.contains("href=\"arrival-alarm-train-corrected/events.jsonl\""))
    #expect(html.contains("<svg"))
    // Self-contained: no scripts and nothing fetched from elsewhere.
    #expect(
      !html.contains("<script") && !html.contains("src=\"http") && !html.contains("href=\"http"))
    #expect(!run.isHealthy)
    let junit = run.junitXML()
    #expect(junit.contains("type=\"crash\""))
    #expect(junit.contains("type=\"invalid\""))
  }

  @Test func aCrashedOrInvalidScenarioSaysSoAndCarriesNoAnalysis() throws {
    var result = try report("arrival-alarm/train-to-shinagawa-corrected.scenario.json").result!
    result.crash = ReplayResult.Crash(reason: "signal 4 (SIGILL)", lastEvents: ["{\"seq\":9}"])
    let crashed = ScenarioReport(crashed: result, scenario: nil)
    guard case .object(let o) = crashed.json else {
      Issue.record("not an object")
      return
    }
    #expect(o["status"] == .string("crashed"))
    #expect(o["verdict"] == .string("crash"))
    #expect(o["geofence"] == .null && o["search"] == .null)
    #expect(crashed.markdown().contains("No geofence or search analysis"))
    #expect(crashed.mapSVG() == nil)
    let invalid = ScenarioReport(invalid: "x.scenario.json", name: "x", error: "x: bad")
    #expect(invalid.verdict == "invalid")
    #expect(invalid.markdown().contains("could not be replayed"))
  }

  @Test func anExpectedFailureIsAPassingTestCaseAndAnUnexpectedPassFails() throws {
    func entry(_ outcome: String, passed: Bool, verdict: String) -> RunReport.Entry {
      let json = JSONValue.object([
        "status": .string("complete"), "verdict": .string(verdict),
        "scenario": .object(["expectedOutcome": .string(outcome)]),
        "expectations": .array([
          .object([
            "name": .string("no (0, 0)"), "passed": .bool(passed), "message": .string("m & m"),
          ])
        ]),
        "timelineErrors": .array([]),
      ])
      return RunReport.Entry(name: verdict, json: json, markdown: "", figures: [])
    }
    let junit = RunReport(entries: [
      entry("fail", passed: false, verdict: "xfail"), entry("fail", passed: true, verdict: "xpass"),
    ]).junitXML()
    #expect(junit.contains("<system-out>expected failure: m &amp; m</system-out>"))
    #expect(junit.contains("type=\"unexpectedPass\""))
    #expect(junit.contains("<testsuite name=\"xfail\" tests=\"1\" failures=\"0\" errors=\"0\">"))
    #expect(junit.contains("<testsuite name=\"xpass\" tests=\"2\" failures=\"1\" errors=\"0\">"))
  }

  @Test func markdownBecomesEscapedHTML() {
    let html = MarkdownHTML.render(
      "## A <b>\n\nSome `x < y` and **bold**.\n\n| a | b \\| c |\n|---|---|\n| 1 | 2 |\n\n- one\n- two\n"
    )
    #expect(
      html
        == "<h3>A &lt;b&gt;</h3>\n<p>Some <code>x &lt; y</code> and <strong>bold</strong>.</p>\n"
        + "<table>\n<tr><th>a</th><th>b | c</th></tr>\n<tr><td>1</td><td>2</td></tr>\n</table>\n"
        + "<ul>\n<li>one</li>\n<li>two</li>\n</ul>\n")
  }
}
