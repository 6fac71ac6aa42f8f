import Foundation
import Geo
import ThreeWordData

/// Country borders and place names for three-word addresses: which country a square is in and
/// which town or city is near it.
///
/// Read once from data (`Resources/places`, built by `scripts/build-places.py`: DCW-GMT borders
/// simplified to 0.01°, GeoNames places of 15,000 inhabitants or more; the bundled one from the
/// tables the package build makes of it) and immutable afterwards, so one value is shared by
/// every service and task.
///
/// Country look-up is pure Swift: borders are cut into a grid of 0.5° cells; a cell crossed by
/// no border answers at once, and otherwise each country with edges in the cell is tested by
/// counting the edges crossed on the way from the cell's centre (whose answer is precomputed)
/// to the point. No GEOS context is involved, so the value is `Sendable` with no locking.
public struct ThreeWordGazetteer: Sendable {
  /// The code for "no country": the sea, Antarctica, and islands too small for the data.
  public static let noCountry = "ZZ"
  /// Places farther than this from a square, in metres, are not its nearest place.
  public static let nearestPlaceRadius = PlaceTable.nearRadius

  /// The ISO 3166-1 alpha-2 codes of the countries in the data, smallest area first.
  public var countryCodes: [String] { storage.grid.codes }
  private let storage: Storage

  /// The immutable tables, in one object so that copying a gazetteer costs one reference.
  private final class Storage: Sendable {
    /// The border vertices; edge `e` runs from vertex `e` to `e + 1` (`BorderTable`).
    let x: Column<Double>
    let y: Column<Double>
    let grid: CountryGrid
    let places: PointIndex<Int32>
    let placeTable: PlaceTable

    init(borders: BorderTable, grid: CountryGrid, places: PlaceTable) {
      x = borders.x
      y = borders.y
      self.grid = grid
      // The index as the tables hold it (their reader checked that it fits them), or built
      // again from the places.
      let ids = Array(0..<Int32(places.count))
      self.places =
        PointIndex(layout: places.index, points: places.point, elements: ids)
        ?? PointIndex(ids.map { (places.point(Int($0)), $0) })
      placeTable = places
    }
  }

  /// No borders and no places: every point is in `ZZ` and near no place.
  public static let empty = ThreeWordGazetteer(
    borders: BorderTable(ringCodes: [], ringStart: [0], x: [], y: []), grid: .empty,
    places: .empty)

  // The tables the package build made of the bundled folders (`ThreeWordTables`).
  private static let cached = Result { () throws(CloudError) -> ThreeWordGazetteer in
    ThreeWordGazetteer(tables: try ThreeWordTables.bundled())
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
  ///
  /// They are read from the tables the package build makes of ``bundledDirectory()``'s files,
  /// and answer as ``init(directory:)`` of that folder does.
  public static func bundled() throws(CloudError) -> ThreeWordGazetteer { try cached.get() }

  /// Reads `countries.txt` and `places.tsv` from `directory` (formats: the header of
  /// `scripts/build-places.py`).
  public init(directory: URL) throws(CloudError) {
    let borders = try Self.read(directory.appendingPathComponent("countries.txt")) {
      bytes throws(ThreeWordDataError) in try BorderTable(countriesUTF8: bytes)
    }
    let places = try Self.read(directory.appendingPathComponent("places.tsv")) {
      bytes throws(ThreeWordDataError) in try PlaceTable(placesUTF8: bytes)
    }
    self.init(borders: borders, grid: CountryGrid(borders: borders), places: places)
  }

  /// The gazetteer of tables read back from a table file.
  package init(tables: ThreeWordTables) {
    self.init(borders: tables.borders, grid: tables.grid, places: tables.places)
  }

  private init(borders: BorderTable, grid: CountryGrid, places: PlaceTable) {
    storage = Storage(borders: borders, grid: grid, places: places)
  }

  /// Reads `places.tsv`: one place per line, `name TAB ja TAB lat TAB lng`; blank lines are
  /// ignored.
  static func places(
    placesText text: String
  ) throws(CloudError) -> [(name: String, japanese: String, point: Coordinate)] {
    let table = try parse(text) { bytes throws(ThreeWordDataError) in
      try PlaceTable(placesUTF8: bytes)
    }
    return (0..<table.count).map { (table.name($0), table.japaneseName($0), table.point($0)) }
  }

  /// The decimal as `Double(_:)` reads it, or `nil` (`PlaceTable.decimal(_:)`).
  static func decimal(_ utf8: UnsafeBufferPointer<UInt8>) -> Double? {
    PlaceTable.decimal(utf8)
  }

  /// What `body` makes of the file's UTF-8, its errors as ``CloudError``s.
  static func read<T>(
    _ url: URL, _ body: (UnsafeBufferPointer<UInt8>) throws(ThreeWordDataError) -> T
  ) throws(CloudError) -> T {
    let text: String
    do {
      text = try String(contentsOf: url, encoding: .utf8)
    } catch {
      throw CloudError(.invalidData, "cannot read \(url.path): \(error)")
    }
    return try parse(text, body)
  }

  /// What `body` makes of the text's UTF-8, its errors as ``CloudError``s.
  static func parse<T>(
    _ text: String, _ body: (UnsafeBufferPointer<UInt8>) throws(ThreeWordDataError) -> T
  ) throws(CloudError) -> T {
    var text = text
    let parsed = text.withUTF8 { bytes in
      Result { () throws(ThreeWordDataError) in try body(bytes) }
    }
    do {
      return try parsed.get()
    } catch {
      throw CloudError(.invalidData, error.message)
    }
  }

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
    let grid = s.grid
    guard !grid.cellFill.isEmpty else { return -1 }
    let r = CountryGrid.row(point.latitude)
    let c = CountryGrid.column(point.longitude)
    let cell = r * CountryGrid.columns + c
    let px = point.longitude
    let py = point.latitude
    let cx = CountryGrid.centreLongitude(column: c)
    let cy = CountryGrid.centreLatitude(row: r)
    for entry in Int(grid.cellStart[cell])..<Int(grid.cellStart[cell + 1]) {
      var inside = grid.entryInside[entry]
      for k in Int(grid.entryEdgeStart[entry])..<Int(grid.entryEdgeStart[entry + 1]) {
        let e = Int(grid.edges[k])
        if Self.crosses(cx, cy, px, py, s.x[e], s.y[e], s.x[e + 1], s.y[e + 1]) { inside.toggle() }
      }
      if inside { return Int(grid.entryCountry[entry]) }
    }
    return Int(grid.cellFill[cell])
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
    let near = s.placeTable.near
    guard !near.isEmpty,
      near[
        CountryGrid.row(point.latitude) * CountryGrid.columns
          + CountryGrid.column(point.longitude)],
      let nearest = try? s.places.nearest(to: point, k: 1, metric: .geodesic).first,
      nearest.distance <= Self.nearestPlaceRadius
    else { return "" }
    let i = Int(nearest.element)
    if language == "ja" {
      let japanese = s.placeTable.japaneseName(i)
      if !japanese.isEmpty { return japanese }
    }
    return s.placeTable.name(i)
  }
}
