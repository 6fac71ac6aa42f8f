import Geo

/// One recorded or synthesized position: a vertex of a ``TraceTrack``.
///
/// Only the coordinate is required. Every other field is `nil` when the file does not carry it,
/// so that a converter never invents data.
public struct TracePoint: Hashable, Sendable {
  /// Seconds since 1970-01-01T00:00:00Z, or `nil` when the file gives no time.
  public var time: Double?
  /// Where the point is.
  public var coordinate: Coordinate
  /// Metres above the WGS84 ellipsoid or sea level, as the file has it.
  public var elevation: Double?
  /// Metres per second over the ground.
  public var speed: Double?
  /// Degrees clockwise from true north in [0, 360).
  public var course: Double?
  /// Horizontal accuracy (radius of uncertainty) in metres.
  public var horizontalAccuracy: Double?

  /// Creates a point.
  public init(
    time: Double? = nil, coordinate: Coordinate, elevation: Double? = nil, speed: Double? = nil,
    course: Double? = nil, horizontalAccuracy: Double? = nil
  ) {
    self.time = time
    self.coordinate = coordinate
    self.elevation = elevation
    self.speed = speed
    self.course = course
    self.horizontalAccuracy = horizontalAccuracy
  }
}

extension TracePoint {
  /// The times a point may carry, in seconds since 1970-01-01T00:00:00Z: from
  /// 0000-01-01T00:00:00Z up to (not including) 10000-01-01T00:00:00Z, the years an ISO 8601
  /// time of four digits can name.
  ///
  /// Importers keep a point whose time lies outside without its time and say so in
  /// ``Trace/skipped``; synthesis and ``Trace/timed(speed:start:)`` refuse to make such times.
  public static let timeRange: Range<Double> = -62_167_219_200..<253_402_300_800

  /// Why `text`, read as a time, cannot be kept: for importers' issues.
  package static func outOfRange(_ text: some StringProtocol) -> String {
    "'\(text)' is outside the years 0000 to 9999 that a trace time may lie in"
  }
}

/// One continuous movement: a GPX track or route, a SUMO vehicle, a GeoJSON feature.
public struct TraceTrack: Hashable, Sendable {
  /// The name the file gives (a GPX `<name>`, a SUMO vehicle id), or `nil`.
  public var name: String?
  /// The points in file order.
  public var points: [TracePoint]
  /// Where each segment after the first begins, as indices into ``points`` (a GPX file's
  /// `<trkseg>` boundaries: a recording gap). Empty for a single segment.
  public var segmentStarts: [Int]

  /// Creates a track.
  public init(name: String? = nil, points: [TracePoint], segmentStarts: [Int] = []) {
    self.name = name
    self.points = points
    self.segmentStarts = segmentStarts
  }
}

/// Something an importer skipped or accepted with a remark, with where it was.
public struct TraceIssue: Hashable, Sendable, CustomStringConvertible {
  /// The 1-based line in the file, where known.
  public var line: Int?
  /// What was skipped or noticed, and why.
  public var message: String

  /// Creates an issue.
  public init(line: Int?, message: String) {
    self.line = line
    self.message = message
  }

  /// `line N: message`, or the message alone.
  public var description: String { line.map { "line \($0): \(message)" } ?? message }
}

/// The file formats GeoSim reads and (for GPX, GeoJSON and CSV) writes.
public enum TraceFormat: String, CaseIterable, Hashable, Sendable {
  /// GPX 1.0 or 1.1 (tracks, routes, timed waypoints).
  case gpx
  /// GeoJSON (RFC 7946) line strings and points.
  case geojson
  /// Delimited text with a header of named columns.
  case csv
  /// NMEA 0183 sentences (RMC, GGA).
  case nmea
  /// SUMO floating car data (`fcd-export`) with geographic coordinates.
  case sumo
}

/// A movement read from a file or synthesized: one or more tracks of points.
///
/// A trace is the *true* motion; the sensor model turns it into the fixes an app sees.
public struct Trace: Hashable, Sendable {
  /// A name for the trace (the file's name or its metadata name), or `nil`.
  public var name: String?
  /// The format the trace was read from (or is meant to be written in).
  public var format: TraceFormat
  /// Tracks, routes or vehicles, in file order.
  public var tracks: [TraceTrack]
  /// What the importer skipped or noted, with line numbers where known.
  public var skipped: [TraceIssue]

  /// Creates a trace.
  public init(
    name: String? = nil, format: TraceFormat, tracks: [TraceTrack], skipped: [TraceIssue] = []
  ) {
    self.name = name
    self.format = format
    self.tracks = tracks
    self.skipped = skipped
  }

  /// The number of points over all tracks.
  public var pointCount: Int { tracks.reduce(0) { $0 + $1.points.count } }
}
