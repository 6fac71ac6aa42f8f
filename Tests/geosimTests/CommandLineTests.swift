import Foundation
import JSON
import Replay
import Reporting
import Testing

@testable import GeoSimCLI

/// The command line as swift-argument-parser gives it: help per command, `--opt=value`, `--`,
/// `-` for standard input, completion scripts, hidden internal commands, and values that are
/// never taken from the next option.
@Suite struct CommandLineTests {
  /// A fresh folder with a scenario and a file that must survive whatever the command does.
  private func workspace() throws -> URL {
    let url = try scratchFolder("command-line")
    try Data(
      """
      {"format": "geosim-scenario/1", "name": "still", "start": "2026-04-01T08:00:00+09:00",
       "duration": 60, "app": {"name": "WeatherWidget", "variant": "corrected"},
       "trace": {"stationary": {"latitude": 35.681236, "longitude": 139.767125}},
       "timeline": [{"at": 0, "do": "launch"}], "expectations": [{"expect": "noCrash"}]}
      """.utf8
    ).write(to: url.appendingPathComponent("still.scenario.json"))
    try Data("keep\n".utf8).write(to: url.appendingPathComponent("report.md"))
    return url
  }

  @Test func eachCommandHasItsOwnHelp() {
    let replay = run(["replay", "--help"])
    #expect(replay.code == 0)
    for option in ["--seed <seed>", "--out <dir>", "--jobs <n>", "--allow-outside-paths"] {
      #expect(replay.out.contains(option), "\(option)")
    }
    // The help wraps its text to the terminal's width.
    let words = replay.out.split(whereSeparator: \.isWhitespace).joined(separator: " ")
    #expect(words.contains("Exit code 0 when every verdict is PASS or XFAIL"))
    let convert = run(["help", "trace", "convert"])
    #expect(convert.code == 0)
    #expect(convert.out.contains("USAGE: geosim trace convert <file>"))
    #expect(convert.out.contains("(values: gpx, geojson, csv,") && convert.out.contains("xcode)"))
  }

  @Test func theWorkerCommandsAreHiddenFromHelp() {
    let help = run(["--help"])
    #expect(help.code == 0)
    for command in ["replay", "validate", "sweep", "merge", "trace", "query", "geodesic", "bench"] {
      #expect(help.out.contains("  \(command) "), "\(command)")
    }
    #expect(!help.out.contains("worker"))
    // What the man page is generated from.
    let dump = run(["--experimental-dump-help"])
    #expect(dump.code == 0 && dump.out.contains("\"commandName\" : \"trace\""))
    #expect(!dump.out.contains("-worker"))
  }

  @Test(arguments: ["bash", "zsh", "fish"])
  func completionScriptsCoverTheCommands(shell: String) {
    let script = run(["--generate-completion-script", shell])
    #expect(script.code == 0)
    #expect(script.out.contains("geosim"))
    for command in ["replay", "sweep", "inspect"] {
      #expect(script.out.contains(command), "\(shell): \(command)")
    }
    #expect(!script.out.contains("worker"))
  }

  @Test func anOptionIsNeverTakenForTheValueOfTheOptionBeforeIt() throws {
    // `--out --seed 5 dir` would have made `dir` the output folder and cleared its reports.
    let dir = try workspace()
    let result = run(["replay", "--out", "--seed", "5", dir.path])
    #expect(result.code == 2)
    #expect(result.err.hasPrefix("Error: Missing value for '--out <dir>'"))
    #expect(
      try String(contentsOf: dir.appendingPathComponent("report.md"), encoding: .utf8) == "keep\n")
  }

  @Test func anOutputFolderHoldingTheScenariosIsRefused() throws {
    let dir = try workspace()
    for out in [dir.path, dir.deletingLastPathComponent().path] {
      let result = run(["replay", dir.path, "--out", out])
      #expect(result.code == 2)
      #expect(result.err.contains("holds the scenario"), "\(result.err)")
    }
    #expect(
      try String(contentsOf: dir.appendingPathComponent("report.md"), encoding: .utf8) == "keep\n")
  }

  @Test func optionsTakeTheirValueAfterAnEqualsSign() {
    let spaced = run(["trace", "synth", "--waypoints", "35,139;35.001,139", "--to", "csv"])
    let joined = run(["trace", "synth", "--waypoints=35,139;35.001,139", "--to=csv"])
    #expect(spaced.code == 0 && joined.code == 0)
    #expect(spaced.out == joined.out && spaced.out.hasPrefix("track,time,latitude,longitude"))
  }

  @Test func argumentsAfterADoubleDashAreNeverOptions() throws {
    let dir = try workspace()
    let odd = dir.appendingPathComponent("-odd.csv")
    try Data("lat,lon\n35,139\n35.001,139\n".utf8).write(to: odd)
    let result = run(["trace", "inspect", "--", odd.path])
    #expect(result.code == 0, "\(result.err)")
    #expect(result.out.contains("points: 2"))
  }

  @Test func aDashReadsStandardInput() throws {
    let csv = "lat,lon\n35,139\n35.001,139\n"
    let trace = run(["trace", "inspect", "-"], input: [csv])
    #expect(trace.code == 0, "\(trace.err)")
    #expect(trace.out.contains("points: 2"))
    let dir = try workspace()
    let text = try String(
      contentsOf: dir.appendingPathComponent("still.scenario.json"), encoding: .utf8)
    let valid = run(["validate", "-"], input: [text])
    #expect(valid.code == 0 && valid.out == "ok <stdin>\n", "\(valid.err)")
    let broken = run(["validate", "-"], input: ["{\"format\": 1}"])
    #expect(broken.code == 2)
    #expect(broken.err.hasPrefix("<stdin>:1:"), "\(broken.err)")
  }

  @Test(arguments: ["report.json", "Index.html", "results.json", ".hidden"])
  func aScenarioMayNotBeNamedLikeTheRunsOwnFiles(name: String) throws {
    let dir = try workspace()
    var text = try String(
      contentsOf: dir.appendingPathComponent("still.scenario.json"), encoding: .utf8)
    text = text.replacingOccurrences(of: #""name": "still""#, with: #""name": "\#(name)""#)
    let result = run(["validate", "-"], input: [text])
    #expect(result.code == 2)
    #expect(
      result.err.contains("is taken by a file a replay writes in its output folder"),
      "\(result.err)")
  }

  @Test func validateRefusesATraceThatLosesPointsUnlessTheScenarioAllowsIt() throws {
    let dir = try workspace()
    try Data(
      """
      <gpx version="1.1" xmlns="http://www.topografix.com/GPX/1/1"><trk><trkseg>
        <trkpt lat="35.6812" lon="139.7671"><time>2026-04-01T08:00:00+09:00</time></trkpt>
        <trkpt lat="35.6808" lon="139.7668"><time>2026-04-01T08:00:30+09:00</time></trkpt>
        <trkpt lat="35.6806" lon="139.7666"><time>2026-04-01T08:00:30+09:00</time></trkpt>
      </trkseg></trk></gpx>
      """.utf8
    ).write(to: dir.appendingPathComponent("walk.gpx"))
    let still = try String(
      contentsOf: dir.appendingPathComponent("still.scenario.json"), encoding: .utf8)
    let stationary = #"{"stationary": {"latitude": 35.681236, "longitude": 139.767125}}"#
    let refused = still.replacingOccurrences(of: stationary, with: #"{"file": "walk.gpx"}"#)
    try Data(refused.utf8).write(to: dir.appendingPathComponent("still.scenario.json"))
    let result = run(["validate", dir.appendingPathComponent("still.scenario.json").path])
    #expect(result.code == 2)
    #expect(result.out.isEmpty)
    #expect(result.err.contains("walk.gpx: dropped 1 point(s) of track 0"), "\(result.err)")
    let allowed = still.replacingOccurrences(
      of: stationary, with: #"{"file": "walk.gpx", "allowSkippedPoints": true}"#)
    try Data(allowed.utf8).write(to: dir.appendingPathComponent("still.scenario.json"))
    let ok = run(["validate", dir.appendingPathComponent("still.scenario.json").path])
    #expect(ok.code == 0, "\(ok.err)")
  }

  @Test func aToolOfOnesOwnSaysItsNameAndWhichAppsItHas() throws {
    var apps = AppCatalog()
    apps.register("CheckIn") { _ in { preconditionFailure("never launched by validate") } }
    let tool = GeoSimTool(name: "checkin-sim", apps: apps)
    func call(_ arguments: [String]) -> (code: Int32, out: String, err: String) {
      var out = ""
      var err = ""
      let code = tool.run(
        arguments,
        terminal: Terminal(readLine: { nil }, write: { out += $0 }, writeError: { err += $0 }))
      return (code, out, err)
    }
    #expect(call(["--version"]).out == "checkin-sim \(GeoSimTool.version)\n")
    #expect(call(["--help"]).out.contains("USAGE: checkin-sim <subcommand>"))
    #expect(call(["replay", "--help"]).out.contains("USAGE: checkin-sim replay"))
    // A reference app's scenario names an app this tool does not have.
    let dir = try workspace()
    let result = call(["validate", dir.appendingPathComponent("still.scenario.json").path])
    #expect(result.code == 2)
    #expect(result.err.contains("app.name: no app called 'WeatherWidget' (known: CheckIn)"))
    #expect(result.err.contains("checkin-sim replays only the apps it was built with"))
    #expect(result.err.contains("GeoSimCLI"))
  }
}

/// A replay writes only its own files: a scenario's folder in the output may be a folder of the
/// user's own, and what else is in it stays.
@Test func aReplayClearsOnlyTheFilesItWrites() throws {
  let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
    "geosim-clear-tests-\(UUID().uuidString)/still")
  try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
  defer { try? FileManager.default.removeItem(at: folder.deletingLastPathComponent()) }
  for file in ["notes.txt", "report.md", "events.jsonl"] {
    try Data("old\n".utf8).write(to: folder.appendingPathComponent(file))
  }
  // A folder of the user's that happens to have a report's name is not a report.
  try FileManager.default.createDirectory(
    at: folder.appendingPathComponent("map.svg/drafts"), withIntermediateDirectories: true)
  ReportFiles.clearScenario(in: folder)
  let left = try FileManager.default.contentsOfDirectory(atPath: folder.path)
  #expect(left.sorted() == ["map.svg", "notes.txt"])
}

/// The runs of a scenario replayed several times go, folder and all, unless a folder holds a
/// file of the user's.
@Test func aReplayClearsTheRunsItWroteAndLeavesTheUsersFiles() throws {
  let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
    "geosim-clear-tests-\(UUID().uuidString)")
  defer { try? FileManager.default.removeItem(at: folder) }
  let files = [
    "runs/0/report.md", "runs/0/notes.txt", "runs/1/result.json", "runs/1/index.html",
    "runs/draft/report.md",
  ]
  for file in files {
    let url = folder.appendingPathComponent(file)
    try FileManager.default.createDirectory(
      at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
    try Data("old\n".utf8).write(to: url)
  }
  ReportFiles.clearRuns(in: folder)
  let runs = folder.appendingPathComponent("runs")
  #expect(
    try FileManager.default.contentsOfDirectory(atPath: runs.path).sorted() == ["0", "draft"])
  #expect(
    try FileManager.default.contentsOfDirectory(atPath: runs.appendingPathComponent("0").path)
      == ["notes.txt"])
  #expect(
    try FileManager.default.contentsOfDirectory(atPath: runs.appendingPathComponent("draft").path)
      == ["report.md"], "not a run's folder")
  try FileManager.default.removeItem(at: runs.appendingPathComponent("0/notes.txt"))
  try FileManager.default.removeItem(at: runs.appendingPathComponent("draft"))
  ReportFiles.clearRuns(in: folder)
  #expect(!FileManager.default.fileExists(atPath: runs.path), "an emptied runs folder goes")
}
