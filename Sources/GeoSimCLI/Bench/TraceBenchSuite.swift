import Foundation
import Replay
import SimKernel
import Traces

/// `geosim bench trace`: importing a 1,000,000-point GPX file (target ≤ 2 s and ≤ 500 MB peak
/// memory in a release build).
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
    bench.measure(
      "trace.gpx.\(label).import", baseline: "trace.gpx.\(label).scan", maximumIterations: 1,
      unitsPerOperation: count, unit: "ns/point"
    ) { n in
      for _ in 0..<n {
        let points = (try? Trace.read(contentsOf: path))?.pointCount ?? 0
        precondition(points == count, "the import read \(points) points")
      }
    }
    let perPoint = bench.results[bench.results.count - 1].median
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
      bench.record("trace.gpx.\(label).peak-rss.after", unit: "MB", value: after)
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
    guard FileManager.default.createFile(atPath: path, contents: nil),
      let handle = FileHandle(forWritingAtPath: path)
    else {
      throw UsageError("geosim bench trace: cannot create \(path)")
    }
    defer { try? handle.close() }
    var random = SplitMix64(seed: 6)
    var chunk = #"<?xml version="1.0" encoding="UTF-8"?>"# + "\n"
    chunk += #"<gpx version="1.1" creator="GeoSim" xmlns="http://www.topografix.com/GPX/1/1">"#
    chunk += "\n<trk><name>bench</name><trkseg>\n"
    // Ten-millionths of a degree, so that every number is written exactly.
    var latitude = 356_812_000
    var longitude = 1_397_671_000
    var elevation = 400
    let start = 1_709_280_000.0
    for i in 0..<points {
      latitude += Int(random.next() % 201) - 100
      longitude += Int(random.next() % 201) - 100
      elevation += Int(random.next() % 3) - 1
      chunk += "<trkpt lat=\"" + fixed(latitude, 7) + "\" lon=\"" + fixed(longitude, 7) + "\">"
      chunk += "<ele>" + fixed(elevation, 1) + "</ele><time>"
      chunk += ByteScan.isoText(start + Double(i)) + "</time></trkpt>\n"
      if chunk.utf8.count >= 1 << 20 {
        handle.write(Data(chunk.utf8))
        chunk = ""
      }
    }
    chunk += "</trkseg></trk>\n</gpx>\n"
    handle.write(Data(chunk.utf8))
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
