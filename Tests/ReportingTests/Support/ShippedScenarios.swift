import Foundation
import ReferenceAppCatalog
import Replay

/// The repository's folder (it holds `Scenarios/`).
let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
  .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

/// Replays the shipped scenario at `path` (below `Scenarios/`) in this process.
func replayShipped(_ path: String, resources: ReplayResources = ReplayResources()) throws
  -> ScenarioRun
{
  try ScenarioRun(
    Scenario(contentsOf: repository.appendingPathComponent("Scenarios/\(path)").path),
    catalog: .referenceApps, resources: resources)
}
