import CSV
import Foundation
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
  /// A track of two or more points is a `LineString` with `coordTimes` (ISO 8601, `null` where a
  /// point has no time) and, where any point has them, `speeds`, `courses` and `accuracies`
  /// arrays; positions carry the elevation as a third value when every point has one, and an
  /// `elevations` array holds it when only some do. A
  /// one-point track is a `Point` with `time`, `speed`, `course` and `accuracy` properties. Keys
  /// are sorted.
  public var geoJSONText: String {
    var features: [JSONValue] = []
    for track in tracks {
      var properties: [String: JSONValue] = [:]
      if let name = track.name { properties["name"] = .string(name) }
      let points = track.points
      let threeD = points.allSatisfy { $0.elevation != nil }
      func position(_ p: TracePoint) -> JSONValue {
        var values: [JSONValue] = [
          .number(p.coordinate.longitude), .number(p.coordinate.latitude),
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
        geometry = .object([
          "type": .string("LineString"), "coordinates": .array(points.map(position)),
        ])
        if points.contains(where: { $0.time != nil }) {
          properties["coordTimes"] = .array(
            points.map { p in p.time.map { .string(ByteScan.isoText($0)) } ?? .null })
        }
        for (key, values) in [
          ("elevations", threeD ? [] : points.map(\.elevation)),
          ("speeds", points.map(\.speed)), ("courses", points.map(\.course)),
          ("accuracies", points.map(\.horizontalAccuracy)),
        ] where values.contains(where: { $0 != nil }) {
          properties[key] = .array(values.map(optional))
        }
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
