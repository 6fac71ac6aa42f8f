import ArgumentParser
import Errors
import Foundation
import JSON
import Replay
import Reporting
import Synchronization

/// `geosim sweep`: a scenario over a parameter grid, in worker processes, aggregated into
/// sensitivity and latency by parameter.
struct SweepCommand: ToolCommand {
  static let configuration = CommandConfiguration(
    commandName: "sweep",
    abstract: "Replay a scenario over a parameter grid and aggregate.",
    discussion: """
      Replays the scenario at every point of the grid (every combination of the --vary \
      values). Each point is reproducible from its values; --shard I/N runs the points whose \
      index is I-1 modulo N. Writes <out>/sweep.json, sweep.md, sensitivity.svg, latency.svg, \
      index.html, runs/<index>.json and grid.json and prints the table; each run whose \
      verdict is not pass or in which an expectation failed also gets its report folder, \
      runs/<index>/ (report.md, index.html), that the report links to (--run-reports). A run \
      whose app crashed counts as a crash in its group, one that ran out of its event or time budget as \
      a timeout. With --slurm it submits the sweep to Slurm instead: --slurm-tasks shards as \
      one array job, and their merge into <out> as a job after it. Exit code 0, or 2 on bad \
      input.
      """)

  @Argument(
    help: ArgumentHelp(
      "The scenario file, or - to read it from standard input (its paths are then relative "
        + "to the current folder).", valueName: "scenario"))
  var base: String

  @Option(
    help: ArgumentHelp(
      "PATH[,PATH...]=V1,V2,...: a place in the scenario document (app.configuration.radius, "
        + "trace.speed, device.sensor.gnssOpenSkyAccuracy, device.promptAnswers.location[0], "
        + "seed) and its values: JSON where they parse, else strings; A..B is a range of "
        + "integers. Repeat for more parameters.", valueName: "spec"))
  var vary: [String] = []

  @Option(help: ArgumentHelp("Run only the points of shard I of N.", valueName: "I/N"))
  var shard: String?

  @Option(help: ArgumentHelp("The folder the sweep is written to.", valueName: "dir"))
  var out = "Reports/sweep"

  @Option(
    parsing: .unconditional,
    help: ArgumentHelp(
      "Worker processes at once (default: one per core; with --slurm, the CPUs Slurm gives "
        + "each task).", valueName: "n"))
  var jobs: Int?

  @Flag(help: "Allow scenario paths outside the scenario's folder.")
  var allowOutsidePaths = false

  @Option(
    help: ArgumentHelp(
      "Which runs get a report folder, runs/<index>/: failing (verdict not pass, or an "
        + "expectation failed), all, or none.", valueName: "which"))
  var runReports: RunReports = .failing

  @OptionGroup var budget: ReplayBudget

  @Flag(
    help: ArgumentHelp(
      "Submit the sweep to Slurm instead of running it: --slurm-tasks shards as one array job "
        + "(<out>/slurm/sweep.sbatch, each task into <out>/shards/<task>/), then their merge "
        + "into <out> (merge.sbatch) after it. Again, it submits only the shards not complete."))
  var slurm = false

  @Option(
    help: ArgumentHelp(
      "With --slurm: how many shards, each one task of the array job.", valueName: "n"))
  var slurmTasks: Int?

  @Option(
    parsing: .unconditionalSingleValue,
    help: ArgumentHelp(
      "With --slurm: an sbatch option for both jobs, as on sbatch's command line "
        + "(--partition=short, --time=01:00:00, --cpus-per-task=4). Repeat for more.",
      valueName: "option"))
  var slurmOption: [String] = []

  func validate() throws {
    if let jobs, jobs < 1 { throw ValidationError("--jobs must be at least 1, got \(jobs)") }
    guard !vary.isEmpty else { throw ValidationError("expected at least one --vary") }
    _ = try shardNumbers()
    guard slurm else {
      if slurmTasks != nil || !slurmOption.isEmpty {
        throw ValidationError("--slurm-tasks and --slurm-option go with --slurm")
      }
      return
    }
    guard let slurmTasks else { throw ValidationError("--slurm needs --slurm-tasks N") }
    guard slurmTasks >= 1 else {
      throw ValidationError("--slurm-tasks must be at least 1, got \(slurmTasks)")
    }
    if shard != nil {
      throw ValidationError("--slurm makes the shards itself: give --slurm-tasks, not --shard")
    }
    if base == "-" {
      throw ValidationError("--slurm needs a scenario file: the tasks cannot read standard input")
    }
    for option in slurmOption {
      if let problem = SlurmSweep.problem(withOption: option) {
        throw ValidationError("--slurm-option \(problem)")
      }
    }
  }

  /// `--shard I/N` as numbers.
  private func shardNumbers() throws -> (Int, Int)? {
    try shard.map { text -> (Int, Int) in
      let parts = text.split(separator: "/", omittingEmptySubsequences: false).map { Int($0) }
      guard parts.count == 2, let i = parts[0], let n = parts[1], n >= 1, (1...n).contains(i)
      else {
        throw ValidationError("--shard '\(text)': expected I/N with 1 ≤ I ≤ N")
      }
      return (i, n)
    }
  }

  func run(in tool: ToolContext) throws -> Int32 {
    var parameters: [SweepGrid.Parameter] = []
    for spec in vary {
      do { parameters.append(try SweepGrid.parameter(spec)) } catch {
        throw UsageError("--vary \(error)")
      }
    }
    let shard = try shardNumbers()
    let grid = SweepGrid(parameters: parameters)
    do { try grid.validate() } catch { throw UsageError("\(error)") }
    let indices = shard.map { grid.indices(shard: $0.0, of: $0.1) } ?? Array(0..<grid.count)

    // Every point is read and checked before anything runs (without assembling its world:
    // the workers do that), the files the points share parsed once.
    let label = base == "-" ? ScenarioInputs.standardInputLabel : base
    let document: JSONValue
    do {
      document =
        base == "-"
        ? try JSONFile(data: tool.terminal.readAll(), name: label).root : try JSONFile(base).root
    } catch {
      throw BadInput("\(error)")
    }
    let folder =
      base == "-"
      ? URL(fileURLWithPath: FileManager.default.currentDirectoryPath, isDirectory: true)
      : URL(fileURLWithPath: base).deletingLastPathComponent()
    let cores = ProcessInfo.processInfo.activeProcessorCount
    let outURL = URL(fileURLWithPath: out, isDirectory: true)
    var common = [
      "sweep-worker", "--out", outURL.path, "--run-reports", runReports.rawValue,
      WorkerProcesses.unitsOnRequest,
    ]
    if allowOutsidePaths { common.append("--allow-outside-paths") }
    let arguments = common + budget.workerArguments
    let processes = WorkerProcesses(executable: try tool.executablePath())
    // The workers start while the points are checked (a process and its runtime each, on a
    // core the check leaves idle at times); each reads the sweep's set-up, written below,
    // once sent its first point.
    let started =
      slurm ? nil : processes.start(min(jobs ?? cores, indices.count), arguments: arguments)
    defer { started?.end() }
    if let (index, error) = Self.firstBadPoint(
      indices, grid: grid, document: document, base: label, folder: folder,
      allowOutside: allowOutsidePaths, catalog: tool.apps, threads: slurm ? cores : jobs ?? cores)
    {
      throw BadInput("\(grid.pointName(index)): \(ToolMessages.describe(error, tool: tool))")
    }

    try ScenarioInputs(files: [base], standardInput: nil).refuseOutputFolder(outURL)
    let hold = try OutputFolder(outURL)
    defer { withExtendedLifetime(hold) {} }
    if slurm, let slurmTasks {
      return try submit(
        tasks: slurmTasks, grid: grid, document: document, folder: folder.path, hold: hold,
        tool: tool)
    }
    // A previous sweep's files must not sit beside this one's looking current.
    // Only the files a sweep writes: the folder may hold the user's own.
    // Unlinked: a folder of the user's that has one of their names stays.
    for file in ReportFiles.sweepFiles + ["grid.json"] {
      unlink(outURL.appendingPathComponent(file).path)
    }
    // A point's runs/<i>.json is the worker's hand-off to this process, written over in place
    // (ReportWriter.writeInPlace) and read only once the worker has said it is written: one of
    // this sweep's points is left for its worker to write over, so that its file is reused
    // instead of a new one made, and any other is removed. (Emptying a thousand files here
    // took 40 ms on one thread, on a disk that discards freed blocks.)
    let runsFolder = outURL.appendingPathComponent("runs")
    let points = Set(indices)
    for file in (try? FileManager.default.contentsOfDirectory(atPath: runsFolder.path)) ?? []
    where file.hasSuffix(".json") {
      guard let index = Int(file.dropLast(5)), String(index) + ".json" == file,
        !points.contains(index)
      else { continue }
      unlink(runsFolder.path + "/" + file)
    }
    Self.clearRunFolders(in: outURL)
    // The workers read the scenario from here, not from the file (which may change meanwhile,
    // or be standard input).
    let setup = JSONValue.object([
      "base": .string(label), "folder": .string(folder.path), "grid": grid.json,
      "document": document,
    ])
    try ReportWriter.write(setup.jsonText + "\n", to: outURL.appendingPathComponent("grid.json"))
    let progress = Progress(total: indices.count, terminal: tool.terminal)
    let runs = try processes.run(
      count: indices.count, jobs: jobs ?? cores, arguments: arguments, started: started,
      request: { .object(["index": .number(Double(indices[$0]))]) },
      // A point's old file is only ever written over (read once its worker has answered).
      clear: { _ in },
      read: { Self.readRun(outURL, indices[$0], grid: grid) },
      crashed: { unit, ending in
        let values = grid.values(at: indices[unit])
        let run =
          ending.timeLimitReason.map {
            SweepRun(index: indices[unit], values: values, timeout: $0)
          } ?? SweepRun(index: indices[unit], values: values, crash: ending.reason)
        try? ReportWriter.write(run.json.jsonText + "\n", to: Self.runURL(outURL, indices[unit]))
        return run
      },
      finished: { _, run in progress.finished("point \(run.index)") })
    progress.end()
    let report = SweepReport(
      base: label, grid: grid, shard: shard.map { "\($0.0)/\($0.1)" }, runs: runs,
      expected: indices)
    tool.terminal.write(try ReportFiles.writeSweep(report, to: outURL))
    return 0
  }

  /// Submits the sweep to Slurm (`--slurm`) and prints the jobs.
  private func submit(
    tasks: Int, grid: SweepGrid, document: JSONValue, folder: String, hold: OutputFolder,
    tool: ToolContext
  ) throws -> Int32 {
    guard tasks <= grid.count else {
      throw UsageError("--slurm-tasks \(tasks) is more than the grid's \(grid.count) point(s)")
    }
    let directory = FileManager.default.currentDirectoryPath
    var options = ["--run-reports", runReports.rawValue]
    if allowOutsidePaths { options.append("--allow-outside-paths") }
    let sweep = SlurmSweep(
      executable: try tool.executablePath(), toolName: tool.name, base: base, vary: vary,
      out: out, directory: directory, tasks: tasks, sweepOptions: options + budget.workerArguments,
      jobs: jobs, options: slurmOption)
    for path in [directory, sweep.outURL.path] {
      if let problem = SlurmSweep.problem(withPath: path) {
        throw UsageError("--slurm: \(problem)")
      }
    }
    let submission: SlurmSweep.Submission
    do {
      submission = try sweep.submit(grid: grid, document: document, folder: folder) {
        hold.release()
      }
    } catch {
      tool.terminal.writeError("\(tool.name) sweep: \(error)\n")
      return 1
    }
    for warning in submission.warnings { tool.terminal.writeError(warning + "\n") }
    let scripts = sweep.scriptsURL.path
    if let job = submission.arrayJob {
      let done = tasks - submission.submitted.count
      tool.terminal.write(
        "array job \(job): shards \(SlurmSweep.arraySpec(submission.submitted)) of \(tasks)"
          + (done > 0 ? " (\(done) complete already)" : "") + ", \(scripts)/sweep.sbatch\n"
          + "merge job \(submission.mergeJob): after array job \(job), into \(out), "
          + "\(scripts)/merge.sbatch\n")
    } else {
      tool.terminal.write(
        "every shard of \(tasks) is complete\n"
          + "merge job \(submission.mergeJob): into \(out), \(scripts)/merge.sbatch\n")
    }
    return 0
  }

  /// Reads every point's scenario and checks it as assembling its world would
  /// (`World.check`), on `threads` threads sharing one ``ReplayResources`` (so that the
  /// points' shared trace and map layer files are parsed once); returns the first point, in
  /// the order of `indices`, that fails, with its error.
  static func firstBadPoint(
    _ indices: [Int], grid: SweepGrid, document: JSONValue, base: String, folder: URL,
    allowOutside: Bool, catalog: AppCatalog, threads: Int
  ) -> (index: Int, error: any Error)? {
    let resources = ReplayResources()
    let threads = max(1, min(threads, indices.count))
    // By position in `indices`.
    let failures = Mutex<[Int: any Error]>([:])
    // Each thread takes the next point not taken: the threads start at different times and
    // points differ in cost, so fixed shares left one thread checking alone at the end.
    let next = Atomic(0)
    DispatchQueue.concurrentPerform(iterations: threads) { _ in
      // A copy of the document's own: reading shared values counts references to the same
      // memory from every thread, and two threads took a fifth more CPU than one.
      let document = threads > 1 ? unshared(document) : document
      while true {
        let position = next.add(1, ordering: .relaxed).oldValue
        guard position < indices.count else { return }
        // Past a point already found bad, nothing needs checking.
        if failures.withLock({ $0.keys.contains { $0 < position } }) { return }
        do {
          let scenario = try grid.scenario(
            document, at: indices[position], base: base, folder: folder,
            allowPathsOutsideFolder: allowOutside, resources: resources)
          _ = try World.check(scenario: scenario, catalog: catalog, resources: resources)
        } catch {
          failures.withLock { $0[position] = error }
        }
      }
    }
    return failures.withLock { failures in
      failures.keys.min().map { (indices[$0], failures[$0]!) }
    }
  }

  /// `value` made again from its parts: equal to it, sharing no memory with it.
  static func unshared(_ value: JSONValue) -> JSONValue {
    func copy(_ text: String) -> String { String(decoding: Array(text.utf8), as: UTF8.self) }
    return switch value {
    case .null, .bool, .number: value
    case .string(let text): .string(copy(text))
    case .array(let elements): .array(elements.map(unshared))
    case .object(let members):
      .object(Dictionary(uniqueKeysWithValues: members.map { (copy($0.key), unshared($0.value)) }))
    }
  }

  static func runURL(_ out: URL, _ index: Int) -> URL {
    out.appendingPathComponent("runs/\(index).json")
  }

  /// Which runs a sweep writes a report folder for.
  enum RunReports: String, ExpressibleByArgument, CaseIterable {
    case failing, all, none
  }

  /// Removes the run report folders (`runs/<index>/`) a sweep wrote in `out`: the files a
  /// replay writes in them, then each folder if that emptied it. The user's own files stay.
  static func clearRunFolders(in out: URL) {
    let manager = FileManager.default
    let runs = out.appendingPathComponent("runs")
    for name in (try? manager.contentsOfDirectory(atPath: runs.path)) ?? []
    where Int(name).map({ $0 >= 0 && String($0) == name }) ?? false {
      let run = runs.appendingPathComponent(name)
      for file in ReportFiles.runFiles { unlink(run.path + "/" + file) }
      for sub in (try? manager.contentsOfDirectory(atPath: run.path)) ?? [] {
        let folder = run.appendingPathComponent(sub)
        ReportFiles.clearScenario(in: folder)
        // Only a folder that this emptied goes: what else is in it stays.
        rmdir(folder.path)
      }
      rmdir(run.path)
    }
  }

  /// The run a worker wrote for point `index`, if it is that point's (a file left by another
  /// sweep is not).
  ///
  /// The parent reads a thousand of these during a sweep, while both cores replay: the path is
  /// joined as text and the JSON read without the places of its values (an error is no more
  /// than a missing run here), about half the cost of a `URL` and a `JSONFile`.
  static func readRun(_ out: URL, _ index: Int, grid: SweepGrid) -> SweepRun? {
    guard let bytes = try? readFileContents(atPath: out.path + "/runs/\(index).json"),
      let json = try? JSONValue(parsing: Data(bytes)),
      let run = SweepRun(json: json), run.index == index,
      run.values == grid.values(at: index)
    else { return nil }
    return run
  }
}

/// `sweep-worker --out DIR [--allow-outside-paths] (--units-on-request | INDEX...)` (internal,
/// started by `sweep`): replays points of the sweep set up in `<out>/grid.json` one after the
/// other, writing `runs/<index>.json` as each one ends: the indices given, or with
/// `--units-on-request` the points the parent sends (``UnitRequests``), each as `{"index": I}`.
struct SweepWorkerCommand: ToolCommand {
  static let configuration = CommandConfiguration(
    commandName: "sweep-worker", abstract: "Run sweep points for sweep (internal).",
    shouldDisplay: false)

  @Option var out: String

  @Flag var allowOutsidePaths = false

  @Option var runReports: SweepCommand.RunReports = .failing

  @OptionGroup var budget: ReplayBudget

  @Argument var indices: [Int] = []

  /// Whether the points come from the parent, one at a time.
  @Flag var unitsOnRequest = false

  func validate() throws {
    guard !unitsOnRequest || indices.isEmpty else {
      throw ValidationError("--units-on-request takes no indices")
    }
  }

  /// The sweep a worker replays points of, as `sweep` wrote it into `<out>/grid.json`.
  private struct Setup {
    let grid: SweepGrid
    let base: String
    let folder: URL
    let document: JSONValue

    init(out: URL, tool: ToolContext) throws {
      let setup = try JSONFile(out.appendingPathComponent("grid.json").path)
      guard case .object(let o) = setup.root, let gridJSON = o["grid"],
        case .string(let base)? = o["base"], case .string(let folder)? = o["folder"],
        let document = o["document"]
      else {
        throw setup.problem(.root, "expected the grid \(tool.name) sweep wrote")
      }
      grid = try SweepGrid(json: gridJSON)
      self.base = base
      self.folder = URL(fileURLWithPath: folder, isDirectory: true)
      self.document = document
    }
  }

  func run(in tool: ToolContext) throws -> Int32 {
    WorkerLifetime.followParent()
    let outURL = URL(fileURLWithPath: out, isDirectory: true)
    let resources = ReplayResources()
    let timeLimit = WorkerTimeLimit(seconds: budget.timeLimit)
    // Read with the first point: a worker on request is started while the sweep checks its
    // points, before grid.json is written, and waits for its first point.
    var read: Setup?
    func setup() throws -> Setup {
      if let read { return read }
      let made = try Setup(out: outURL, tool: tool)
      read = made
      return made
    }
    func replay(_ index: Int) throws -> Int32? {
      let setup = try setup()
      let grid = setup.grid
      let scenario = try grid.scenario(
        setup.document, at: index, base: setup.base, folder: setup.folder,
        allowPathsOutsideFolder: allowOutsidePaths, resources: resources)
      let sweepRun = try timeLimit.watch("point \(index)") {
        let run = try ScenarioRun(
          scenario, catalog: tool.apps, resources: resources, eventLimit: budget.eventLimit)
        var sweepRun = try SweepRun(
          index: index, values: grid.values(at: index), run: run, resources: resources)
        let failing = run.result.verdict != .pass || !sweepRun.failedExpectations.isEmpty
        if runReports == .all || (runReports == .failing && failing) {
          // The run's folder is laid out as a replay's output folder: its pages at the top,
          // the scenario's files in a folder named after it.
          let folder = SweepRun.folder(of: index)
          let runURL = outURL.appendingPathComponent(folder, isDirectory: true)
          let entry = try ReportFiles.writeScenario(
            run, resources: resources, to: runURL.appendingPathComponent(scenario.name))
          try ReportFiles.writeRun([entry], to: runURL)
          sweepRun.folder = folder
        }
        return sweepRun
      }
      do {
        try ReportWriter.writeInPlace(
          sweepRun.json.jsonText + "\n", to: SweepCommand.runURL(outURL, index))
      } catch {
        tool.terminal.writeError("\(tool.name) sweep-worker: \(error)\n")
        return OutputFailure.exitStatus
      }
      return nil
    }
    guard unitsOnRequest else {
      for index in indices {
        if let status = try replay(index) { return status }
      }
      return 0
    }
    var requests = UnitRequests()
    while let unit = try requests.next() {
      let count = try setup().grid.count
      guard case .object(let o) = unit, case .number(let n)? = o["index"], n >= 0, n < 1e15,
        n == n.rounded(), count > Int(n)
      else {
        throw BadInput(
          "expected a unit {\"index\": I} with 0 ≤ I < \(count), got \(unit.jsonText)")
      }
      if let status = try replay(Int(n)) { return status }
      requests.done()
    }
    return 0
  }
}

/// `geosim merge`: the shards of one sweep merged back into one report.
struct MergeCommand: ToolCommand {
  static let configuration = CommandConfiguration(
    commandName: "merge",
    abstract: "Merge the shards of a sweep.",
    discussion: """
      Merges shards of one sweep (same scenario and grid) into one report. Exit code 0 when \
      every point is present, 1 when some are missing (the report lists them), 2 on bad input.
      """)

  @Argument(help: ArgumentHelp("The shards' output folders.", valueName: "sweep-folder"))
  var folders: [String]

  @Option(help: ArgumentHelp("The folder the merged sweep is written to.", valueName: "dir"))
  var out = "Reports/sweep-merged"

  func run(in tool: ToolContext) throws -> Int32 {
    let outURL = URL(fileURLWithPath: out, isDirectory: true)
    var base: String?
    var grid: SweepGrid?
    var runs: [Int: SweepRun] = [:]
    // The shard folder each run came from.
    var sources: [Int: URL] = [:]
    // Everything is read before anything is written: a bad shard leaves the output as it was.
    for folder in folders {
      let file = URL(fileURLWithPath: folder).appendingPathComponent("sweep.json")
      let sweep: JSONFile
      do {
        sweep = try JSONFile(file.path)
      } catch {
        throw BadInput("\(error)")
      }
      guard case .object(let o) = sweep.root, case .string(let b)? = o["base"], let g = o["grid"],
        case .array(let list)? = o["runs"]
      else {
        throw BadInput(
          "\(sweep.problem(.root, "expected a sweep.json written by \(tool.name) sweep"))")
      }
      let thisGrid: SweepGrid
      do {
        thisGrid = try SweepGrid(json: g)
        try thisGrid.validate()
      } catch {
        throw BadInput("\(sweep.problem(["grid"], "\(error)"))")
      }
      if let grid, grid != thisGrid || base != b {
        throw BadInput(
          "\(file.path): another sweep (scenario \(b)); shards must share "
            + "the scenario and grid")
      }
      base = b
      grid = thisGrid
      for (i, item) in list.enumerated() {
        let run: SweepRun
        do {
          run = try SweepRun.reading(item)
        } catch {
          var at: JSONPath = ["runs", .index(i)]
          if let member = error.member { at = at.appending(key: member).appending(error.within) }
          throw BadInput("\(sweep.problem(at, error.message))")
        }
        guard (0..<thisGrid.count).contains(run.index), run.values == thisGrid.values(at: run.index)
        else {
          throw BadInput(
            "\(sweep.problem(["runs", .index(i)], "a run that is not a point of its grid"))")
        }
        if let other = runs[run.index], other != run {
          throw BadInput(
            "\(file.path): point \(run.index) differs from another shard's")
        }
        runs[run.index] = run
        sources[run.index] = URL(fileURLWithPath: folder, isDirectory: true)
      }
    }
    guard let base, let grid else { return 2 }
    let hold = try OutputFolder(outURL)
    defer { withExtendedLifetime(hold) {} }
    for file in ReportFiles.sweepFiles {
      try? FileManager.default.removeItem(at: outURL.appendingPathComponent(file))
    }
    // The runs' report folders come along, so that the merged report's links resolve; a
    // previous merge's go, unless the merge is into one of its shards.
    let manager = FileManager.default
    let target = outURL.standardizedFileURL.path
    if !folders.contains(where: { URL(fileURLWithPath: $0).standardizedFileURL.path == target }) {
      SweepCommand.clearRunFolders(in: outURL)
    }
    for (index, source) in sources.sorted(by: { $0.key < $1.key }) {
      guard let folder = runs[index]?.folder else { continue }
      let from = source.appendingPathComponent(folder).standardizedFileURL
      let to = outURL.appendingPathComponent(folder).standardizedFileURL
      guard from.path != to.path else { continue }
      try? manager.removeItem(at: to)
      do {
        try manager.createDirectory(
          at: to.deletingLastPathComponent(), withIntermediateDirectories: true)
        try manager.copyItem(at: from, to: to)
      } catch {
        tool.terminal.writeError("\(tool.name) merge: \(from.path): \(error)\n")
        return OutputFailure.exitStatus
      }
    }
    let report = SweepReport(
      base: base, grid: grid, shard: nil, runs: Array(runs.values), expected: Array(0..<grid.count))
    tool.terminal.write(try ReportFiles.writeSweep(report, to: outURL))
    if !report.isComplete {
      tool.terminal.writeError(
        "\(report.missing.count) of \(grid.count) point(s) missing: "
          + report.missing.prefix(20).map(String.init).joined(separator: ", ")
          + (report.missing.count > 20 ? ", …" : "") + "\n")
      return 1
    }
    return 0
  }
}
