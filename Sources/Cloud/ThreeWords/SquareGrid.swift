import Foundation
import Geo

/// One square of GeoSim's global grid, by row (south to north) and column (west to east within
/// its band).
struct GridSquare: Hashable, Sendable {
  var row: Int
  var column: Int
}

/// GeoSim's grid of ≈ 3 m × 3 m squares.
///
/// The meridian of a sphere of radius 6,371,008.8 m (20,015 km pole to pole) is cut into
/// 6,671,700 rows of 180° / 6,671,700 ≈ 2.698 × 10⁻⁵° (3.0000 m) each, grouped into 66,717
/// latitude bands of 100 rows (300 m). Every row of band `b` has the same number of columns: the
/// band's circumference at its central latitude divided by 3 m, rounded to an even number (at
/// least 2), so squares are 3 m wide at the band's centre (13,343,410 columns at the equator; a
/// band's edge differs by at most the cosine change over 300 m, which only matters within a few
/// kilometres of a pole). Rows and column counts are even so that the four "colours" of
/// ``colour(of:)`` split every band exactly. In all, 56,673,945,881,000 squares.
enum SquareGrid {
  /// The grid's sphere: WGS84's mean radius.
  static let earthRadius = Ellipsoid.wgs84MeanRadius
  static let squareSize = 3.0
  static let rowsPerBand = 100
  static let bandCount = 66_717
  static let rowCount = rowsPerBand * bandCount
  /// A row's height in degrees of latitude.
  static let rowHeight = 180.0 / Double(rowCount)

  /// The number of columns in every row of `band`.
  static func columns(band: Int) -> Int {
    let latitude = -90 + (Double(band) + 0.5) * 180 / Double(bandCount)
    let circumference = 2 * Double.pi * earthRadius * cos(latitude * Double.pi / 180)
    return max(2, Int((circumference / squareSize / 2).rounded()) * 2)
  }

  /// The row containing `latitude` (a latitude of exactly 90° belongs to the last row).
  static func row(latitude: Double) -> Int {
    min(rowCount - 1, max(0, Int((latitude + 90) / rowHeight)))
  }

  /// The column containing `longitude` in a row of `columns` columns.
  static func column(longitude: Double, columns: Int) -> Int {
    min(columns - 1, max(0, Int((longitude + 180) / 360 * Double(columns))))
  }

  /// The square containing `coordinate`.
  static func square(containing coordinate: Coordinate) -> GridSquare {
    let row = row(latitude: coordinate.latitude)
    let columns = columns(band: row / rowsPerBand)
    return GridSquare(row: row, column: column(longitude: coordinate.longitude, columns: columns))
  }

  /// The square's south-west and north-east corners, in degrees.
  static func bounds(of square: GridSquare) -> (
    south: Double, west: Double, north: Double, east: Double
  ) {
    let columns = columns(band: square.row / rowsPerBand)
    let width = 360 / Double(columns)
    let south = -90 + Double(square.row) * rowHeight
    let west = -180 + Double(square.column) * width
    return (south, west, min(90, south + rowHeight), west + width)
  }

  /// The square's colour: squares that touch (sharing an edge or a corner, also across a band
  /// boundary or the antimeridian) never share a colour, because their rows or their columns
  /// differ by one and every band has an even number of columns.
  static func colour(of square: GridSquare) -> Int {
    (square.row & 1) << 1 | (square.column & 1)
  }
}

/// The part of the grid a language's addresses cover: whole rows between two latitudes and, in
/// each band, the columns between two longitudes, both widened to even boundaries.
///
/// Within each of the four colours the covered squares are numbered densely from 0 to
/// ``squaresPerColour`` − 1, band by band, row pair by row pair, column pair by column pair.
struct GridCoverage: Sendable {
  struct Band: Sendable {
    var rowStart: Int
    var rowEnd: Int
    var columnStart: Int
    var columnEnd: Int
    var columns: Int
    /// The colour index of this band's first square.
    var firstIndex: Int
    var halfWidth: Int { (columnEnd - columnStart) / 2 }
  }

  let south: Double
  let west: Double
  let north: Double
  let east: Double
  let firstBand: Int
  let bands: [Band]
  /// The number of covered squares of each colour (a quarter of all covered squares).
  let squaresPerColour: Int

  /// Coverage of the box; `west` must be less than `east` (no antimeridian crossing).
  init(south: Double, west: Double, north: Double, east: Double) {
    self.south = south
    self.west = west
    self.north = north
    self.east = east
    let firstRow = SquareGrid.row(latitude: south) & ~1
    let endRow = min(SquareGrid.rowCount, (SquareGrid.row(latitude: north) + 2) & ~1)
    firstBand = firstRow / SquareGrid.rowsPerBand
    let lastBand = (endRow - 1) / SquareGrid.rowsPerBand
    var bands: [Band] = []
    bands.reserveCapacity(lastBand - firstBand + 1)
    var index = 0
    for b in firstBand...lastBand {
      let columns = SquareGrid.columns(band: b)
      let rowStart = max(firstRow, b * SquareGrid.rowsPerBand)
      let rowEnd = min(endRow, (b + 1) * SquareGrid.rowsPerBand)
      let columnStart = Int(((west + 180) / 360 * Double(columns)).rounded(.down)) & ~1
      let columnEnd = min(
        columns, (Int(((east + 180) / 360 * Double(columns)).rounded(.up)) + 1) & ~1)
      let band = Band(
        rowStart: rowStart, rowEnd: rowEnd, columnStart: columnStart, columnEnd: columnEnd,
        columns: columns, firstIndex: index)
      index += (rowEnd - rowStart) / 2 * band.halfWidth
      bands.append(band)
    }
    self.bands = bands
    squaresPerColour = index
  }

  /// The square's colour and its number within that colour, or `nil` outside the coverage.
  func index(of square: GridSquare) -> (colour: Int, index: Int)? {
    let b = square.row / SquareGrid.rowsPerBand - firstBand
    guard b >= 0, b < bands.count else { return nil }
    let band = bands[b]
    guard square.row >= band.rowStart, square.row < band.rowEnd,
      square.column >= band.columnStart, square.column < band.columnEnd
    else { return nil }
    let rowPair = (square.row - band.rowStart) >> 1
    let columnPair = (square.column - band.columnStart) >> 1
    return (
      SquareGrid.colour(of: square), band.firstIndex + rowPair * band.halfWidth + columnPair
    )
  }

  /// The square with the given colour and number; `index` must be below ``squaresPerColour``.
  func square(colour: Int, index: Int) -> GridSquare {
    var low = 0
    var high = bands.count - 1
    while low < high {
      let mid = (low + high + 1) >> 1
      if bands[mid].firstIndex <= index { low = mid } else { high = mid - 1 }
    }
    let band = bands[low]
    let local = index - band.firstIndex
    let rowPair = local / band.halfWidth
    let columnPair = local - rowPair * band.halfWidth
    return GridSquare(
      row: band.rowStart + rowPair * 2 + (colour >> 1),
      column: band.columnStart + columnPair * 2 + (colour & 1))
  }
}
