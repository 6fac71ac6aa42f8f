import Foundation
import Geo

/// Country borders and place names for three-word addresses: which country a square is in and
/// which town or city is near it.
///
/// Read once from data (`Resources/places`, built by `scripts/build-places.py`: DCW-GMT borders
/// simplified to 0.01°, GeoNames places of 15,000 inhabitants or more) and immutable afterwards,
/// so one value is shared by every service and task.
///
/// Country look-up is pure Swift: borders are cut into a grid of 0.5° cells; a cell crossed by
/// no border answers at once, and otherwise each country with edges in the cell is tested by
/// counting the edges crossed on the way from the cell's centre (whose answer is precomputed)
/// to the point. No GEOS context is involved, so the value is `Sendable` with no locking.
public struct ThreeWordGazetteer: Sendable {
  /// The code for "no country": the sea, Antarctica, and islands too small for the data.
  public static let noCountry = "ZZ"
  /// Places farther than this from a square, in metres, are not its nearest place.
  public static let nearestPlaceRadius = 100_000.0

  static let cellSize = 0.5
  static let columns = 720
  static let rows = 360

  /// The ISO 3166-1 alpha-2 codes of the countries in the data, smallest area first.
  public let countryCodes: [String]
  private let storage: Storage

  /// The immutable tables, in one object so that copying a gazetteer costs one reference.
  private final class Storage: Sendable {
    // Edges: vertex `i` to vertex `i + 1` of `x`/`y`, for each `i` that is not a ring's last.
    let x: [Double]
    let y: [Double]
    // Per cell: entries `cellStart[c] ..< cellStart[c + 1]` of `entryCountry`/`entryInside`/
    // `entryEdgeStart`; entry `e` owns `edges[entryEdgeStart[e] ..< entryEdgeStart[e + 1]]`.
    // `cellFill` is the country holding a cell without edges of it (−1 for none).
    let cellStart: [Int32]
    let cellFill: [Int16]
    let entryCountry: [Int16]
    let entryInside: [Bool]
    let entryEdgeStart: [Int32]
    let edges: [Int32]
    let places: PointIndex<Int32>
    // Per cell: whether some place may lie within `nearestPlaceRadius` of a point in the cell
    // (a superset), so that far from places the index is not searched at all.
    let placeNear: [Bool]
    let placeNames: [String]
    let placeJapaneseNames: [String]

    init(
      x: [Double], y: [Double], cellStart: [Int32], cellFill: [Int16], entryCountry: [Int16],
      entryInside: [Bool], entryEdgeStart: [Int32], edges: [Int32],
      places: [(name: String, japanese: String, point: Coordinate)]
    ) {
      self.x = x
      self.y = y
      self.cellStart = cellStart
      self.cellFill = cellFill
      self.entryCountry = entryCountry
      self.entryInside = entryInside
      self.entryEdgeStart = entryEdgeStart
      self.edges = edges
      self.places = PointIndex(places.enumerated().map { ($0.element.point, Int32($0.offset)) })
      placeNear = ThreeWordGazetteer.placeCells(places.map(\.point))
      placeNames = places.map(\.name)
      placeJapaneseNames = places.map(\.japanese)
    }
  }

  /// No borders and no places: every point is in `ZZ` and near no place.
  public static let empty = ThreeWordGazetteer(rings: [], places: [])

  // The borders are those the viewer draws, so a process that does both reads them once.
  private static let cached = Result { () throws(CloudError) -> ThreeWordGazetteer in
    let rings = try CountryBorderRing.bundled()
    let places = try read(bundledDirectory().appendingPathComponent("places.tsv"))
    return try ThreeWordGazetteer(rings: rings, places: Self.places(placesText: places))
  }

  /// The folder of the borders and places shipped with GeoSim, for reading them afresh.
  ///
  /// - Throws: ``CloudError`` when the bundle has no such folder.
  public static func bundledDirectory() throws(CloudError) -> URL {
    guard let url = Bundle.module.url(forResource: "places", withExtension: nil) else {
      throw CloudError(.invalidData, "the bundled places folder is missing")
    }
    return url
  }

  /// The borders and places shipped with GeoSim, read on first use and shared afterwards.
  public static func bundled() throws(CloudError) -> ThreeWordGazetteer { try cached.get() }

  /// Reads `countries.txt` and `places.tsv` from `directory` (formats: the header of
  /// `scripts/build-places.py`).
  public init(directory: URL) throws(CloudError) {
    let countries = try Self.read(directory.appendingPathComponent("countries.txt"))
    let placesText = try Self.read(directory.appendingPathComponent("places.tsv"))
    let rings = try CountryBorderRing.rings(countriesText: countries)
    let places = try Self.places(placesText: placesText)
    self.init(rings: rings, places: places)
  }

  /// Reads `places.tsv`: one place per line, `name TAB ja TAB lat TAB lng`; blank lines are
  /// ignored.
  ///
  /// - Complexity: O(bytes), reading the UTF-8 in place.
  static func places(
    placesText text: String
  ) throws(CloudError) -> [(name: String, japanese: String, point: Coordinate)] {
    var text = text
    let parsed = text.withUTF8 { bytes in
      Result { () throws(CloudError) in try places(placesUTF8: bytes) }
    }
    return try parsed.get()
  }

  private static func places(
    placesUTF8 bytes: UnsafeBufferPointer<UInt8>
  ) throws(CloudError) -> [(name: String, japanese: String, point: Coordinate)] {
    let tab = UInt8(ascii: "\t")
    var places: [(name: String, japanese: String, point: Coordinate)] = []
    places.reserveCapacity(bytes.reduce(1) { $1 == 0x0A ? $0 + 1 : $0 })
    var lineNumber = 0
    var start = 0
    while start < bytes.count {
      var end = start
      while end < bytes.count, bytes[end] != 0x0A { end += 1 }
      defer { start = end + 1 }
      if end == start { continue }
      lineNumber += 1
      // The four fields' bounds: `cut[k] ..< cut[k + 1] - 1`, the last ending at `end`.
      var cuts = (start, 0, 0, 0)
      var fields = 1
      for i in start..<end where bytes[i] == tab {
        switch fields {
        case 1: cuts.1 = i + 1
        case 2: cuts.2 = i + 1
        case 3: cuts.3 = i + 1
        default: break
        }
        fields += 1
      }
      func field(_ from: Int, _ to: Int) -> UnsafeBufferPointer<UInt8> {
        UnsafeBufferPointer(rebasing: bytes[from..<to])
      }
      guard fields == 4, let lat = decimal(field(cuts.2, cuts.3 - 1)),
        let lng = decimal(field(cuts.3, end)),
        let point = try? Coordinate(latitude: lat, longitude: lng)
      else {
        throw CloudError(
          .invalidData, "places.tsv line \(lineNumber): expected name, ja, lat, lng")
      }
      places.append(
        (
          String(decoding: field(cuts.0, cuts.1 - 1), as: UTF8.self),
          String(decoding: field(cuts.1, cuts.2 - 1), as: UTF8.self), point
        ))
    }
    return places
  }

  /// The decimal as `Double(_:)` reads it, or `nil`.
  ///
  /// A plain decimal of at most 15 digits (`-12.3456`) is its digits as an integer divided by
  /// a power of ten: both exact in a `Double`, so the one rounding of the division gives the
  /// correctly rounded value, as `Double(_:)` does. Anything else goes to `Double(_:)`.
  static func decimal(_ utf8: UnsafeBufferPointer<UInt8>) -> Double? {
    var i = 0
    let negative = i < utf8.count && utf8[i] == UInt8(ascii: "-")
    if negative { i += 1 }
    var mantissa: Int64 = 0
    var digits = 0
    var fraction = -1
    while i < utf8.count {
      let byte = utf8[i]
      if byte == UInt8(ascii: "."), fraction < 0, digits > 0 {
        fraction = 0
      } else if byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9"), digits < 15 {
        mantissa = mantissa * 10 + Int64(byte - UInt8(ascii: "0"))
        digits += 1
        if fraction >= 0 { fraction += 1 }
      } else {
        return Double(String(decoding: utf8, as: UTF8.self))
      }
      i += 1
    }
    guard digits > 0, fraction != 0 else { return Double(String(decoding: utf8, as: UTF8.self)) }
    var scale = 1.0
    for _ in 0..<max(0, fraction) { scale *= 10 }
    let magnitude = Double(mantissa) / scale
    return negative ? -magnitude : magnitude
  }

  private static func read(_ url: URL) throws(CloudError) -> String {
    do {
      return try String(contentsOf: url, encoding: .utf8)
    } catch {
      throw CloudError(.invalidData, "cannot read \(url.path): \(error)")
    }
  }

  /// Builds the index from rings (longitude, latitude in degrees; each closes on its first
  /// point; a country's rings are read with the even-odd rule, earlier countries winning where
  /// two overlap) and places (name, Japanese name or empty, position).
  init(rings: [CountryBorderRing], places: [(name: String, japanese: String, point: Coordinate)]) {
    var codes: [String] = []
    var codeIndex: [String: Int16] = [:]
    var x: [Double] = []
    var y: [Double] = []
    var edgeCountry: [Int16] = []
    let vertexCount = rings.reduce(0) { $0 + $1.longitudes.count + 1 }
    x.reserveCapacity(vertexCount)
    y.reserveCapacity(vertexCount)
    edgeCountry.reserveCapacity(vertexCount)
    for ring in rings {
      let country: Int16
      if let known = codeIndex[ring.country] {
        country = known
      } else {
        country = Int16(codes.count)
        codeIndex[ring.country] = country
        codes.append(ring.country)
      }
      x.append(contentsOf: ring.longitudes)
      y.append(contentsOf: ring.latitudes)
      edgeCountry.append(contentsOf: repeatElement(country, count: ring.longitudes.count))
      x.append(ring.longitudes[0])
      y.append(ring.latitudes[0])
      edgeCountry.append(-1)  // the closing vertex starts no edge
    }
    let cellCount = Self.columns * Self.rows
    // Each vertex's column and row, once: as `column` and `row` never decrease, an edge's
    // extreme cells are those of its ends.
    let vertexColumn = x.map { Int32(Self.column($0)) }
    let vertexRow = y.map { Int32(Self.row($0)) }

    // Cells touched by each edge (a superset is harmless: extra edges are simply not crossed).
    func cells(of e: Int, _ visit: (Int) -> Void) {
      let c0 = Int(min(vertexColumn[e], vertexColumn[e + 1]))
      let c1 = Int(max(vertexColumn[e], vertexColumn[e + 1]))
      let r0 = Int(min(vertexRow[e], vertexRow[e + 1]))
      let r1 = Int(max(vertexRow[e], vertexRow[e + 1]))
      if (c1 - c0 + 1) * (r1 - r0 + 1) <= 9 {
        for r in r0...r1 { for c in c0...c1 { visit(r * Self.columns + c) } }
        return
      }
      // A long edge: walk it in steps of a quarter cell, with each step's neighbours.
      let x0 = x[e]
      let y0 = y[e]
      let x1 = x[e + 1]
      let y1 = y[e + 1]
      let steps = Int((max(abs(x1 - x0), abs(y1 - y0)) / (Self.cellSize / 4)).rounded(.up))
      var last = -1
      for s in 0...steps {
        let t = Double(s) / Double(steps)
        let c = Self.column(x0 + (x1 - x0) * t)
        let r = Self.row(y0 + (y1 - y0) * t)
        for rr in max(0, r - 1)...min(Self.rows - 1, r + 1) {
          for cc in max(0, c - 1)...min(Self.columns - 1, c + 1) {
            let cell = rr * Self.columns + cc
            if cell != last { visit(cell) }
          }
        }
        last = r * Self.columns + c
      }
    }

    // Two passes: count (cell, edge) pairs, then place them; `stamp` drops repeats of an edge.
    // (The tables are written through buffer pointers: these loops run for every edge.)
    var counts = [Int32](repeating: 0, count: cellCount + 1)
    var stamp = [Int32](repeating: -1, count: cellCount)
    counts.withUnsafeMutableBufferPointer { counts in
      stamp.withUnsafeMutableBufferPointer { stamp in
        for e in 0..<max(0, x.count - 1) where edgeCountry[e] >= 0 {
          cells(of: e) { cell in
            if stamp[cell] != Int32(e) {
              stamp[cell] = Int32(e)
              counts[cell + 1] += 1
            }
          }
        }
      }
      for i in 0..<cellCount { counts[i + 1] += counts[i] }
    }
    var cellEdges = [Int32](repeating: 0, count: Int(counts[cellCount]))
    var cursor = Array(counts.dropLast())
    stamp = [Int32](repeating: -1, count: cellCount)
    cellEdges.withUnsafeMutableBufferPointer { cellEdges in
      cursor.withUnsafeMutableBufferPointer { cursor in
        stamp.withUnsafeMutableBufferPointer { stamp in
          for e in 0..<max(0, x.count - 1) where edgeCountry[e] >= 0 {
            cells(of: e) { cell in
              if stamp[cell] != Int32(e) {
                stamp[cell] = Int32(e)
                cellEdges[Int(cursor[cell])] = Int32(e)
                cursor[cell] += 1
              }
            }
          }
        }
      }
    }

    // Entries: a cell's edges are in edge order, hence grouped by country.
    var cellStart = [Int32](repeating: 0, count: cellCount + 1)
    var entryCountry: [Int16] = []
    var entryEdgeStart: [Int32] = []
    for cell in 0..<cellCount {
      cellStart[cell] = Int32(entryCountry.count)
      var previous: Int16 = -1
      for i in Int(counts[cell])..<Int(counts[cell + 1]) {
        let country = edgeCountry[Int(cellEdges[i])]
        if country != previous {
          entryCountry.append(country)
          entryEdgeStart.append(Int32(i))
          previous = country
        }
      }
    }
    cellStart[cellCount] = Int32(entryCountry.count)
    entryEdgeStart.append(Int32(cellEdges.count))

    // Which countries hold each cell's centre: scan each row's centre line, crossing by
    // crossing (even-odd per country).
    var entryInside = [Bool](repeating: false, count: entryCountry.count)
    var cellFill = [Int16](repeating: -1, count: cellCount)
    var rowEdges = [[Int32]](repeating: [], count: Self.rows)
    for e in 0..<max(0, x.count - 1) where edgeCountry[e] >= 0 {
      let r0 = Int(min(vertexRow[e], vertexRow[e + 1]))
      let r1 = Int(max(vertexRow[e], vertexRow[e + 1]))
      for r in r0...r1 { rowEdges[r].append(Int32(e)) }
    }
    for r in 0..<Self.rows {
      let cy = Self.centreLatitude(row: r)
      var crossings: [(country: Int16, x: Double)] = []
      for e32 in rowEdges[r] {
        let e = Int(e32)
        if (y[e] > cy) != (y[e + 1] > cy) {
          let cx = x[e] + (cy - y[e]) / (y[e + 1] - y[e]) * (x[e + 1] - x[e])
          crossings.append((edgeCountry[e], cx))
        }
      }
      crossings.sort { ($0.country, $0.x) < ($1.country, $1.x) }
      var i = 0
      while i + 1 < crossings.count {
        let country = crossings[i].country
        guard crossings[i + 1].country == country else {
          i += 1
          continue
        }
        let from = Self.column(crossings[i].x)
        let to = Self.column(crossings[i + 1].x)
        for c in from...to {
          let cx = Self.centreLongitude(column: c)
          guard cx >= crossings[i].x, cx < crossings[i + 1].x else { continue }
          let cell = r * Self.columns + c
          var found = false
          for entry in Int(cellStart[cell])..<Int(cellStart[cell + 1])
          where entryCountry[entry] == country {
            entryInside[entry] = true
            found = true
          }
          if !found && (cellFill[cell] < 0 || country < cellFill[cell]) {
            cellFill[cell] = country
          }
        }
        i += 2
      }
    }

    self.countryCodes = codes
    storage = Storage(
      x: x, y: y, cellStart: cellStart, cellFill: cellFill, entryCountry: entryCountry,
      entryInside: entryInside, entryEdgeStart: entryEdgeStart, edges: cellEdges, places: places)
  }

  /// Marks every cell holding a point within ``nearestPlaceRadius`` of some place.
  ///
  /// The geodesic is at least `DistanceMetric.geodesic.lowerBoundRadius` times the central
  /// angle θ, so a nearby point is within θ = radius / that of the place in latitude, and by
  /// the haversine formula within 2 asin(sin(θ/2) / cos φmax) in longitude, φmax being the
  /// largest latitude of the band.
  static func placeCells(_ points: [Coordinate]) -> [Bool] {
    var near = [Bool](repeating: false, count: columns * rows)
    let theta = nearestPlaceRadius / DistanceMetric.geodesic.lowerBoundRadius
    let dLat = theta * 180 / .pi
    let sinHalfTheta = sin(theta / 2)
    near.withUnsafeMutableBufferPointer { near in
      func mark(rows r0: Int, _ r1: Int, columns c0: Int, _ c1: Int) {
        for r in r0...r1 {
          for c in c0...c1 { near[r * columns + c] = true }
        }
      }
      for p in points {
        let south = p.latitude - dLat
        let north = p.latitude + dLat
        let cosMax = cos(min(90, max(abs(south), abs(north))) * .pi / 180)
        let ratio = sinHalfTheta / cosMax
        let dLng = ratio >= 1 ? 360 : 2 * asin(ratio) * 180 / .pi
        let r0 = row(south)
        let r1 = row(north)
        if dLng >= 180 {
          mark(rows: r0, r1, columns: 0, columns - 1)
        } else {
          let west = p.longitude - dLng
          let east = p.longitude + dLng
          mark(rows: r0, r1, columns: column(max(-180, west)), column(min(180, east)))
          if west < -180 { mark(rows: r0, r1, columns: column(west + 360), columns - 1) }
          if east > 180 { mark(rows: r0, r1, columns: 0, column(east - 360)) }
        }
      }
    }
    return near
  }

  // Truncation toward zero rounds down where it matters: below 0 both clamp to column 0.
  @inline(__always)
  static func column(_ longitude: Double) -> Int {
    min(columns - 1, max(0, Int((longitude + 180) / cellSize)))
  }

  @inline(__always)
  static func row(_ latitude: Double) -> Int {
    min(rows - 1, max(0, Int((latitude + 90) / cellSize)))
  }

  static func centreLongitude(column: Int) -> Double { -180 + (Double(column) + 0.5) * cellSize }
  static func centreLatitude(row: Int) -> Double { -90 + (Double(row) + 0.5) * cellSize }

  /// The ISO 3166-1 alpha-2 code of the country containing the point, or ``noCountry``.
  ///
  /// - Complexity: O(edges in the point's 0.5° cell); well under a microsecond in a release
  ///   build, and a few nanoseconds away from borders and coasts.
  public func country(at point: Coordinate) -> String {
    let index = countryIndex(at: point)
    return index < 0 ? Self.noCountry : countryCodes[index]
  }

  /// Whether the point is in some country (on land, as far as the data knows).
  public func isOnLand(_ point: Coordinate) -> Bool { countryIndex(at: point) >= 0 }

  func countryIndex(at point: Coordinate) -> Int {
    let s = storage
    guard !s.cellFill.isEmpty else { return -1 }
    let r = Self.row(point.latitude)
    let c = Self.column(point.longitude)
    let cell = r * Self.columns + c
    let px = point.longitude
    let py = point.latitude
    let cx = Self.centreLongitude(column: c)
    let cy = Self.centreLatitude(row: r)
    for entry in Int(s.cellStart[cell])..<Int(s.cellStart[cell + 1]) {
      var inside = s.entryInside[entry]
      for k in Int(s.entryEdgeStart[entry])..<Int(s.entryEdgeStart[entry + 1]) {
        let e = Int(s.edges[k])
        if Self.crosses(cx, cy, px, py, s.x[e], s.y[e], s.x[e + 1], s.y[e + 1]) { inside.toggle() }
      }
      if inside { return Int(s.entryCountry[entry]) }
    }
    return Int(s.cellFill[cell])
  }

  /// Whether edge AB crosses segment CP. Vertices lying exactly on line CP count on one side
  /// only (as in ray casting), so a path through a vertex crosses once or not at all.
  @inline(__always)
  static func crosses(
    _ cx: Double, _ cy: Double, _ px: Double, _ py: Double,
    _ ax: Double, _ ay: Double, _ bx: Double, _ by: Double
  ) -> Bool {
    let dx = px - cx
    let dy = py - cy
    let sideA = dx * (ay - cy) - dy * (ax - cx) > 0
    let sideB = dx * (by - cy) - dy * (bx - cx) > 0
    guard sideA != sideB else { return false }
    let ex = bx - ax
    let ey = by - ay
    let sideC = ex * (cy - ay) - ey * (cx - ax) > 0
    let sideP = ex * (py - ay) - ey * (px - ax) > 0
    return sideC != sideP
  }

  /// The name of the nearest place within ``nearestPlaceRadius`` (geodesic), or an empty
  /// string: its Japanese name for `ja` where the data has one, otherwise its GeoNames name
  /// (the local name in Latin letters, often the English one).
  public func nearestPlace(to point: Coordinate, language: String = "en") -> String {
    let s = storage
    guard !s.placeNear.isEmpty,
      s.placeNear[Self.row(point.latitude) * Self.columns + Self.column(point.longitude)],
      let nearest = try? s.places.nearest(to: point, k: 1, metric: .geodesic).first,
      nearest.distance <= Self.nearestPlaceRadius
    else { return "" }
    let i = Int(nearest.element)
    if language == "ja", !s.placeJapaneseNames[i].isEmpty { return s.placeJapaneseNames[i] }
    return s.placeNames[i]
  }
}
