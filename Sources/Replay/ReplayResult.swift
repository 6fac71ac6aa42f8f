import Device
import JSON
import SimKernel

/// What a replay came to: each expectation's result, timeline errors and any crash.
public struct ReplayResult: Sendable, Hashable {
  /// The scenario's name.
  public var scenario: String
  /// The scenario file, if it came from one.
  public var file: String?
  /// The seed the world ran with.
  public var seed: UInt64
  /// Whether the scenario was meant to pass or to show a failure.
  public var expectedOutcome: ExpectedOutcome
  /// Each expectation's result, in the scenario's order (empty when the app crashed).
  public var expectations: [ExpectationResult]
  /// Timeline events that could not happen as written.
  public var timelineErrors: [String]
  /// What the importers skipped or noted in the scenario's trace files.
  public var traceIssues: [TraceIssue]
  /// The crash that ended the app's world, if it crashed.
  public var crash: Crash?
  /// The budget the replay ran out of, if it was stopped before its end.
  public var timeout: Timeout?
  /// Entries in the event log.
  public var eventCount: Int
  /// Work the app's code queued that had not run when the run ended (timers, sleeping tasks,
  /// awaited answers, blocks of a suspended app), in the order it was queued.
  public var pendingWork: [PendingAppWork]
  /// For a scenario replayed several times, what its runs came to (``init(aggregating:scenario:)``);
  /// `nil` for a single run.
  public var runs: Runs?
  /// The unconfirmed defaults the replay depended on, in `Assumption`'s order (empty when it
  /// depended on none).
  public var assumptions: [AssumptionUse]

  /// A crash of the app model: a trap in its process, reported by the runner.
  public struct Crash: Sendable, Hashable {
    /// How the process ended (`signal 4 (SIGILL)`), and the trap's message where one was
    /// printed.
    public var reason: String
    /// The last event-log lines before the crash (JSON Lines), oldest first.
    public var lastEvents: [String]

    /// A crash.
    public init(reason: String, lastEvents: [String]) {
      self.reason = reason
      self.lastEvents = lastEvents
    }
  }

  /// A replay stopped because it ran out of a budget: its events (a world that keeps queuing
  /// work at one instant never reaches its end), or its host time in a worker process.
  public struct Timeout: Sendable, Hashable {
    /// Which budget ran out, how large it was and how far the world got.
    public var reason: String
    /// The last event-log lines before the stop (JSON Lines), oldest first.
    public var lastEvents: [String]

    /// A stop for running out of a budget.
    public init(reason: String, lastEvents: [String]) {
      self.reason = reason
      self.lastEvents = lastEvents
    }
  }

  /// The result with no expectations evaluated.
  public init(scenario: Scenario) {
    self.scenario = scenario.name
    self.file = scenario.file
    self.seed = scenario.seed
    self.expectedOutcome = scenario.expectedOutcome
    self.expectations = []
    self.timelineErrors = []
    self.traceIssues = []
    self.crash = nil
    self.timeout = nil
    self.eventCount = 0
    self.pendingWork = []
    self.runs = nil
    self.assumptions = []
  }

  /// Something an importer skipped or noted in a trace file the scenario uses.
  public struct TraceIssue: Sendable, Hashable, CustomStringConvertible {
    /// Where the scenario names the trace: `trace`, or `timeline[3].trace`.
    public var trace: String
    /// The trace file, relative to the scenario's folder where it is inside it.
    public var file: String
    /// The 1-based line in the trace file, where the importer knows it.
    public var line: Int?
    /// What was skipped or noted, and why.
    public var message: String
    /// Whether the scenario allows it (`"allowSkippedPoints": true` on the trace).
    public var allowed: Bool

    /// An issue.
    public init(trace: String, file: String, line: Int?, message: String, allowed: Bool) {
      self.trace = trace
      self.file = file
      self.line = line
      self.message = message
      self.allowed = allowed
    }

    /// `file:line: message`.
    public var description: String {
      file + (line.map { ":\($0)" } ?? "") + ": " + message
    }

    /// The issue as a JSON object.
    public var json: JSONValue {
      .object([
        "trace": .string(trace), "file": .string(file),
        "line": line.map { .number(Double($0)) } ?? .null, "message": .string(message),
        "allowed": .bool(allowed),
      ])
    }

    /// Reads an issue back from ``json``.
    public init?(json: JSONValue) {
      guard case .object(let o) = json, case .string(let trace)? = o["trace"],
        case .string(let file)? = o["file"], case .string(let message)? = o["message"],
        case .bool(let allowed)? = o["allowed"]
      else { return nil }
      let line: Int?
      switch o["line"] {
      case .number(let n)?: line = Int(n)
      case .null?: line = nil
      default: return nil
      }
      self.init(trace: trace, file: file, line: line, message: message, allowed: allowed)
    }
  }

  /// The trace issues the scenario does not allow: each fails the replay.
  public var refusedTraceIssues: [TraceIssue] { traceIssues.filter { !$0.allowed } }

  /// Whether every expectation held, the timeline ran as written, the traces were read whole
  /// (or the scenario allows what was skipped), nothing crashed and the replay reached its end.
  public var passed: Bool {
    crash == nil && timeout == nil && timelineErrors.isEmpty && refusedTraceIssues.isEmpty
      && expectations.allSatisfy(\.passed)
  }

  /// The verdict given the expected outcome.
  ///
  /// A crash is always ``Verdict/crash``: a scenario marked to show a published bug shows it
  /// through its expectations, never by the app dying. Likewise a trace that lost points the
  /// scenario does not allow is always ``Verdict/fail``: the replay did not follow the trace
  /// as written, so it shows nothing. A replay stopped for its budget is ``Verdict/timeout``.
  public var verdict: Verdict {
    if crash != nil { return .crash }
    if timeout != nil { return .timeout }
    if !refusedTraceIssues.isEmpty { return .fail }
    switch (expectedOutcome, passed) {
    case (.pass, true): return .pass
    case (.pass, false): return .fail
    case (.fail, false): return .expectedFailure
    case (.fail, true): return .unexpectedPass
    }
  }

  /// A replay's verdict.
  ///
  /// The raw value is the verdict's name in JSON (`xfail`); ``label`` is how it reads in
  /// summaries (`XFAIL`). The cases are in the order summaries list them: the healthy verdicts
  /// first.
  public enum Verdict: String, Sendable, Hashable, CaseIterable {
    /// Meant to pass, and passed.
    case pass
    /// Meant to show a failure, and did.
    case expectedFailure = "xfail"
    /// Meant to pass, and an expectation failed or the timeline could not run; or a trace lost
    /// points the scenario does not allow.
    case fail
    /// The app crashed (whatever the scenario was meant to show).
    case crash
    /// The replay ran out of its event or time budget before its end (whatever the scenario
    /// was meant to show).
    case timeout
    /// Meant to show a failure, but everything held.
    case unexpectedPass = "xpass"

    /// Whether this verdict is what a healthy build gives: it counts as a success.
    public var isHealthy: Bool { self == .pass || self == .expectedFailure }

    /// The verdict as summaries and the command line print it: `PASS`, `XFAIL`, `FAIL`,
    /// `CRASH`, `TIMEOUT` or `XPASS`.
    public var label: String { rawValue.uppercased() }
  }

  /// The result as a JSON object (stable key order when written with `JSONValue.jsonText`).
  public var json: JSONValue {
    var object: [String: JSONValue] = [
      "scenario": .string(scenario),
      "seed": .string(String(seed)),
      "expectedOutcome": .string(expectedOutcome.rawValue),
      "verdict": .string(verdict.rawValue),
      "passed": .bool(passed),
      "expectations": .array(expectations.map(\.json)),
      "timelineErrors": .array(timelineErrors.map { .string($0) }),
      "traceIssues": .array(traceIssues.map(\.json)),
      "eventCount": .number(Double(eventCount)),
      "pendingWork": .array(pendingWork.map(\.json)),
      "assumptions": .array(assumptions.map(\.json)),
    ]
    if let file { object["file"] = .string(file) }
    // Only a scenario replayed several times has it: a single run's result is as it always was.
    if let runs { object["runs"] = runs.json }
    if let crash {
      object["crash"] = .object([
        "reason": .string(crash.reason),
        "lastEvents": .array(crash.lastEvents.map { .string($0) }),
      ])
    }
    if let timeout {
      object["timeout"] = .object([
        "reason": .string(timeout.reason),
        "lastEvents": .array(timeout.lastEvents.map { .string($0) }),
      ])
    }
    return .object(object)
  }

  /// Reads a result back from ``json``.
  public init?(json: JSONValue) {
    guard case .object(let o) = json, case .string(let name)? = o["scenario"],
      case .string(let seedText)? = o["seed"], let seed = UInt64(seedText),
      case .string(let outcome)? = o["expectedOutcome"],
      let expectedOutcome = ExpectedOutcome(rawValue: outcome),
      case .array(let expectations)? = o["expectations"],
      case .array(let timelineErrors)? = o["timelineErrors"],
      case .array(let traceIssues)? = o["traceIssues"],
      case .number(let eventCount)? = o["eventCount"],
      case .array(let pendingWork)? = o["pendingWork"]
    else { return nil }
    self.scenario = name
    if case .string(let file)? = o["file"] { self.file = file } else { self.file = nil }
    self.seed = seed
    self.expectedOutcome = expectedOutcome
    var results: [ExpectationResult] = []
    for e in expectations {
      guard let r = ExpectationResult(json: e) else { return nil }
      results.append(r)
    }
    self.expectations = results
    self.timelineErrors = timelineErrors.compactMap {
      if case .string(let s) = $0 { s } else { nil }
    }
    var issues: [TraceIssue] = []
    for i in traceIssues {
      guard let issue = TraceIssue(json: i) else { return nil }
      issues.append(issue)
    }
    self.traceIssues = issues
    func stop(_ member: String) -> (reason: String, lastEvents: [String])? {
      guard case .object(let c)? = o[member], case .string(let reason)? = c["reason"],
        case .array(let lines)? = c["lastEvents"]
      else { return nil }
      return (reason, lines.compactMap { if case .string(let s) = $0 { s } else { nil } })
    }
    self.crash = stop("crash").map { Crash(reason: $0.reason, lastEvents: $0.lastEvents) }
    self.timeout = stop("timeout").map { Timeout(reason: $0.reason, lastEvents: $0.lastEvents) }
    self.eventCount = Int(eventCount)
    var work: [PendingAppWork] = []
    for item in pendingWork {
      guard let pending = PendingAppWork(json: item) else { return nil }
      work.append(pending)
    }
    self.pendingWork = work
    var uses: [AssumptionUse] = []
    if let value = o["assumptions"] {
      guard case .array(let items) = value else { return nil }
      for item in items {
        guard let use = AssumptionUse(json: item) else { return nil }
        uses.append(use)
      }
    }
    self.assumptions = uses
    switch o["runs"] {
    case nil: self.runs = nil
    case let value?:
      guard let runs = Runs(json: value) else { return nil }
      self.runs = runs
    }
  }
}

extension PendingAppWork {
  /// The latest simulated second an instant can be written as (about 292 years).
  public static let latestSecond = 9.2e9

  /// The work as JSON: `kind`, `label`, `queuedAt` and `due` in simulated seconds (`due` null
  /// when it has no deadline).
  public var json: JSONValue {
    .object([
      "kind": .string(kind.rawValue), "label": .string(label),
      "queuedAt": .number(queuedAt.seconds), "due": due.map { .number($0.seconds) } ?? .null,
    ])
  }

  init?(json: JSONValue) {
    guard case .object(let o) = json, case .string(let kindName)? = o["kind"],
      let kind = Kind(rawValue: kindName), case .string(let label)? = o["label"],
      case .number(let queuedAt)? = o["queuedAt"], (0...Self.latestSecond).contains(queuedAt)
    else { return nil }
    var due: SimTime?
    switch o["due"] {
    case nil, .null?: due = nil
    case .number(let seconds)? where (0...Self.latestSecond).contains(seconds):
      due = .seconds(seconds)
    default: return nil
    }
    self.init(kind: kind, label: label, queuedAt: .seconds(queuedAt), due: due)
  }
}

/// One expectation's result.
public struct ExpectationResult: Sendable, Hashable {
  /// The expectation's name.
  public var name: String
  /// Its kind (`notificationAfterEntry`, `state`, …).
  public var kind: Expectation.Kind
  /// Whether it held.
  public var passed: Bool
  /// What was expected, what happened and when.
  public var message: String
  /// The simulated second the result is about (the event that decided it), if any.
  public var time: Double?

  /// A result.
  public init(
    name: String, kind: Expectation.Kind, passed: Bool, message: String, time: Double? = nil
  ) {
    self.name = name
    self.kind = kind
    self.passed = passed
    self.message = message
    self.time = time
  }

  /// The result as JSON (`time` null when the result is about no moment).
  public var json: JSONValue {
    .object([
      "name": .string(name), "kind": .string(kind.rawValue), "passed": .bool(passed),
      "message": .string(message), "time": time.map(JSONValue.number) ?? .null,
    ])
  }

  init?(json: JSONValue) {
    guard case .object(let o) = json, case .string(let name)? = o["name"],
      case .string(let kindName)? = o["kind"], let kind = Expectation.Kind(rawValue: kindName),
      case .bool(let passed)? = o["passed"],
      case .string(let message)? = o["message"]
    else { return nil }
    var time: Double?
    if case .number(let t)? = o["time"] { time = t }
    self.init(name: name, kind: kind, passed: passed, message: message, time: time)
  }
}
