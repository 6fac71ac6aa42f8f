import JSON

extension Geometry {
  /// The geometry as Well-Known Text, with the shortest digits that read back exactly.
  ///
  /// A geometry with `z` values is written with the `Z` tag (missing values as `NaN`); points of
  /// a multipoint are parenthesised, as OGC 06-103r4 writes them. Read WKT with
  /// ``GEOSContext/geometry(fromWKT:)``.
  public var wkt: String {
    var out = ""
    writeWKT(to: &out)
    return out
  }

  private func writeWKT(to out: inout String) {
    var hasZ = false
    forEachPosition { if $0.z != nil { hasZ = true } }
    out += typeName.uppercased()
    out += hasZ ? " Z " : " "
    if isEmpty && !(self.isCollectionWithEmptyMembers) {
      out += "EMPTY"
      return
    }
    switch self {
    case .point(let p): Geometry.writeList([p], to: &out, hasZ: hasZ)
    case .lineString(let line): Geometry.writeList(line.positions, to: &out, hasZ: hasZ)
    case .polygon(let polygon): Geometry.writeRings(polygon, to: &out, hasZ: hasZ)
    case .multiPoint(let points):
      Geometry.writeEach(points, to: &out) { Geometry.writeList([$0], to: &$1, hasZ: hasZ) }
    case .multiLineString(let lines):
      Geometry.writeEach(lines, to: &out) {
        if $0.positions.isEmpty {
          $1 += "EMPTY"
        } else {
          Geometry.writeList($0.positions, to: &$1, hasZ: hasZ)
        }
      }
    case .multiPolygon(let polygons):
      Geometry.writeEach(polygons, to: &out) {
        if $0.isEmpty { $1 += "EMPTY" } else { Geometry.writeRings($0, to: &$1, hasZ: hasZ) }
      }
    case .geometryCollection(let members):
      Geometry.writeEach(members, to: &out) { $0.writeWKT(to: &$1) }
    }
  }

  /// A collection whose members are all empty is not itself written as `EMPTY`, so that it
  /// reads back with the same members.
  private var isCollectionWithEmptyMembers: Bool {
    switch self {
    case .multiLineString(let members): !members.isEmpty
    case .multiPolygon(let members): !members.isEmpty
    case .geometryCollection(let members): !members.isEmpty
    default: false
    }
  }

  private static func writeRings(_ polygon: Polygon, to out: inout String, hasZ: Bool) {
    writeEach(polygon.rings, to: &out) { writeList($0.positions, to: &$1, hasZ: hasZ) }
  }

  private static func writeEach<T>(
    _ items: [T], to out: inout String, _ body: (T, inout String) -> Void
  ) {
    out += "("
    for (i, item) in items.enumerated() {
      if i > 0 { out += ", " }
      body(item, &out)
    }
    out += ")"
  }

  private static func writeList(_ positions: [Position], to out: inout String, hasZ: Bool) {
    writeEach(positions, to: &out) { p, out in
      out += JSONText.number(p.x) + " " + JSONText.number(p.y)
      if hasZ { out += " " + (p.z.map(JSONText.number) ?? "NaN") }
    }
  }
}
