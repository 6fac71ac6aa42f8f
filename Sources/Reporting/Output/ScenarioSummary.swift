import Device
import JSON
import Replay
import SimKernel

/// The part of a scenario's report that the run's report is built from: what the scenario is,
/// how its replay ended and what was judged.
///
/// ``ScenarioReport`` writes these members of its `report.json`; ``init(reading:file:)`` reads
/// them back strictly, so that a damaged report is an error naming its place, never a silent
/// default.
public struct ScenarioSummary: Sendable, Hashable {
  /// The scenario's name (its file's name when it could not be read).
  public var name: String
  /// The scenario file, if it came from one.
  public var file: String?
  /// Whether the scenario was meant to pass or to show a failure; `nil` when it could not be
  /// read.
  public var expectedOutcome: ExpectedOutcome?
  /// How the replay ended.
  public var status: ScenarioReport.Status
  /// The verdict; `nil` exactly when ``status`` is ``ScenarioReport/Status/invalid``: nothing
  /// ran, so there is nothing to judge.
  public var verdict: ReplayResult.Verdict?
  /// What was wrong with an invalid scenario.
  public var error: String?
  /// Each expectation's result, in the scenario's order.
  public var expectations: [ExpectationResult]
  /// Timeline events that could not happen as written.
  public var timelineErrors: [String]
  /// What the importers skipped or noted in the scenario's trace files.
  public var traceIssues: [ReplayResult.TraceIssue]
  /// The crash that ended the app's world, if it crashed.
  public var crash: ReplayResult.Crash?
  /// The budget the replay ran out of, if it was stopped.
  public var timeout: ReplayResult.Timeout?
  /// Work the app's code queued that had not run when the run ended.
  public var pendingWork: [PendingAppWork]
  /// For a scenario replayed several times, what its runs came to; `nil` for one run.
  public var runs: ReplayResult.Runs?
  /// The scenario's seed (run 0's, for several runs), as the report writes it; `nil` when the
  /// scenario could not be read.
  public var seed: String?
  /// The scenario's duration in seconds of virtual time; `nil` when it could not be read.
  public var duration: Double?

  /// The `format` member of every scenario report.
  static let format = "geosim-scenario-report/1"

  /// The verdict's JSON name, or for an invalid scenario its status (`invalid`), which the
  /// reports show where the verdict would be.
  var verdictName: String { verdict?.rawValue ?? ScenarioReport.Status.invalid.rawValue }

  /// ``verdictName`` as summaries print it: `PASS`, …, or `INVALID`.
  var verdictLabel: String { verdictName.uppercased() }

  /// The trace issues the scenario does not allow: each fails the replay.
  var refusedTraceIssues: [ReplayResult.TraceIssue] { traceIssues.filter { !$0.allowed } }

  /// Whether the verdict is what a healthy build gives; an invalid scenario's is not.
  var isHealthy: Bool { verdict?.isHealthy ?? false }

  /// The summary's members of the report's root object (all but `scenario`).
  var members: [String: JSONValue] {
    [
      "format": .string(Self.format), "status": .string(status.rawValue),
      "verdict": .string(verdictName), "error": error.map(JSONValue.string) ?? .null,
      "expectations": .array(expectations.map(\.json)),
      "timelineErrors": .array(timelineErrors.map(JSONValue.string)),
      "traceIssues": .array(traceIssues.map(\.json)),
      "pendingWork": .array(pendingWork.map(\.json)),
      "crash": crash.map { Self.stop($0.reason, $0.lastEvents) } ?? .null,
      "timeout": timeout.map { Self.stop($0.reason, $0.lastEvents) } ?? .null,
      "runs": runs?.json ?? .null,
    ]
  }

  /// The status as the run's tables show it: `complete`, or `complete, 100 runs`.
  var statusText: String {
    status.rawValue + (runs.map { ", \($0.count) runs" } ?? "")
  }

  private static func stop(_ reason: String, _ lastEvents: [String]) -> JSONValue {
    .object(["reason": .string(reason), "lastEvents": .array(lastEvents.map(JSONValue.string))])
  }

  /// The summary's members of the report's `scenario` object.
  var scenarioMembers: [String: JSONValue] {
    var o: [String: JSONValue] = [
      "name": .string(name), "file": file.map(JSONValue.string) ?? .null,
    ]
    if let expectedOutcome { o["expectedOutcome"] = .string(expectedOutcome.rawValue) }
    return o
  }

  init(
    name: String, file: String?, expectedOutcome: ExpectedOutcome?,
    status: ScenarioReport.Status, result: ReplayResult?, error: String?
  ) {
    self.name = name
    self.file = file
    self.expectedOutcome = expectedOutcome
    self.status = status
    verdict = result?.verdict
    self.error = error
    expectations = result?.expectations ?? []
    timelineErrors = result?.timelineErrors ?? []
    traceIssues = result?.traceIssues ?? []
    crash = result?.crash
    timeout = result?.timeout
    pendingWork = result?.pendingWork ?? []
    runs = result?.runs
  }

  /// Takes the seed and the duration from the scenario (its report's `scenario` object writes
  /// them: ``ScenarioReport``'s description).
  mutating func describe(_ scenario: Scenario) {
    seed = String(scenario.seed)
    duration = scenario.duration
  }

  /// Reads the summary from a scenario's `report.json`, parsed as `document` from `reportFile`.
  ///
  /// - Throws: ``ScenarioReportError`` naming the file, the line and column and the JSON path
  ///   of the first member that is missing or not what a scenario report holds.
  public init(reading document: JSONDocument, file reportFile: String)
    throws(ScenarioReportError)
  {
    let r = SummaryReader(document: document, file: reportFile)
    guard try r.string(["format"]) == Self.format else {
      throw r.problem(["format"], "expected \"\(Self.format)\"")
    }
    status = try r.choice(["status"])
    name = try r.string(["scenario", "name"])
    self.file = try r.optionalString(["scenario", "file"])
    let verdictName = try r.string(["verdict"])
    if status == .invalid {
      guard verdictName == ScenarioReport.Status.invalid.rawValue else {
        throw r.problem(["verdict"], "expected \"invalid\", as the status is \"invalid\"")
      }
      verdict = nil
      expectedOutcome =
        try r.has(["scenario", "expectedOutcome"])
        ? r.choice(["scenario", "expectedOutcome"]) : nil
    } else {
      verdict = try r.choice(["verdict"])
      expectedOutcome = try r.choice(["scenario", "expectedOutcome"])
    }
    seed = try r.has(["scenario", "seed"]) ? r.string(["scenario", "seed"]) : nil
    duration = try r.has(["scenario", "duration"]) ? r.number(["scenario", "duration"]) : nil
    error = try r.optionalString(["error"])
    if status == .invalid, error == nil {
      throw r.problem(["error"], "expected what was wrong with the invalid scenario, found null")
    }
    expectations = try (0..<r.count(["expectations"])).map { i throws(ScenarioReportError) in
      let at: JSONPath = ["expectations", .index(i)]
      return ExpectationResult(
        name: try r.string(at.appending(key: "name")),
        kind: try r.choice(at.appending(key: "kind")),
        passed: try r.bool(at.appending(key: "passed")),
        message: try r.string(at.appending(key: "message")),
        time: try r.optionalNumber(at.appending(key: "time")))
    }
    timelineErrors = try (0..<r.count(["timelineErrors"])).map { i throws(ScenarioReportError) in
      try r.string(["timelineErrors", .index(i)])
    }
    traceIssues = try (0..<r.count(["traceIssues"])).map { i throws(ScenarioReportError) in
      let at: JSONPath = ["traceIssues", .index(i)]
      let line = try r.optionalNumber(at.appending(key: "line"))
      guard line.map({ $0 >= 1 && $0 == $0.rounded() }) ?? true else {
        throw r.problem(at.appending(key: "line"), "expected a 1-based line number or null")
      }
      return ReplayResult.TraceIssue(
        trace: try r.string(at.appending(key: "trace")),
        file: try r.string(at.appending(key: "file")),
        line: line.map { Int($0) }, message: try r.string(at.appending(key: "message")),
        allowed: try r.bool(at.appending(key: "allowed")))
    }
    pendingWork = try (0..<r.count(["pendingWork"])).map { i throws(ScenarioReportError) in
      let at: JSONPath = ["pendingWork", .index(i)]
      func instant(_ key: String) throws(ScenarioReportError) -> SimTime {
        let seconds = try r.number(at.appending(key: key))
        guard (0...PendingAppWork.latestSecond).contains(seconds) else {
          throw r.problem(at.appending(key: key), "expected a simulated second, found \(seconds)")
        }
        return .seconds(seconds)
      }
      return PendingAppWork(
        kind: try r.choice(at.appending(key: "kind")),
        label: try r.string(at.appending(key: "label")),
        queuedAt: try instant("queuedAt"),
        due: try r.isNull(at.appending(key: "due")) ? nil : instant("due"))
    }
    func stop(_ member: String) throws(ScenarioReportError) -> (String, [String])? {
      if try r.isNull([.key(member)]) { return nil }
      return (
        try r.string([.key(member), "reason"]),
        try (0..<r.count([.key(member), "lastEvents"])).map { i throws(ScenarioReportError) in
          try r.string([.key(member), "lastEvents", .index(i)])
        }
      )
    }
    crash = try stop("crash").map { ReplayResult.Crash(reason: $0.0, lastEvents: $0.1) }
    timeout = try stop("timeout").map { ReplayResult.Timeout(reason: $0.0, lastEvents: $0.1) }
    if status == .crashed, crash == nil {
      throw r.problem(["crash"], "expected the crash of a crashed replay, found null")
    }
    if status == .timedOut, timeout == nil {
      throw r.problem(["timeout"], "expected the budget a timed-out replay ran out of, found null")
    }
    if try !r.isNull(["runs"]) {
      guard let runs = ReplayResult.Runs(json: try r.value(["runs"])) else {
        throw r.problem(
          ["runs"],
          "expected the runs of a scenario replayed several times: count, passed, rates and "
            + "failed (docs/REPORTS.md)")
      }
      self.runs = runs
    } else {
      runs = nil
    }
  }
}

/// A scenario report that cannot be read back: a `ScenarioError` with the code
/// `ScenarioError.Code.invalidReport`, naming the report file, the place in it and what was
/// expected there.
public typealias ScenarioReportError = ScenarioError

extension ScenarioError {
  /// An error at `path` in the report `file`.
  init(report file: String, line: Int?, column: Int?, path: String, _ message: String) {
    self.init(
      file: file, path: path, line: line, column: column, code: .invalidReport, message)
  }

  /// The syntax error that keeps the report `file` from being read as JSON at all.
  init(report file: String, syntax error: JSONSyntaxError) {
    self.init(report: file, line: error.line, column: error.column, path: "", error.message)
  }
}

/// Reads members of a scenario report strictly, each problem an error naming its place.
private struct SummaryReader {
  let document: JSONDocument
  let file: String

  func problem(_ path: JSONPath, _ message: String) -> ScenarioReportError {
    let location = document.nearestLocation(of: path)
    return ScenarioReportError(
      report: file, line: location.line, column: location.column, path: path.description,
      message)
  }

  func has(_ path: JSONPath) throws(ScenarioReportError) -> Bool {
    if let parent = path.parent { _ = try value(parent) }
    return document.value(at: path) != nil
  }

  func value(_ path: JSONPath) throws(ScenarioReportError) -> JSONValue {
    if let value = document.value(at: path) { return value }
    if let parent = path.parent, let container = document.value(at: parent) {
      guard case .object = container else {
        throw problem(parent, "expected an object, found \(container.typeName)")
      }
      throw problem(path, "missing required key")
    }
    if let parent = path.parent { _ = try value(parent) }
    throw problem(path, "missing required key")
  }

  func string(_ path: JSONPath) throws(ScenarioReportError) -> String {
    let v = try value(path)
    guard case .string(let s) = v else {
      throw problem(path, "expected a string, found \(v.typeName)")
    }
    return s
  }

  func optionalString(_ path: JSONPath) throws(ScenarioReportError) -> String? {
    let v = try value(path)
    switch v {
    case .string(let s): return s
    case .null: return nil
    default: throw problem(path, "expected a string or null, found \(v.typeName)")
    }
  }

  func bool(_ path: JSONPath) throws(ScenarioReportError) -> Bool {
    let v = try value(path)
    guard case .bool(let b) = v else {
      throw problem(path, "expected true or false, found \(v.typeName)")
    }
    return b
  }

  func number(_ path: JSONPath) throws(ScenarioReportError) -> Double {
    let v = try value(path)
    guard case .number(let n) = v else {
      throw problem(path, "expected a number, found \(v.typeName)")
    }
    return n
  }

  func optionalNumber(_ path: JSONPath) throws(ScenarioReportError) -> Double? {
    let v = try value(path)
    switch v {
    case .number(let n): return n
    case .null: return nil
    default: throw problem(path, "expected a number or null, found \(v.typeName)")
    }
  }

  func isNull(_ path: JSONPath) throws(ScenarioReportError) -> Bool {
    try value(path) == .null
  }

  /// The length of the array at `path`.
  func count(_ path: JSONPath) throws(ScenarioReportError) -> Int {
    let v = try value(path)
    guard case .array(let items) = v else {
      throw problem(path, "expected an array, found \(v.typeName)")
    }
    return items.count
  }

  /// One of a closed set's JSON names.
  func choice<T: RawRepresentable & CaseIterable>(_ path: JSONPath) throws(ScenarioReportError)
    -> T
  where T.RawValue == String {
    let s = try string(path)
    guard let value = T(rawValue: s) else {
      let options = T.allCases.map { "\"\($0.rawValue)\"" }.joined(separator: ", ")
      throw problem(path, "expected one of \(options), found \"\(s)\"")
    }
    return value
  }
}
