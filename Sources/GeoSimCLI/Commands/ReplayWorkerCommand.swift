import ArgumentParser
import Foundation
import Replay
import Reporting
import SimKernel

/// `replay-worker --out DIR [--seed N] [--allow-outside-paths] [--standard-input FILE] FILE...`
/// (internal, started by `replay`): runs the scenarios one after the other in this process,
/// streaming each one's events to `<out>/<name>/events.jsonl` and writing its reports, and
/// `result.json` last, when it ends.
struct ReplayWorkerCommand: ToolCommand {
  static let configuration = CommandConfiguration(
    commandName: "replay-worker", abstract: "Run scenarios for replay (internal).",
    shouldDisplay: false)

  @OptionGroup var scenarios: ScenarioOptions

  @Option var out: String

  @Option var seed: UInt64?

  /// What the parent read from its standard input, for the scenario named `-`.
  @Option var standardInput: String?

  func run(in tool: ToolContext) throws -> Int32 {
    WorkerLifetime.followParent()
    let input = try standardInput.map { try Data(contentsOf: URL(fileURLWithPath: $0)) }
    let inputs = ScenarioInputs(files: scenarios.paths, standardInput: input)
    let resources = ReplayResources()
    for file in inputs.files {
      let scenario = try inputs.scenario(file, allowOutside: scenarios.allowOutsidePaths)
      let folder = URL(fileURLWithPath: out).appendingPathComponent(scenario.name)
      try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
      let eventsURL = folder.appendingPathComponent("events.jsonl")
      guard FileManager.default.createFile(atPath: eventsURL.path, contents: nil) else {
        throw BadInput("cannot create \(eventsURL.path)")
      }
      let events = try FileHandle(forWritingTo: eventsURL)
      defer { try? events.close() }
      // Unbuffered, one write per entry: a trap in the app must not lose the last events.
      let run = try ScenarioRun(scenario, catalog: tool.apps, resources: resources, seed: seed) {
        events.write(Data((EventLog.jsonLine($0) + "\n").utf8))
      }
      try ReportFiles.writeScenario(run, resources: resources, to: folder)
    }
    return 0
  }
}
