import Geo

/// What the sky looks like to a phone at one place, as far as positioning is concerned.
///
/// The raw values order the kinds by precedence: where areas of different kinds overlap, the
/// higher one applies (an outage inside a building inside a street canyon is an outage).
public enum EnvironmentKind: Int, Hashable, Sendable, CaseIterable, Comparable,
  CustomStringConvertible
{
  /// Nothing in the way: GNSS works as well as it can. The kind wherever no area says otherwise.
  case openSky = 0
  /// Tall buildings on both sides block and reflect satellite signals: GNSS fixes are several
  /// times worse than in the open [3P Zandbergen 2009, Transactions in GIS 13(s1)].
  case urbanCanyon = 1
  /// Inside a building: no usable GNSS, positions come from Wi-Fi [?].
  case indoor = 2
  /// Underground (a subway line, an underground station): no GNSS, so location updates go
  /// silent as in an outage [3P], but the serving cell still locates the phone for region
  /// monitoring where the line has mobile coverage (all of Tokyo's subway has had it since
  /// 2013 [3P]); no Wi-Fi positions [?].
  case underground = 3
  /// Tunnels and dead zones: nothing locates the phone; CoreLocation goes silent, with no update
  /// and no error [3P], and region monitoring is blind.
  case outage = 4

  /// Whether `a` has lower precedence than `b`.
  public static func < (a: EnvironmentKind, b: EnvironmentKind) -> Bool {
    a.rawValue < b.rawValue
  }

  /// The Swift case name.
  public var description: String {
    switch self {
    case .openSky: "openSky"
    case .urbanCanyon: "urbanCanyon"
    case .indoor: "indoor"
    case .underground: "underground"
    case .outage: "outage"
    }
  }
}

/// Where positioning conditions differ from open sky: outage, indoor and urban-canyon areas.
///
/// Areas are polygons or multipolygons in longitude (`x`) and latitude (`y`) degrees, in
/// [−180, 180) like `Coordinate`; an area that crosses the antimeridian must be split there into
/// a multipolygon, as RFC 7946 asks and as `GeographicShapes` builds them. Containment is planar
/// in those degrees and includes the boundary (GEOS `covers`).
///
/// Where areas overlap, the kind with the highest precedence wins: ``EnvironmentKind/outage`` over
/// ``EnvironmentKind/indoor`` over ``EnvironmentKind/urbanCanyon``. Everywhere else is
/// ``EnvironmentKind/openSky``.
///
/// Each polygon is prepared once. Lookups go through a uniform grid over the areas' common
/// envelope: a point outside that envelope costs four comparisons; inside it, a grid cell lists
/// only the areas that reach into the cell, in precedence order, and remembers whether one of
/// them covers the cell completely. GEOS is asked only when a point lies in the envelope of an
/// area that touches but does not fill its cell, so a trajectory far from every area, or deep
/// inside one, never calls GEOS per fix.
///
/// The environment keeps its `GEOSContext` and, like it, must stay on one thread.
public final class SensorEnvironment {
  /// The areas as given, in the order given.
  public let areas: [(kind: EnvironmentKind, polygon: Geometry)]

  /// The prepared polygons, in precedence order.
  private let prepared: [PreparedGeometry]
  /// The kind of each prepared polygon.
  private let kinds: [EnvironmentKind]
  /// One envelope per polygon part, in precedence order of their areas.
  private let parts: [Part]
  private let grid: Grid
  /// For each grid cell, the range of ``entries`` holding its partial candidates.
  private let cellStart: [Int32]
  /// Part indices: the areas that reach into a cell without covering it, before the first area
  /// (in precedence order) that covers the cell.
  private let entries: [Int32]
  /// For each grid cell, the kind when no partial candidate covers the point.
  private let cellFallback: [EnvironmentKind]

  /// A polygon part's envelope and the area it belongs to.
  private struct Part {
    var minX: Double
    var minY: Double
    var maxX: Double
    var maxY: Double
    /// Index into ``SensorEnvironment/prepared``.
    var area: Int

    func contains(_ x: Double, _ y: Double) -> Bool {
      x >= minX && x <= maxX && y >= minY && y <= maxY
    }
  }

  /// A uniform grid over the areas' common envelope.
  private struct Grid {
    var minX = Double.infinity
    var minY = Double.infinity
    var maxX = -Double.infinity
    var maxY = -Double.infinity
    var columns = 1
    var rows = 1
    var cellWidth = 0.0
    var cellHeight = 0.0

    @inline(__always)
    func cell(_ x: Double, _ y: Double) -> Int? {
      guard x >= minX, x <= maxX, y >= minY, y <= maxY else { return nil }
      let column = cellWidth > 0 ? min(columns - 1, Int((x - minX) / cellWidth)) : 0
      let row = cellHeight > 0 ? min(rows - 1, Int((y - minY) / cellHeight)) : 0
      return row * columns + column
    }
  }

  /// Prepares the areas for fast lookups.
  ///
  /// - Parameters:
  ///   - areas: each area's kind and polygon (a `Geometry.polygon(_:)` or
  ///     `Geometry.multiPolygon(_:)`, in longitude/latitude degrees).
  ///   - context: the GEOS context that prepares the polygons and answers lookups.
  /// - Throws: ``DeviceError`` with code ``DeviceErrorCode/invalidArgument`` if an area is not
  ///   a non-empty, valid polygon or multipolygon or is of kind ``EnvironmentKind/openSky``,
  ///   naming the area's index; `GeoError` if GEOS fails.
  /// - Complexity: O(*n* log *n*) to sort, plus one GEOS coverage test per area and grid cell it
  ///   reaches into.
  public init(
    areas: [(kind: EnvironmentKind, polygon: Geometry)], context: GEOSContext
  ) throws {
    for (index, area) in areas.enumerated() {
      try SensorEnvironment.validate(area, index: index, context: context)
    }
    // Precedence order: higher kinds first, ties in the given order.
    let order = areas.indices.sorted { a, b in
      areas[a].kind != areas[b].kind ? areas[a].kind > areas[b].kind : a < b
    }
    let prepared = try order.map { try PreparedGeometry(areas[$0].polygon, context: context) }
    let kinds = order.map { areas[$0].kind }

    var parts: [Part] = []
    var grid = Grid()
    for (area, index) in order.enumerated() {
      for envelope in SensorEnvironment.partEnvelopes(areas[index].polygon) {
        parts.append(
          Part(
            minX: envelope.minX, minY: envelope.minY, maxX: envelope.maxX, maxY: envelope.maxY,
            area: area))
        grid.minX = min(grid.minX, envelope.minX)
        grid.minY = min(grid.minY, envelope.minY)
        grid.maxX = max(grid.maxX, envelope.maxX)
        grid.maxY = max(grid.maxY, envelope.maxY)
      }
    }
    if !parts.isEmpty {
      let target = min(16_384, max(256, 16 * parts.count))
      let width = grid.maxX - grid.minX
      let height = grid.maxY - grid.minY
      if width > 0, height > 0 {
        grid.columns = max(1, min(target, Int((Double(target) * width / height).squareRoot())))
        grid.rows = max(1, min(target, target / grid.columns))
      } else if width > 0 {
        grid.columns = target
      } else if height > 0 {
        grid.rows = target
      }
      grid.cellWidth = width / Double(grid.columns)
      grid.cellHeight = height / Double(grid.rows)
    }

    // Classify each part against each cell it reaches into.
    let cellCount = parts.isEmpty ? 0 : grid.columns * grid.rows
    var candidates = [[Int32]](repeating: [], count: cellCount)
    var fallback = [EnvironmentKind](repeating: .openSky, count: cellCount)
    var resolved = [Bool](repeating: false, count: cellCount)
    var coverage: [Int: Bool] = [:]  // (cell × areas + area) → covers the cell
    for (partIndex, part) in parts.enumerated() {
      let columns = SensorEnvironment.range(
        part.minX, part.maxX, origin: grid.minX, step: grid.cellWidth, count: grid.columns)
      let rows = SensorEnvironment.range(
        part.minY, part.maxY, origin: grid.minY, step: grid.cellHeight, count: grid.rows)
      for row in rows {
        for column in columns {
          let cell = row * grid.columns + column
          if resolved[cell] { continue }
          // Slightly enlarged, so that rounding in the cell lookup cannot put a point outside
          // the rectangle that was tested.
          let margin = 1e-9
          let rectangle = try SensorEnvironment.rectangle(
            minX: grid.minX + Double(column) * grid.cellWidth - margin,
            minY: grid.minY + Double(row) * grid.cellHeight - margin,
            maxX: grid.minX + Double(column + 1) * grid.cellWidth + margin,
            maxY: grid.minY + Double(row + 1) * grid.cellHeight + margin)
          let key = cell * prepared.count + part.area
          let covers: Bool
          if let known = coverage[key] {
            covers = known
          } else {
            covers = try prepared[part.area].covers(rectangle)
            coverage[key] = covers
          }
          if covers {
            fallback[cell] = kinds[part.area]
            resolved[cell] = true
          } else if try prepared[part.area].intersects(rectangle) {
            candidates[cell].append(Int32(partIndex))
          }
        }
      }
    }
    var cellStart: [Int32] = [0]
    cellStart.reserveCapacity(cellCount + 1)
    var entries: [Int32] = []
    for list in candidates {
      entries += list
      cellStart.append(Int32(entries.count))
    }

    self.areas = areas
    self.prepared = prepared
    self.kinds = kinds
    self.parts = parts
    self.grid = grid
    self.cellStart = cellStart
    self.entries = entries
    self.cellFallback = fallback
  }

  /// The environment at `coordinate`: the kind of the highest-precedence area covering it, or
  /// ``EnvironmentKind/openSky``.
  ///
  /// - Complexity: O(1) outside every area's envelope and in grid cells that no area boundary
  ///   crosses; otherwise one prepared-geometry test (O(log *v*) in the polygon's vertices) per
  ///   nearby area whose envelope holds the point.
  public func kind(at coordinate: Coordinate) -> EnvironmentKind {
    kind(longitude: coordinate.longitude, latitude: coordinate.latitude)
  }

  /// ``kind(at:)`` from plain degrees.
  @inline(__always)
  func kind(longitude x: Double, latitude y: Double) -> EnvironmentKind {
    guard let cell = grid.cell(x, y) else { return .openSky }
    let start = Int(cellStart[cell])
    let end = Int(cellStart[cell + 1])
    if start < end {
      return lookup(x, y, entries: start..<end) ?? cellFallback[cell]
    }
    return cellFallback[cell]
  }

  /// The kind of the first candidate part whose area covers the point, if any.
  private func lookup(_ x: Double, _ y: Double, entries range: Range<Int>) -> EnvironmentKind? {
    for entry in range {
      let part = parts[Int(entries[entry])]
      guard part.contains(x, y) else { continue }
      let covered: Bool
      do {
        covered = try prepared[part.area].covers(Position(x: x, y: y))
      } catch {
        // The polygons were validated and the point is finite: GEOS has no reason to fail here.
        preconditionFailure("testing an environment area failed: \(error)")
      }
      if covered { return kinds[part.area] }
    }
    return nil
  }

  private static func validate(
    _ area: (kind: EnvironmentKind, polygon: Geometry), index: Int, context: GEOSContext
  ) throws {
    switch area.polygon {
    case .polygon, .multiPolygon: break
    default:
      throw DeviceError(
        .invalidArgument,
        "area \(index) is a \(area.polygon.typeName); areas must be polygons or multipolygons")
    }
    guard !area.polygon.isEmpty else {
      throw DeviceError(.invalidArgument, "area \(index) is empty")
    }
    guard area.kind != .openSky else {
      throw DeviceError(
        .invalidArgument, "area \(index) is openSky, which is what lies outside every area")
    }
    guard try context.isValid(area.polygon) else {
      let reason = try context.validityReason(area.polygon)
      throw DeviceError(.invalidArgument, "area \(index) is not a valid polygon: \(reason)")
    }
  }

  /// The envelope of each polygon of `geometry`, so that the two halves of an area split at the
  /// antimeridian do not claim the whole width of the map.
  private static func partEnvelopes(_ geometry: Geometry) -> [Envelope] {
    switch geometry {
    case .multiPolygon(let polygons):
      return polygons.compactMap { Geometry.polygon($0).envelope }
    default:
      return geometry.envelope.map { [$0] } ?? []
    }
  }

  /// The grid indices whose cells overlap `low…high`.
  private static func range(
    _ low: Double, _ high: Double, origin: Double, step: Double, count: Int
  ) -> ClosedRange<Int> {
    guard step > 0 else { return 0...0 }
    let first = max(0, min(count - 1, Int(((low - origin) / step).rounded(.down))))
    let last = max(0, min(count - 1, Int(((high - origin) / step).rounded(.down))))
    return first...last
  }

  private static func rectangle(minX: Double, minY: Double, maxX: Double, maxY: Double) throws
    -> Geometry
  {
    let ring = [
      Position(x: minX, y: minY), Position(x: maxX, y: minY), Position(x: maxX, y: maxY),
      Position(x: minX, y: maxY), Position(x: minX, y: minY),
    ]
    return .polygon(try Polygon(rings: [ring]))
  }
}
