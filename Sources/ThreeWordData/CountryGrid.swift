/// The country look-up's index over a ``BorderTable``: the globe cut into cells of 0.5°, each
/// listing, per country, the border edges that touch it and whether the cell's centre is
/// inside that country.
///
/// A country's rings are read with the even-odd rule, and where two countries overlap the one
/// whose ring comes first wins.
package struct CountryGrid: Equatable, Sendable {
  package static let cellSize = 0.5
  package static let columns = 720
  package static let rows = 360
  package static let cellCount = columns * rows

  /// The countries' codes, in the order their first ring comes in the borders.
  package var codes: [String]
  /// Per cell: entries `cellStart[c] ..< cellStart[c + 1]` of `entryCountry`/`entryInside`/
  /// `entryEdgeStart`; entry `e` owns `edges[entryEdgeStart[e] ..< entryEdgeStart[e + 1]]`
  /// (each the number of an edge's first vertex). `cellFill` is the country holding a cell
  /// without edges of it (−1 for none).
  package var cellStart: Column<Int32>
  package var cellFill: Column<Int16>
  package var entryCountry: Column<Int16>
  package var entryInside: Column<Bool>
  package var entryEdgeStart: Column<Int32>
  package var edges: Column<Int32>

  /// Tables as they were built (read back from a table file, whose reader checks their shape).
  package init(
    codes: [String], cellStart: Column<Int32>, cellFill: Column<Int16>,
    entryCountry: Column<Int16>, entryInside: Column<Bool>, entryEdgeStart: Column<Int32>,
    edges: Column<Int32>
  ) {
    self.codes = codes
    self.cellStart = cellStart
    self.cellFill = cellFill
    self.entryCountry = entryCountry
    self.entryInside = entryInside
    self.entryEdgeStart = entryEdgeStart
    self.edges = edges
  }

  /// No borders: every cell is in no country.
  package static let empty = CountryGrid(
    codes: [], cellStart: [], cellFill: [], entryCountry: [], entryInside: [], entryEdgeStart: [],
    edges: [])

  /// Builds the index of the borders.
  package init(borders: BorderTable) {
    let x = borders.x
    let y = borders.y
    guard !x.isEmpty else {
      self = .empty
      return
    }
    var codes: [String] = []
    var codeIndex: [String: Int16] = [:]
    // Each vertex's country, −1 for a ring's closing vertex (which starts no edge).
    var edgeCountry = [Int16](repeating: -1, count: x.count)
    for r in 0..<borders.count {
      let code = borders.code(ofRing: r)
      let country: Int16
      if let known = codeIndex[code] {
        country = known
      } else {
        country = Int16(codes.count)
        codeIndex[code] = country
        codes.append(code)
      }
      for v in borders.vertices(ofRing: r) { edgeCountry[v] = country }
    }
    let cellCount = Self.cellCount
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

    // Each (edge, cell) pair once, in edge order: `stamp` drops repeats of an edge in a cell.
    // (The tables are written through buffer pointers: these loops run for every edge.)
    func forEachEdgeCell(_ body: (_ edge: Int32, _ cell: Int) -> Void) {
      var stamp = [Int32](repeating: -1, count: cellCount)
      stamp.withUnsafeMutableBufferPointer { stamp in
        for e in 0..<x.count - 1 where edgeCountry[e] >= 0 {
          cells(of: e) { cell in
            if stamp[cell] != Int32(e) {
              stamp[cell] = Int32(e)
              body(Int32(e), cell)
            }
          }
        }
      }
    }
    // Two passes: count the pairs of each cell, then place them.
    var counts = [Int32](repeating: 0, count: cellCount + 1)
    counts.withUnsafeMutableBufferPointer { counts in
      forEachEdgeCell { _, cell in counts[cell + 1] += 1 }
      for i in 0..<cellCount { counts[i + 1] += counts[i] }
    }
    var cellEdges = [Int32](repeating: 0, count: Int(counts[cellCount]))
    var cursor = Array(counts.dropLast())
    cellEdges.withUnsafeMutableBufferPointer { cellEdges in
      cursor.withUnsafeMutableBufferPointer { cursor in
        forEachEdgeCell { edge, cell in
          cellEdges[Int(cursor[cell])] = edge
          cursor[cell] += 1
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
    for e in 0..<x.count - 1 where edgeCountry[e] >= 0 {
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
    self.init(
      codes: codes, cellStart: Column(cellStart), cellFill: Column(cellFill),
      entryCountry: Column(entryCountry), entryInside: Column(entryInside),
      entryEdgeStart: Column(entryEdgeStart), edges: Column(cellEdges))
  }

  // Truncation toward zero rounds down where it matters: below 0 both clamp to column 0.
  @inline(__always)
  package static func column(_ longitude: Double) -> Int {
    min(columns - 1, max(0, Int((longitude + 180) / cellSize)))
  }

  @inline(__always)
  package static func row(_ latitude: Double) -> Int {
    min(rows - 1, max(0, Int((latitude + 90) / cellSize)))
  }

  package static func centreLongitude(column: Int) -> Double {
    -180 + (Double(column) + 0.5) * cellSize
  }

  package static func centreLatitude(row: Int) -> Double { -90 + (Double(row) + 0.5) * cellSize }
}
