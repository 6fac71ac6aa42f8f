import Foundation
import JSON
import Replay

#if os(Linux)
  import CLinux
#endif

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A run's report: every scenario's report gathered into `report.json`, `report.md`,
/// `junit.xml` and a self-contained `index.html`.
///
/// It is built from what each scenario's replay wrote (its JSON, Markdown and figures), so that
/// the scenarios can run in separate processes.
public struct RunReport {
  /// One scenario's part.
  public struct Entry: Sendable {
    /// What the run's summary, table and JUnit need of the scenario's report.
    public let summary: ScenarioSummary
    /// Its `report.json`, as the run's `report.json` embeds it.
    public let json: JSONValue
    /// Its `report.md`.
    public let markdown: String
    /// Its figures: file name in its folder, and SVG text.
    public let figures: [(file: String, svg: String)]
    /// Its section of the run's page, when made ahead by ``rendered()``.
    let section: String?

    /// The entry with its section of the run's page made now, so that the page takes it instead
    /// of making it when it is written: a caller that has its entries one by one (as a replay's
    /// workers finish them) makes each section while the others are still coming.
    public func rendered() -> Entry {
      Entry(
        summary: summary, json: json, markdown: markdown, figures: figures.map { ($0, $1) },
        section: RunReport.section(of: self))
    }

    /// The scenario's name (its folder in the run).
    public var name: String { summary.name }

    /// The replay viewer's page, relative to the scenario's folder (`index.html`, run 0's
    /// `runs/0/index.html` for a scenario replayed several times); `nil` when the scenario did
    /// not run to its end or past its budget (invalid, crashed).
    public var viewer: String? {
      guard summary.status == .complete || summary.status == .timedOut else { return nil }
      return summary.runs == nil ? "index.html" : "runs/0/index.html"
    }

    /// The entry of a scenario report made in this process.
    public init(report: ScenarioReport, figures: [(String, String)]) {
      self.init(
        summary: report.summary, json: report.json, markdown: report.markdown(),
        figures: figures)
    }

    /// The entry of a scenario replayed several times; `figures` are run 0's, their files
    /// relative to the scenario's folder (`runs/0/map.svg`).
    public init(runs report: ScenarioRunsReport, figures: [(String, String)]) {
      self.init(
        summary: report.summary, json: report.json, markdown: report.markdown(),
        figures: figures)
    }

    /// The entry of a report whose JSON and Markdown are already made (they were just written).
    init(
      summary: ScenarioSummary, json: JSONValue, markdown: String, figures: [(String, String)],
      section: String? = nil
    ) {
      self.summary = summary
      self.json = json
      self.markdown = markdown
      self.figures = figures.map { (file: $0.0, svg: $0.1) }
      self.section = section
    }

    /// The entry of a scenario's report as its replay wrote it: `reportJSON` is the text of its
    /// `report.json`, read from `file`.
    ///
    /// - Throws: ``ScenarioReportError`` naming the file, line, column and JSON path of the
    ///   first problem when the report is not valid JSON or lacks what a scenario report holds.
    public init(
      reading reportJSON: Data, file: String, markdown: String, figures: [(String, String)]
    )
      throws(ScenarioReportError)
    {
      let document: JSONDocument
      do {
        document = try JSONDocument(parsing: reportJSON)
      } catch {
        throw ScenarioReportError(report: file, syntax: error)
      }
      summary = try ScenarioSummary(reading: document, file: file)
      json = document.root
      self.markdown = markdown
      self.figures = figures.map { (file: $0.0, svg: $0.1) }
      section = nil
    }
  }

  /// The scenarios' parts, in the run's order.
  public let entries: [Entry]

  /// A run's report.
  public init(entries: [Entry]) {
    self.entries = entries
  }

  /// The names in the verdict column, in the order summaries count them: the verdicts, then
  /// the status of scenarios that never ran.
  static let verdictOrder =
    ReplayResult.Verdict.allCases.map(\.rawValue) + [ScenarioReport.Status.invalid.rawValue]

  private var counts: [String: Int] {
    Dictionary(grouping: entries, by: \.summary.verdictName).mapValues(\.count)
  }

  /// `3 PASS, 1 XFAIL`: how many scenarios have each verdict, in ``verdictOrder``.
  private var countsText: String {
    Self.verdictOrder.compactMap { v in counts[v].map { "\($0) \(v.uppercased())" } }
      .joined(separator: ", ")
  }

  /// Whether every verdict is what a healthy build gives (pass, or an expected failure).
  public var isHealthy: Bool { entries.allSatisfy(\.summary.isHealthy) }

  /// The run as JSON: a summary and every scenario's report, in order.
  public var json: JSONValue {
    .object([
      "format": .string("geosim-run-report/1"),
      "summary": .object([
        "scenarios": .number(Double(entries.count)),
        "verdicts": .object(counts.mapValues { .number(Double($0)) }),
        "healthy": .bool(isHealthy),
      ]),
      "scenarios": .array(entries.map(\.json)),
    ])
  }

  /// The run as Markdown: a table of verdicts, then each scenario's section.
  public func markdown() -> String {
    var md = "# GeoSim replay report\n\n"
    md += "\(entries.count) scenario(s): \(countsText).\n\n"
    md += "| scenario | verdict | status |\n|---|---|---|\n"
    for e in entries {
      md += "| \(e.name) | \(e.summary.verdictLabel) | \(e.summary.statusText) |\n"
    }
    md += "\n"
    for e in entries { md += e.markdown + "\n" }
    // Text from scenarios and apps is never raw HTML where the report is rendered.
    return Markup.escapingHTML(inMarkdown: md)
  }

  /// JUnit XML: a test suite per scenario, a test case per expectation (a scenario without
  /// expectations, an invalid one or a crash gets one case for the replay itself), in the
  /// subset of the format Jenkins and GitLab read (`docs/schemas/junit.xsd`).
  ///
  /// A scenario marked to fail whose expectations fail passes: each failed expectation is
  /// *skipped* with the reason, as pytest reports an expected failure; one that passes anyway
  /// fails. Each suite carries the scenario's seed, file, expected outcome and verdict as
  /// properties. Times are virtual seconds — a suite's the scenario's duration, a case's the
  /// moment its expectation was judged (0 when it has none) — so that the same replay gives the
  /// same bytes; host times are printed by `geosim replay`, never written here.
  public func junitXML() -> String {
    var xml = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
    var suites: [String] = []
    var totals = (tests: 0, failures: 0, errors: 0, time: 0.0)
    for e in entries {
      let suite = JUnitSuite(e.summary)
      let time = e.summary.duration ?? 0
      totals.tests += suite.cases.count
      totals.failures += suite.failures
      totals.errors += suite.errors
      totals.time += time
      var properties = [("verdict", e.summary.verdictName)]
      if let seed = e.summary.seed { properties.append(("seed", seed)) }
      if let file = e.summary.file { properties.append(("scenario", file)) }
      if let outcome = e.summary.expectedOutcome {
        properties.append(("expectedOutcome", outcome.rawValue))
      }
      // The unconfirmed defaults the verdict may rest on travel with it.
      properties += AssumptionsSection.junitProperties(
        e.summary.assumptions, runs: e.summary.runs?.count)
      let propertyLines = properties.sorted { $0.0 < $1.0 }.map {
        "      <property name=\"\($0.0)\" value=\"\(Markup.escape($0.1))\"/>"
      }
      suites.append(
        "  <testsuite name=\"\(Markup.escape(e.name))\" tests=\"\(suite.cases.count)\" "
          + "failures=\"\(suite.failures)\" errors=\"\(suite.errors)\" "
          + "skipped=\"\(suite.skipped)\" time=\"\(Self.seconds(time))\">\n"
          + "    <properties>\n" + propertyLines.joined(separator: "\n") + "\n    </properties>\n"
          + suite.cases.joined(separator: "\n") + "\n  </testsuite>")
    }
    xml +=
      "<testsuites name=\"geosim replay\" tests=\"\(totals.tests)\" "
      + "failures=\"\(totals.failures)\" errors=\"\(totals.errors)\" "
      + "time=\"\(Self.seconds(totals.time))\">\n"
    xml += suites.joined(separator: "\n") + "\n</testsuites>\n"
    return xml
  }

  /// Virtual seconds as JUnit writes them: a decimal number, to the millisecond.
  static func seconds(_ value: Double) -> String {
    let millis = Int64((max(0, value) * 1_000).rounded())
    let fraction = String(millis % 1_000)
    return "\(millis / 1_000)." + String(repeating: "0", count: 3 - fraction.count) + fraction
  }

  /// One scenario's JUnit test cases, and how many of them failed, are errors or were skipped
  /// as expected failures.
  private struct JUnitSuite {
    private(set) var cases: [String] = []
    private(set) var failures = 0
    private(set) var errors = 0
    private(set) var skipped = 0
    private let classname: String

    init(_ s: ScenarioSummary) {
      classname = Markup.escape("geosim.\(s.name)")
      switch s.status {
      case .invalid:
        errors += 1
        let message = s.error ?? s.status.rawValue
        add("replay", "<error message=\"\(Markup.escape(message))\" type=\"invalid\"/>")
      case .crashed, .timedOut:
        errors += 1
        let crashed = s.status == .crashed
        let reason = (crashed ? s.crash?.reason : s.timeout?.reason) ?? s.status.rawValue
        let last = ((crashed ? s.crash?.lastEvents : s.timeout?.lastEvents) ?? [])
          .joined(separator: "\n")
        add(
          "replay",
          "<error message=\"\(Markup.escape(reason))\" type=\"\(crashed ? "crash" : "timeout")\">"
            + Markup.escape(last) + "</error>")
      case .complete:
        addJudgedCases(s)
      }
    }

    private mutating func addJudgedCases(_ s: ScenarioSummary) {
      let expectsFail = s.expectedOutcome == .fail
      // A trace issue the scenario does not allow fails it whatever it was meant to show.
      for issue in s.refusedTraceIssues {
        let place = issue.file + (issue.line.map { ":\($0)" } ?? "")
        failures += 1
        add(
          "trace",
          "<failure message=\"\(Markup.escape(place + ": " + issue.message))\" type=\"trace\"/>")
      }
      for t in s.timelineErrors {
        if expectsFail {
          skipped += 1
          add("timeline", Self.expectedFailure(t))
        } else {
          failures += 1
          add("timeline", "<failure message=\"\(Markup.escape(t))\" type=\"timeline\"/>")
        }
      }
      for x in s.expectations {
        if x.passed {
          // Over several runs, a case says how often it held even when it passes.
          let note = s.runs == nil ? "" : "<system-out>\(Markup.escape(x.message))</system-out>"
          add(x.name, note, time: x.time)
        } else if expectsFail {
          skipped += 1
          add(x.name, Self.expectedFailure(x.message), time: x.time)
        } else {
          failures += 1
          add(
            x.name, "<failure message=\"\(Markup.escape(x.message))\" type=\"expectation\"/>",
            time: x.time)
        }
      }
      if expectsFail && s.verdict == .unexpectedPass {
        failures += 1
        add(
          "shows its published failure",
          "<failure message=\"marked &quot;expect&quot;: &quot;fail&quot;, but every expectation held\" type=\"unexpectedPass\"/>"
        )
      }
      if cases.isEmpty { add("replay", "") }
    }

    /// An expected failure, skipped with its reason (pytest's `xfail`).
    private static func expectedFailure(_ reason: String) -> String {
      "<skipped message=\"\(Markup.escape("expected failure: " + reason))\"/>"
    }

    private mutating func add(_ name: String, _ body: String, time: Double? = nil) {
      cases.append(
        "    <testcase classname=\"\(classname)\" name=\"\(Markup.escape(name))\" "
          + "time=\"\(RunReport.seconds(time ?? 0))\">" + body + "</testcase>")
    }
  }

  /// One self-contained HTML page: the summary, then each scenario's section with its figures
  /// inline, linking the run's files. Opens offline; no scripts, no outside resources.
  public func html() -> String {
    var page = Self.pageHead(title: "GeoSim replay report")
    page += "<p>\(entries.count) scenario(s): \(Markup.escape(countsText)). "
    page +=
      "Files: <a href=\"report.json\">report.json</a>, <a href=\"report.md\">report.md</a>, "
      + "<a href=\"junit.xml\">junit.xml</a>.</p>\n"
    page += "<table>\n<tr><th>scenario</th><th>verdict</th><th>status</th><th>files</th></tr>\n"
    for e in entries {
      let id = Self.anchor(e.name)
      let name = Markup.escape(e.name)
      var files: [String] = []
      if let viewer = e.viewer {
        files.append("<a href=\"\(Markup.escape(e.name))/\(viewer)\"><b>viewer</b></a>")
      }
      files += ["report.json", "events.jsonl"].map {
        "<a href=\"\(Markup.escape(e.name))/\($0)\">\($0)</a>"
      }
      files += e.figures.map {
        "<a href=\"\(Markup.escape(e.name))/\(Markup.escape($0.file))\">\(Markup.escape($0.file))</a>"
      }
      page += "<tr><td><a href=\"#\(id)\">\(name)</a></td>"
      page +=
        "<td class=\"\(Markup.escape(e.summary.verdictName))\">"
        + "\(Markup.escape(e.summary.verdictLabel))</td>"
      page +=
        "<td>\(Markup.escape(e.summary.statusText))</td>"
        + "<td>\(files.joined(separator: " "))</td></tr>\n"
    }
    page += "</table>\n"
    for e in entries { page += e.section ?? Self.section(of: e) }
    page += "</body>\n</html>\n"
    return page
  }

  /// A scenario's section of ``html()``: its Markdown report and its figures.
  static func section(of e: Entry) -> String {
    var section = "<section id=\"\(Self.anchor(e.name))\">\n"
    section += MarkdownHTML.render(e.markdown)
    for figure in e.figures {
      section += "<figure>\n" + Self.inline(figure.svg) + "\n</figure>\n"
    }
    return section + "</section>\n"
  }

  /// The start of a self-contained page: its head with the shared style, and its title.
  static func pageHead(title: String) -> String {
    let escaped = Markup.escape(title)
    return """
      <!DOCTYPE html>
      <html lang="en">
      <head>
      <meta charset="utf-8"/>
      <title>\(escaped)</title>
      <style>
      body { font-family: sans-serif; margin: 2em auto; max-width: 72em; color: #222; }
      table { border-collapse: collapse; margin: 0.5em 0 1.5em; }
      th, td { border: 1px solid #ccc; padding: 0.25em 0.6em; text-align: left; vertical-align: top; }
      th { background: #f2f2f2; }
      code { background: #f6f6f6; padding: 0 0.2em; }
      .pass, .xfail { color: #1a7f37; } .fail, .crash, .timeout, .xpass, .invalid { color: #c62828; }
      figure { margin: 1em 0; } figure svg { max-width: 100%; height: auto; border: 1px solid #ddd; }
      section { border-top: 2px solid #ddd; margin-top: 2em; }
      </style>
      </head>
      <body>
      <h1>\(escaped)</h1>

      """
  }

  /// An SVG document without its XML declaration, for embedding.
  static func inline(_ svg: String) -> String {
    guard svg.hasPrefix("<?xml"), let end = svg.firstIndex(of: "\n") else { return svg }
    return String(svg[svg.index(after: end)...])
  }

  static func anchor(_ name: String) -> String {
    "s-"
      + String(
        name.unicodeScalars.map { s in
          CharacterSet.alphanumerics.contains(s) || s == "-" ? Character(s) : "_"
        })
  }
}

/// The small part of Markdown the reports use, as HTML: `#` headings, paragraphs, `- ` lists,
/// pipe tables, `**bold**` and `` `code` ``; everything else is escaped text.
enum MarkdownHTML {
  static func render(_ markdown: String) -> String {
    var html = ""
    var paragraph: [String] = []
    var list: [String] = []
    var table: [[String]] = []
    func flush() {
      if !paragraph.isEmpty {
        html += "<p>" + inline(paragraph.joined(separator: " ")) + "</p>\n"
        paragraph = []
      }
      if !list.isEmpty {
        html += "<ul>\n" + list.map { "<li>" + inline($0) + "</li>\n" }.joined() + "</ul>\n"
        list = []
      }
      if !table.isEmpty {
        html += "<table>\n"
        for (i, row) in table.enumerated() {
          let tag = i == 0 ? "th" : "td"
          html += "<tr>" + row.map { "<\(tag)>" + inline($0) + "</\(tag)>" }.joined() + "</tr>\n"
        }
        html += "</table>\n"
        table = []
      }
    }
    for line in lines(markdown) {
      let trimmed = trimmingWhitespace(line)
      if trimmed.isEmpty {
        flush()
      } else if let level = heading(trimmed) {
        flush()
        let text = trimmed.drop { $0 == "#" }.trimmingCharacters(in: .whitespaces)
        html += "<h\(level)>" + inline(text) + "</h\(level)>\n"
      } else if trimmed.hasPrefix("|") {
        if !paragraph.isEmpty || !list.isEmpty {
          let saved = table
          table = []
          flush()
          table = saved
        }
        let cells = cellsOf(trimmed)
        if cells.allSatisfy({ $0.allSatisfy { "-: ".contains($0) } && !$0.isEmpty }) {
          continue
        }
        table.append(cells)
      } else if trimmed.hasPrefix("- ") {
        if !paragraph.isEmpty || !table.isEmpty {
          let saved = list
          list = []
          flush()
          list = saved
        }
        list.append(String(trimmed.dropFirst(2)))
      } else {
        if !list.isEmpty || !table.isEmpty { flush() }
        paragraph.append(trimmed)
      }
    }
    flush()
    return html
  }

  /// The lines of `text`, split where `split(separator: "\n")` splits it (at a line feed
  /// that is a character of its own, not the end of a CR-LF), but over bytes rather than
  /// characters: a run's page renders every scenario's report.
  private static func lines(_ text: String) -> [Substring] {
    let utf8 = text.utf8
    var lines: [Substring] = []
    var start = utf8.startIndex
    var previous: UInt8 = 0
    var i = utf8.startIndex
    while i != utf8.endIndex {
      let byte = utf8[i]
      if byte == UInt8(ascii: "\n"), previous != UInt8(ascii: "\r") {
        lines.append(Substring(utf8[start..<i]))
        start = utf8.index(after: i)
      }
      previous = byte
      i = utf8.index(after: i)
    }
    lines.append(Substring(utf8[start...]))
    return lines
  }

  private static func heading(_ line: String) -> Int? {
    let hashes = line.prefix { $0 == "#" }.count
    guard (1...6).contains(hashes), line.dropFirst(hashes).first == " " else { return nil }
    // A page's own h1 is the run's; scenario headings start one level lower.
    return min(6, hashes + 1)
  }

  /// `text` without the white space (`CharacterSet.whitespaces`) at its ends; without calling
  /// Foundation for the usual line, which starts and ends with a printable ASCII character.
  private static func trimmingWhitespace(_ text: Substring) -> String {
    guard let first = text.utf8.first, let last = text.utf8.last else { return "" }
    func plain(_ byte: UInt8) -> Bool { byte > 0x20 && byte < 0x80 }
    guard plain(first), plain(last) else { return text.trimmingCharacters(in: .whitespaces) }
    return String(text)
  }

  /// The cells of a pipe-table row; `\|` is a literal bar.
  private static func cellsOf(_ row: String) -> [String] {
    var row = row
    return row.withUTF8 { bytes in
      var cells: [String] = []
      var current: [UInt8] = []
      current.reserveCapacity(bytes.count)
      var escaped = false
      func cell() -> String {
        // Spaces and tabs at the ends are dropped here, as bytes: a cell is written with a
        // space each side, which would otherwise send every cell to Foundation's trimming.
        var start = current.startIndex
        var end = current.endIndex
        while start < end, current[start] == 0x20 || current[start] == 0x09 { start += 1 }
        while end > start, current[end - 1] == 0x20 || current[end - 1] == 0x09 { end -= 1 }
        return trimmingWhitespace(Substring(decoding: current[start..<end], as: UTF8.self))
      }
      // Bytes, not characters: a bar and a backslash are never part of another character's
      // UTF-8.
      for byte in bytes.dropFirst() {
        if escaped {
          current.append(byte)
          escaped = false
        } else if byte == UInt8(ascii: "\\") {
          escaped = true
        } else if byte == UInt8(ascii: "|") {
          cells.append(cell())
          current.removeAll(keepingCapacity: true)
        } else {
          current.append(byte)
        }
      }
      let last = cell()
      if !last.isEmpty { cells.append(last) }
      return cells
    }
  }

  /// Escapes the text and renders `**bold**` and `` `code` `` spans; `\<` and `\>` are the
  /// characters themselves.
  static func inline(_ text: String) -> String {
    // Most text has no span and no escaped bracket: it is only escaped.
    guard
      text.utf8.contains(where: {
        $0 == UInt8(ascii: "`") || $0 == UInt8(ascii: "*") || $0 == UInt8(ascii: "\\")
      })
    else { return Markup.escape(text) }
    let bytes = Array(text.utf8)
    var out = ""
    out.reserveCapacity(bytes.count + 16)
    func escaped(_ range: Range<Int>) -> String {
      Markup.escape(String(decoding: bytes[range], as: UTF8.self))
    }
    /// The first `**` at or after `start`.
    func strongEnd(from start: Int) -> Int? {
      var i = start
      while i + 1 < bytes.count {
        if bytes[i] == UInt8(ascii: "*"), bytes[i + 1] == UInt8(ascii: "*") { return i }
        i += 1
      }
      return nil
    }
    // Text between spans is escaped in one piece: escaping works scalar by scalar.
    var text = 0
    var i = 0
    while i < bytes.count {
      let span: (html: String, end: Int)?
      switch bytes[i] {
      case UInt8(ascii: "`"):
        span = bytes[(i + 1)...].firstIndex(of: UInt8(ascii: "`")).map {
          ("<code>" + escaped(i + 1..<$0) + "</code>", $0 + 1)
        }
      case UInt8(ascii: "*") where i + 1 < bytes.count && bytes[i + 1] == UInt8(ascii: "*"):
        span = strongEnd(from: i + 2).map {
          ("<strong>" + escaped(i + 2..<$0) + "</strong>", $0 + 2)
        }
      case UInt8(ascii: "\\")
      where i + 1 < bytes.count
        && (bytes[i + 1] == UInt8(ascii: "<") || bytes[i + 1] == UInt8(ascii: ">")):
        span = (escaped(i + 1..<i + 2), i + 2)
      default:
        span = nil
      }
      guard let span else {
        i += 1
        continue
      }
      out += escaped(text..<i) + span.html
      i = span.end
      text = i
    }
    out += escaped(text..<bytes.count)
    return out
  }
}

/// Writes report files through a temporary file and a rename, so that an interrupted run never
/// leaves a half-written file in place.
public enum ReportWriter {
  /// Writes `text` to `url`, creating its folder.
  public static func write(_ text: String, to url: URL) throws(ReportWriteError) {
    try write(Data(text.utf8), to: url)
  }

  /// Writes `data` to `url`, creating its folder.
  ///
  /// The bytes go to a temporary file beside it, which is then renamed over it: a reader sees
  /// the old file or the whole new one. The file is not forced to the disk (no `fsync`): a
  /// report can be written again from its scenario, and a replay writes a thousand of them.
  ///
  /// A regular file that already holds exactly these bytes is left as it is (its time of
  /// change too): a replay run again writes mostly the same bytes, and on ext4 a file made
  /// soon after many were deleted costs more than writing it, the allocator passing over every
  /// inode freed in the last seconds (replaying the shipped scenarios again spent a third of
  /// its time there).
  ///
  /// - Throws: ``ReportWriteError`` naming the file and why (a full disk, a missing permission).
  public static func write(_ data: Data, to url: URL) throws(ReportWriteError) {
    let path = url.path
    if holds(path, data) { return }
    let folder = url.deletingLastPathComponent()
    do {
      try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    } catch {
      throw ReportWriteError(file: path, underlying: error)
    }
    let temporary = folder.appendingPathComponent(
      ".\(url.lastPathComponent).\(UUID().uuidString).tmp"
    ).path
    let descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o666)
    guard descriptor >= 0 else { throw ReportWriteError(file: path, errno: errno) }
    var failure = data.withUnsafeBytes { writeAll($0, to: descriptor) }
    if close(descriptor) != 0, failure == 0 { failure = errno }
    if failure == 0 { failure = replace(path, with: temporary) }
    if failure != 0 {
      unlink(temporary)
      throw ReportWriteError(file: path, errno: failure)
    }
  }

  /// Whether `path` is a regular file (not a link) holding exactly `data`.
  static func holds(_ path: String, _ data: Data) -> Bool {
    let descriptor = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC)
    guard descriptor >= 0 else { return false }
    defer { close(descriptor) }
    var status = stat()
    guard fstat(descriptor, &status) == 0, status.st_mode & S_IFMT == S_IFREG,
      status.st_size == data.count
    else { return false }
    return data.withUnsafeBytes { expected in
      // Read in pieces, each compared as it comes: a file that differs is left early.
      let piece = 1 << 16
      let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: piece, alignment: 16)
      defer { buffer.deallocate() }
      var offset = 0
      while offset < expected.count {
        let count = read(descriptor, buffer.baseAddress, min(piece, expected.count - offset))
        if count < 0, errno == EINTR { continue }
        guard count > 0,
          memcmp(buffer.baseAddress!, expected.baseAddress! + offset, count) == 0
        else { return false }
        offset += count
      }
      // Nothing past the expected length: the file did not grow meanwhile.
      return read(descriptor, buffer.baseAddress, 1) == 0
    }
  }

  /// Puts the written file `temporary` at `path`, as `rename` does; returns 0, or the `errno`
  /// of the call that failed.
  ///
  /// On Linux a file already at `path` is swapped with the new one in one step (`renameat2`
  /// with `RENAME_EXCHANGE`) and then deleted, rather than renamed over: ext4 takes a rename
  /// over a file for an application replacing it, and makes the rename write the new file's
  /// blocks out at once (`auto_da_alloc`), which made replacing a 19 MB `events.jsonl` cost
  /// some 22 ms instead of 7. A reader still sees the old file or the whole new one.
  private static func replace(_ path: String, with temporary: String) -> Int32 {
    #if os(Linux)
      let exchange = UInt32(RENAME_EXCHANGE)
      if renameat2(AT_FDCWD, temporary, AT_FDCWD, path, exchange) == 0 {
        guard unlink(temporary) != 0 else { return 0 }
        // What was at `path` is not a file (a folder): put it back, and fail as `rename` would.
        let failure = errno
        renameat2(AT_FDCWD, temporary, AT_FDCWD, path, exchange)
        return failure
      }
    #endif
    // Nothing at `path` to swap with, a file system that cannot swap, or not Linux.
    return rename(temporary, path) == 0 ? 0 : errno
  }
}

extension ReportWriter {
  /// Writes `text` over `url` in place, not through a temporary file, creating its folder when
  /// it is missing: for a file only GeoSim reads back, and only once its writer has said it is
  /// written (a sweep point's `runs/<i>.json`). An existing file keeps its inode and its
  /// blocks: it is written over from its start and then cut to the text's length, never
  /// emptied first. On ext4, making many files right after deleting as many costs more than
  /// writing them, and where freed blocks are discarded (`-o discard`) emptying a file waits
  /// for the disk. A writer stopped part way leaves the new text's start before the old
  /// text's end, which the reader never reads: its writer did not say it was written.
  ///
  /// - Throws: ``ReportWriteError`` naming the file and why.
  public static func writeInPlace(_ text: String, to url: URL) throws(ReportWriteError) {
    let path = url.path
    let flags = O_WRONLY | O_CREAT | O_CLOEXEC
    var descriptor = open(path, flags, 0o666)
    if descriptor < 0, errno == ENOENT {
      try? FileManager.default.createDirectory(
        at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
      descriptor = open(path, flags, 0o666)
    }
    guard descriptor >= 0 else { throw ReportWriteError(file: path, errno: errno) }
    let bytes = Array(text.utf8)
    var failure = bytes.withUnsafeBytes { writeAll($0, to: descriptor) }
    // A device or a pipe has no length to cut (EINVAL): what was written is all there is.
    if failure == 0, ftruncate(descriptor, off_t(bytes.count)) != 0, errno != EINVAL {
      failure = errno
    }
    if close(descriptor) != 0, failure == 0 { failure = errno }
    if failure != 0 { throw ReportWriteError(file: path, errno: failure) }
  }
}

/// Writes all of `bytes` to `descriptor`, again after an interruption; returns 0, or the
/// `errno` of the write that failed. Only system calls: safe in a signal handler (the event
/// file's).
package func writeAll(_ bytes: UnsafeRawBufferPointer, to descriptor: Int32) -> Int32 {
  var offset = 0
  while offset < bytes.count {
    let written = write(descriptor, bytes.baseAddress! + offset, bytes.count - offset)
    if written >= 0 {
      offset += written
    } else if errno != EINTR {
      return errno
    }
  }
  return 0
}

/// A report file that could not be written: the file and the system's reason, without
/// Foundation's error domains and codes.
public struct ReportWriteError: Error, Sendable, CustomStringConvertible {
  /// The file.
  public let file: String
  /// Why, in the system's words (`No space left on device`).
  public let reason: String

  init(file: String, underlying error: any Error) {
    self.file = file
    let nsError = error as NSError
    if let posix = nsError.userInfo[NSUnderlyingErrorKey] as? NSError,
      posix.domain == NSPOSIXErrorDomain, let code = POSIXErrorCode(rawValue: Int32(posix.code))
    {
      reason = POSIXError(code).localizedDescription
    } else if nsError.domain == NSPOSIXErrorDomain,
      let code = POSIXErrorCode(rawValue: Int32(nsError.code))
    {
      reason = POSIXError(code).localizedDescription
    } else {
      reason = error.localizedDescription
    }
  }

  /// The error of a system call on `file` that set `errno` to `code`.
  init(file: String, errno code: Int32) {
    self.file = file
    reason = String(cString: strerror(code))
  }

  /// `cannot write FILE: reason`.
  public var description: String { "cannot write \(file): \(reason)" }
}
