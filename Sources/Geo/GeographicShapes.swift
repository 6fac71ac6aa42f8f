import Foundation

/// Shapes measured in metres on the ellipsoid, returned as longitude/latitude geometries.
///
/// Every shape is built in a ``LocalProjection`` (azimuthal equidistant) around its own centre,
/// where metres are metres, and then brought back to longitude/latitude:
///
/// - **Edges.** Each projected edge is subdivided until its ends differ by at most
///   ``maximumLongitudeStep`` degrees of longitude, so that the straight lon/lat edges GEOS sees
///   stay close to the metric shape even next to a pole.
/// - **The antimeridian.** A shape that crosses ±180° is split there (RFC 7946 §3.1.9): the
///   result is a multipolygon whose parts meet the meridian from both sides.
/// - **The poles.** A shape that contains a pole is closed along that pole's latitude, so its
///   lon/lat polygon spans all longitudes and contains the pole's row.
///
/// Shapes must fit within ``maximumExtent`` of their centre; beyond that a local projection is
/// the wrong tool and the call throws.
public enum GeographicShapes {
  /// The largest subdivided edge, in degrees of longitude.
  public static let maximumLongitudeStep = 1.0
  /// How far (in metres) a shape may reach from its centre: a quarter meridian.
  public static let maximumExtent = 10_000_000.0

  /// A geodesic circle: the points within `radiusMeters` of `center` by WGS84 geodesic distance.
  ///
  /// Its `segments` vertices lie exactly `radiusMeters` from the centre (the azimuthal
  /// equidistant projection keeps distances from its centre); between them the boundary is a
  /// chord, at most `radiusMeters·(1 − cos(π/segments))` inside the true circle.
  public static func circle(
    center: Coordinate, radiusMeters: Double, segments: Int = 64, context: GEOSContext,
    geodesic: Geodesic = .wgs84
  ) throws -> Geometry {
    guard radiusMeters.isFinite, radiusMeters > 0, radiusMeters <= maximumExtent else {
      throw GeoError(
        .invalidArgument,
        "circle radius must be in (0, \(maximumExtent)] metres, got \(radiusMeters)")
    }
    guard segments >= 3 else {
      throw GeoError(.invalidArgument, "a circle needs at least 3 segments, got \(segments)")
    }
    var ring = (0..<segments).map { i in
      let azimuth = Double(i) / Double(segments) * 2 * Double.pi
      return Position(x: radiusMeters * sin(azimuth), y: radiusMeters * cos(azimuth))
    }
    ring.append(ring[0])
    let projection = LocalProjection(center: center, geodesic: geodesic)
    let polygon = Polygon(unchecked: LinearRing(unchecked: ring), holes: [])
    return try geographic([polygon], projection: projection, context: context)
  }

  /// The points within `meters` of `geometry` (longitude/latitude degrees), by distance in a
  /// local projection around the geometry's centre.
  ///
  /// Edges of the input are taken as straight lines in that projection — close to geodesics for
  /// shapes up to a few hundred kilometres — so a line from 179.9° to −179.9° crosses the
  /// antimeridian instead of going round the world. A negative distance shrinks polygons.
  ///
  /// - Parameters:
  ///   - geometry: the shape, in longitude/latitude degrees.
  ///   - meters: the distance; negative to shrink polygons.
  ///   - quadrantSegments: segments per quarter circle of the round joins and caps.
  ///   - context: the GEOS context that computes the buffer.
  ///   - geodesic: the ellipsoid of the local projection.
  public static func buffer(
    _ geometry: Geometry, meters: Double, quadrantSegments: Int = 8, context: GEOSContext,
    geodesic: Geodesic = .wgs84
  ) throws -> Geometry {
    guard meters.isFinite, abs(meters) <= maximumExtent else {
      throw GeoError(
        .invalidArgument, "buffer distance must be finite and within \(maximumExtent) m")
    }
    let center = try centre(of: geometry)
    let projection = LocalProjection(center: center, geodesic: geodesic)
    let projected = try geometry.mapPositions { p in
      let c = try Coordinate(latitude: p.y, longitude: p.x)
      let q = projection.project(c)
      guard (q.x * q.x + q.y * q.y).squareRoot() <= maximumExtent else {
        throw GeoError(
          .invalidArgument,
          "position \(p) is more than \(maximumExtent) m from the shape's centre \(center)")
      }
      return q
    }
    let buffered = try context.buffer(
      projected, distance: meters, quadrantSegments: quadrantSegments)
    return try geographic(polygons(of: buffered), projection: projection, context: context)
  }

  // MARK: From projected metres to longitude/latitude

  /// The centre of a geometry's positions: the normalized mean of their unit vectors, which
  /// behaves across the antimeridian and near the poles.
  static func centre(of geometry: Geometry) throws -> Coordinate {
    var x = 0.0
    var y = 0.0
    var z = 0.0
    var bad: Position?
    geometry.forEachPosition { p in
      guard let c = try? Coordinate(latitude: p.y, longitude: p.x) else {
        if bad == nil { bad = p }
        return
      }
      let v = unitVector(c)
      x += v.x
      y += v.y
      z += v.z
    }
    if let bad {
      throw GeoError(.invalidCoordinate, "position \(bad) is not a longitude/latitude pair")
    }
    let norm = (x * x + y * y + z * z).squareRoot()
    guard norm > 1e-9 else {
      throw GeoError(.invalidArgument, "the geometry is empty or spread around the whole globe")
    }
    return try Coordinate(
      latitude: asin(max(-1, min(1, z / norm))) * 180 / .pi,
      longitude: atan2(y, x) * 180 / .pi)
  }

  private static func polygons(of geometry: Geometry) -> [Polygon] {
    switch geometry {
    case .polygon(let p): p.isEmpty ? [] : [p]
    case .multiPolygon(let ps): ps.filter { !$0.isEmpty }
    case .geometryCollection(let members): members.flatMap(polygons(of:))
    default: []
    }
  }

  /// Unprojects polygons, splits them at the antimeridian and closes them over a pole.
  static func geographic(
    _ projected: [Polygon], projection: LocalProjection, context: GEOSContext
  ) throws -> Geometry {
    var pieces: [Polygon] = []
    for polygon in projected {
      let exterior = try unwrappedRing(polygon.exterior.positions, projection: projection)
      let holes = try polygon.holes.map { hole in
        let ring = try unwrappedRing(hole.positions, projection: projection)
        guard ring.encircledPole == nil else {
          throw GeoError(.invalidGeometry, "a hole around a pole is not supported")
        }
        // Bring the hole into the exterior's copy of the longitudes.
        let shift = ((exterior.positions[0].x - ring.positions[0].x) / 360).rounded() * 360
        return ring.positions.map { Position(x: $0.x + shift, y: $0.y) }
      }
      var shell = exterior.positions
      if let pole = exterior.encircledPole {
        let first = shell[0]
        let last = shell[shell.count - 1]
        shell += [
          Position(x: last.x, y: pole), Position(x: first.x, y: pole), first,
        ]
      }
      let unwrapped = Polygon(
        unchecked: LinearRing(unchecked: shell), holes: holes.map(LinearRing.init(unchecked:)))
      pieces += try splitAtAntimeridian(unwrapped, context: context)
    }
    if pieces.count == 1 { return .polygon(pieces[0]) }
    // Parts of one shape that were cut at a window seam other than ±180° join up again here.
    let merged = try context.unaryUnion(.multiPolygon(pieces))
    let parts = polygons(of: merged)
    return parts.count == 1 ? .polygon(parts[0]) : .multiPolygon(parts)
  }

  /// A ring's unprojected vertices with continuous longitudes (which may leave [−180, 180)),
  /// densified so no edge spans more than ``maximumLongitudeStep``, and the pole it winds
  /// around (as a latitude, ±90), if any.
  private static func unwrappedRing(_ ring: [Position], projection: LocalProjection) throws
    -> (positions: [Position], encircledPole: Double?)
  {
    var out: [Position] = []
    var previous: (projected: Position, coordinate: Coordinate, longitude: Double)?
    var sumLatitude = 0.0
    for p in ring {
      let c = try projection.unproject(p)
      guard let last = previous else {
        out.append(Position(x: c.longitude, y: c.latitude))
        previous = (p, c, c.longitude)
        continue
      }
      var longitude = last.longitude
      appendSubdivided(
        from: last.projected, to: p, fromCoordinate: last.coordinate, toCoordinate: c,
        projection: projection, depth: 0, longitude: &longitude, into: &out)
      previous = (p, c, longitude)
      sumLatitude += c.latitude
    }
    let turn = out[out.count - 1].x - out[0].x
    guard abs(turn) > 180 else {
      out[out.count - 1] = out[0]  // exact closure despite rounding in the unwrapping
      return (out, nil)
    }
    return (out, sumLatitude >= 0 ? 90 : -90)
  }

  private static func appendSubdivided(
    from a: Position, to b: Position, fromCoordinate ca: Coordinate, toCoordinate cb: Coordinate,
    projection: LocalProjection, depth: Int, longitude: inout Double, into out: inout [Position]
  ) {
    let step = wrapped(cb.longitude - ca.longitude)
    if abs(step) > maximumLongitudeStep && depth < 24,
      let mid = try? projection.unproject(Position(x: (a.x + b.x) / 2, y: (a.y + b.y) / 2))
    {
      let m = Position(x: (a.x + b.x) / 2, y: (a.y + b.y) / 2)
      appendSubdivided(
        from: a, to: m, fromCoordinate: ca, toCoordinate: mid, projection: projection,
        depth: depth + 1, longitude: &longitude, into: &out)
      appendSubdivided(
        from: m, to: b, fromCoordinate: mid, toCoordinate: cb, projection: projection,
        depth: depth + 1, longitude: &longitude, into: &out)
      return
    }
    longitude += step
    out.append(Position(x: longitude, y: cb.latitude))
  }

  /// A longitude difference mapped into (−180, 180].
  private static func wrapped(_ d: Double) -> Double {
    var x = d.truncatingRemainder(dividingBy: 360)
    if x > 180 { x -= 360 }
    if x <= -180 { x += 360 }
    return x
  }

  /// Cuts a polygon with unwrapped longitudes into the copies of the world it overlaps and
  /// shifts each part back into [−180, 180].
  private static func splitAtAntimeridian(_ polygon: Polygon, context: GEOSContext) throws
    -> [Polygon]
  {
    let xs = polygon.exterior.positions.map(\.x)
    let low = Int(((xs.min()! + 180) / 360).rounded(.down))
    let high = Int(((xs.max()! + 180) / 360).rounded(.up)) - 1
    if low == 0 && high <= 0 { return [polygon] }
    var parts: [Polygon] = []
    for window in low...max(low, high) {
      let offset = Double(window) * 360
      let box = Geometry.polygon(
        Polygon(
          unchecked: LinearRing(unchecked: [
            Position(x: offset - 180, y: -90), Position(x: offset + 180, y: -90),
            Position(x: offset + 180, y: 90), Position(x: offset - 180, y: 90),
            Position(x: offset - 180, y: -90),
          ]), holes: []))
      let clipped = try context.intersection(.polygon(polygon), box)
      for part in polygons(of: clipped) {
        parts.append(part.mapPositions { Position(x: $0.x - offset, y: $0.y, z: $0.z) })
      }
    }
    return parts
  }
}
