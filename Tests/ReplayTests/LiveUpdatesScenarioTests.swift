import Foundation
import Replay
import Testing

/// The live-updates scenarios: an iOS 18 walking app replayed through a walk with a stop and a
/// trip to the background, with and without a background activity session.
@Suite struct LiveUpdatesScenarioTests {
  func run(_ name: String) throws -> ScenarioRun {
    let path = fixtures.appendingPathComponent("live-updates/\(name).scenario.json").path
    return try ScenarioRun(Scenario(contentsOf: path), catalog: .testing, resources: resources)
  }

  @Test(arguments: ["walk-with-session", "walk-without-session"])
  func theScenarioPassesEveryExpectation(_ name: String) throws {
    let run = try run(name)
    for e in run.result.expectations { #expect(e.passed, "\(e.name): \(e.message)") }
    #expect(run.result.verdict == .pass)
  }

  @Test func withTheSessionTheWalkIsTrackedInTheBackgroundToo() throws {
    let with = try run("walk-with-session").world.screenState.object?["fixes"]
    let without = try run("walk-without-session").world.screenState.object?["fixes"]
    guard case .number(let a)? = with, case .number(let b)? = without else {
      Issue.record("no fix counts: \(String(describing: with)), \(String(describing: without))")
      return
    }
    #expect(a > b + 200, "the background part of the walk is missing without a session")
  }
}
