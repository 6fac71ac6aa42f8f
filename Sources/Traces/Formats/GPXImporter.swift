import Geo

/// Reads GPX 1.0 and 1.1.
///
/// Mapping:
/// - each `<trk>` becomes one track named by its `<name>`; its `<trkseg>` segments follow each
///   other in order, with their boundaries kept in ``TraceTrack/segmentStarts`` (a trajectory
///   treats the gap as one longer step), and empty segments are ignored;
/// - each `<rte>` becomes one track of its `<rtept>` points;
/// - top-level `<wpt>` points (Xcode's timed waypoints) become one track named `waypoints` when
///   the file has no track or route; beside tracks or routes they are points of interest, left
///   out and reported (gpxpy and Xcode read them so too). ``GPXWaypoints`` chooses otherwise:
///   always a track (placed where the first waypoint is among the tracks), or never;
/// - a `<trkpt>` or `<rtept>` outside its `<trk>` or `<rte>` is skipped and reported;
/// - a point's `lat` and `lon` attributes give the coordinate; `<ele>` the elevation; `<time>`
///   the time (ISO 8601, UTC); `<speed>` (m/s) and `<course>` (degrees) wherever they are inside
///   the point, which covers GPX 1.0's own elements and extensions such as Garmin's
///   `TrackPointExtension` with or without a namespace prefix; `<accuracy>`,
///   `<horizontalAccuracy>` or `<hAcc>` (metres) likewise. `<hdop>` is dimensionless and is not
///   read as an accuracy;
/// - the trace's name is `<metadata><name>` (1.1) or the top-level `<name>` (1.0).
///
/// Namespaces are matched by local name only, so prefixed and unprefixed documents read alike;
/// anything else (other extensions, links, descriptions) is ignored. A point without a valid
/// `lat`/`lon` is skipped and reported; a point whose `<time>` cannot be read is kept without a
/// time and reported.
struct GPXImporter: XMLHandler {
  static let root = "gpx"

  private struct PointBuilder {
    var offset: Int
    var depth: Int
    var latitude: Double?
    var longitude: Double?
    var point = TracePoint(coordinate: try! Coordinate(latitude: 0, longitude: 0))
    var badTime: String?
  }

  private let waypointPolicy: GPXWaypoints
  private var lines: LineCounter
  private(set) var name: String?
  private(set) var tracks: [TraceTrack] = []
  private(set) var issues: [TraceIssue] = []
  private var waypoints: [TracePoint] = []
  private var waypointIndex: Int?
  private var depth = 0
  private var current: TraceTrack?
  private var currentDepth = 0
  private var currentKind = ""
  private var point: PointBuilder?

  init(bytes: UnsafeBufferPointer<UInt8>, waypoints: GPXWaypoints = .automatic) {
    lines = LineCounter(bytes)
    waypointPolicy = waypoints
  }

  mutating func start(_ element: String, _ attributes: XMLAttributes, offset: Int) throws {
    depth += 1
    if point != nil { return }
    switch element {
    case "trk" where depth == 2, "rte" where depth == 2:
      current = TraceTrack(points: [])
      currentDepth = depth
      currentKind = element
    case "trkseg" where currentKind == "trk" && current != nil:
      let start = current!.points.count
      if start > 0 && current!.segmentStarts.last != start {
        current!.segmentStarts.append(start)
      }
    case "trkpt" where currentKind == "trk" && current != nil,
      "rtept" where currentKind == "rte" && current != nil,
      "wpt" where depth == 2:
      point = PointBuilder(
        offset: offset, depth: depth, latitude: attributes.double("lat"),
        longitude: attributes.double("lon"))
    case "trkpt", "rtept":
      // Outside its track or route it belongs to none: said, not silently lost.
      issues.append(
        TraceIssue(
          line: lines.line(of: offset),
          message: "skipped a <\(element)> outside any <\(element == "trkpt" ? "trk" : "rte")>"))
    default:
      break
    }
  }

  mutating func end(_ element: String, _ text: XMLText, offset: Int) throws {
    defer { depth -= 1 }
    if var builder = point {
      if depth == builder.depth {
        point = nil
        finish(builder)
        return
      }
      switch element {
      case "ele" where depth == builder.depth + 1: builder.point.elevation = text.double
      case "time" where depth == builder.depth + 1:
        builder.point.time = text.isoTime
        if builder.point.time == nil {
          builder.badTime = "'\(text.string)' is not ISO 8601"
        } else if !TracePoint.timeRange.contains(builder.point.time!) {
          builder.point.time = nil
          builder.badTime = TracePoint.outOfRange(text.string)
        }
      case "speed": builder.point.speed = text.double ?? builder.point.speed
      case "course": builder.point.course = text.double ?? builder.point.course
      case "accuracy", "horizontalAccuracy", "hAcc":
        builder.point.horizontalAccuracy = text.double ?? builder.point.horizontalAccuracy
      default: break
      }
      point = builder
      return
    }
    if element == "name" {
      if current != nil, depth == currentDepth + 1 {
        current?.name = text.string
      } else if depth == 2 || depth == 3 && name == nil {
        name = text.string
      }
      return
    }
    if let track = current, depth == currentDepth {
      current = nil
      currentKind = ""
      if track.points.isEmpty {
        issues.append(
          TraceIssue(
            line: lines.line(of: offset),
            message: "\(element == "trk" ? "track" : "route")"
              + "\(track.name.map { " '\($0)'" } ?? "") has no points"))
      } else {
        tracks.append(track)
      }
    }
  }

  private mutating func finish(_ builder: PointBuilder) {
    let line = lines.line(of: builder.offset)
    guard let latitude = builder.latitude, let longitude = builder.longitude,
      let coordinate = try? Coordinate(latitude: latitude, longitude: longitude)
    else {
      issues.append(
        TraceIssue(
          line: line,
          message: "skipped a point: expected numeric lat and lon attributes in range"))
      return
    }
    var point = builder.point
    point = TracePoint(
      time: point.time, coordinate: coordinate, elevation: point.elevation, speed: point.speed,
      course: point.course, horizontalAccuracy: point.horizontalAccuracy)
    if let bad = builder.badTime {
      issues.append(
        TraceIssue(line: line, message: "kept a point without its time: \(bad)"))
    }
    if current != nil {
      current!.points.append(point)
    } else {
      if waypointIndex == nil { waypointIndex = tracks.count }
      waypoints.append(point)
    }
  }

  /// The trace read, or an error if the document held no point at all.
  mutating func trace(file: String?) throws -> Trace {
    var tracks = tracks
    var issues = issues
    if let index = waypointIndex, waypointPolicy != .ignored {
      if tracks.isEmpty || waypointPolicy == .track {
        tracks.insert(TraceTrack(name: "waypoints", points: waypoints), at: index)
      } else {
        // Beside tracks or routes, waypoints are points of interest, not movement (as gpxpy
        // and Xcode read them): a track 0 of them would be replayed as a walk.
        issues.append(
          TraceIssue(
            line: nil,
            message: "left out \(waypoints.count) waypoint(s): beside the file's tracks or "
              + "routes they are points of interest, not movement"))
      }
    }
    guard !tracks.isEmpty else {
      if waypointPolicy == .ignored, !waypoints.isEmpty {
        throw TraceError(
          .noPoints, file: file,
          "expected at least one <trkpt> or <rtept> with lat and lon (waypoints are ignored), "
            + "found only \(waypoints.count) <wpt>")
      }
      throw TraceError(
        .noPoints, file: file,
        "expected at least one <trkpt>, <rtept> or <wpt> with lat and lon, found none")
    }
    return Trace(name: name, format: .gpx, tracks: tracks, skipped: issues)
  }
}

/// Whether a GPX file's top-level waypoints (`<wpt>`) are movement or points of interest.
public enum GPXWaypoints: String, Sendable, Hashable, CaseIterable {
  /// As gpxpy and Xcode read them: one track when the file has no track or route (Xcode's
  /// timed-waypoint files), else points of interest, left out and reported.
  case automatic
  /// Always one track named `waypoints`, placed where the first waypoint is among the file's
  /// tracks and routes.
  case track
  /// Never read.
  case ignored
}
