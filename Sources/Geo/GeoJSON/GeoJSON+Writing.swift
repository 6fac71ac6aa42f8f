import JSON

extension GeoJSON {
  /// The geometry as a GeoJSON geometry object.
  ///
  /// Rings are rewound as RFC 7946 asks (exterior counter-clockwise, holes clockwise); nothing
  /// else changes.
  public static func text(_ geometry: Geometry) -> String {
    var out = ""
    write(geometry, to: &out)
    return out
  }

  /// The features as a GeoJSON FeatureCollection.
  public static func text(_ features: [GeoJSONFeature]) -> String {
    var out = #"{"features":["#
    for (i, feature) in features.enumerated() {
      if i > 0 { out += "," }
      out += #"{"geometry":"#
      if let geometry = feature.geometry { write(geometry, to: &out) } else { out += "null" }
      if let id = feature.id {
        out += #","id":"#
        id.write(to: &out)
      }
      out += #","properties":"#
      if let properties = feature.properties {
        JSONValue.object(properties).write(to: &out)
      } else {
        out += "null"
      }
      out += #","type":"Feature"}"#
    }
    out += #"],"type":"FeatureCollection"}"#
    return out
  }

  private static func write(_ geometry: Geometry, to out: inout String) {
    if case .geometryCollection(let members) = geometry {
      out += #"{"geometries":["#
      for (i, member) in members.enumerated() {
        if i > 0 { out += "," }
        write(member, to: &out)
      }
      out += #"],"type":"GeometryCollection"}"#
      return
    }
    out += #"{"coordinates":"#
    switch geometry {
    case .point(let p): write(p, to: &out)
    case .lineString(let line): write(line.positions, to: &out)
    case .polygon(let polygon): write(polygon, to: &out)
    case .multiPoint(let points): write(points, to: &out)
    case .multiLineString(let lines): writeList(lines, to: &out) { write($0.positions, to: &$1) }
    case .multiPolygon(let polygons): writeList(polygons, to: &out) { write($0, to: &$1) }
    case .geometryCollection: break
    }
    out += #","type":""# + geometry.typeName + #""}"#
  }

  private static func write(_ polygon: Polygon, to out: inout String) {
    var rings: [[Position]] = []
    if !polygon.isEmpty {
      rings.append(wound(polygon.exterior.positions, counterClockwise: true))
      rings += polygon.holes.map { wound($0.positions, counterClockwise: false) }
    }
    writeList(rings, to: &out) { write($0, to: &$1) }
  }

  private static func write(_ positions: [Position], to out: inout String) {
    writeList(positions, to: &out) { write($0, to: &$1) }
  }

  private static func write(_ p: Position, to out: inout String) {
    out += "[" + JSONText.number(p.x) + "," + JSONText.number(p.y)
    if let z = p.z { out += "," + JSONText.number(z) }
    out += "]"
  }

  private static func writeList<T>(
    _ items: [T], to out: inout String, _ body: (T, inout String) -> Void
  ) {
    out += "["
    for (i, item) in items.enumerated() {
      if i > 0 { out += "," }
      body(item, &out)
    }
    out += "]"
  }

  /// The ring in the requested winding (by the sign of its shoelace area).
  static func wound(_ ring: [Position], counterClockwise: Bool) -> [Position] {
    var twiceArea = 0.0
    for i in 0..<max(ring.count - 1, 0) {
      twiceArea += ring[i].x * ring[i + 1].y - ring[i + 1].x * ring[i].y
    }
    return (twiceArea > 0) == counterClockwise || twiceArea == 0 ? ring : ring.reversed()
  }
}
