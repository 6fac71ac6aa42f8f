import Foundation
import Geo
import JSON
import Traces

/// `geosim trace inspect|convert|synth`: read, convert and synthesize movement traces.
///
/// A file that cannot be read exits 2 with one line naming the file, the line (and column) and
/// what was expected; what a partly readable file lost is listed on standard error, one line per
/// issue, and the command still succeeds.
enum TraceCommand {
  static let usage = """
    geosim trace inspect FILE [--json] [--format F]
      what was read: format, tracks, points, time span, length, speeds and gaps; --json prints the
      points as a JSON array instead. F: gpx, geojson, csv, nmea, sumo (default: from content).
    geosim trace convert FILE --to gpx|geojson|csv [--out F] [--format F] [--speed S]
      writes the trace in another format (to standard output without --out); --speed gives
      points without times times from a constant speed (walk, run, bike, car, train or m/s).
    geosim trace synth (--waypoints "lat,lon[,dwell][,teleport];..." | --from-file F)
                       [--speed walk|run|bike|car|train|M] [--interval S] [--start ISO8601]
                       [--to gpx|geojson|csv] [--out F]
      a trace through the waypoints with realistic acceleration, sampled every S seconds
      (default 1, at least 0.01; at most 10 million points), starting at rest; dwell is in
      seconds; a teleport jumps in one interval.

    """

  static func run(_ args: inout Arguments, _ terminal: Terminal) throws -> Int32 {
    guard let action = args.positional() else {
      throw UsageError("geosim trace: missing action; expected inspect, convert or synth")
    }
    var sub = Arguments(args.remaining, command: "geosim trace \(action)")
    do {
      switch action {
      case "inspect": return try inspect(&sub, terminal)
      case "convert": return try convert(&sub, terminal)
      case "synth": return try synth(&sub, terminal)
      default:
        throw UsageError(
          "geosim trace: unknown action '\(action)'; expected inspect, convert or synth")
      }
    } catch let error as TraceError {
      terminal.writeError("geosim trace \(action): \(ToolMessages.describe(error))\n")
      return 2
    }
  }

  private static func format(_ text: String?, option: String, writable: Bool = false) throws
    -> TraceFormat?
  {
    guard let text else { return nil }
    let allowed: [TraceFormat] = writable ? [.gpx, .geojson, .csv] : TraceFormat.allCases
    guard let format = TraceFormat(rawValue: text.lowercased()), allowed.contains(format) else {
      throw UsageError(
        "geosim trace: \(option) '\(text)': expected one of "
          + allowed.map(\.rawValue).joined(separator: ", "))
    }
    return format
  }

  private static func read(_ args: inout Arguments, _ terminal: Terminal) throws -> Trace {
    let forced = try format(try args.option("--format"), option: "--format")
    guard let path = args.positional() else {
      throw UsageError("\(args.command): missing FILE")
    }
    try args.finish()
    let trace = try Trace.read(contentsOf: path, format: forced)
    for issue in trace.skipped {
      terminal.writeError(path + (issue.line.map { ":\($0)" } ?? "") + ": " + issue.message + "\n")
    }
    return trace
  }

  private static func output(
    _ text: String, to path: String?, _ terminal: Terminal
  ) throws {
    guard let path else {
      terminal.write(text)
      return
    }
    do {
      try Data(text.utf8).write(to: URL(fileURLWithPath: path))
    } catch {
      throw TraceError(.unreadable, file: path, "cannot be written: \(error.localizedDescription)")
    }
  }

  static func inspect(_ args: inout Arguments, _ terminal: Terminal) throws -> Int32 {
    let json = args.flag("--json")
    let trace = try read(&args, terminal)
    terminal.write(json ? pointsJSON(trace) : summary(trace))
    return 0
  }

  static func convert(_ args: inout Arguments, _ terminal: Terminal) throws -> Int32 {
    guard let target = try format(try args.option("--to"), option: "--to", writable: true) else {
      throw UsageError("geosim trace convert: missing --to gpx|geojson|csv")
    }
    let out = try args.option("--out")
    let speed = try args.option("--speed").map { try SpeedProfile(parsing: $0) }
    var trace = try read(&args, terminal)
    if let speed { trace = try trace.timed(speed: speed.speed) }
    try output(try trace.text(in: target), to: out, terminal)
    return 0
  }

  static func synth(_ args: inout Arguments, _ terminal: Terminal) throws -> Int32 {
    let inline = try args.option("--waypoints")
    let file = try args.option("--from-file")
    let profile = try SpeedProfile(parsing: try args.option("--speed") ?? "walk")
    let intervalText = try args.option("--interval") ?? "1"
    guard let interval = Double(intervalText), interval >= TraceSynthesis.minimumInterval,
      interval.isFinite
    else {
      throw UsageError(
        "geosim trace synth: --interval '\(intervalText)': expected a number of seconds of at "
          + "least \(TraceSynthesis.minimumInterval)")
    }
    var start = 0.0
    if let text = try args.option("--start") {
      guard let seconds = ISO8601DateFormatter().date(from: text)?.timeIntervalSince1970 else {
        throw UsageError(
          "geosim trace synth: --start '\(text)': expected an ISO 8601 time like "
            + "2024-03-01T08:00:00Z")
      }
      start = seconds
    }
    let target = try format(try args.option("--to"), option: "--to", writable: true) ?? .gpx
    let out = try args.option("--out")
    try args.finish()
    let waypoints: [Waypoint]
    switch (inline, file) {
    case (let text?, nil):
      waypoints = try Waypoint.list(parsing: text)
    case (nil, let path?):
      waypoints = try fileWaypoints(path, terminal)
    default:
      throw UsageError("geosim trace synth: expected exactly one of --waypoints and --from-file")
    }
    let trace = try TraceSynthesis.trace(
      through: waypoints, profile: profile, interval: interval, start: start, name: "synthesized")
    try output(try trace.text(in: target), to: out, terminal)
    return 0
  }

  /// Waypoints from a file of `lat,lon[,dwell][,teleport]` lines, or from any trace file's
  /// points.
  private static func fileWaypoints(_ path: String, _ terminal: Terminal) throws -> [Waypoint] {
    guard let data = FileManager.default.contents(atPath: path) else {
      throw TraceError(.unreadable, file: path, "cannot be read")
    }
    if let list = try? Waypoint.list(parsing: String(decoding: data, as: UTF8.self)),
      !list.isEmpty
    {
      return list
    }
    let trace = try Trace(data: data, file: path)
    for issue in trace.skipped {
      terminal.writeError(path + (issue.line.map { ":\($0)" } ?? "") + ": " + issue.message + "\n")
    }
    return trace.tracks.flatMap(\.points).map { Waypoint(coordinate: $0.coordinate) }
  }

  /// The points as a JSON array: `time` (seconds since the epoch), `latitude`, `longitude`, and
  /// `elevation`, `speed`, `course`, `accuracy` where present; `track` (0-based) when the trace
  /// has several tracks.
  static func pointsJSON(_ trace: Trace) -> String {
    var out = "["
    var first = true
    for (index, track) in trace.tracks.enumerated() {
      for p in track.points {
        var object: [String: JSONValue] = [
          "latitude": .number(p.coordinate.latitude), "longitude": .number(p.coordinate.longitude),
        ]
        if let t = p.time { object["time"] = .number(t) }
        if let e = p.elevation { object["elevation"] = .number(e) }
        if let s = p.speed { object["speed"] = .number(s) }
        if let c = p.course { object["course"] = .number(c) }
        if let a = p.horizontalAccuracy { object["accuracy"] = .number(a) }
        if trace.tracks.count > 1 { object["track"] = .number(Double(index)) }
        out += first ? "\n" : ",\n"
        first = false
        JSONValue.object(object).write(to: &out)
      }
    }
    return out + "\n]\n"
  }

  /// A few significant digits, for the summary.
  private static func short(_ x: Double) -> String {
    String(format: abs(x) >= 100 ? "%.0f" : "%.1f", x)
  }

  /// What was read, track by track.
  static func summary(_ trace: Trace) -> String {
    var out = "format: \(trace.format.rawValue)\n"
    if let name = trace.name { out += "name: \(name)\n" }
    out += "tracks: \(trace.tracks.count)\npoints: \(trace.pointCount)\n"
    if !trace.skipped.isEmpty { out += "skipped or noted: \(trace.skipped.count)\n" }
    for (index, track) in trace.tracks.enumerated() {
      out += "track \(index + 1)" + (track.name.map { " '\($0)'" } ?? "") + ": "
      out += "\(track.points.count) point\(track.points.count == 1 ? "" : "s")"
      var length = 0.0
      var timedLength = 0.0
      var fastest = 0.0
      var largestGap = 0.0
      var gaps = 0
      for (a, b) in zip(track.points, track.points.dropFirst()) {
        let d = Geodesic.wgs84.inverse(from: a.coordinate, to: b.coordinate).distance
        length += d
        if let ta = a.time, let tb = b.time, tb > ta {
          timedLength += d
          fastest = max(fastest, d / (tb - ta))
          largestGap = max(largestGap, tb - ta)
          if tb - ta > 10 { gaps += 1 }
        }
      }
      out += ", length \(short(length)) m"
      let times = track.points.compactMap(\.time)
      if let first = times.min(), let last = times.max() {
        let span = last - first
        out += ", \(isoText(first)) to \(isoText(last)) (\(short(span)) s)"
        if span > 0 {
          out += ", mean speed \(short(timedLength / span)) m/s, fastest step \(short(fastest)) m/s"
          out += ", largest gap \(short(largestGap)) s, \(gaps) gap\(gaps == 1 ? "" : "s") > 10 s"
        }
        if times.count < track.points.count {
          out += ", \(track.points.count - times.count) without time"
        }
      } else {
        out += ", no times"
      }
      out += "\n"
    }
    return out
  }

  private static func isoText(_ seconds: Double) -> String { ByteScan.isoText(seconds) }
}
