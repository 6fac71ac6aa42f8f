import Foundation
import Geo
import JSON

/// Reads GeoJSON (RFC 7946): a FeatureCollection, a Feature or a bare geometry.
///
/// Mapping:
/// - a `LineString` becomes one track; a `MultiLineString` one track whose lines are its
///   segments (``TraceTrack/segmentStarts``), as togeojson writes a GPX track's segments. Per-point
///   times come from the feature's `coordTimes` or `times` property (an array of ISO 8601 strings
///   or epoch seconds, as written by togeojson and most GPS exports; for a `MultiLineString`
///   one array per line, or one array for all its positions); an array of the wrong length is
///   ignored and reported. A third coordinate is the elevation;
/// - the `antimeridianCuts` and `addedPositions` properties of GeoSim's own writer join lines
///   cut at the antimeridian back into one segment and drop the boundary and repeated positions
///   it added, so that a written track reads back as it was;
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

    /// The per-point values under `key` for lines of `counts` positions: one array per line, or
    /// (for several lines) one array for all their positions; `nil` when absent, and reported
    /// and ignored when its shape does not fit the positions.
    func perPoint(
      _ key: String, _ properties: [String: JSONValue], _ counts: [Int], _ place: JSONPath
    )
      -> [[JSONValue]]?
    {
      guard case .array(let values) = properties[key] ?? .null else { return nil }
      let total = counts.reduce(0, +)
      if counts.count == 1 {
        if values.count == total { return [values] }
      } else if values.count == counts.count,
        zip(values, counts).allSatisfy({ v, n in
          if case .array(let a) = v { a.count == n } else { false }
        })
      {
        return values.map { if case .array(let a) = $0 { a } else { [] } }
      } else if values.count == total,
        !values.contains(where: { if case .array = $0 { true } else { false } })
      {
        var lines: [[JSONValue]] = []
        var rest = values[...]
        for n in counts {
          lines.append(Array(rest.prefix(n)))
          rest = rest.dropFirst(n)
        }
        return lines
      }
      let noun = key == "coordTimes" || key == "times" ? "times" : "values"
      if counts.count == 1 {
        issue(place, "ignored '\(key)': \(values.count) \(noun) for \(total) positions")
      } else {
        let sizes = counts.map(String.init).joined(separator: ", ")
        issue(
          place,
          "ignored '\(key)': expected one array per line (\(counts.count) lines of \(sizes) "
            + "positions) or one array of \(total) \(noun)")
      }
      return nil
    }

    /// The whole number `value` holds, or `nil`.
    func whole(_ value: JSONValue?) -> Int? {
      guard case .number(let n)? = value, n.rounded() == n, abs(n) < 1e15 else { return nil }
      return Int(n)
    }

    /// The track of the lines of positions at `at` (one for a `LineString`), for the feature at
    /// `place`: each line a segment, except where GeoSim's writer cut a segment at the
    /// antimeridian.
    func track(
      _ lines: [JSONValue], at: JSONPath, multi: Bool, _ properties: [String: JSONValue],
      _ place: JSONPath
    ) -> TraceTrack? {
      var positions: [[JSONValue]] = []
      for (l, line) in lines.enumerated() {
        guard case .array(let list) = line else {
          issue(multi ? at.appending(index: l) : at, "expected an array of positions")
          positions.append([])
          continue
        }
        positions.append(list)
      }
      let counts = positions.map(\.count)
      var times: [[JSONValue]]?
      for key in ["coordTimes", "times"] where properties[key] != nil {
        times = perPoint(key, properties, counts, place)
        break
      }
      func numbers(_ key: String) -> [[Double?]]? {
        perPoint(key, properties, counts, place)?.map { line in
          line.map { if case .number(let n) = $0 { n } else { nil } }
        }
      }
      let elevations = numbers("elevations")
      let speeds = numbers("speeds")
      let courses = numbers("courses")
      let accuracies = numbers("accuracies")
      // GeoSim's own layout: lines that continue across the antimeridian, positions it added.
      var cuts = Set<Int>()
      var added = Set<[Int]>()
      if multi, let value = properties["antimeridianCuts"] {
        if case .array(let list) = value, let indices = Optional(list.compactMap(whole)),
          indices.count == list.count, indices.allSatisfy({ (1..<lines.count).contains($0) })
        {
          cuts = Set(indices)
        } else {
          issue(place, "ignored 'antimeridianCuts': expected indices of lines after the first")
        }
      }
      if let value = properties["addedPositions"] {
        let pairs: [[Int]]? = {
          guard case .array(let list) = value else { return nil }
          let pairs = list.map { item -> [Int] in
            guard case .array(let pair) = item, pair.count == 2 else { return [] }
            return pair.compactMap(whole)
          }
          let valid = pairs.allSatisfy { pair in
            pair.count == 2 && counts.indices.contains(pair[0])
              && (0..<counts[pair[0]]).contains(pair[1])
          }
          return valid ? pairs : nil
        }()
        if let pairs {
          added = Set(pairs)
        } else {
          issue(place, "ignored 'addedPositions': expected [line, position] pairs of its positions")
        }
      }
      var track = TraceTrack(name: nil, points: [])
      if case .string(let name) = properties["name"] ?? .null { track.name = name }
      for (l, list) in positions.enumerated() {
        if !track.points.isEmpty, !cuts.contains(l), track.segmentStarts.last != track.points.count
        {
          track.segmentStarts.append(track.points.count)
        }
        let lineAt = multi ? at.appending(index: l) : at
        for (index, position) in list.enumerated() where !added.contains([l, index]) {
          guard var p = point(position, lineAt.appending(index: index)) else { continue }
          p.time = times.flatMap { time($0[l][index], lineAt.appending(index: index)) }
          if let elevations, p.elevation == nil { p.elevation = elevations[l][index] }
          if let speeds { p.speed = speeds[l][index] }
          if let courses { p.course = courses[l][index] }
          if let accuracies { p.horizontalAccuracy = accuracies[l][index] }
          track.points.append(p)
        }
      }
      if track.segmentStarts.last == track.points.count { track.segmentStarts.removeLast() }
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
        if let track = track([coordinates], at: at, multi: false, properties, place) {
          tracks.append(track)
        }
      case "MultiLineString":
        guard case .array(let lines) = coordinates else {
          issue(at, "expected an array of lines")
          continue
        }
        if let track = track(lines, at: at, multi: true, properties, place) {
          tracks.append(track)
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
