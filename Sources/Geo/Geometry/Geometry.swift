/// A planar geometry in the Simple Features model that GEOS, WKT, WKB and GeoJSON share.
///
/// Values are plain data: building one never touches GEOS, and every structural rule (a line
/// string has two or more positions, a ring is closed) is enforced by the throwing initialisers of
/// ``LineString``, ``LinearRing`` and ``Polygon``. Operations that need GEOS live on
/// ``GEOSContext``.
///
/// An empty point has no value of its own: GEOS's `POINT EMPTY` is read as an empty
/// ``multiPoint(_:)``. Empty line strings, polygons and collections keep their type.
public indirect enum Geometry: Hashable, Sendable {
  /// A single position.
  case point(Position)
  /// A line string.
  case lineString(LineString)
  /// A polygon with optional holes.
  case polygon(Polygon)
  /// A set of positions (empty when the array is).
  case multiPoint([Position])
  /// A set of line strings.
  case multiLineString([LineString])
  /// A set of polygons.
  case multiPolygon([Polygon])
  /// A heterogeneous collection.
  case geometryCollection([Geometry])

  /// Whether the geometry contains no positions at all.
  public var isEmpty: Bool {
    switch self {
    case .point: false
    case .lineString(let line): line.positions.isEmpty
    case .polygon(let polygon): polygon.isEmpty
    case .multiPoint(let points): points.isEmpty
    case .multiLineString(let lines): lines.allSatisfy { $0.positions.isEmpty }
    case .multiPolygon(let polygons): polygons.allSatisfy(\.isEmpty)
    case .geometryCollection(let members): members.allSatisfy(\.isEmpty)
    }
  }

  /// The smallest envelope holding every position, or `nil` for an empty geometry.
  ///
  /// - Complexity: O(*n*) in the number of positions.
  public var envelope: Envelope? {
    var bounds: Envelope?
    forEachPosition { p in
      if var b = bounds {
        b.minX = min(b.minX, p.x)
        b.minY = min(b.minY, p.y)
        b.maxX = max(b.maxX, p.x)
        b.maxY = max(b.maxY, p.y)
        bounds = b
      } else {
        bounds = Envelope(uncheckedMinX: p.x, minY: p.y, maxX: p.x, maxY: p.y)
      }
    }
    return bounds
  }

  /// Calls `body` with every position, in document order.
  func forEachPosition(_ body: (Position) -> Void) {
    switch self {
    case .point(let p): body(p)
    case .lineString(let line): line.positions.forEach(body)
    case .polygon(let polygon): polygon.forEachPosition(body)
    case .multiPoint(let points): points.forEach(body)
    case .multiLineString(let lines): for line in lines { line.positions.forEach(body) }
    case .multiPolygon(let polygons): for polygon in polygons { polygon.forEachPosition(body) }
    case .geometryCollection(let members): for member in members { member.forEachPosition(body) }
    }
  }

  /// The same geometry with `transform` applied to every position.
  ///
  /// Rings stay closed as long as `transform` maps equal positions to equal positions (any pure
  /// function does).
  public func mapPositions(_ transform: (Position) throws -> Position) rethrows -> Geometry {
    switch self {
    case .point(let p): return .point(try transform(p))
    case .lineString(let line): return .lineString(try line.mapPositions(transform))
    case .polygon(let polygon): return .polygon(try polygon.mapPositions(transform))
    case .multiPoint(let points): return .multiPoint(try points.map(transform))
    case .multiLineString(let lines):
      return .multiLineString(try lines.map { try $0.mapPositions(transform) })
    case .multiPolygon(let polygons):
      return .multiPolygon(try polygons.map { try $0.mapPositions(transform) })
    case .geometryCollection(let members):
      return .geometryCollection(try members.map { try $0.mapPositions(transform) })
    }
  }

  /// The geometry's type name as WKT spells it (`"Point"`, `"MultiPolygon"`, …).
  public var typeName: String {
    switch self {
    case .point: "Point"
    case .lineString: "LineString"
    case .polygon: "Polygon"
    case .multiPoint: "MultiPoint"
    case .multiLineString: "MultiLineString"
    case .multiPolygon: "MultiPolygon"
    case .geometryCollection: "GeometryCollection"
    }
  }
}

/// A sequence of two or more positions joined by straight segments, or the empty line string.
public struct LineString: Hashable, Sendable {
  /// The vertices in order.
  public let positions: [Position]

  /// Creates a line string; throws unless it has zero or at least two positions, all finite.
  public init(_ positions: [Position]) throws {
    guard positions.count != 1 else {
      throw GeoError(.invalidGeometry, "a line string needs at least 2 positions, got 1")
    }
    try validateFinite(positions, in: "line string")
    self.positions = positions
  }

  init(unchecked positions: [Position]) { self.positions = positions }

  func mapPositions(_ transform: (Position) throws -> Position) rethrows -> LineString {
    LineString(unchecked: try positions.map(transform))
  }
}

/// A closed line string: the boundary of a polygon or of one of its holes.
public struct LinearRing: Hashable, Sendable {
  /// The vertices in order; the last equals the first.
  public let positions: [Position]

  /// Creates a ring; throws unless it is empty or has at least four finite positions and its
  /// last position equals its first.
  public init(_ positions: [Position]) throws {
    if !positions.isEmpty {
      guard positions.count >= 4 else {
        throw GeoError(
          .invalidGeometry, "a linear ring needs at least 4 positions, got \(positions.count)")
      }
      guard positions.first == positions.last else {
        throw GeoError(
          .invalidGeometry,
          "a linear ring must be closed: first position \(positions.first!) differs from last \(positions.last!)"
        )
      }
    }
    try validateFinite(positions, in: "linear ring")
    self.positions = positions
  }

  init(unchecked positions: [Position]) { self.positions = positions }
}

/// A polygon: an exterior ring and zero or more holes.
public struct Polygon: Hashable, Sendable {
  /// The outer boundary (empty for the empty polygon).
  public let exterior: LinearRing
  /// The holes, each inside the exterior.
  public let holes: [LinearRing]

  /// Creates a polygon; throws if an empty exterior is given holes.
  ///
  /// Ring orientation is not enforced (GEOS accepts both); ``GEOSContext/isValid(_:)`` checks
  /// the topological rules (holes inside the shell, no self-intersection).
  public init(exterior: LinearRing, holes: [LinearRing] = []) throws {
    guard !exterior.positions.isEmpty || holes.isEmpty else {
      throw GeoError(.invalidGeometry, "an empty polygon cannot have holes")
    }
    if holes.contains(where: { $0.positions.isEmpty }) {
      throw GeoError(.invalidGeometry, "a polygon's hole cannot be empty")
    }
    self.exterior = exterior
    self.holes = holes
  }

  /// Creates a polygon from rings of positions: the exterior first, then the holes.
  public init(rings: [[Position]]) throws {
    guard let first = rings.first else {
      self.init(unchecked: LinearRing(unchecked: []), holes: [])
      return
    }
    try self.init(exterior: LinearRing(first), holes: rings.dropFirst().map(LinearRing.init))
  }

  init(unchecked exterior: LinearRing, holes: [LinearRing]) {
    self.exterior = exterior
    self.holes = holes
  }

  /// Whether this is the empty polygon.
  public var isEmpty: Bool { exterior.positions.isEmpty }

  /// All rings: the exterior first, then the holes (none for the empty polygon).
  public var rings: [LinearRing] { isEmpty ? [] : [exterior] + holes }

  func forEachPosition(_ body: (Position) -> Void) {
    exterior.positions.forEach(body)
    for hole in holes { hole.positions.forEach(body) }
  }

  func mapPositions(_ transform: (Position) throws -> Position) rethrows -> Polygon {
    Polygon(
      unchecked: LinearRing(unchecked: try exterior.positions.map(transform)),
      holes: try holes.map { LinearRing(unchecked: try $0.positions.map(transform)) })
  }
}

private func validateFinite(_ positions: [Position], in what: String) throws {
  for (index, p) in positions.enumerated()
  where !p.x.isFinite || !p.y.isFinite || !(p.z?.isFinite ?? true) {
    throw GeoError(.invalidGeometry, "\(what) position \(index) \(p) is not finite")
  }
}
