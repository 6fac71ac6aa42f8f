import Foundation
import JSON
import Referee
import Replay
import Testing

/// A scenario replayed several times: how each run's seed is derived, how `runs` and `rate`
/// are read, and how the runs' results make the scenario's verdict.
@Suite struct ScenarioRunsTests {
  let minimal = """
    {"format": "geosim-scenario/1", "name": "m", "start": "2026-04-01T08:00:00+09:00",
     "duration": 60, "app": {"name": "FixCounter", "variant": "careful"}
    """

  func error(_ text: String) -> ScenarioError? {
    do {
      _ = try scenario(text)
      return nil
    } catch let error as ScenarioError {
      return error
    } catch {
      Issue.record("unexpected error \(error)")
      return nil
    }
  }

  // MARK: Seeds

  @Test func runZeroKeepsTheScenariosOwnSeed() {
    for seed: UInt64 in [0, 1, 3, 42, Scenario.maximumSeed, .max] {
      #expect(Scenario.runSeed(seed, run: 0) == seed)
    }
  }

  /// Fixed values: the derivation may never change, or every recorded seed of a failed run
  /// would replay another run. Computed apart from this code, from SplitMix64's definition:
  /// mix(seed + i · 0x9E3779B97F4A7C15) with the low 53 bits kept.
  @Test func theDerivedSeedsAreFixed() {
    #expect(
      (0..<4).map { Scenario.runSeed(1, run: $0) } == [
        1, 2_865_243_701_271_745, 3_251_949_076_933_735, 5_527_171_857_798_494,
      ])
    #expect(Scenario.runSeed(3, run: 1) == 3_119_197_903_228_909)
    #expect(Scenario.runSeed(42, run: 1) == 6_529_064_058_449_557)
    #expect(Scenario.runSeed(0, run: 1) == 184_964_832_153_007)
    #expect(Scenario.runSeed(Scenario.maximumSeed, run: 1) == 7_124_478_592_439_711)
  }

  @Test func everyRunsSeedFitsAScenarioAndTheyDiffer() {
    let seeds = (0..<Scenario.maximumRuns).map { Scenario.runSeed(7, run: $0) }
    #expect(seeds.allSatisfy { $0 <= Scenario.maximumSeed })
    #expect(Set(seeds).count == seeds.count)
    var s = try? scenario(minimal + "}")
    s?.seed = 7
    #expect(s?.seed(ofRun: 5) == seeds[5])
  }

  // MARK: Reading

  @Test func runsDefaultToOneAndAreRead() throws {
    #expect(try scenario(minimal + "}").runs == 1)
    #expect(try scenario(minimal + #", "runs": 200}"#).runs == 200)
    #expect(try scenario(minimal + #", "runs": 10000}"#).runs == Scenario.maximumRuns)
  }

  @Test(arguments: ["0", "-3", "2.5", "10001", "1e9", #""100""#, "true"])
  func aBadNumberOfRunsIsNamedWithItsPlace(value: String) throws {
    let e = try #require(error(minimal + ",\n \"runs\": \(value)}"))
    #expect(e.path == "runs")
    #expect(e.line == 3 && e.column == 10)
    #expect(e.message.hasPrefix("expected a whole number of runs from 1 to 10000, found "))
    #expect(e.description.hasSuffix(".scenario.json:3:10: runs: \(e.message)"))
  }

  @Test func aRateIsReadAsAShareOfRuns() throws {
    let s = try scenario(
      minimal
        + #", "runs": 10, "expectations": [{"expect": "noCrash", "rate": {"atLeast": 0.9}}, {"expect": "noCrash"}]}"#
    )
    #expect(s.expectations[0].rate == Expectation.Rate(atLeast: 0.9))
    #expect(s.expectations[1].rate == nil)
  }

  @Test(arguments: [
    (
      #"{"atLeast": 1.5}"#, "expectations[0].rate.atLeast",
      "expected a share of runs in [0, 1], found 1.5"
    ),
    (
      #"{"atLeast": -0.1}"#, "expectations[0].rate.atLeast",
      "expected a share of runs in [0, 1], found -0.1"
    ),
    (
      #"{"atLeast": 0}"#, "expectations[0].rate.atLeast",
      "expected a share of runs above 0 (a rate of at least 0 holds whatever happens)"
    ),
    (
      #"{"atLeast": 0.9, "atMost": 1}"#, "expectations[0].rate.atMost",
      "unknown key 'atMost' (expected one of: atLeast)"
    ),
    ("{}", "expectations[0].rate", "missing required key 'atLeast'"),
    ("0.9", "expectations[0].rate", "expected an object, found a number"),
  ])
  func aBadRateIsNamedWithItsPlace(rate: String, path: String, message: String) throws {
    let e = try #require(
      error(minimal + #", "runs": 10, "expectations": [{"expect": "noCrash", "rate": \#(rate)}]}"#))
    #expect(e.path == path)
    #expect(e.message == message)
    #expect(e.line == 2 && e.column != nil)
  }

  // MARK: The verdict over the runs

  /// A scenario with a plain expectation and one that must hold in `atLeast` of the runs.
  func twoExpectations(atLeast: Double, expect: ExpectedOutcome = .pass) -> Scenario {
    var s = Scenario(
      name: "s", start: Date(timeIntervalSince1970: 0), duration: 60, app: AppSelection(name: "A"))
    s.expectedOutcome = expect
    s.expectations = [
      Expectation(name: "plain", .noCrash),
      Expectation(
        name: "rings", .state(path: "ringing", equals: .bool(true), at: nil),
        rate: .init(atLeast: atLeast)),
    ]
    return s
  }

  /// Run results where `plain` held in every run but those in `plainFails` and `rings` in
  /// the first `rings` runs.
  func results(_ scenario: Scenario, runs: Int, rings: Int, plainFails: Set<Int> = [])
    -> [ReplayResult]
  {
    (0..<runs).map { i in
      var r = ReplayResult(scenario: scenario)
      r.seed = scenario.seed(ofRun: i)
      r.eventCount = 10
      r.expectations = [
        ExpectationResult(
          name: "plain", kind: .noCrash, passed: !plainFails.contains(i), message: "plain \(i)"),
        ExpectationResult(
          name: "rings", kind: .state, passed: i < rings, message: "rang \(i)", time: Double(i)),
      ]
      return r
    }
  }

  @Test func aRateAtItsTargetPasses() throws {
    let s = twoExpectations(atLeast: 0.9)
    let result = ReplayResult(aggregating: results(s, runs: 10, rings: 9), scenario: s)
    #expect(result.verdict == .pass)
    #expect(result.expectations.map(\.passed) == [true, true])
    #expect(
      result.expectations[1].message
        == "held in 9 of 10 runs (90 %, 95 % interval 59.6 %–98.2 %); at least 90 % required; "
        + "first failed in run 9 (seed \(s.seed(ofRun: 9))): rang 9")
    let runs = try #require(result.runs)
    #expect(runs.count == 10 && runs.passed == 9)
    #expect(runs.rates.count == 1)
    #expect(runs.rates[0].share == Proportion(successes: 9, trials: 10))
    #expect(runs.rates[0].expectation == 1 && runs.rates[0].passed)
    #expect(runs.failed.map(\.run) == [9])
    #expect(runs.failed[0].seed == s.seed(ofRun: 9))
    #expect(runs.failed[0].failures == ["rings"])
    #expect(result.eventCount == 100)
  }

  @Test func aRateBelowItsTargetFails() throws {
    let s = twoExpectations(atLeast: 0.9)
    let result = ReplayResult(aggregating: results(s, runs: 10, rings: 8), scenario: s)
    #expect(result.verdict == .fail)
    #expect(result.expectations.map(\.passed) == [true, false])
    #expect(result.expectations[1].message.hasPrefix("held in 8 of 10 runs (80 %"))
    #expect(result.runs?.failed.map(\.run) == [8, 9])
  }

  @Test func aPlainExpectationMustHoldInEveryRun() throws {
    let s = twoExpectations(atLeast: 0.5)
    let result = ReplayResult(
      aggregating: results(s, runs: 20, rings: 20, plainFails: [13]), scenario: s)
    #expect(result.verdict == .fail)
    #expect(
      result.expectations[0].message
        == "held in 19 of 20 runs; expected every run; first failed in run 13 (seed "
        + "\(s.seed(ofRun: 13))): plain 13")
    #expect(result.runs?.failed.map(\.failures) == [["plain"]])
    let held = ReplayResult(aggregating: results(s, runs: 20, rings: 20), scenario: s)
    #expect(held.expectations[0].message == "held in every run (20 of 20); run 0: plain 0")
  }

  @Test func aScenarioShowingABugFailsAsItShouldOverItsRuns() {
    let s = twoExpectations(atLeast: 0.9, expect: .fail)
    #expect(
      ReplayResult(aggregating: results(s, runs: 10, rings: 3), scenario: s).verdict
        == .expectedFailure)
    #expect(
      ReplayResult(aggregating: results(s, runs: 10, rings: 10), scenario: s).verdict
        == .unexpectedPass)
  }

  @Test func aCrashInOneRunIsTheScenariosCrashNamingTheRun() throws {
    let s = twoExpectations(atLeast: 0.5)
    var runs = results(s, runs: 5, rings: 5)
    runs[3].expectations = []
    runs[3].crash = .init(reason: "signal 4 (SIGILL)", lastEvents: ["{}"])
    let result = ReplayResult(aggregating: runs, scenario: s)
    #expect(result.verdict == .crash)
    #expect(result.crash?.reason == "run 3 (seed \(s.seed(ofRun: 3))): signal 4 (SIGILL)")
    #expect(result.expectations.isEmpty)
    #expect(result.runs?.failed.map(\.failures) == [["crash"]])
  }

  @Test func aTimelineErrorIsListedOnceWithHowManyRunsHadIt() {
    let s = twoExpectations(atLeast: 0.5)
    var runs = results(s, runs: 4, rings: 4)
    runs[1].timelineErrors = ["timeline[0]: no such button"]
    runs[2].timelineErrors = ["timeline[0]: no such button"]
    let result = ReplayResult(aggregating: runs, scenario: s)
    #expect(
      result.timelineErrors == [
        "timeline[0]: no such button (in 2 of 4 runs; first run 1 (seed \(s.seed(ofRun: 1))))"
      ])
    #expect(result.verdict == .fail)
  }

  @Test func aRunThatJudgedNothingCountsAsNotHolding() {
    let s = twoExpectations(atLeast: 0.5)
    var runs = results(s, runs: 4, rings: 4)
    runs[2].expectations = []
    let result = ReplayResult(aggregating: runs, scenario: s)
    #expect(result.expectations.map(\.passed) == [false, true])
    #expect(
      result.expectations[0].message.hasSuffix(
        "run 2 (seed \(s.seed(ofRun: 2))): not judged in this run"))
    #expect(result.runs?.rates[0].share == Proportion(successes: 3, trials: 4))
  }

  @Test func theRunsRoundTripThroughJSON() throws {
    let s = twoExpectations(atLeast: 0.9)
    let result = ReplayResult(aggregating: results(s, runs: 10, rings: 8), scenario: s)
    let back = try #require(ReplayResult(json: result.json))
    #expect(back == result)
    guard case .object(let o) = result.json, case .object(let runs)? = o["runs"],
      case .array(let rates)? = runs["rates"], case .object(let rate)? = rates.first
    else {
      Issue.record("no runs in \(result.json.jsonText)")
      return
    }
    #expect(runs.keys.sorted() == ["count", "failed", "passed", "rates"])
    #expect(
      rate.keys.sorted() == [
        "atLeast", "expectation", "held", "lower", "name", "passed", "rate", "runs", "upper",
      ])
    #expect(rate["lower"] == .number(0.4902) && rate["upper"] == .number(0.9433))
    // A single run's result has no runs member: it is written as it always was.
    #expect(!ReplayResult(scenario: s).json.jsonText.contains("runs"))
  }
}
