import Foundation
import JSON
import Replay
import Reporting
import Synchronization

/// A sweep run on a Slurm cluster (`geosim sweep --slurm`): the shards of `--shard I/N` as
/// the tasks of one job array, and `geosim merge` as a job that starts when every task has
/// ended well.
///
/// It writes two batch scripts into `<out>/slurm/`: `sweep.sbatch`, which runs shard
/// `$SLURM_ARRAY_TASK_ID` of N into `<out>/shards/<task>/`, and `merge.sbatch`, which merges
/// the N shards into `<out>`. Then it submits the shards still missing as one array job
/// (`sbatch --parsable --array=…`) and the merge after it (`--dependency=afterok:<array job>`).
/// A shard whose folder holds the complete `sweep.json` of this very sweep (scenario document,
/// grid, shard and command line) is not submitted again, so running the same command again
/// after a failure submits only the shards that did not finish.
struct SlurmSweep {
  /// The tool's executable, which the tasks run (on a cluster: a path every node sees).
  var executable: String
  /// The tool's name, in the jobs' names.
  var toolName: String
  /// The scenario file, as given (the sweep report names it so).
  var base: String
  /// The `--vary` specifications, as given.
  var vary: [String]
  /// The output folder, as given (the tasks run in ``directory``, so a relative one stays so).
  var out: String
  /// The folder the command was run in: the jobs' working folder.
  var directory: String
  /// How many shards (array tasks).
  var tasks: Int
  /// The options every shard's sweep is given besides the grid, the shard and the folder.
  var sweepOptions: [String]
  /// `--jobs` as given: without it, each task runs as many workers as Slurm gave it CPUs.
  var jobs: Int?
  /// sbatch options written into both scripts (`--partition=short`, `--time=01:00:00`).
  var options: [String]

  /// `<out>` as an absolute folder.
  var outURL: URL {
    URL(fileURLWithPath: out, relativeTo: URL(fileURLWithPath: directory, isDirectory: true))
      .standardizedFileURL
  }

  /// The folder the scripts and the jobs' logs are written to.
  var scriptsURL: URL { outURL.appendingPathComponent("slurm", isDirectory: true) }

  /// The output folder of shard `task` (1-based, as Slurm numbers array tasks), as the tasks
  /// name it.
  func shardFolder(_ task: Int) -> String {
    shardPrefix + String(task)
  }

  // MARK: The scripts

  /// The array job's script: one shard per task, the shard being the task's number.
  var arrayScript: String {
    var command = [executable, "sweep", base] + vary.flatMap { ["--vary", $0] } + sweepOptions
    if let jobs { command += ["--jobs", String(jobs)] }
    // Without --jobs, as many workers as CPUs Slurm gave the task (1 unless --cpus-per-task).
    let workers = jobs == nil ? "--jobs \"${SLURM_CPUS_PER_TASK:-1}\" " : ""
    let usage = "sbatch --array=1-\(tasks) \(scriptsURL.path)/sweep.sbatch"
    return """
      #!/bin/bash
      # Shard $SLURM_ARRAY_TASK_ID of \(tasks) of a sweep, written by `\(toolName) sweep --slurm`,
      # which submits it as an array job: \(usage)
      # (`\(toolName) sweep --slurm` again submits only the shards whose folder lacks a complete
      # sweep.json). Each task writes its shard to \(shardPrefix)<task>/.
      #SBATCH --job-name=\(toolName)-sweep
      #SBATCH --chdir=\(directory)
      #SBATCH --output=\(scriptsURL.path)/shard-%a.log
      \(sbatchLines)set -euo pipefail
      task=${SLURM_ARRAY_TASK_ID:?"submit this script as an array job: \(usage)"}
      exec \(command.map(Self.quote).joined(separator: " ")) \\
        \(workers)--shard "$task/\(tasks)" --out \(Self.quote(shardPrefix))"$task"

      """
  }

  /// What the shards' folders are named by, before the task's number.
  private var shardPrefix: String { (out.hasSuffix("/") ? out : out + "/") + "shards/" }

  /// The merge job's script: the shards merged into `<out>`.
  var mergeScript: String {
    let shards = (1...tasks).map { " \\\n  " + Self.quote(shardFolder($0)) }.joined()
    return """
      #!/bin/bash
      # The merge of the \(tasks) shards of a sweep into \(out), written by
      # `\(toolName) sweep --slurm`, which submits it after the array job of sweep.sbatch
      # (--dependency=afterok:<array job>); it is cancelled if a shard fails.
      #SBATCH --job-name=\(toolName)-merge
      #SBATCH --chdir=\(directory)
      #SBATCH --output=\(scriptsURL.path)/merge.log
      #SBATCH --kill-on-invalid-dep=yes
      \(sbatchLines)set -euo pipefail
      exec \(Self.quote(executable)) merge\(shards) \\
        --out \(Self.quote(out))

      """
  }

  private var sbatchLines: String {
    options.map { "#SBATCH \($0)\n" }.joined()
  }

  /// `text` as one word of a shell command line.
  static func quote(_ text: String) -> String {
    let plain = text.allSatisfy {
      $0.isASCII && ($0.isLetter || $0.isNumber || "-_./=,:+@%^".contains($0))
    }
    if plain && !text.isEmpty { return text }
    return "'" + text.replacingOccurrences(of: "'", with: "'\\''") + "'"
  }

  /// Slurm's `--array` list of `tasks` (sorted, 1-based): runs of consecutive tasks as
  /// ranges, `1-3,5,7-8`.
  static func arraySpec(_ tasks: [Int]) -> String {
    var parts: [String] = []
    var i = 0
    while i < tasks.count {
      var j = i
      while j + 1 < tasks.count && tasks[j + 1] == tasks[j] + 1 { j += 1 }
      parts.append(j == i ? "\(tasks[i])" : "\(tasks[i])-\(tasks[j])")
      i = j + 1
    }
    return parts.joined(separator: ",")
  }

  /// Why `option` cannot be written into the scripts, or `nil` when it can.
  static func problem(withOption option: String) -> String? {
    let name = option.split(separator: "=", maxSplits: 1).first ?? ""
    guard name.hasPrefix("-"), name.contains(where: \.isLetter) else {
      return "'\(option)': expected an sbatch option as on its command line, such as "
        + "--partition=short or --time=01:00:00"
    }
    guard !option.contains(where: { $0.isWhitespace || $0 == "\"" || $0 == "'" }) else {
      return "'\(option)': an option of an #SBATCH line cannot hold spaces or quotes"
    }
    let own = [
      "--array", "--dependency", "--output", "--error", "--chdir", "--parsable", "--wrap",
      "--job-name", "--kill-on-invalid-dep",
    ]
    let short: Set<Character> = ["a", "d", "o", "e", "D", "J"]
    // sbatch takes any unambiguous beginning of a long option, and a short one's value
    // right after its letter (-dafterok:1).
    if own.contains(where: { $0.hasPrefix(name) && name.count > 2 })
      || (!name.hasPrefix("--") && name.dropFirst().first.map(short.contains) == true)
    {
      return "'\(option)': the sweep sets this option itself"
    }
    return nil
  }

  /// Why a path cannot go into an `#SBATCH` line, or `nil` when it can.
  static func problem(withPath path: String) -> String? {
    guard path.contains(where: { $0.isWhitespace || $0 == "\"" || $0 == "'" }) else { return nil }
    return "'\(path)': a folder named in an #SBATCH line cannot hold spaces or quotes"
  }

  // MARK: Resuming

  /// The shards (1-based) whose folder holds the complete sweep this one would write: its
  /// `sweep.json` is complete, for the same scenario, grid and shard, and its `grid.json` holds
  /// the same scenario document; and the shards' command line is the one `sweep.sbatch`
  /// already holds (another grid option, budget or executable makes every shard stale; the
  /// `#SBATCH` options do not).
  func completeShards(grid: SweepGrid, document: JSONValue, folder: String) -> [Int] {
    let previous = try? String(
      contentsOf: scriptsURL.appendingPathComponent("sweep.sbatch"), encoding: .utf8)
    guard let previous, Self.command(of: previous) == Self.command(of: arrayScript) else {
      return []
    }
    return (1...tasks).filter { task in
      let shard = outURL.appendingPathComponent("shards/\(task)", isDirectory: true)
      guard let sweep = try? JSONFile(shard.appendingPathComponent("sweep.json").path),
        case .object(let s) = sweep.root, s["base"] == .string(base),
        s["shard"] == .string("\(task)/\(tasks)"), s["complete"] == .bool(true),
        let g = s["grid"], (try? SweepGrid(json: g)) == grid,
        let setup = try? JSONFile(shard.appendingPathComponent("grid.json").path),
        case .object(let o) = setup.root, o["document"] == document,
        o["folder"] == .string(folder)
      else { return false }
      return true
    }
  }

  /// A script's lines but its `#SBATCH` options.
  private static func command(of script: String) -> [Substring] {
    script.split(separator: "\n").filter { !$0.hasPrefix("#SBATCH") }
  }

  // MARK: Submitting

  /// What was submitted: the array job (absent when every shard was complete), the tasks it
  /// runs, and the merge job.
  struct Submission {
    var arrayJob: String?
    var submitted: [Int]
    var mergeJob: String
    /// What sbatch said on standard error while accepting the jobs (its warnings).
    var warnings: [String] = []
  }

  /// Writes the scripts and submits the jobs with the `sbatch` found on `PATH`, calling
  /// `release` in between (the output folder must be free by the time the merge job starts,
  /// which may be at once).
  func submit(
    grid: SweepGrid, document: JSONValue, folder: String, release: () -> Void
  ) throws(SlurmError) -> Submission {
    let sbatch = try Self.sbatchPath()
    let complete = Set(completeShards(grid: grid, document: document, folder: folder))
    let missing = (1...tasks).filter { !complete.contains($0) }
    let manager = FileManager.default
    let arrayURL = scriptsURL.appendingPathComponent("sweep.sbatch")
    let mergeURL = scriptsURL.appendingPathComponent("merge.sbatch")
    do {
      try manager.createDirectory(
        at: outURL.appendingPathComponent("shards"), withIntermediateDirectories: true)
      try ReportWriter.write(arrayScript, to: arrayURL)
      try ReportWriter.write(mergeScript, to: mergeURL)
      for url in [arrayURL, mergeURL] {
        try manager.setAttributes([.posixPermissions: 0o755], ofItemAtPath: url.path)
      }
    } catch {
      throw SlurmError("cannot write the batch scripts in \(scriptsURL.path): \(error)")
    }
    // The merged report of a previous submission must not sit there looking current.
    for file in ReportFiles.sweepFiles {
      try? manager.removeItem(at: outURL.appendingPathComponent(file))
    }
    release()
    var arrayJob: String?
    var warnings: [String] = []
    var after: [String] = []
    if !missing.isEmpty {
      let job = try Self.run(
        sbatch, ["--parsable", "--array=\(Self.arraySpec(missing))", arrayURL.path],
        warnings: &warnings)
      arrayJob = job
      after = ["--dependency=afterok:\(job)"]
    }
    let mergeJob: String
    do {
      mergeJob = try Self.run(
        sbatch, ["--parsable"] + after + [mergeURL.path], warnings: &warnings)
    } catch {
      // The shards run all the same: say which job they are, so that it can be cancelled or
      // the merge submitted by hand.
      guard let arrayJob else { throw error }
      throw SlurmError(
        "array job \(arrayJob) was submitted, but not the merge after it (submit it with "
          + "sbatch --dependency=afterok:\(arrayJob) \(mergeURL.path)): \(error)")
    }
    return Submission(
      arrayJob: arrayJob, submitted: missing, mergeJob: mergeJob, warnings: warnings)
  }

  /// The `sbatch` on `PATH`.
  static func sbatchPath() throws(SlurmError) -> String {
    let path = ProcessInfo.processInfo.environment["PATH"] ?? ""
    for folder in path.split(separator: ":") where !folder.isEmpty {
      let candidate = "\(folder)/sbatch"
      if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
    }
    throw SlurmError(
      "--slurm submits the sweep with Slurm's sbatch, and there is no sbatch on PATH (\(path))")
  }

  /// Runs `sbatch arguments` and returns the job id it prints (`--parsable`: `id` or
  /// `id;cluster`), adding to `warnings` what it said on standard error.
  static func run(
    _ sbatch: String, _ arguments: [String], warnings: inout [String]
  ) throws(SlurmError) -> String {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: sbatch)
    process.arguments = arguments
    let output = Pipe()
    let errors = Pipe()
    process.standardOutput = output
    process.standardError = errors
    process.standardInput = FileHandle.nullDevice
    let said = Collected()
    let done = DispatchSemaphore(value: 0)
    let command = ([sbatch] + arguments).joined(separator: " ")
    do { try process.run() } catch {
      throw SlurmError("cannot run \(command): \(error)")
    }
    Thread {
      said.errors.withLock { $0 = errors.fileHandleForReading.readDataToEndOfFile() }
      done.signal()
    }.start()
    let printed = output.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    done.wait()
    let stderr = String(decoding: said.errors.withLock { $0 }, as: UTF8.self)
      .trimmingCharacters(in: .whitespacesAndNewlines)
    guard process.terminationStatus == 0 else {
      throw SlurmError(
        "\(command) failed (exit \(process.terminationStatus))"
          + (stderr.isEmpty ? "" : ": \(stderr)"))
    }
    let text = String(decoding: printed, as: UTF8.self).trimmingCharacters(
      in: .whitespacesAndNewlines)
    let id = text.split(separator: ";", maxSplits: 1).first.map(String.init) ?? ""
    guard !id.isEmpty, id.allSatisfy(\.isNumber) else {
      throw SlurmError("\(command) printed '\(text)', expected a job id")
    }
    if !stderr.isEmpty { warnings.append(stderr) }
    return id
  }

  private final class Collected: Sendable {
    let errors = Mutex(Data())
  }
}

/// Why a sweep could not be submitted to Slurm: exit code 1.
struct SlurmError: Error, CustomStringConvertible {
  let description: String
  init(_ description: String) { self.description = description }
}
