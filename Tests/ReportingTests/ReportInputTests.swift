import Foundation
import ReferenceAppCatalog
import Replay
import Reporting
import Testing

/// A finished run carries everything a report needs.
@Test func aRunsInputHoldsItsEventsAndTruth() throws {
  let run = try replayShipped("arrival-alarm/train-to-shinagawa-corrected.scenario.json")
  let input = ReportInput(run)
  #expect(input.events.count == run.log.entries.count)
  #expect(input.trueSamples.count > 100)
  #expect(input.result.passed)
}
