import Foundation
import JSON
import ReferenceAppCatalog
import Replay
import Reporting

/// `geosim sweep` and `geosim merge`: a scenario over a parameter grid, in worker processes,
/// aggregated into sensitivity and latency by parameter; shards merged back into one sweep.
enum SweepCommand {
  static let usage = """
    geosim sweep <scenario> --vary PATH[,PATH...]=V1,V2,... [--vary ...] [--shard I/N]
                 [--out DIR] [--jobs N] [--allow-outside-paths]
      replays the scenario at every point of the grid (every combination of the --vary values;
      PATH is a place in the scenario document such as app.configuration.radius, trace.speed,
      device.sensor.gnssOpenSkyAccuracy, device.promptAnswers.location[0] or seed; values are
      JSON where they parse, else strings; A..B is a range of integers). Each point is
      reproducible from its values; --shard I/N runs the points whose index is I-1 modulo N.
      Writes <out>/sweep.json, sweep.md, sensitivity.svg, latency.svg, index.html,
      runs/<index>.json and grid.json (default out: Reports/sweep) and prints the table. A run
      whose app crashed counts as a crash in its group. Exit code 0, or 2 on bad input.
    geosim merge <sweep folder>... [--out DIR]
      merges shards of one sweep (same scenario and grid) into one report (default out:
      Reports/sweep-merged); exit code 0 when every point is present, 1 when some are missing
      (the report lists them), 2 on bad input.

    """

  static var catalog: AppCatalog { .referenceApps }

  /// A point's name in messages: `point 3 (app.configuration.radius=200, seed=4)`.
  static func describe(_ grid: SweepGrid, _ index: Int) -> String {
    let values = zip(grid.parameters, grid.values(at: index)).map {
      "\($0.name)=\(SweepReport.text($1))"
    }
    return "point \(index) (\(values.joined(separator: ", ")))"
  }

  static func run(_ args: inout Arguments, _ terminal: Terminal) throws -> Int32 {
    let allowOutside = args.flag("--allow-outside-paths")
    var parameters: [SweepGrid.Parameter] = []
    while let spec = try args.option("--vary") {
      do { parameters.append(try SweepGrid.parameter(spec)) } catch {
        throw UsageError("geosim sweep: --vary \(error)")
      }
    }
    let out = try args.option("--out") ?? "Reports/sweep"
    let jobs =
      try args.option("--jobs").map { text -> Int in
        guard let n = Int(text), n >= 1 else {
          throw UsageError("geosim sweep: --jobs '\(text)': expected a positive integer")
        }
        return n
      } ?? ProcessInfo.processInfo.activeProcessorCount
    let shard = try args.option("--shard").map { text -> (Int, Int) in
      let parts = text.split(separator: "/", omittingEmptySubsequences: false).map { Int($0) }
      guard parts.count == 2, let i = parts[0], let n = parts[1], n >= 1, (1...n).contains(i)
      else {
        throw UsageError("geosim sweep: --shard '\(text)': expected I/N with 1 ≤ I ≤ N")
      }
      return (i, n)
    }
    guard let base = args.positional() else {
      throw UsageError("geosim sweep: expected a scenario file")
    }
    try args.finish()
    guard !parameters.isEmpty else {
      throw UsageError("geosim sweep: expected at least one --vary")
    }
    let grid = SweepGrid(parameters: parameters)
    do { try grid.validate() } catch { throw UsageError("geosim sweep: \(error)") }
    let indices = shard.map { grid.indices(shard: $0.0, of: $0.1) } ?? Array(0..<grid.count)

    // Every point is read and assembled before anything runs.
    let document: JSONValue
    do {
      document = try JSONFile(base).root
    } catch {
      terminal.writeError("\(error)\n")
      return 2
    }
    let folder = URL(fileURLWithPath: base).deletingLastPathComponent()
    let resources = ReplayResources()
    for index in indices {
      do {
        let scenario = try point(
          document, grid: grid, index: index, base: base, folder: folder,
          allowOutside: allowOutside)
        _ = try World(scenario: scenario, catalog: catalog, resources: resources)
      } catch {
        terminal.writeError("\(describe(grid, index)): \(ToolMessages.describe(error))\n")
        return 2
      }
    }

    let outURL = URL(fileURLWithPath: out, isDirectory: true)
    // A previous sweep's files must not sit beside this one's looking current.
    for file in outputFiles + ["grid.json", "runs"] {
      try? FileManager.default.removeItem(at: outURL.appendingPathComponent(file))
    }
    try ReportWriter.write(
      JSONValue.object(["base": .string(base), "grid": grid.json]).jsonText + "\n",
      to: outURL.appendingPathComponent("grid.json"))
    var common = ["sweep-worker", "--base", base, "--out", outURL.path]
    if allowOutside { common.append("--allow-outside-paths") }
    let arguments = common
    let progress = Progress(total: indices.count, terminal: terminal)
    let runs = try WorkerProcesses(executable: try ReplayCommand.executablePath()).run(
      count: indices.count, jobs: jobs,
      arguments: { units in arguments + units.map { String(indices[$0]) } },
      clear: { try? FileManager.default.removeItem(at: runURL(outURL, indices[$0])) },
      read: { readRun(outURL, indices[$0]) },
      crashed: { unit, ending in
        let run = SweepRun(
          index: indices[unit], values: grid.values(at: indices[unit]), crash: ending.reason)
        try? ReportWriter.write(run.json.jsonText + "\n", to: runURL(outURL, indices[unit]))
        return run
      },
      finished: { _, run in progress.finished("point \(run.index)") })
    progress.end()
    let report = SweepReport(
      base: base, grid: grid, shard: shard.map { "\($0.0)/\($0.1)" }, runs: runs,
      expected: indices)
    try write(report, to: outURL)
    terminal.write(report.markdown())
    return 0
  }

  static func point(
    _ document: JSONValue, grid: SweepGrid, index: Int, base: String, folder: URL,
    allowOutside: Bool
  ) throws -> Scenario {
    let varied = try grid.document(document, at: index)
    return try Scenario(
      data: Data(varied.jsonText.utf8), file: "\(base) [\(describe(grid, index))]",
      folder: folder, allowPathsOutsideFolder: allowOutside)
  }

  static func runURL(_ out: URL, _ index: Int) -> URL {
    out.appendingPathComponent("runs/\(index).json")
  }

  static func readRun(_ out: URL, _ index: Int) -> SweepRun? {
    guard let file = try? JSONFile(runURL(out, index).path) else { return nil }
    return SweepRun(json: file.root)
  }

  /// The report files a sweep or a merge writes.
  static let outputFiles = [
    "sweep.json", "sweep.md", "sensitivity.svg", "latency.svg", "index.html",
  ]

  static func write(_ report: SweepReport, to out: URL) throws {
    try ReportWriter.write(
      report.json.jsonText + "\n", to: out.appendingPathComponent("sweep.json"))
    try ReportWriter.write(report.markdown(), to: out.appendingPathComponent("sweep.md"))
    try ReportWriter.write(
      report.sensitivitySVG(), to: out.appendingPathComponent("sensitivity.svg"))
    try ReportWriter.write(report.latencySVG(), to: out.appendingPathComponent("latency.svg"))
    try ReportWriter.write(report.html(), to: out.appendingPathComponent("index.html"))
  }

  /// `geosim sweep-worker --base FILE --out DIR [--allow-outside-paths] INDEX...`: replays the
  /// points one after the other, writing `runs/<index>.json` as each one ends.
  static func worker(_ args: inout Arguments, _ terminal: Terminal) throws -> Int32 {
    let allowOutside = args.flag("--allow-outside-paths")
    guard let base = try args.option("--base"), let out = try args.option("--out") else {
      throw UsageError("geosim sweep-worker: --base and --out are required")
    }
    var indices: [Int] = []
    while let text = args.positional() {
      guard let index = Int(text) else {
        throw UsageError("geosim sweep-worker: '\(text)' is not a point index")
      }
      indices.append(index)
    }
    try args.finish()
    let outURL = URL(fileURLWithPath: out, isDirectory: true)
    let setup = try JSONFile(outURL.appendingPathComponent("grid.json").path)
    guard case .object(let o) = setup.root, let gridJSON = o["grid"] else {
      throw setup.problem(["grid"], "expected the grid geosim sweep wrote")
    }
    let grid = try SweepGrid(json: gridJSON)
    let document = try JSONFile(base).root
    let folder = URL(fileURLWithPath: base).deletingLastPathComponent()
    let resources = ReplayResources()
    for index in indices {
      let scenario = try point(
        document, grid: grid, index: index, base: base, folder: folder, allowOutside: allowOutside)
      let run = try ScenarioRun(scenario, catalog: catalog, resources: resources)
      let report = try ScenarioReport(
        input: ReportInput(run), context: run.world.geos, resources: resources)
      let sweepRun = SweepRun(
        index: index, values: grid.values(at: index), result: run.result,
        geofence: report.geofence, search: report.search)
      try ReportWriter.write(sweepRun.json.jsonText + "\n", to: runURL(outURL, index))
    }
    return 0
  }

  // MARK: merge

  static func merge(_ args: inout Arguments, _ terminal: Terminal) throws -> Int32 {
    let out = try args.option("--out") ?? "Reports/sweep-merged"
    var folders: [String] = []
    while let folder = args.positional() { folders.append(folder) }
    try args.finish()
    guard !folders.isEmpty else { throw UsageError("geosim merge: expected sweep folders") }
    let outURL = URL(fileURLWithPath: out, isDirectory: true)
    for file in outputFiles {
      try? FileManager.default.removeItem(at: outURL.appendingPathComponent(file))
    }
    var base: String?
    var grid: SweepGrid?
    var runs: [Int: SweepRun] = [:]
    for folder in folders {
      let file = URL(fileURLWithPath: folder).appendingPathComponent("sweep.json")
      let sweep: JSONFile
      do {
        sweep = try JSONFile(file.path)
      } catch {
        terminal.writeError("geosim merge: \(error)\n")
        return 2
      }
      guard case .object(let o) = sweep.root, case .string(let b)? = o["base"], let g = o["grid"],
        case .array(let list)? = o["runs"]
      else {
        terminal.writeError(
          "geosim merge: \(sweep.problem(.root, "expected a sweep.json written by geosim sweep"))\n"
        )
        return 2
      }
      let thisGrid: SweepGrid
      do {
        thisGrid = try SweepGrid(json: g)
        try thisGrid.validate()
      } catch {
        terminal.writeError("geosim merge: \(sweep.problem(["grid"], "\(error)"))\n")
        return 2
      }
      if let grid, grid != thisGrid || base != b {
        terminal.writeError(
          "geosim merge: \(file.path): another sweep (scenario \(b)); shards must share the scenario and grid\n"
        )
        return 2
      }
      base = b
      grid = thisGrid
      for (i, item) in list.enumerated() {
        let run: SweepRun
        do {
          run = try SweepRun.reading(item)
        } catch {
          var at: JSONPath = ["runs", .index(i)]
          if let member = error.member { at = at.appending(key: member) }
          terminal.writeError("geosim merge: \(sweep.problem(at, error.message))\n")
          return 2
        }
        guard (0..<thisGrid.count).contains(run.index), run.values == thisGrid.values(at: run.index)
        else {
          terminal.writeError(
            "geosim merge: \(sweep.problem(["runs", .index(i)], "a run that is not a point of its grid"))\n"
          )
          return 2
        }
        if let other = runs[run.index], other != run {
          terminal.writeError(
            "geosim merge: \(file.path): point \(run.index) differs from another shard's\n")
          return 2
        }
        runs[run.index] = run
      }
    }
    guard let base, let grid else { return 2 }
    let report = SweepReport(
      base: base, grid: grid, shard: nil, runs: Array(runs.values), expected: Array(0..<grid.count))
    try write(report, to: outURL)
    terminal.write(report.markdown())
    if !report.isComplete {
      terminal.writeError(
        "geosim merge: \(report.missing.count) of \(grid.count) point(s) missing: "
          + report.missing.prefix(20).map(String.init).joined(separator: ", ")
          + (report.missing.count > 20 ? ", …" : "") + "\n")
      return 1
    }
    return 0
  }
}
