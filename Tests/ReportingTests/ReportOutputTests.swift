import Foundation
import FoundationXML
import Geo
import JSON
import ReferenceAppCatalog
import Replay
import SimKernel
import Testing

@testable import Reporting

private let goldenFolder = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
  .appendingPathComponent("Golden")
private let resources = ReplayResources()

/// Replays a shipped scenario in this process and reports it.
private func report(_ path: String) throws -> ScenarioReport {
  let run = try replayShipped(path, resources: resources)
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
      stopped: {
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
        report: complete,
        figures: [("map.svg", complete.mapSVG()!), ("latency.svg", complete.latencySVG()!)]),
      RunReport.Entry(report: crashed, figures: []),
      RunReport.Entry(report: invalid, figures: []),
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
    // Sections made ahead, entry by entry, make the same page.
    #expect(RunReport(entries: run.entries.map { $0.rendered() }).html() == html)
    #expect(RunReport(entries: [run.entries[1].rendered(), run.entries[0]]).html() != html)
  }

  @Test func aCrashedOrInvalidScenarioSaysSoAndCarriesNoAnalysis() throws {
    var result = try report("arrival-alarm/train-to-shinagawa-corrected.scenario.json").result!
    result.crash = ReplayResult.Crash(reason: "signal 4 (SIGILL)", lastEvents: ["{\"seq\":9}"])
    let crashed = ScenarioReport(stopped: result, scenario: nil)
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
    #expect(invalid.verdict == nil && invalid.status == .invalid)
    #expect(invalid.markdown().contains("could not be replayed"))
  }

  @Test func anExpectedFailureIsAPassingTestCaseAndAnUnexpectedPassFails() throws {
    func entry(_ outcome: String, passed: Bool, verdict: String) throws -> RunReport.Entry {
      let json = reportText(
        name: verdict, outcome: outcome, verdict: verdict,
        expectations: #"[{"name": "no (0, 0)", "kind": "noRequestNear", "passed": \#(passed), "#
          + #""message": "m & m", "time": null}]"#)
      return try RunReport.Entry(
        reading: Data(json.utf8), file: "\(verdict)/report.json", markdown: "", figures: [])
    }
    let junit = RunReport(entries: [
      try entry("fail", passed: false, verdict: "xfail"),
      try entry("fail", passed: true, verdict: "xpass"),
    ]).junitXML()
    // An expected failure is skipped with its reason, as pytest reports an xfail.
    #expect(junit.contains("<skipped message=\"expected failure: m &amp; m\"/>"))
    #expect(junit.contains("type=\"unexpectedPass\""))
    #expect(
      junit.contains(
        #"<testsuite name="xfail" tests="1" failures="0" errors="0" skipped="1" time="0.000">"#))
    #expect(
      junit.contains(
        #"<testsuite name="xpass" tests="2" failures="1" errors="0" skipped="0" time="0.000">"#))
  }

  @Test func junitCarriesTheSeedAndFileAsPropertiesAndVirtualTimes() throws {
    let complete = try report("arrival-alarm/train-to-shinagawa-corrected.scenario.json")
    let junit = RunReport(entries: [RunReport.Entry(report: complete, figures: [])]).junitXML()
    #expect(junit.contains(#"<property name="seed" value="1"/>"#))
    #expect(junit.contains(#"<property name="scenario" value=""#))
    #expect(junit.contains(#"<property name="verdict" value="pass"/>"#))
    // The suite lasts the scenario's virtual duration; a case, until its expectation was judged.
    #expect(junit.contains(#"skipped="0" time="1200.000">"#))
    #expect(junit.contains(#"name="the alarm rings on arrival" time="396.192">"#))
    // Readable names for unnamed expectations, never their path.
    #expect(junit.contains(#"name="the app does not crash""#) && !junit.contains("expectations["))
    // The same run gives the same bytes.
    #expect(
      RunReport(entries: [RunReport.Entry(report: complete, figures: [])]).junitXML() == junit)
  }

  /// `docs/schemas/junit.xsd` states the JUnit subset Jenkins and GitLab read; the reports of
  /// shipped scenarios of every verdict, a crash and an invalid scenario are valid against it.
  @Test(.enabled(if: xmllint != nil, "xmllint is not installed (Debian: libxml2-utils)"))
  func junitOfEveryKindOfVerdictIsValidAgainstTheSchema() throws {
    let reports = try [
      "arrival-alarm/train-to-shinagawa-corrected.scenario.json",
      "arrival-alarm/train-to-shinagawa-as-published.scenario.json",
      "station-finder/box-north-east-first-as-published.scenario.json",
      "weather-widget/first-launch-as-published.scenario.json",
    ].map(report)
    var entries = reports.map { RunReport.Entry(report: $0, figures: []) }
    var result = try #require(reports[0].result)
    result.crash = ReplayResult.Crash(reason: "signal 4 & <more>", lastEvents: ["{\"seq\":1}"])
    entries.append(
      RunReport.Entry(report: ScenarioReport(stopped: result, scenario: nil), figures: []))
    entries.append(
      RunReport.Entry(
        report: ScenarioReport(invalid: "bad.scenario.json", name: "bad", error: "bad: 'sead'"),
        figures: []))
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
      "junit-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let file = folder.appendingPathComponent("junit.xml")
    try Data(RunReport(entries: entries).junitXML().utf8).write(to: file)
    let schema = repository.appendingPathComponent("docs/schemas/junit.xsd")
    let (status, output) = try run(
      try #require(xmllint), ["--noout", "--schema", schema.path, file.path])
    #expect(status == 0, "\(output)")
  }

  @Test func eachReportsSummaryReadsBackAsItWasWritten() throws {
    let complete = try report("arrival-alarm/train-to-shinagawa-corrected.scenario.json")
    let crashed = ScenarioReport(
      stopped: {
        var r = complete.result!
        r.crash = ReplayResult.Crash(reason: "signal 4 (SIGILL)", lastEvents: ["{\"seq\":1}"])
        return r
      }(), scenario: nil)
    let timedOut = ScenarioReport(
      stopped: {
        var r = complete.result!
        r.timeout = ReplayResult.Timeout(reason: "stopped at 10 s", lastEvents: ["{\"seq\":1}"])
        return r
      }(), scenario: nil)
    #expect(timedOut.status == .timedOut && timedOut.verdict == .timeout)
    let invalid = ScenarioReport(
      invalid: "bad.scenario.json", name: "bad.scenario.json", error: "bad.scenario.json: bad")
    for report in [complete, crashed, timedOut, invalid] {
      let entry = try RunReport.Entry(
        reading: Data(report.json.jsonText.utf8), file: "report.json", markdown: "",
        figures: [])
      #expect(entry.summary == report.summary)
      #expect(entry.json == report.json)
    }
    #expect(crashed.summary.expectedOutcome == .pass && crashed.summary.file != nil)
    #expect(invalid.summary.verdict == nil && invalid.summary.expectedOutcome == nil)
  }

  @Test func eachStatusAndOutcomeHasOneJSONName() {
    #expect(
      ScenarioReport.Status.allCases.map(\.rawValue) == [
        "complete", "crashed", "timedOut", "invalid",
      ])
    #expect(ExpectedOutcome.allCases.map(\.rawValue) == ["pass", "fail"])
    #expect(
      RunReport.verdictOrder == ["pass", "xfail", "fail", "crash", "timeout", "xpass", "invalid"])
  }

  @Test(arguments: [
    (
      #""passed": true"#, #""passed": "yes""#,
      "r.json:1:136: expectations[0].passed: expected true or false, found a string"
    ),
    (
      #""verdict": "pass""#, #""verdict": "PASS""#,
      #"r.json:1:317: verdict: expected one of "pass", "xfail", "fail", "crash", "timeout", "#
        + #""xpass", "#
        + #"found "PASS""#
    ),
    (
      #""kind": "noRequestNear""#, #""kind": "near""#,
      #"r.json:1:109: expectations[0].kind: expected one of "notificationAfterEntry", "#
        + #""noRequestNear", "state", "markersMatch", "noCrash", "count", found "near""#
    ),
    (
      #""expectedOutcome": "pass", "#, "",
      "r.json:1:186: scenario.expectedOutcome: missing required key"
    ),
    (
      #""status": "complete""#, #""status": "invalid""#,
      #"r.json:1:316: verdict: expected "invalid", as the status is "invalid""#
    ),
    (
      #""timelineErrors": []"#, #""timelineErrors": {}"#,
      "r.json:1:302: timelineErrors: expected an array, found an object"
    ),
    (
      #""runs": null}"#, #""runs": null,}"#,
      "r.json:1:412: expected a member name after ',' (trailing commas are not allowed), found '}'"
    ),
  ])
  func aDamagedScenarioReportIsAnErrorNamingItsPlace(
    _ original: String, _ damaged: String, _ message: String
  ) throws {
    let text = reportText(
      name: "s", outcome: "pass", verdict: "pass",
      expectations: #"[{"name": "no (0, 0)", "kind": "noRequestNear", "passed": true, "#
        + #""message": "m", "time": null}]"#)
    _ = try RunReport.Entry(reading: Data(text.utf8), file: "r.json", markdown: "", figures: [])
    try #require(text.contains(original))
    let bad = text.replacingOccurrences(of: original, with: damaged)
    #expect(throws: ScenarioReportError.self) {
      try RunReport.Entry(reading: Data(bad.utf8), file: "r.json", markdown: "", figures: [])
    }
    do {
      _ = try RunReport.Entry(reading: Data(bad.utf8), file: "r.json", markdown: "", figures: [])
    } catch {
      #expect(error.description == message)
    }
  }

  @Test("an SVG number of any finite size prints, instead of trapping past Int64")
  func hugeSVGNumbersPrint() {
    #expect(Markup.number(12) == "12")
    #expect(Markup.number(1.5) == "1.5")
    #expect(Markup.number(1e19) == "10000000000000000000")
    #expect(Markup.number(-1e300).hasPrefix("-1000000000000000"))
    #expect(!Markup.number(-1e300).contains("."))
    #expect(Markup.number(.infinity) == "0")
  }

  @Test("an SVG number has the digits two-decimal formatting gives, trailing zeros dropped")
  func svgNumbersMatchTheirFormattedDigits() {
    func formatted(_ x: Double) -> String {
      let rounded = (x * 100).rounded() / 100
      if rounded == rounded.rounded() { return String(format: "%.0f", rounded) }
      var text = String(format: "%.2f", rounded)
      while text.hasSuffix("0") { text.removeLast() }
      return text
    }
    // Seeded: magnitudes from 10⁻⁴ to 10¹³, both signs, and values on and beside the half
    // hundredths, where rounding turns.
    var state: UInt64 = 0x9E37_79B9_7F4A_7C15
    func next() -> Double {
      state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
      return Double(state >> 11) / Double(1 << 53)
    }
    var values: [Double] = [0, -0.0, 0.005, -0.005, 0.015, 0.995, -0.995, 1.005, 99.995]
    for _ in 0..<20_000 {
      let x = (next() < 0.5 ? -1 : 1) * Foundation.pow(10, next() * 17 - 4)
      let half = ((x * 100).rounded(.down) + 0.5) / 100
      values += [x, half, half.nextUp, half.nextDown]
    }
    for x in values {
      #expect(
        Markup.number(x) == formatted(x) || (formatted(x) == "-0" && Markup.number(x) == "0"),
        "\(x)")
    }
  }

  @Test("a report's fixed decimals are those every formatting prints, or left to the caller's")
  func fixedDecimalsMatchTheirFormattedDigits() {
    var random = RandomStream(seed: 12)
    let posix = Locale(identifier: "en_US_POSIX")
    for decimals in [0, 1, 3, 6] {
      let scale = Foundation.pow(10, Double(decimals))
      var values: [Double] = [0, -0.0, 0.5, -0.5, 0.125, 1.0 / 32, 57.15, 1e7, .nan, -.infinity]
      for _ in 0..<5_000 {
        let x = Double.random(in: -2_000...2_000, using: &random) / scale
        let half = ((x * scale).rounded(.down) + 0.5) / scale
        values += [x, half, half.nextUp, half.nextDown, Double.random(in: -1...1, using: &random)]
        values.append(Double.random(in: 1e6...1e9, using: &random) / scale)
      }
      var written = 0
      var mismatches = 0
      for x in values {
        guard let text = Markup.fixed(x, decimals: decimals) else { continue }
        written += 1
        let plain = String(format: "%.\(decimals)f", x)
        let located = String(format: "%.\(decimals)f", locale: posix, x)
        if text != plain || text != located {
          mismatches += 1
          Issue.record("\(x), \(decimals) decimals: \(text), not \(plain) / \(located)")
          if mismatches > 5 { break }
        }
      }
      // Half the values are by a tie, a sixth too large: the others are written here.
      #expect(written > values.count / 4, "\(decimals) decimals")
      #expect(Markup.fixed(57.15, decimals: 1) == nil && Markup.fixed(.nan, decimals: 2) == nil)
    }
  }

  @Test("a map's degree label has the digits four-decimal formatting gives, zeros dropped")
  func degreeLabelsMatchTheirFormattedDigits() {
    func formatted(_ x: Double) -> String {
      var text = String(format: "%.4f", x)
      while text.hasSuffix("0") { text.removeLast() }
      if text.hasSuffix(".") { text.removeLast() }
      return text
    }
    // Seeded: degrees of every size a map may show, and values on and beside the half
    // ten-thousandths, where rounding turns.
    var random = RandomStream(seed: 4)
    var values: [Double] = [0, -0.0, -0.00001, 0.00005, 0.00015, 139.7655, -35.00005, 180, -180]
    for _ in 0..<20_000 {
      let x = Double.random(in: -400...400, using: &random)
      let half = ((x * 10_000).rounded(.down) + 0.5) / 10_000
      values += [x, half, half.nextUp, half.nextDown, (x * 1_000).rounded() / 1_000]
    }
    // Far beyond a map's degrees too, where the product's own rounding is coarser.
    for _ in 0..<2_000 {
      let x = Double.random(in: 1e3...1e9, using: &random)
      let half = ((x * 10_000).rounded(.down) + 0.5) / 10_000
      values += [x, half, half.nextUp, half.nextDown]
    }
    values += [.nan, .infinity, 3e9, 1.0 / 32, -3.0 / 32]
    for x in values { #expect(MapFrame.label(x) == formatted(x), "\(x)") }
  }

  @Test("a scenario's sections go one level deeper, line by line as Swift splits the text")
  func demotingTakesLinesAsCharacters() {
    func characterwise(_ markdown: String) -> String {
      markdown.split(separator: "\n", omittingEmptySubsequences: false).map { line in
        line.hasPrefix("#") ? "#" + line : String(line)
      }.joined(separator: "\n")
    }
    let pieces = ["# ", "## 東京", "\n", "\r\n", "\r", "#\u{20E3} keycap", "#", "text", "\n\u{301}"]
    var random = RandomStream(seed: 9)
    var texts = ["", "\n", "# a", "# a\n", "a\n# b\r\n# c\n\n#"]
    for _ in 0..<2_000 {
      texts.append(
        (0..<Int.random(in: 1...8, using: &random)).map { _ in
          pieces.randomElement(using: &random)!
        }.joined())
    }
    for text in texts {
      #expect(ScenarioReport.demoted(text) == characterwise(text), "\(text.debugDescription)")
    }
  }

  @Test func textInATableCellKeepsToItsCell() {
    #expect(Markup.tableCell("plain 東京") == "plain 東京")
    #expect(Markup.tableCell("a | b\nc") == "a \\| b c")
    #expect(Markup.escapingHTML(inMarkdown: "no tags, 東京") == "no tags, 東京")
    #expect(Markup.escapingHTML(inMarkdown: "a <b> `<c>`") == "a \\<b\\> `<c>`")
  }

  @Test func textFromAScenarioIsNeverRawHTMLInTheReports() throws {
    var scenario = try Scenario(
      contentsOf: repository.appendingPathComponent(
        "Scenarios/weather-widget/first-launch-corrected.scenario.json"
      ).path)
    scenario.description = "<img src=x onerror=alert(1)> and `<code>` & more"
    let run = try ScenarioRun(scenario, catalog: .referenceApps, resources: resources)
    let report = try ScenarioReport(
      input: ReportInput(run), context: run.world.geos, resources: resources)
    let markdown = report.markdown()
    #expect(markdown.contains(#"\<img src=x onerror=alert(1)\> and `<code>` & more"#))
    let run2 = RunReport(entries: [RunReport.Entry(report: report, figures: [])])
    #expect(run2.markdown().contains(#"\<img src=x onerror=alert(1)\>"#), "escaped once, not twice")
    let html = run2.html()
    #expect(html.contains("&lt;img src=x onerror=alert(1)&gt; and <code>&lt;code&gt;</code>"))
    #expect(!html.contains("<img"))
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

  @Test func aLineEndsAtALineFeedOfItsOwnNotAtTheEndOfACarriageReturnLineFeed() {
    // "\r\n" is one character: as splitting the text into characters, a paragraph holds it,
    // and a line with nothing else on it (and so not empty) keeps the paragraph going.
    let html = MarkdownHTML.render("a\r\nb\n\r\nc\n\nd\n")
    #expect(html == "<p>a\r\nb \r\nc</p>\n<p>d</p>\n")
  }

  @Test func aTableCellLosesTheWhiteSpaceAtItsEndsWhateverItIs() {
    // Spaces and tabs, an ideographic space behind them, and none at all.
    let html = MarkdownHTML.render(
      "| \t\u{3000}東 京\u{3000} \t| \u{2003}b |c|\n|---|---|---|\n|\t1\t|  2  |3|\n")
    #expect(
      html
        == "<table>\n<tr><th>東 京</th><th>b</th><th>c</th></tr>\n"
        + "<tr><td>1</td><td>2</td><td>3</td></tr>\n</table>\n")
  }

  @Test func markdownSpansThatNeverCloseStayText() {
    // A backtick or a pair of stars without its partner is the character itself, spans do not
    // nest, and white space at a line's ends goes, ideographic spaces included.
    let html = MarkdownHTML.render(
      "\u{3000}Tab\tand `open, **open, \\<tag\\>, a\\b and ***three**\u{3000}\n\n"
        + "|\u{3000}東京\u{3000}| a \\| b |\n|---|---|\n| `x|y` | \\<i\\> |\n")
    #expect(
      html
        == "<p>Tab\tand `open, <strong>open, \\&lt;tag\\&gt;, a\\b and </strong>*three**</p>\n"
        + "<table>\n<tr><th>東京</th><th>a | b</th></tr>\n"
        + "<tr><td>`x</td><td>y`</td><td>&lt;i&gt;</td></tr>\n</table>\n")
  }
}

/// Runs `body` with a weather widget walking a GPX whose second point has no valid latitude
/// (line 4), in a folder removed afterwards.
private func withScenarioWithABadTracePoint<T>(
  allowSkippedPoints: Bool?, _ body: (Scenario) throws -> T
) throws -> T {
  let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
    "geosim-trace-issues-\(UUID().uuidString)")
  defer { try? FileManager.default.removeItem(at: folder) }
  try FileManager.default.createDirectory(
    at: folder.appendingPathComponent("traces"), withIntermediateDirectories: true)
  try Data(
    """
    <gpx version="1.1" xmlns="http://www.topografix.com/GPX/1/1"><trk><trkseg>
      <trkpt lat="35.6812" lon="139.7671"><time>2026-04-01T08:00:00+09:00</time></trkpt>
      <trkpt lat="35.6808" lon="139.7668"><time>2026-04-01T08:00:30+09:00</time></trkpt>
      <trkpt lat="north" lon="139.7665"><time>2026-04-01T08:01:00+09:00</time></trkpt>
      <trkpt lat="35.6800" lon="139.7662"><time>2026-04-01T08:01:30+09:00</time></trkpt>
    </trkseg></trk></gpx>
    """.utf8
  ).write(to: folder.appendingPathComponent("traces/walk.gpx"))
  let allow = allowSkippedPoints.map { #", "allowSkippedPoints": \#($0)"# } ?? ""
  let file = folder.appendingPathComponent("walk.scenario.json")
  try Data(
    """
    {"format": "geosim-scenario/1", "name": "walk", "seed": 3,
     "start": "2026-04-01T08:00:00+09:00", "duration": 120,
     "device": {"promptAnswers": {"location": ["allowWhileUsing"]}},
     "app": {"name": "WeatherWidget", "variant": "corrected"},
     "trace": {"file": "traces/walk.gpx"\(allow)},
     "timeline": [{"at": 0, "do": "launch"}],
     "expectations": [{"expect": "noCrash"}]}
    """.utf8
  ).write(to: file)
  return try body(try Scenario(contentsOf: file.path))
}

@Suite struct TraceIssueReportTests {
  func report(allowSkippedPoints: Bool?) throws -> ScenarioReport {
    try withScenarioWithABadTracePoint(allowSkippedPoints: allowSkippedPoints) { scenario in
      let run = try ScenarioRun(scenario, catalog: .referenceApps, resources: resources)
      return try ScenarioReport(
        input: ReportInput(run), context: run.world.geos, resources: resources)
    }
  }

  @Test func aSkippedTracePointIsReportedWithItsFileAndLineAndFailsTheScenario() throws {
    let report = try report(allowSkippedPoints: nil)
    let result = try #require(report.result)
    #expect(result.expectations.allSatisfy { $0.passed })
    #expect(result.verdict == .fail && !result.passed)
    let issue = try #require(result.traceIssues.first)
    #expect(result.traceIssues.count == 1)
    #expect(issue.file == "traces/walk.gpx" && issue.line == 4 && issue.trace == "trace")
    #expect(issue.message.hasPrefix("skipped a point") && !issue.allowed)
    guard case .object(let o) = report.json, case .array(let issues)? = o["traceIssues"] else {
      Issue.record("no traceIssues in \(report.json.jsonText)")
      return
    }
    #expect(issues == [issue.json])
    #expect(o["verdict"] == .string("fail"))
    let md = report.markdown()
    #expect(md.contains("Verdict: **FAIL**"))
    #expect(md.contains("- `traces/walk.gpx` line 4 (trace): "))
    #expect(md.contains("(**not allowed**: the replay fails)"))
    let junit = RunReport(entries: [RunReport.Entry(report: report, figures: [])]).junitXML()
    #expect(junit.contains(#"type="trace""#) && junit.contains("traces/walk.gpx:4: "))
  }

  @Test func aScenarioThatAllowsSkippedPointsListsThemAndFollowsItsExpectations() throws {
    let report = try report(allowSkippedPoints: true)
    let result = try #require(report.result)
    #expect(result.verdict == .pass)
    #expect(result.traceIssues.map(\.line) == [4] && result.traceIssues.allSatisfy { $0.allowed })
    #expect(report.markdown().contains("(allowed)"))
  }

  @Test func aResultReadsBackWithItsTraceIssues() throws {
    let result = try #require(try report(allowSkippedPoints: nil).result)
    #expect(ReplayResult(json: result.json) == result)
  }

  @Test func aTraceIssueFailsEvenAScenarioMeantToShowAFailure() throws {
    let verdict = try withScenarioWithABadTracePoint(allowSkippedPoints: false) { scenario in
      var scenario = scenario
      scenario.expectedOutcome = .fail
      return try ScenarioRun(scenario, catalog: .referenceApps, resources: resources).result.verdict
    }
    #expect(verdict == .fail)
  }
}

/// A complete scenario report's text with the members the run's report reads, on one line.
private func reportText(name: String, outcome: String, verdict: String, expectations: String)
  -> String
{
  #"{"format": "geosim-scenario-report/1", "status": "complete", "#
    + #""expectations": \#(expectations), "#
    + #""scenario": {"name": "\#(name)", "file": null, "expectedOutcome": "\#(outcome)", "app": "X"}, "#
    + #""error": null, "crash": null, "timelineErrors": [], "verdict": "\#(verdict)", "#
    + #""timeout": null, "traceIssues": [], "pendingWork": [], "assumptions": [], "runs": null}"#
}

/// The path of `xmllint`, when it is installed.
private let xmllint: String? = ["/usr/bin/xmllint", "/usr/local/bin/xmllint"].first {
  FileManager.default.isExecutableFile(atPath: $0)
}

/// Runs `tool` with `arguments`; returns its exit status and what it wrote.
private func run(_ tool: String, _ arguments: [String]) throws -> (Int32, String) {
  let process = Process()
  process.executableURL = URL(fileURLWithPath: tool)
  process.arguments = arguments
  let pipe = Pipe()
  process.standardOutput = pipe
  process.standardError = pipe
  try process.run()
  let data = pipe.fileHandleForReading.readDataToEndOfFile()
  process.waitUntilExit()
  return (process.terminationStatus, String(decoding: data, as: UTF8.self))
}
