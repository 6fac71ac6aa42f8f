import CFuzzer
import Foundation
import GeoSimCLI
import ReferenceAppCatalog
import Replay
import Traces

/// What every fuzz target shares: the fuzzer's bytes as `Data`, the `geosim` tool run in this
/// process, and a scratch folder of its own.
public enum Fuzz {
  /// Runs libFuzzer on the process's arguments (corpus folders, `-max_total_time=`, …) with
  /// `test` as its one-input function, and exits with libFuzzer's exit code: 0, or non-zero
  /// after a crash, a timeout or running out of memory, with the input saved.
  ///
  /// `test` gets each input's bytes, runs a reader on them and returns 0. It catches what the
  /// reader throws (bad input is what the readers are for); it must not trap, hang or let
  /// memory run away.
  public static func main(_ test: @convention(c) (UnsafePointer<UInt8>?, Int) -> CInt) -> Never {
    var argc = CommandLine.argc
    var argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = CommandLine.unsafeArgv
    exit(LLVMFuzzerRunDriver(&argc, &argv, test))
  }

  /// The bytes libFuzzer passes to the one-input function (`start` may be null when `count` is
  /// 0).
  public static func data(_ start: UnsafePointer<UInt8>?, _ count: Int) -> Data {
    guard let start, count > 0 else { return Data() }
    return Data(bytes: start, count: count)
  }

  /// `geosim` with the reference apps, as `Sources/geosim/main.swift` makes it.
  public static let tool = GeoSimTool(name: "geosim", apps: .referenceApps)

  /// Runs `geosim arguments` here with `input` as standard input. Bad input is an exit code
  /// (2, or 1 for a failed command) and an error message, which is what the readers should
  /// give: only a trap, a hang or runaway memory is a finding, and libFuzzer reports those.
  @discardableResult
  public static func geosim(_ arguments: [String], input: Data = Data()) -> Int32 {
    tool.run(arguments, input: input).status
  }

  /// A folder of this process's own under the system's temporary folder, created once.
  public static let scratch: URL = {
    let url = FileManager.default.temporaryDirectory
      .appendingPathComponent("geosim-fuzz-\(ProcessInfo.processInfo.processIdentifier)")
    try? FileManager.default.removeItem(at: url)
    try! FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    return url
  }()

  /// The repository's root, from where this file was compiled (`Fuzz/Sources/FuzzSupport`).
  public static let repository = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent()

  /// Copies the files the project's scenarios and fixtures name (traces, datasets, gazetteers)
  /// into the scratch folder, once.
  public static let scenarioFiles: Void = {
    let copies = [
      ("Tests/ReplayTests/Fixtures/valid-scenarios/walk.gpx", "walk.gpx"),
      ("Tests/ReplayTests/Fixtures/valid-scenarios/stations.csv", "stations.csv"),
      ("Tests/ReplayTests/Fixtures/valid-scenarios/places.geojson", "places.geojson"),
      ("Scenarios/arrival-alarm/stations.geojson", "stations.geojson"),
      ("Scenarios/station-finder/datasets", "datasets"),
    ]
    for (from, to) in copies {
      try? FileManager.default.copyItem(
        at: repository.appendingPathComponent(from), to: scratch.appendingPathComponent(to))
    }
  }()

  /// Writes `data` to `name` in the scratch folder (creating its folders) and returns its path.
  public static func write(_ data: Data, to name: String) -> String {
    let url = scratch.appendingPathComponent(name)
    try? FileManager.default.createDirectory(
      at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
    try! data.write(to: url)
    return url.path
  }
}

extension Fuzz {
  /// A trace reader's run: `geosim trace inspect` on the bytes as standard input; then, for a
  /// trace that reads, `trace convert` to one of the writers (chosen by the input's length),
  /// every track made a trajectory as a replay makes it (its times become simulated time), and,
  /// for one input in eight (by length: assembling a world costs some 25 ms here), `validate`
  /// of a scenario that replays it.
  public static func trace(_ data: Data, format: String, fileExtension: String) {
    let read = ["-", "--format", format]
    guard geosim(["trace", "inspect"] + read, input: data) == 0 else { return }
    let writers = ["gpx", "geojson", "csv", "xcode"]
    geosim(
      ["trace", "convert"] + read + ["--to", writers[data.count % writers.count]], input: data)
    if let trace = try? Trace(data: data, format: TraceFormat(rawValue: format)) {
      for track in trace.tracks { _ = try? track.trajectorySamples(startingAt: .zero) }
    }
    guard data.count % 8 == 0 else { return }
    let file = "trace.\(fileExtension)"
    _ = write(data, to: file)
    let scenario = write(
      Data(
        """
        {"format": "geosim-scenario/1", "name": "fuzz", "start": "2026-04-01T08:00:00Z",
         "duration": 60, "app": {"name": "PinDrop", "variant": "corrected"},
         "trace": {"file": "\(file)", "allowSkippedPoints": true}}
        """.utf8), to: "trace.scenario.json")
    geosim(["validate", scenario])
  }
}
