import Foundation
import Replay
import SimKernel
import Traces

/// `geosim bench trace`: importing a 1,000,000-point GPX file (target ≤ 2 s and ≤ 500 MB peak
/// memory in a release build), and the same points as CSV (target: per point no slower than
/// the GPX import, its baseline).
///
/// The file is generated once per run in a fresh temporary directory (a seeded random walk near
/// Tokyo with elevation and one-second times, 99 bytes a point) and deleted afterwards.
/// Rows, per point: a plain byte scan counting `<trkpt` over the same mapped file (the floor any
/// reader pays to touch the bytes) and the full import; then the import's total time (median) and the
/// process's peak resident memory (`VmHWM` in /proc/self/status) before and after importing.
/// The file is written in chunks, so the peak before importing is the tool's own baseline.
/// Then, per point, the imported track converted into the trajectory a replay's phone follows.
/// `--quick` uses 10,000 points.
enum TraceBenchSuite {
  static func run(_ bench: inout Bench) throws {
    let count = bench.quick ? 10_000 : 1_000_000
    let label = count >= 1_000_000 ? "\(count / 1_000_000)M" : "\(count / 1_000)k"
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
      "geosim-bench-trace-\(ProcessInfo.processInfo.processIdentifier)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    let path = directory.appendingPathComponent("trace-\(label).gpx").path
    try writeGPX(points: count, to: path)
    let before = peakResidentMegabytes()

    let data = try Data(contentsOf: URL(fileURLWithPath: path), options: .alwaysMapped)
    bench.measure(
      "trace.gpx.\(label).scan", maximumIterations: 1, unitsPerOperation: count, unit: "ns/point"
    ) { n in
      var found = 0
      for _ in 0..<n { found += countTrackPoints(data) }
      precondition(found == n * count, "the scan found \(found) points")
    }
    /// Times the import of the file at `file`, checking that it read every point.
    func measureImport(_ name: String, baseline: String, target: String, file: String) {
      bench.measure(
        name, baseline: baseline, target: target, maximumIterations: 1,
        unitsPerOperation: count,
        unit: "ns/point"
      ) { n in
        for _ in 0..<n {
          let points = (try? Trace.read(contentsOf: file))?.pointCount ?? 0
          precondition(points == count, "\(name): the import read \(points) points")
        }
      }
    }
    measureImport(
      "trace.gpx.\(label).import", baseline: "trace.gpx.\(label).scan",
      target: "≤ 2 µs (2 s for 1M points)", file: path)
    let perPoint = bench.results[bench.results.count - 1].median
    // The same points as CSV (lat, lon, ele, time): per point no slower than the GPX import.
    let csv = directory.appendingPathComponent("trace-\(label).csv").path
    try writeCSV(points: count, to: csv)
    measureImport(
      "trace.csv.\(label).import", baseline: "trace.gpx.\(label).import",
      target: "≤ 1× the GPX import", file: csv)
    bench.record(
      "trace.gpx.\(label).import.total", unit: "ms", value: perPoint * Double(count) / 1e6)
    // The conversion a replay makes before it runs: the track as the phone's true trajectory.
    if let track = (try? Trace.read(contentsOf: path))?.tracks.first {
      bench.measure(
        "trace.gpx.\(label).trajectory", maximumIterations: 1, unitsPerOperation: count,
        unit: "ns/point"
      ) { n in
        for _ in 0..<n {
          let samples = (try? track.trajectorySamples(startingAt: .zero))?.count ?? 0
          precondition(samples == count, "the conversion kept \(samples) samples")
        }
      }
    }
    if let before, let after = peakResidentMegabytes() {
      bench.record("trace.gpx.\(label).peak-rss.before", unit: "MB", value: before)
      bench.record(
        "trace.gpx.\(label).peak-rss.after", unit: "MB", value: after, target: "≤ 500 MB")
    }
  }

  /// Counts `<trkpt` in the bytes: the baseline every reader must beat at least in spirit.
  @inline(never)
  static func countTrackPoints(_ data: Data) -> Int {
    data.withUnsafeBytes { raw in
      let bytes = raw.bindMemory(to: UInt8.self)
      let pattern = Array("<trkpt".utf8)
      var found = 0
      var i = 0
      let end = bytes.count - pattern.count
      while i <= end {
        if bytes[i] == 0x3C, bytes[i + 1] == pattern[1], bytes[i + 2] == pattern[2],
          bytes[i + 3] == pattern[3], bytes[i + 4] == pattern[4], bytes[i + 5] == pattern[5]
        {
          found += 1
          i += 6
        } else {
          i += 1
        }
      }
      return found
    }
  }

  /// Writes a deterministic GPX 1.1 file of `points` track points, in chunks.
  static func writeGPX(points: Int, to path: String) throws {
    let head =
      #"<?xml version="1.0" encoding="UTF-8"?>"# + "\n"
      + #"<gpx version="1.1" creator="GeoSim" xmlns="http://www.topografix.com/GPX/1/1">"#
      + "\n<trk><name>bench</name><trkseg>\n"
    try write(points, to: path, head: head, tail: "</trkseg></trk>\n</gpx>\n") {
      "<trkpt lat=\"" + $0 + "\" lon=\"" + $1 + "\"><ele>" + $2 + "</ele><time>" + $3
        + "</time></trkpt>\n"
    }
  }

  /// Writes the points of ``writeGPX(points:to:)`` as CSV: `lat,lon,ele,time`, in chunks.
  static func writeCSV(points: Int, to path: String) throws {
    try write(points, to: path, head: "lat,lon,ele,time\n", tail: "") {
      $0 + "," + $1 + "," + $2 + "," + $3 + "\n"
    }
  }

  /// Writes `head`, each point as `row` gives it, then `tail`, a megabyte at a time.
  static func write(
    _ points: Int, to path: String, head: String, tail: String,
    row: (String, String, String, String) -> String
  ) throws {
    guard FileManager.default.createFile(atPath: path, contents: nil),
      let handle = FileHandle(forWritingAtPath: path)
    else {
      throw UsageError("geosim bench trace: cannot create \(path)")
    }
    defer { try? handle.close() }
    var chunk = head
    forEachPoint(points) { latitude, longitude, elevation, time in
      chunk += row(latitude, longitude, elevation, time)
      if chunk.utf8.count >= 1 << 20 {
        handle.write(Data(chunk.utf8))
        chunk = ""
      }
    }
    handle.write(Data((chunk + tail).utf8))
  }

  /// The bench's points as text: a seeded random walk near Tokyo, one second apart.
  static func forEachPoint(
    _ points: Int,
    _ body: (_ latitude: String, _ longitude: String, _ elevation: String, _ time: String) -> Void
  ) {
    var random = SplitMix64(seed: 6)
    // Ten-millionths of a degree, so that every number is written exactly.
    var latitude = 356_812_000
    var longitude = 1_397_671_000
    var elevation = 400
    let start = 1_709_280_000.0
    for i in 0..<points {
      latitude += Int(random.next() % 201) - 100
      longitude += Int(random.next() % 201) - 100
      elevation += Int(random.next() % 3) - 1
      body(
        fixed(latitude, 7), fixed(longitude, 7), fixed(elevation, 1),
        ByteScan.isoText(start + Double(i)))
    }
  }

  /// `value / 10^decimals` with exactly `decimals` digits after the point.
  private static func fixed(_ value: Int, _ decimals: Int) -> String {
    var scale = 1
    for _ in 0..<decimals { scale *= 10 }
    let sign = value < 0 ? "-" : ""
    let magnitude = abs(value)
    let fraction = String(magnitude % scale + scale).dropFirst()
    return sign + String(magnitude / scale) + "." + fraction
  }

  /// The process's peak resident set size so far in MB, from `VmHWM` in /proc/self/status, or
  /// `nil` where there is no such file.
  static func peakResidentMegabytes() -> Double? {
    guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else {
      return nil
    }
    for line in status.split(separator: "\n") where line.hasPrefix("VmHWM:") {
      let kilobytes = line.split(separator: " ").dropFirst().first.flatMap { Double($0) }
      return kilobytes.map { $0 / 1_024 }
    }
    return nil
  }
}
