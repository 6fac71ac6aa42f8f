import ArgumentParser
import Errors
import Foundation
import Geo
import JSON
import Traces

/// `geosim trace inspect|convert|synth`: read, convert and synthesize movement traces.
///
/// A file that cannot be read exits 2 with one line naming the file, the line (and column) and
/// what was expected; what a partly readable file lost is listed on standard error, one line per
/// issue, and the command still succeeds.
struct TraceCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "trace",
    abstract: "Inspect, convert and synthesize movement traces.",
    subcommands: [TraceInspectCommand.self, TraceConvertCommand.self, TraceSynthCommand.self])
}

extension TraceFormat: ExpressibleByArgument {
  /// The format named `argument` (`gpx`, `GeoJSON`, …).
  public init?(argument: String) { self.init(rawValue: argument.lowercased()) }
}

/// The formats traces can be written in.
enum WritableTraceFormat: String, ExpressibleByArgument, CaseIterable {
  /// GPX 1.1 tracks; GeoJSON; CSV; Xcode's waypoint GPX (one track, for Xcode's location
  /// simulation).
  case gpx, geojson, csv, xcode

  init?(argument: String) { self.init(rawValue: argument.lowercased()) }

  /// The trace written in this format.
  func text(_ trace: Trace) throws -> String {
    switch self {
    case .gpx: try trace.text(in: .gpx)
    case .geojson: try trace.text(in: .geojson)
    case .csv: try trace.text(in: .csv)
    case .xcode: try trace.xcodeGPXText()
    }
  }
}

/// The trace file a command reads and how.
struct TraceInput: ParsableArguments {
  @Argument(
    help: ArgumentHelp(
      "The trace file (GPX, GeoJSON, CSV, NMEA or SUMO FCD), or - for standard input.",
      valueName: "file"))
  var file: String

  @Option(help: "The file's format (default: detected from its content).")
  var format: TraceFormat?

  @Option(
    help: ArgumentHelp(
      "How a GPX file's top-level waypoints are read: automatic (a track when the file has no "
        + "track or route, else left out), track (always a track) or ignored.",
      valueName: "how"))
  var gpxWaypoints: GPXWaypoints = .automatic

  /// Reads the trace, listing what it lost on standard error.
  func read(_ tool: ToolContext) throws -> Trace {
    let trace =
      file == "-"
      ? try Trace(
        data: tool.terminal.readAll(), file: "<stdin>", format: format, gpxWaypoints: gpxWaypoints)
      : try Trace.read(contentsOf: file, format: format, gpxWaypoints: gpxWaypoints)
    TraceCommand.listSkipped(trace, file: file == "-" ? "<stdin>" : file, tool)
    return trace
  }
}

/// Where a command writes the trace it makes.
struct TraceOutput: ParsableArguments {
  @Option(
    help: ArgumentHelp(
      "The file to write (default, or -: standard output).", valueName: "file"))
  var out: String?

  func write(_ text: String, _ tool: ToolContext) throws {
    guard let out, out != "-" else {
      tool.terminal.write(text)
      return
    }
    do {
      try Data(text.utf8).write(to: URL(fileURLWithPath: out))
    } catch {
      throw TraceError(.unreadable, file: out, "cannot be written: \(error.localizedDescription)")
    }
  }
}

/// `geosim trace inspect`.
struct TraceInspectCommand: ToolCommand {
  static let path = ["trace", "inspect"]
  static let configuration = CommandConfiguration(
    commandName: "inspect",
    abstract: "What a trace holds: format, tracks, points, time span, length, speeds and gaps.")

  @OptionGroup var input: TraceInput

  @Flag(help: "Print the points as a JSON array instead.")
  var json = false

  func run(in tool: ToolContext) throws -> Int32 {
    try TraceCommand.reportingTraceErrors(tool, "inspect") {
      let trace = try input.read(tool)
      tool.terminal.write(json ? TraceCommand.pointsJSON(trace) : TraceCommand.summary(trace))
    }
  }
}

/// `geosim trace convert`.
struct TraceConvertCommand: ToolCommand {
  static let path = ["trace", "convert"]
  static let configuration = CommandConfiguration(
    commandName: "convert", abstract: "Write a trace in another format.")

  @OptionGroup var input: TraceInput

  @Option(help: "The format to write (xcode: Xcode's waypoint GPX, for one track).")
  var to: WritableTraceFormat

  @OptionGroup var output: TraceOutput

  @Option(
    help: ArgumentHelp(
      "Give points without times times from a constant speed (walk, run, bike, car, train or "
        + "m/s).", valueName: "speed"))
  var speed: String?

  func run(in tool: ToolContext) throws -> Int32 {
    try TraceCommand.reportingTraceErrors(tool, "convert") {
      let speed = try speed.map(TraceCommand.speedProfile)
      var trace = try input.read(tool)
      if let speed { trace = try trace.timed(speed: speed.speed) }
      try output.write(try to.text(trace), tool)
    }
  }
}

/// `geosim trace synth`.
struct TraceSynthCommand: ToolCommand {
  static let path = ["trace", "synth"]
  static let configuration = CommandConfiguration(
    commandName: "synth",
    abstract: "A trace through waypoints with realistic acceleration, starting at rest.",
    discussion: """
      Samples every --interval seconds (at least \(TraceSynthesis.minimumInterval); at most 10 \
      million points). A waypoint is lat,lon[,dwell][,teleport]: dwell is in seconds; a \
      teleport jumps in one interval.
      """)

  @Option(
    help: ArgumentHelp(
      "The waypoints: \"lat,lon[,dwell][,teleport];...\".", valueName: "waypoints"))
  var waypoints: String?

  @Option(
    help: ArgumentHelp(
      "Waypoints from a file of lat,lon[,dwell][,teleport] lines or any trace file's points; - "
        + "for standard input.", valueName: "file"))
  var fromFile: String?

  @Option(help: "walk, run, bike, car, train or a speed in m/s.")
  var speed = "walk"

  @Option(
    parsing: .unconditional, help: ArgumentHelp("Seconds between points.", valueName: "seconds"))
  var interval = 1.0

  @Option(
    help: ArgumentHelp(
      "The first point's time, ISO 8601 (default 2000-01-01T00:00:00Z).", valueName: "time"))
  var start: String?

  /// The first point's time without `--start`: 2000-01-01T00:00:00Z.
  static let defaultStart = 946_684_800.0

  @Option(help: "The format to write (xcode: Xcode's waypoint GPX).")
  var to: WritableTraceFormat = .gpx

  @OptionGroup var output: TraceOutput

  func validate() throws {
    guard interval.isFinite, interval >= TraceSynthesis.minimumInterval else {
      throw ValidationError(
        "--interval: expected a number of seconds of at least \(TraceSynthesis.minimumInterval)")
    }
    guard (waypoints == nil) != (fromFile == nil) else {
      throw ValidationError("expected exactly one of --waypoints and --from-file")
    }
  }

  func run(in tool: ToolContext) throws -> Int32 {
    try TraceCommand.reportingTraceErrors(tool, "synth") {
      let profile = try TraceCommand.speedProfile(speed)
      // Not 1970: some tools (gpsbabel) read a time of 0 as no time at all.
      var startSeconds = TraceSynthCommand.defaultStart
      if let start {
        guard let seconds = ISO8601DateFormatter().date(from: start)?.timeIntervalSince1970
        else {
          throw UsageError(
            "--start '\(start)': expected an ISO 8601 time like 2024-03-01T08:00:00Z")
        }
        startSeconds = seconds
      }
      let list: [Waypoint]
      if let waypoints {
        list = try Waypoint.list(parsing: waypoints)
      } else {
        list = try TraceCommand.fileWaypoints(fromFile ?? "-", tool)
      }
      let trace = try TraceSynthesis.trace(
        through: list, profile: profile, interval: interval, start: startSeconds,
        name: "synthesized")
      try output.write(try to.text(trace), tool)
    }
  }
}

extension TraceCommand {
  /// The `--speed` value, or a usage mistake saying what it can be.
  static func speedProfile(_ text: String) throws -> SpeedProfile {
    do {
      return try SpeedProfile(parsing: text)
    } catch let error as TraceError {
      throw UsageError("--speed: \(error.reason)")
    }
  }

  /// Runs `body`, printing a ``TraceError`` as one line and returning 2 for it.
  static func reportingTraceErrors(
    _ tool: ToolContext, _ action: String, _ body: () throws -> Void
  ) throws -> Int32 {
    do {
      try body()
      return 0
    } catch let error as TraceError {
      tool.terminal.writeError("\(tool.name) trace \(action): \(ToolMessages.describe(error))\n")
      return 2
    }
  }

  static func listSkipped(_ trace: Trace, file: String, _ tool: ToolContext) {
    for issue in trace.skipped {
      tool.terminal.writeError(
        file + (issue.line.map { ":\($0)" } ?? "") + ": " + issue.message + "\n")
    }
  }

  /// Waypoints from a file of `lat,lon[,dwell][,teleport]` lines, or from any trace file's
  /// points.
  static func fileWaypoints(_ path: String, _ tool: ToolContext) throws -> [Waypoint] {
    let data: Data
    if path == "-" {
      data = tool.terminal.readAll()
    } else {
      do {
        data = Data(try readFileContents(atPath: path))
      } catch {
        throw TraceError(.unreadable, file: path, error.reason)
      }
    }
    let file = path == "-" ? "<stdin>" : path
    if let list = try? Waypoint.list(parsing: String(decoding: data, as: UTF8.self)),
      !list.isEmpty
    {
      return list
    }
    let trace = try Trace(data: data, file: file)
    listSkipped(trace, file: file, tool)
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

extension GPXWaypoints: ExpressibleByArgument {}
