import Foundation
import Testing
import Traces

@testable import GeoSimCLI

/// A fresh directory for one test's files.
private func scratchDirectory() throws -> URL {
  try scratchFolder("trace")
}

private let gpx = """
  <?xml version="1.0"?>
  <gpx version="1.1" xmlns="http://www.topografix.com/GPX/1/1">
    <trk><name>Walk</name><trkseg>
      <trkpt lat="51.5007" lon="-0.1246"><ele>10</ele><time>2020-06-01T12:00:00Z</time></trkpt>
      <trkpt lat="51.5010" lon="-0.1240"><time>2020-06-01T12:00:30Z</time></trkpt>
      <trkpt lat="x" lon="-0.1240"/>
      <trkpt lat="51.5020" lon="-0.1230"><time>2020-06-01T12:01:40Z</time></trkpt>
    </trkseg></trk>
  </gpx>

  """

@Suite struct TraceCommandTests {
  @Test func inspectSummarisesTheTraceAndListsWhatWasSkipped() throws {
    let dir = try scratchDirectory()
    defer { try? FileManager.default.removeItem(at: dir) }
    let file = dir.appendingPathComponent("walk.gpx").path
    try gpx.write(toFile: file, atomically: true, encoding: .utf8)
    let result = run(["trace", "inspect", file])
    #expect(result.code == 0)
    #expect(result.out.contains("format: gpx\n"))
    #expect(result.out.contains("tracks: 1\npoints: 3\n"))
    #expect(result.out.contains("track 1 'Walk': 3 points"))
    #expect(result.out.contains("2020-06-01T12:00:00Z to 2020-06-01T12:01:40Z (100 s)"))
    #expect(result.out.contains("largest gap 70.0 s, 2 gaps > 10 s"))
    #expect(
      result.err
        == "\(file):6: skipped a point: expected numeric lat and lon attributes in range\n")
  }

  @Test func theUserChoosesWhetherGPXWaypointsBesideATrackAreMovement() throws {
    let dir = try scratchDirectory()
    let file = dir.appendingPathComponent("poi.gpx").path
    try
      #"<gpx version="1.1"><wpt lat="35.0" lon="139.0"/><trk><trkseg><trkpt lat="35.1" lon="139.1"/></trkseg></trk></gpx>"#
      .write(toFile: file, atomically: true, encoding: .utf8)
    let automatic = run(["trace", "inspect", file])
    #expect(automatic.out.contains("tracks: 1\n"))
    #expect(automatic.err.contains("left out 1 waypoint(s)"))
    let asTrack = run(["trace", "inspect", file, "--gpx-waypoints", "track"])
    #expect(asTrack.code == 0)
    #expect(asTrack.out.contains("tracks: 2\n") && asTrack.err.isEmpty)
    let wrong = run(["trace", "inspect", file, "--gpx-waypoints", "all"])
    #expect(wrong.code == 2)
    #expect(wrong.err.contains("--gpx-waypoints"))
  }

  @Test func inspectJSONPrintsOnePointPerLineWithWhatTheFileHas() throws {
    let dir = try scratchDirectory()
    defer { try? FileManager.default.removeItem(at: dir) }
    let file = dir.appendingPathComponent("walk.gpx").path
    try gpx.write(toFile: file, atomically: true, encoding: .utf8)
    let result = run(["trace", "inspect", file, "--json"])
    #expect(result.code == 0)
    let lines = result.out.split(separator: "\n")
    #expect(lines.count == 5)
    #expect(
      lines[1] == #"{"elevation":10,"latitude":51.5007,"longitude":-0.1246,"time":1591012800},"#)
    #expect(lines[2] == #"{"latitude":51.501,"longitude":-0.124,"time":1591012830},"#)
    let parsed = try JSONSerialization.jsonObject(with: Data(result.out.utf8)) as? [Any]
    #expect(parsed?.count == 3)
  }

  @Test func unreadableFileExitsTwoWithOneLineNamingFileLineColumnAndExpectation() throws {
    let dir = try scratchDirectory()
    defer { try? FileManager.default.removeItem(at: dir) }
    let file = dir.appendingPathComponent("bad.gpx").path
    try "<gpx>\n  <trk>\n</gpx>\n".write(toFile: file, atomically: true, encoding: .utf8)
    let result = run(["trace", "inspect", file])
    #expect(result.code == 2)
    #expect(
      result.err
        == "geosim trace inspect: \(file):3:1: expected </trk> to close the element opened on "
        + "line 2, found </gpx>\n")
    #expect(result.out.isEmpty)
  }

  @Test func anUndetectableFormatNamesTheFormatOption() throws {
    let dir = try scratchDirectory()
    defer { try? FileManager.default.removeItem(at: dir) }
    let file = dir.appendingPathComponent("notes.txt").path
    try "hello\n".write(toFile: file, atomically: true, encoding: .utf8)
    let result = run(["trace", "inspect", file])
    #expect(result.code == 2)
    #expect(
      result.err
        == "geosim trace inspect: \(file):1: expected GPX, GeoJSON, NMEA, SUMO FCD or CSV with a "
        + "lat/lon header; pass the format explicitly with --format\n")
  }

  @Test func missingFileExitsTwoNamingIt() {
    let result = run(["trace", "convert", "/nonexistent/x.gpx", "--to", "csv"])
    #expect(result.code == 2)
    #expect(result.err == "geosim trace convert: /nonexistent/x.gpx: no such file\n")
  }

  /// A folder, a FIFO: said in plain words, not as Foundation's error domain and code.
  @Test func aSpecialFileSaysWhatItIs() throws {
    let folder = run(["trace", "inspect", "/tmp"])
    #expect(folder.code == 2)
    #expect(folder.err == "geosim trace inspect: /tmp: is a folder, expected a file\n")
    #if os(Linux)
      let fifo = FileManager.default.temporaryDirectory.appendingPathComponent(
        "geosim-fifo-\(UUID().uuidString)")
      #expect(mkfifo(fifo.path, 0o600) == 0)
      defer { try? FileManager.default.removeItem(at: fifo) }
      let writer = Thread {
        let handle = FileHandle(forWritingAtPath: fifo.path)
        handle?.write(Data("lat,lon\n35,139\n35.001,139\n".utf8))
        try? handle?.close()
      }
      writer.start()
      let piped = run(["trace", "inspect", fifo.path])
      #expect(piped.code == 0, "\(piped.err)")
      #expect(piped.out.contains("points: 2"))
    #endif
  }

  @Test func convertRoundTripsThroughEveryWritableFormat() throws {
    let dir = try scratchDirectory()
    defer { try? FileManager.default.removeItem(at: dir) }
    var file = dir.appendingPathComponent("walk.gpx").path
    try gpx.write(toFile: file, atomically: true, encoding: .utf8)
    let original = try Trace.read(contentsOf: file)
    for (index, format) in ["geojson", "csv", "gpx"].enumerated() {
      let next = dir.appendingPathComponent("step\(index).\(format)").path
      let result = run(["trace", "convert", file, "--to", format, "--out", next])
      #expect(result.code == 0)
      #expect(result.out.isEmpty)
      file = next
    }
    let back = try Trace.read(contentsOf: file)
    #expect(back.tracks.map(\.points) == original.tracks.map(\.points))
    #expect(back.tracks[0].name == "Walk")
  }

  @Test func convertWithSpeedGivesUntimedPointsTimes() throws {
    let dir = try scratchDirectory()
    defer { try? FileManager.default.removeItem(at: dir) }
    let file = dir.appendingPathComponent("route.csv").path
    try "lat,lon\n0,0\n0,0.001\n".write(toFile: file, atomically: true, encoding: .utf8)
    let result = run(["trace", "convert", file, "--to", "csv", "--speed", "walk"])
    #expect(result.code == 0)
    #expect(result.out.contains(",1970-01-01T00:00:00Z,0,0,"))
    #expect(result.out.contains(",1970-01-01T00:01:19.514Z,0,0.001,"))
  }

  @Test func synthWritesARealisticTraceThroughTheWaypoints() throws {
    let result = run([
      "trace", "synth", "--waypoints", "35.6812,139.7671;35.6850,139.7671,10", "--speed", "bike",
      "--interval", "2", "--start", "2024-03-01T08:00:00Z", "--to", "geojson",
    ])
    #expect(result.code == 0)
    let trace = try Trace(data: Data(result.out.utf8))
    let points = trace.tracks[0].points
    #expect(points.first?.time == 1_709_280_000)
    #expect(points.first?.speed == 0)
    #expect(points.map { $0.speed ?? 0 }.max() == 5)
    #expect(points.last?.coordinate.latitude == 35.685)
  }

  @Test func synthReadsWaypointsFromAFile() throws {
    let dir = try scratchDirectory()
    defer { try? FileManager.default.removeItem(at: dir) }
    let file = dir.appendingPathComponent("stops.txt").path
    try "# stops\n35.6812,139.7671\n35.6850,139.7671,0,teleport\n".write(
      toFile: file, atomically: true, encoding: .utf8)
    let result = run(["trace", "synth", "--from-file", file, "--to", "csv"])
    #expect(result.code == 0)
    #expect(result.out.split(separator: "\n").count == 3)
  }

  @Test(arguments: [
    (["trace"], "geosim trace: expected a subcommand"),
    (["trace", "frob"], "Error: Unexpected argument 'frob'"),
    (["trace", "convert", "x.gpx"], "Error: Missing expected argument '--to <to>'"),
    (
      ["trace", "convert", "x.gpx", "--to", "nmea"],
      "Error: The value 'nmea' is invalid for '--to <to>'. Please provide one of 'gpx', 'geojson', "
        + "'csv' or 'xcode'."
    ),
    (["trace", "inspect"], "Error: Missing expected argument '<file>'"),
    (["trace", "synth"], "Error: expected exactly one of --waypoints and --from-file"),
    (
      ["trace", "synth", "--waypoints", "1,2;3,4", "--speed", "warp"],
      "Error: --speed: speed 'warp': expected walk, run, bike, car, train or a positive number of "
        + "m/s"
    ),
    (
      ["trace", "synth", "--waypoints", "1,2;3,4", "--interval", "0"],
      "Error: --interval: expected a number of seconds of at least 0.01"
    ),
    (
      ["trace", "synth", "--waypoints", "1,2;3,4", "--out", "--to", "csv"],
      "Error: Missing value for '--out <file>'"
    ),
  ])
  func usageErrorsExitTwoNamingTheMistakeFirst(arguments: [String], message: String) {
    let result = run(arguments)
    #expect(result.code == 2)
    #expect(result.out.isEmpty)
    #expect(result.err.split(separator: "\n").first.map(String.init) == message, "\(result.err)")
  }
}

@Suite struct TraceBenchTests {
  @Test func quickTraceBenchReportsImportAgainstTheScanAndPeakMemory() {
    let result = run(["bench", "trace", "--quick", "--json"])
    #expect(result.code == 0)
    for name in [
      "trace.gpx.10k.scan", "trace.gpx.10k.import", "trace.gpx.10k.import.total",
      "trace.gpx.10k.peak-rss.after",
    ] {
      #expect(result.out.contains(#""name":"\#(name)""#))
    }
    #expect(result.out.contains(#""baseline":"trace.gpx.10k.scan""#))
    #expect(result.out.contains(#""unit":"ns/point""#))
  }

  @Test func generatedFileIsDeterministicAndCountedByTheScan() throws {
    let dir = FileManager.default.temporaryDirectory.appendingPathComponent(
      "geosim-trace-bench-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: dir) }
    let a = dir.appendingPathComponent("a.gpx").path
    let b = dir.appendingPathComponent("b.gpx").path
    try TraceBenchSuite.writeGPX(points: 1_000, to: a)
    try TraceBenchSuite.writeGPX(points: 1_000, to: b)
    let data = try Data(contentsOf: URL(fileURLWithPath: a))
    #expect(data == (try Data(contentsOf: URL(fileURLWithPath: b))))
    #expect(TraceBenchSuite.countTrackPoints(data) == 1_000)
    #expect(try Trace.read(contentsOf: a).pointCount == 1_000)
  }
}

/// A synthesized trace starts in 2000 unless told otherwise: a time of 0 reads as "no time" in
/// some tools (gpsbabel).
@Test func aSynthesizedTraceStartsIn2000ByDefault() {
  let result = run(["trace", "synth", "--waypoints", "35,139;35.001,139", "--to", "csv"])
  #expect(result.code == 0)
  #expect(
    result.out.split(separator: "\n").dropFirst().first?.hasPrefix(
      "synthesized,2000-01-01T00:00:00Z,") == true)
}
