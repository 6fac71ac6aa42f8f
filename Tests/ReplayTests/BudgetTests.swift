import Foundation
import JSON
import Replay
import SimKernel
import Testing

/// A minute with the spinner: it starts queuing work for ever at 10 s.
private let spinning = """
  {"format": "geosim-scenario/1", "name": "spinning", "start": "2026-04-01T08:00:00+09:00",
   "duration": 60, "app": {"name": "Spinner"},
   "trace": {"stationary": {"latitude": 35.681236, "longitude": 139.767125}},
   "timeline": [{"at": 0, "do": "launch"}],
   "expectations": [{"expect": "noCrash"}]}
  """

@Suite("A replay runs within an event budget")
struct BudgetTests {
  @Test("the kernel stops at its event limit when more events are due, and not before")
  func theKernelCountsItsEvents() throws {
    let simulation = Simulation(seed: 1)
    for second in 1...5 { try simulation.schedule(at: .seconds(Double(second))) {} }
    #expect(throws: SimKernelError.self) { try simulation.run(until: .seconds(10), eventLimit: 3) }
    #expect(simulation.now == .seconds(3))
    // Exactly as many as are due is enough.
    try simulation.run(until: .seconds(10), eventLimit: 2)
    #expect(simulation.now == .seconds(10))
  }

  @Test("a world that keeps queuing work at one instant is stopped and reported as a timeout")
  func aRunawayAppTimesOut() throws {
    let run = try ScenarioRun(
      try scenario(spinning), catalog: .testing, resources: resources, eventLimit: 10_000)
    let result = run.result
    #expect(result.verdict == .timeout)
    #expect(!result.passed)
    // The expectations of a world that did not reach its end are not judged.
    #expect(result.expectations.isEmpty)
    let timeout = try #require(result.timeout)
    #expect(timeout.reason.hasPrefix("stopped at 10 s of 60 s after 10000 kernel events"))
    #expect(timeout.lastEvents.count == 20 || run.log.entries.count < 20)
    #expect(ReplayResult(json: result.json) == result)
  }

  @Test("a scenario within its budget runs to its end, whatever the budget's size")
  func aHealthyScenarioIsUntouched() throws {
    let still = spinning.replacingOccurrences(of: #""Spinner""#, with: #""FixCounter""#)
      .replacingOccurrences(
        of: #""name": "FixCounter"}"#, with: #""name": "FixCounter", "variant": "careful"}"#)
    let run = try ScenarioRun(try scenario(still), catalog: .testing, resources: resources)
    #expect(run.result.verdict == .pass)
    #expect(run.result.timeout == nil)
    #expect(!run.result.json.jsonText.contains("timeout"))
  }
}
