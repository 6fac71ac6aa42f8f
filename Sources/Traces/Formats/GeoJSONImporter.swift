import Foundation
import Geo
import JSON

/// Reads GeoJSON (RFC 7946): a FeatureCollection, a Feature or a bare geometry.
///
/// Mapping:
/// - a `LineString` becomes one track; a `MultiLineString` one track per line. Per-point times
///   come from the feature's `coordTimes` or `times` property (an array of ISO 8601 strings or
///   epoch seconds, as written by togeojson and most GPS exports); an array of the wrong length
///   is ignored and reported. A third coordinate is the elevation;
/// - `Point` features become one track named `points`, in order, each timed by its `time` or
///   `timestamp` property (ISO 8601 or epoch seconds);
/// - optional per-point arrays `elevations`, `speeds`, `courses` and `accuracies` (GeoSim's own
///   writer adds them) give elevation (where a position has no third value), speed, course and
///   horizontal accuracy;
/// - a feature's `name` property names its track. Polygons and other geometries are skipped and
///   reported; so are positions that are not valid coordinates.
///
/// The text is read by `JSONDocument`: a syntax error (a trailing comma, a duplicate key, a
/// leading zero) is a ``TraceError`` naming the file, line and column. Issues name the line and
/// the JSON path of the feature or position they are about.
enum GeoJSONImporter {
  static func read(_ data: Data, file: String?) throws -> Trace {
    let document: JSONDocument
    do {
      document = try JSONDocument(parsing: data)
    } catch {
      throw TraceError(
        .malformed, file: file, line: error.line, column: error.column, error.message)
    }
    var tracks: [TraceTrack] = []
    var points: [TracePoint] = []
    var pointsIndex: Int?
    var issues: [TraceIssue] = []

    func issue(_ path: JSONPath, _ message: String) {
      issues.append(
        TraceIssue(line: document.nearestLocation(of: path).line, message: "\(path): \(message)"))
    }

    /// The features below `value` at `path`: each one's path, its geometry's path, the geometry
    /// and the properties.
    func features(_ value: JSONValue, at path: JSONPath)
      -> [(JSONPath, JSONPath, JSONValue?, [String: JSONValue])]
    {
      guard case .object(let object) = value else { return [] }
      switch object["type"] {
      case .string("FeatureCollection"):
        guard case .array(let list) = object["features"] ?? .null else { return [] }
        return list.enumerated().flatMap { index, feature in
          features(feature, at: path.appending(key: "features").appending(index: index))
        }
      case .string("Feature"):
        var properties: [String: JSONValue] = [:]
        if case .object(let p) = object["properties"] ?? .null { properties = p }
        return [(path, path.appending(key: "geometry"), object["geometry"], properties)]
      default:
        return [(path, path, value, [:])]
      }
    }

    /// The time `value` gives, or `nil`; one that is not a time, or lies outside
    /// ``TracePoint/timeRange``, is reported as dropped from the point at `place`.
    func time(_ value: JSONValue?, _ place: JSONPath) -> Double? {
      let seconds: Double?
      switch value {
      case .string(let s): seconds = ByteScan.isoTime(s) ?? ByteScan.double(s)
      case .number(let n): seconds = n
      case nil, .null?: return nil
      default: seconds = nil
      }
      guard let seconds else {
        // A time that is there but not a time: said, not silently dropped.
        let given: String
        if case .string(let s)? = value { given = "'\(s)'" } else { given = value!.jsonText }
        issue(place, "kept a point without its time: \(given) is not an ISO 8601 time or a number")
        return nil
      }
      guard !TracePoint.timeRange.contains(seconds) else { return seconds }
      let text: String
      switch value {
      case .string(let s): text = s
      default: text = JSONText.number(seconds)
      }
      issue(place, "kept a point without its time: \(TracePoint.outOfRange(text))")
      return nil
    }

    func numbers(_ value: JSONValue?) -> [Double?]? {
      guard case .array(let list) = value else { return nil }
      return list.map { if case .number(let n) = $0 { n } else { nil } }
    }

    func point(_ position: JSONValue, _ place: JSONPath) -> TracePoint? {
      guard case .array(let values) = position, values.count >= 2,
        case .number(let longitude) = values[0], case .number(let latitude) = values[1],
        let coordinate = try? Coordinate(latitude: latitude, longitude: longitude)
      else {
        issue(place, "skipped a position: expected [longitude, latitude]")
        return nil
      }
      var elevation: Double?
      if values.count >= 3, case .number(let z) = values[2] { elevation = z }
      return TracePoint(coordinate: coordinate, elevation: elevation)
    }

    /// The track of the positions at `at`, for the feature at `place`.
    func line(
      _ positions: JSONValue, at: JSONPath, _ properties: [String: JSONValue], _ place: JSONPath
    ) -> TraceTrack? {
      guard case .array(let list) = positions else {
        issue(at, "expected an array of positions")
        return nil
      }
      var times: [JSONValue]?
      for key in ["coordTimes", "times"] {
        if case .array(let t) = properties[key] ?? .null {
          if t.count == list.count {
            times = t
          } else {
            issue(place, "ignored '\(key)': \(t.count) times for \(list.count) positions")
          }
          break
        }
      }
      let elevations = numbers(properties["elevations"])
      let speeds = numbers(properties["speeds"])
      let courses = numbers(properties["courses"])
      let accuracies = numbers(properties["accuracies"])
      var track = TraceTrack(name: nil, points: [])
      if case .string(let name) = properties["name"] ?? .null { track.name = name }
      for (index, position) in list.enumerated() {
        guard var p = point(position, at.appending(index: index)) else { continue }
        p.time = times.flatMap { time($0[index], at.appending(index: index)) }
        if let elevations, elevations.count == list.count, p.elevation == nil {
          p.elevation = elevations[index]
        }
        if let speeds, speeds.count == list.count { p.speed = speeds[index] }
        if let courses, courses.count == list.count { p.course = courses[index] }
        if let accuracies, accuracies.count == list.count {
          p.horizontalAccuracy = accuracies[index]
        }
        track.points.append(p)
      }
      return track.points.isEmpty ? nil : track
    }

    for (place, geometryPath, geometry, properties) in features(document.root, at: .root) {
      guard case .object(let g) = geometry ?? .null, case .string(let type) = g["type"] ?? .null
      else {
        issue(place, "skipped: no geometry")
        continue
      }
      let at = geometryPath.appending(key: "coordinates")
      let coordinates = g["coordinates"] ?? .null
      switch type {
      case "LineString":
        if let track = line(coordinates, at: at, properties, place) { tracks.append(track) }
      case "MultiLineString":
        guard case .array(let lines) = coordinates else { continue }
        for (index, positions) in lines.enumerated() {
          var p = properties
          if case .array(let t) = properties["coordTimes"] ?? properties["times"] ?? .null,
            index < t.count
          {
            p["coordTimes"] = t[index]
            p["times"] = nil
          }
          let lineAt = at.appending(index: index)
          if let track = line(positions, at: lineAt, p, lineAt) {
            tracks.append(track)
          }
        }
      case "Point":
        guard var p = point(coordinates, at) else { continue }
        p.time = time(properties["time"] ?? properties["timestamp"], place)
        if case .number(let s) = properties["speed"] ?? .null { p.speed = s }
        if case .number(let c) = properties["course"] ?? .null { p.course = c }
        if case .number(let a) = properties["accuracy"] ?? .null { p.horizontalAccuracy = a }
        if pointsIndex == nil { pointsIndex = tracks.count }
        points.append(p)
      default:
        issue(place, "skipped a \(type): expected LineString or Point")
      }
    }
    if let pointsIndex {
      tracks.insert(TraceTrack(name: "points", points: points), at: pointsIndex)
    }
    guard !tracks.isEmpty else {
      throw TraceError(
        .noPoints, file: file, "expected a LineString or Point with valid coordinates, found none")
    }
    return Trace(format: .geojson, tracks: tracks, skipped: issues)
  }
}
