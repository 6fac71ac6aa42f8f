import Foundation
import Testing

@testable import GeoSimCLI

/// `geosim sweep --slurm` through the built binary, with a stand-in for Slurm's `sbatch` on
/// `PATH` (the real cluster is `scripts/slurm-sweep-check`'s).
@Suite(.serialized) struct SlurmSweepTests {
  /// A stand-in for `sbatch --parsable`: it records its arguments, one call a line, in
  /// `$FAKE_SBATCH/calls`, and runs the job at once as Slurm would run it: in the `--chdir`
  /// folder, its output into the `--output` file (`%a` the task), each task of an `--array`
  /// list with its `SLURM_ARRAY_TASK_ID`; a job after (`--dependency=afterok:`) a job with a
  /// failed task never runs. It prints the job's id, and `$FAKE_SBATCH_WARNING` as a warning
  /// on standard error.
  static let fakeSbatch = #"""
    #!/bin/bash
    set -u
    printf '%s\n' "$*" >> "$FAKE_SBATCH/calls"
    [ -n "${FAKE_SBATCH_WARNING:-}" ] && echo "sbatch: warning: $FAKE_SBATCH_WARNING" >&2
    array="" after="" script=""
    for a in "$@"; do
      case $a in
        --array=*) array=${a#--array=} ;;
        --dependency=afterok:*) after=${a#--dependency=afterok:} ;;
        -*) ;;
        *) script=$a ;;
      esac
    done
    id=$(( $(cat "$FAKE_SBATCH/next" 2>/dev/null || echo 100) + 1 ))
    echo "$id" > "$FAKE_SBATCH/next"
    if [ -n "$after" ] && [ -e "$FAKE_SBATCH/failed-$after" ]; then echo "$id"; exit 0; fi
    dir=$(sed -n 's/^#SBATCH --chdir=//p' "$script")
    out=$(sed -n 's/^#SBATCH --output=//p' "$script")
    if [ -z "$array" ]; then
      (cd "$dir" && bash "$script") > "$out" 2>&1 || touch "$FAKE_SBATCH/failed-$id"
    else
      for part in ${array//,/ }; do
        for task in $(seq "${part%-*}" "${part#*-}"); do
          (cd "$dir" && SLURM_ARRAY_TASK_ID=$task bash "$script") > "${out//%a/$task}" 2>&1 ||
            touch "$FAKE_SBATCH/failed-$id"
        done
      done
    fi
    echo "$id"
    """#

  let vary = [
    "--vary", "app.configuration.radius,expectations[0].region.radius=150,300",
    "--vary", "seed=1..3",
  ]

  /// A folder with the alarm scenario and a `bin/sbatch` of `script`; the environment that
  /// puts it first on `PATH`.
  func setUp(sbatch script: String = fakeSbatch) throws -> (URL, [String: String]) {
    let dir = try folder(["alarm.scenario.json": SweepCommandTests().alarm])
    let bin = dir.appendingPathComponent("bin")
    try FileManager.default.createDirectory(at: bin, withIntermediateDirectories: true)
    let sbatch = bin.appendingPathComponent("sbatch")
    try Data(script.utf8).write(to: sbatch)
    try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: sbatch.path)
    let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
    return (dir, ["PATH": "\(bin.path):\(path)", "FAKE_SBATCH": dir.path])
  }

  func calls(_ dir: URL) throws -> [String] {
    try String(contentsOf: dir.appendingPathComponent("calls"), encoding: .utf8)
      .split(separator: "\n").map(String.init)
  }

  func file(_ dir: URL, _ path: String) throws -> Data {
    try Data(contentsOf: dir.appendingPathComponent(path))
  }

  @Test func anArrayJobOfShardsThenItsMergeWriteTheUnshardedSweep() throws {
    let (dir, environment) = try setUp()
    let whole = try geosim(["sweep", "alarm.scenario.json", "--out", "whole"] + vary, in: dir)
    #expect(whole.code == 0, "\(whole.err)")
    let slurm = try geosim(
      ["sweep", "alarm.scenario.json", "--out", "cluster", "--slurm", "--slurm-tasks", "3"] + vary,
      in: dir, environment: environment.merging(["FAKE_SBATCH_WARNING": "no --time given"]) { $1 })
    #expect(slurm.code == 0, "\(slurm.err)")
    // What sbatch warns of reaches the user.
    #expect(slurm.err == String(repeating: "sbatch: warning: no --time given\n", count: 2))
    let scripts = dir.appendingPathComponent("cluster/slurm").standardizedFileURL.path
    #expect(
      try calls(dir) == [
        "--parsable --array=1-3 \(scripts)/sweep.sbatch",
        "--parsable --dependency=afterok:101 \(scripts)/merge.sbatch",
      ])
    #expect(slurm.out.contains("array job 101: shards 1-3 of 3, \(scripts)/sweep.sbatch\n"))
    #expect(slurm.out.contains("merge job 102: after array job 101, into cluster, "))
    for name in ["sweep.json", "sweep.md", "sensitivity.svg", "latency.svg", "index.html"] {
      #expect(try file(dir, "whole/\(name)") == file(dir, "cluster/\(name)"), "\(name)")
    }
    // Each task ran its own shard, by its number, into its own folder.
    for task in 1...3 {
      let shard = try String(
        decoding: file(dir, "cluster/shards/\(task)/sweep.json"), as: UTF8.self)
      #expect(shard.contains("\"shard\":\"\(task)/3\""), "\(task)")
    }
    let script = try String(decoding: file(dir, "cluster/slurm/sweep.sbatch"), as: UTF8.self)
    #expect(script.contains("#SBATCH --chdir=\(dir.standardizedFileURL.path)\n"))
    #expect(script.contains(#"--jobs "${SLURM_CPUS_PER_TASK:-1}" --shard "$task/3""#))
    #expect(script.contains(#"--out cluster/shards/"$task""#))
  }

  @Test func runningItAgainSubmitsOnlyTheShardsNotComplete() throws {
    let (dir, environment) = try setUp()
    let command =
      ["sweep", "alarm.scenario.json", "--out", "c", "--slurm", "--slurm-tasks", "3"] + vary
    #expect(try geosim(command, in: dir, environment: environment).code == 0)
    let first = try file(dir, "c/sweep.json")
    // Shard 1 lost its report, shard 3 died before writing one: only they run again. Other
    // #SBATCH options (a longer time limit) do not make the complete shard stale.
    try FileManager.default.removeItem(at: dir.appendingPathComponent("c/shards/1/sweep.json"))
    try FileManager.default.removeItem(at: dir.appendingPathComponent("c/shards/3"))
    let again = try geosim(
      command + ["--slurm-option", "--time=01:00:00"], in: dir, environment: environment)
    #expect(again.code == 0, "\(again.err)")
    #expect(try calls(dir)[2].hasPrefix("--parsable --array=1,3 "))
    #expect(again.out.hasPrefix("array job 103: shards 1,3 of 3 (1 complete already), "))
    #expect(try file(dir, "c/sweep.json") == first)
    let script = try String(decoding: file(dir, "c/slurm/merge.sbatch"), as: UTF8.self)
    #expect(script.contains("#SBATCH --time=01:00:00\n"))

    // Everything complete: only the merge.
    let done = try geosim(command, in: dir, environment: environment)
    #expect(done.out.hasPrefix("every shard of 3 is complete\nmerge job 105: into c, "))
    #expect(try calls(dir)[4] == "--parsable \(dir.standardizedFileURL.path)/c/slurm/merge.sbatch")

    // Another command line (here the event budget) makes every shard stale.
    let budget = try geosim(
      command + ["--event-limit", "5000000"], in: dir, environment: environment)
    #expect(budget.code == 0, "\(budget.err)")
    #expect(try calls(dir)[5].hasPrefix("--parsable --array=1-3 "))
  }

  @Test func aFailedShardCancelsTheMergeAndTheNextSubmissionRunsIt() throws {
    let (dir, environment) = try setUp()
    let command =
      ["sweep", "alarm.scenario.json", "--out", "c", "--slurm", "--slurm-tasks", "2"] + vary
    // A task that cannot write its shard's folder fails; the merge after it never runs.
    let shards = dir.appendingPathComponent("c/shards")
    try FileManager.default.createDirectory(at: shards, withIntermediateDirectories: true)
    try Data().write(to: shards.appendingPathComponent("2"))
    let failed = try geosim(command, in: dir, environment: environment)
    #expect(failed.code == 0, "\(failed.err)")
    #expect(
      !FileManager.default.fileExists(atPath: dir.appendingPathComponent("c/sweep.json").path))
    let log = try String(decoding: file(dir, "c/slurm/shard-2.log"), as: UTF8.self)
    #expect(log.contains("c/shards/2"), "\(log)")
    try FileManager.default.removeItem(at: dir.appendingPathComponent("c/shards/2"))
    let again = try geosim(command, in: dir, environment: environment)
    #expect(again.out.hasPrefix("array job 103: shards 2 of 2 (1 complete already), "))
    #expect(FileManager.default.fileExists(atPath: dir.appendingPathComponent("c/sweep.json").path))
  }

  @Test func withoutSbatchOrWhenItRefusesTheCommandFailsSayingWhy() throws {
    let (dir, _) = try setUp()
    let command =
      ["sweep", "alarm.scenario.json", "--out", "c", "--slurm", "--slurm-tasks", "2"] + vary
    let empty = dir.appendingPathComponent("empty")
    try FileManager.default.createDirectory(at: empty, withIntermediateDirectories: true)
    let none = try geosim(command, in: dir, environment: ["PATH": empty.path])
    #expect(none.code == 1)
    #expect(
      none.err == "geosim sweep: --slurm submits the sweep with Slurm's sbatch, and there is no "
        + "sbatch on PATH (\(empty.path))\n")

    let (other, refusing) = try setUp(
      sbatch: "#!/bin/sh\necho 'sbatch: error: invalid partition specified: nope' >&2\nexit 1\n")
    let refused = try geosim(
      command + ["--slurm-option=--partition=nope"], in: other, environment: refusing)
    #expect(refused.code == 1)
    #expect(
      refused.err.contains(" failed (exit 1): sbatch: error: invalid partition specified: nope\n"))
  }

  @Test func aMergeThatCannotBeSubmittedNamesTheArrayJobAlreadyRunning() throws {
    let (dir, environment) = try setUp(
      sbatch: """
        #!/bin/sh
        [ -e "$FAKE_SBATCH/once" ] && { echo 'sbatch: error: Batch job submission failed' >&2; exit 1; }
        touch "$FAKE_SBATCH/once"
        echo '7;cluster'
        """)
    let r = try geosim(
      ["sweep", "alarm.scenario.json", "--out", "c", "--slurm", "--slurm-tasks", "2"] + vary,
      in: dir, environment: environment)
    #expect(r.code == 1)
    let merge = dir.appendingPathComponent("c/slurm/merge.sbatch").standardizedFileURL.path
    #expect(
      r.err.hasPrefix(
        "geosim sweep: array job 7 was submitted, but not the merge after it (submit it with "
          + "sbatch --dependency=afterok:7 \(merge)): "), "\(r.err)")
    #expect(r.err.hasSuffix("failed (exit 1): sbatch: error: Batch job submission failed\n"))
  }

  @Test(arguments: [
    (["--slurm"], "--slurm needs --slurm-tasks N"),
    (["--slurm-tasks", "2"], "--slurm-tasks and --slurm-option go with --slurm"),
    (["--slurm", "--slurm-tasks", "0"], "--slurm-tasks must be at least 1, got 0"),
    (["--slurm", "--slurm-tasks", "7"], "--slurm-tasks 7 is more than the grid's 6 point(s)"),
    (["--slurm", "--slurm-tasks", "2", "--shard", "1/2"], "give --slurm-tasks, not --shard"),
    (
      ["--slurm", "--slurm-tasks", "2", "--slurm-option", "partition=short"],
      "expected an sbatch option as on its command line"
    ),
    (
      ["--slurm", "--slurm-tasks", "2", "--slurm-option", "--array=1-9"],
      "the sweep sets this option itself"
    ),
    (
      ["--slurm", "--slurm-tasks", "2", "--slurm-option", "--comment=a b"],
      "cannot hold spaces or quotes"
    ),
    (
      ["--slurm", "--slurm-tasks", "2", "--slurm-option", "--dep=afterok:1"],
      "the sweep sets this option itself"
    ),
    (
      ["--slurm", "--slurm-tasks", "2", "--slurm-option", "-dafterok:1"],
      "the sweep sets this option itself"
    ),
    (
      ["--slurm", "--slurm-tasks", "2", "--slurm-option", "--"],
      "expected an sbatch option as on its command line"
    ),
  ])
  func usageMistakesExitTwo(arguments: [String], message: String) throws {
    let (dir, environment) = try setUp()
    let r = try geosim(
      ["sweep", "alarm.scenario.json", "--out", "c"] + vary + arguments, in: dir,
      environment: environment)
    #expect(r.code == 2)
    #expect(r.err.contains(message), "\(r.err)")
    #expect(!FileManager.default.fileExists(atPath: dir.appendingPathComponent("calls").path))
  }

  @Test func theArrayListJoinsRunsOfTasksIntoRanges() {
    #expect(SlurmSweep.arraySpec([1, 2, 3, 5, 7, 8]) == "1-3,5,7-8")
    #expect(SlurmSweep.arraySpec([2, 5, 7]) == "2,5,7")
    #expect(SlurmSweep.arraySpec([4]) == "4")
    #expect(SlurmSweep.quote("seed=1..3") == "seed=1..3")
    #expect(SlurmSweep.quote("a b'c") == #"'a b'\''c'"#)
  }
}
