import CSV
import Foundation
import Geo
import JSON

extension Trace {
  /// The trace as text in `format`: GPX, GeoJSON or CSV.
  ///
  /// - Throws: ``TraceError`` with code ``TraceError/Code/invalidArgument`` for NMEA and SUMO,
  ///   which GeoSim reads but does not write, and for a point whose time lies outside
  ///   ``TracePoint/timeRange``.
  public func text(in format: TraceFormat) throws -> String {
    try checkTimes()
    switch format {
    case .gpx: return gpxText
    case .geojson: return geoJSONText
    case .csv: return csvText
    case .nmea, .sumo:
      throw TraceError(
        .invalidArgument, file: nil,
        "cannot write \(format.rawValue): expected gpx, geojson or csv")
    }
  }

  /// Throws for a point whose time no format can write.
  private func checkTimes() throws {
    for (t, track) in tracks.enumerated() {
      for (p, point) in track.points.enumerated() {
        if let time = point.time, !TracePoint.timeRange.contains(time) {
          throw TraceError(
            .invalidArgument, file: nil,
            "point \(p + 1) of track \(t + 1) has the time \(time) s after 1970: expected a "
              + "time within the years 0000 to 9999")
        }
      }
    }
  }

  private static func number(_ x: Double) -> String { JSONText.number(x) }

  /// `x` as an XML Schema `xs:decimal` (which GPX's coordinates, elevations and speeds are):
  /// the shortest exact digits, written out without an exponent (`-5e-05` is not a decimal;
  /// `-0.00005` is).
  static func decimal(_ x: Double) -> String {
    let text = JSONText.number(x)
    guard let e = text.firstIndex(where: { $0 == "e" || $0 == "E" }),
      let exponent = Int(text[text.index(after: e)...])
    else { return text }
    var mantissa = text[..<e]
    let negative = mantissa.hasPrefix("-")
    if negative { mantissa = mantissa.dropFirst() }
    let parts = mantissa.split(separator: ".", omittingEmptySubsequences: false)
    let whole = String(parts[0])
    let fraction = parts.count > 1 ? String(parts[1]) : ""
    let digits = whole + fraction
    // The decimal point sits after `point` of the digits.
    let point = whole.count + exponent
    var out: String
    if point <= 0 {
      out = "0." + String(repeating: "0", count: -point) + digits
    } else if point >= digits.count {
      out = digits + String(repeating: "0", count: point - digits.count)
    } else {
      let split = digits.index(digits.startIndex, offsetBy: point)
      out = digits[..<split] + "." + digits[split...]
    }
    // Leading zeros of the whole part (from a 0.x mantissa) go; one stays before the point.
    while out.hasPrefix("0"), out.count > 1, !out.hasPrefix("0.") { out.removeFirst() }
    return (negative ? "-" : "") + out
  }

  private static func escapeXML(_ s: String) -> String {
    var out = ""
    for c in s.unicodeScalars {
      switch c {
      case "&": out += "&amp;"
      case "<": out += "&lt;"
      case ">": out += "&gt;"
      case "\"": out += "&quot;"
      default: out.unicodeScalars.append(c)
      }
    }
    return out
  }

  /// GPX 1.1: one `<trk>` per track, with a `<trkseg>` per segment.
  ///
  /// Elevation and time are GPX elements; speed and course go in Garmin's
  /// `TrackPointExtension` (v2), accuracy in a `geosim:accuracy` extension. Numbers are written
  /// in their shortest exact form as decimals (no exponent: GPX's numbers are `xs:decimal`) and
  /// times in UTC to the millisecond, so the same trace always gives the same bytes.
  public var gpxText: String {
    var out = #"<?xml version="1.0" encoding="UTF-8"?>"# + "\n"
    out += #"<gpx version="1.1" creator="GeoSim" xmlns="http://www.topografix.com/GPX/1/1""#
    out += #" xmlns:gpxtpx="http://www.garmin.com/xmlschemas/TrackPointExtension/v2""#
    out += #" xmlns:geosim="urn:geosim:trace:1">"# + "\n"
    if let name {
      out += "  <metadata><name>\(Trace.escapeXML(name))</name></metadata>\n"
    }
    for track in tracks {
      out += "  <trk>\n"
      if let name = track.name { out += "    <name>\(Trace.escapeXML(name))</name>\n" }
      out += "    <trkseg>\n"
      let breaks = Set(track.segmentStarts)
      for (index, p) in track.points.enumerated() {
        if breaks.contains(index) { out += "    </trkseg>\n    <trkseg>\n" }
        out += "      <trkpt lat=\"\(Trace.decimal(p.coordinate.latitude))\""
        out += " lon=\"\(Trace.decimal(p.coordinate.longitude))\">"
        if let e = p.elevation { out += "<ele>\(Trace.decimal(e))</ele>" }
        if let t = p.time { out += "<time>\(ByteScan.isoText(t))</time>" }
        if p.speed != nil || p.course != nil || p.horizontalAccuracy != nil {
          out += "<extensions>"
          if p.speed != nil || p.course != nil {
            out += "<gpxtpx:TrackPointExtension>"
            if let s = p.speed { out += "<gpxtpx:speed>\(Trace.decimal(s))</gpxtpx:speed>" }
            if let c = p.course { out += "<gpxtpx:course>\(Trace.decimal(c))</gpxtpx:course>" }
            out += "</gpxtpx:TrackPointExtension>"
          }
          if let a = p.horizontalAccuracy {
            out += "<geosim:accuracy>\(Trace.decimal(a))</geosim:accuracy>"
          }
          out += "</extensions>"
        }
        out += "</trkpt>\n"
      }
      out += "    </trkseg>\n  </trk>\n"
    }
    return out + "</gpx>\n"
  }

  /// Xcode's location-simulation GPX: the one track's points as top-level `<wpt>` elements with
  /// their `<time>`, the dialect Xcode's simulator and device location replay read (and
  /// `Trace.read` reads back as one track).
  ///
  /// - Throws: ``TraceError`` with code ``TraceError/Code/invalidArgument`` for a trace of
  ///   more than one track (Xcode replays one route), and for a point whose time lies outside
  ///   ``TracePoint/timeRange``.
  public func xcodeGPXText() throws -> String {
    guard tracks.count == 1 else {
      throw TraceError(
        .invalidArgument, file: nil,
        "Xcode's waypoint GPX holds one route: expected one track, found \(tracks.count)")
    }
    try checkTimes()
    var out = #"<?xml version="1.0" encoding="UTF-8"?>"# + "\n"
    out += #"<gpx version="1.1" creator="GeoSim">"# + "\n"
    for p in tracks[0].points {
      out += "  <wpt lat=\"\(Trace.decimal(p.coordinate.latitude))\""
      out += " lon=\"\(Trace.decimal(p.coordinate.longitude))\">"
      if let e = p.elevation { out += "<ele>\(Trace.decimal(e))</ele>" }
      if let t = p.time { out += "<time>\(ByteScan.isoText(t))</time>" }
      out += "</wpt>\n"
    }
    return out + "</gpx>\n"
  }

  /// GeoJSON: a FeatureCollection with one feature per track.
  ///
  /// A track of one segment that does not cross the antimeridian is a `LineString`; a track of
  /// several segments, or one that crosses the antimeridian, is a `MultiLineString` whose lines
  /// are its segments, each cut where it crosses the antimeridian so that no line does
  /// (RFC 7946 §3.1.9). A cut ends one line and starts the next with a boundary point on the
  /// meridian (longitude 180 on the east side, −180 on the west), at the latitude, time and
  /// elevation interpolated linearly in longitude between the two points either side; a segment
  /// of one point is written as that point twice, because a line needs two positions. These added
  /// positions are listed in the `addedPositions` property as `[line, position]` pairs, and the
  /// lines that continue the one before them across the antimeridian in `antimeridianCuts`, so
  /// that GeoSim reads the track back exactly (segments and all) while any other reader draws it
  /// correctly.
  ///
  /// Per-point values follow the positions: `coordTimes` (ISO 8601, `null` where a point has no
  /// time) and, where any point has them, `speeds`, `courses` and `accuracies`, as one array for a
  /// `LineString` and one array per line for a `MultiLineString` (as togeojson writes a GPX
  /// track's segments); positions carry the elevation as a third value when every point has one,
  /// and an `elevations` array holds it when only some do. A one-point track is a `Point` with
  /// `time`, `speed`, `course` and `accuracy` properties. Keys are sorted.
  public var geoJSONText: String {
    var features: [JSONValue] = []
    for track in tracks {
      var properties: [String: JSONValue] = [:]
      if let name = track.name { properties["name"] = .string(name) }
      let points = track.points
      let threeD = points.allSatisfy { $0.elevation != nil }
      func position(_ p: TracePoint, longitude: Double? = nil) -> JSONValue {
        var values: [JSONValue] = [
          .number(longitude ?? p.coordinate.longitude), .number(p.coordinate.latitude),
        ]
        if threeD, let e = p.elevation { values.append(.number(e)) }
        return .array(values)
      }
      func optional(_ x: Double?) -> JSONValue { x.map(JSONValue.number) ?? .null }
      let geometry: JSONValue
      if points.count == 1 {
        let p = points[0]
        geometry = .object(["type": .string("Point"), "coordinates": position(p)])
        if let t = p.time { properties["time"] = .string(ByteScan.isoText(t)) }
        if let s = p.speed { properties["speed"] = .number(s) }
        if let c = p.course { properties["course"] = .number(c) }
        if let a = p.horizontalAccuracy { properties["accuracy"] = .number(a) }
      } else {
        let layout = GeoJSONLines(track)
        let lines = layout.lines
        /// One value per position: an array for a line, an array of arrays for several.
        func perPoint(_ value: (TracePoint) -> JSONValue) -> JSONValue {
          let values = lines.map { line in JSONValue.array(line.map { value($0.point) }) }
          return lines.count == 1 ? values[0] : .array(values)
        }
        if points.contains(where: { $0.time != nil }) {
          properties["coordTimes"] = perPoint { p in
            p.time.map { .string(ByteScan.isoText($0)) } ?? .null
          }
        }
        let fields: [(String, KeyPath<TracePoint, Double?>)] = [
          ("elevations", \.elevation), ("speeds", \.speed), ("courses", \.course),
          ("accuracies", \.horizontalAccuracy),
        ]
        for (key, field) in fields
        where (key != "elevations" || !threeD)
          && points.contains(where: { $0[keyPath: field] != nil })
        {
          properties[key] = perPoint { optional($0[keyPath: field]) }
        }
        let coordinates = lines.map { line in
          JSONValue.array(line.map { position($0.point, longitude: $0.longitude) })
        }
        if lines.count == 1 {
          geometry = .object(["type": .string("LineString"), "coordinates": coordinates[0]])
        } else {
          geometry = .object([
            "type": .string("MultiLineString"), "coordinates": .array(coordinates),
          ])
        }
        if !layout.cuts.isEmpty {
          properties["antimeridianCuts"] = .array(layout.cuts.map { .number(Double($0)) })
        }
        let added = lines.enumerated().flatMap { l, line in
          line.indices.filter { line[$0].added }.map {
            JSONValue.array([.number(Double(l)), .number(Double($0))])
          }
        }
        if !added.isEmpty { properties["addedPositions"] = .array(added) }
      }
      features.append(
        .object([
          "type": .string("Feature"), "properties": .object(properties), "geometry": geometry,
        ]))
    }
    return JSONValue.object(["type": .string("FeatureCollection"), "features": .array(features)])
      .jsonText + "\n"
  }

  /// CSV with the header `track,time,latitude,longitude,elevation,speed,course,accuracy`; empty
  /// cells where a point lacks a value. Unnamed tracks of a trace with several tracks are
  /// written as `track 1`, `track 2`, … so that they read back apart; a name holding a comma,
  /// a quote or a line break is quoted (RFC 4180), so that it reads back whole.
  public var csvText: String {
    var out = "track,time,latitude,longitude,elevation,speed,course,accuracy\n"
    for (index, track) in tracks.enumerated() {
      let name = CSVText.field(track.name ?? (tracks.count > 1 ? "track \(index + 1)" : ""))
      for p in track.points {
        out += name + ","
        out += (p.time.map(ByteScan.isoText) ?? "") + ","
        out += Trace.number(p.coordinate.latitude) + ","
        out += Trace.number(p.coordinate.longitude) + ","
        out += (p.elevation.map(Trace.number) ?? "") + ","
        out += (p.speed.map(Trace.number) ?? "") + ","
        out += (p.course.map(Trace.number) ?? "") + ","
        out += (p.horizontalAccuracy.map(Trace.number) ?? "") + "\n"
      }
    }
    return out
  }
}

/// How a track of two or more points is laid out as GeoJSON lines: one line per segment, each cut
/// where a step crosses the antimeridian, with the boundary points and repeated points the
/// lines need marked as added.
struct GeoJSONLines {
  /// A position of a line: a point of the track, or one GeoSim added.
  struct Vertex {
    var point: TracePoint
    /// The longitude to write when it differs from the point's (180, which a `Coordinate`
    /// normalises to −180).
    var longitude: Double?
    var added: Bool
  }

  var lines: [[Vertex]] = []
  /// The indices of the lines that continue the one before them across the antimeridian.
  var cuts: [Int] = []

  init(_ track: TraceTrack) {
    let starts = Set(track.segmentStarts)
    for (index, p) in track.points.enumerated() {
      if index == 0 || starts.contains(index) {
        lines.append([Vertex(point: p, added: false)])
        continue
      }
      let previous = track.points[index - 1]
      if let (before, after) = GeoJSONLines.boundary(from: previous, to: p) {
        lines[lines.count - 1].append(before)
        cuts.append(lines.count)
        lines.append([after])
      }
      lines[lines.count - 1].append(Vertex(point: p, added: false))
    }
    for l in lines.indices where lines[l].count == 1 {
      var again = lines[l][0]
      again.added = true
      lines[l].append(again)
    }
  }

  /// The boundary points either side of the antimeridian when the step from `a` to `b` crosses
  /// it the short way (a longitude change of more than 180°), or `nil`.
  static func boundary(from a: TracePoint, to b: TracePoint) -> (Vertex, Vertex)? {
    let from = a.coordinate.longitude
    let to = b.coordinate.longitude
    guard abs(to - from) > 180 else { return nil }
    let eastward = to < from  // e.g. 179 → −179
    // The step unwrapped so that it does not jump, and where along it the meridian lies.
    let unwrapped = eastward ? to + 360 : to - 360
    let meridian: Double = eastward ? 180 : -180
    let f = (meridian - from) / (unwrapped - from)
    func lerp(_ x: Double?, _ y: Double?) -> Double? {
      guard let x, let y else { return nil }
      return x + (y - x) * f
    }
    let latitude =
      a.coordinate.latitude + (b.coordinate.latitude - a.coordinate.latitude) * f
    let coordinate = (try? Coordinate(latitude: latitude, longitude: meridian)) ?? a.coordinate
    let point = TracePoint(
      time: lerp(a.time, b.time), coordinate: coordinate,
      elevation: lerp(a.elevation, b.elevation))
    return (
      Vertex(point: point, longitude: meridian, added: true),
      Vertex(point: point, longitude: -meridian, added: true)
    )
  }
}
