import Foundation
import Geo

/// The places (`places.tsv`) as flat tables: names, Japanese names and positions, with the
/// grid cells (those of ``CountryGrid``) near some place.
///
/// Place `i` is named `names[nameStart[i] ..< nameStart[i + 1]]` (UTF-8), in Japanese
/// `japanese[japaneseStart[i] ..< japaneseStart[i + 1]]` (empty where the data has none), and
/// lies at (`latitude[i]`, `longitude[i]`) in degrees.
package struct PlaceTable: Equatable, Sendable {
  package var names: Column<UInt8>
  package var nameStart: Column<Int32>
  package var japanese: Column<UInt8>
  package var japaneseStart: Column<Int32>
  package var latitude: Column<Double>
  package var longitude: Column<Double>
  /// Places farther than this from a point, in metres along the geodesic, are not near it.
  package static let nearRadius = 100_000.0

  /// Per grid cell: whether some place may lie within ``nearRadius`` of a point in the cell (a
  /// superset), so that far from places the places need not be searched at all.
  package var near: Column<Bool>

  /// The places' point index (insertion index `i` is place `i`), as built: the gazetteer's
  /// nearest-place search reads it back instead of building it in every process.
  package var index: PointIndexLayout

  /// The number of places.
  package var count: Int { latitude.count }

  /// Tables as they were built (read back from a table file, whose reader checks their shape).
  package init(
    names: Column<UInt8>, nameStart: Column<Int32>, japanese: Column<UInt8>,
    japaneseStart: Column<Int32>, latitude: Column<Double>, longitude: Column<Double>,
    near: Column<Bool>, index: PointIndexLayout
  ) {
    self.names = names
    self.nameStart = nameStart
    self.japanese = japanese
    self.japaneseStart = japaneseStart
    self.latitude = latitude
    self.longitude = longitude
    self.near = near
    self.index = index
  }

  /// No places.
  package static let empty = PlaceTable(
    names: [], nameStart: [0], japanese: [], japaneseStart: [0], latitude: [], longitude: [],
    near: [], index: PointIndex<Int32>([]).layout)

  /// Place `i`'s name.
  package func name(_ i: Int) -> String {
    String(decoding: names[Int(nameStart[i])..<Int(nameStart[i + 1])], as: UTF8.self)
  }

  /// Place `i`'s Japanese name, or an empty string.
  package func japaneseName(_ i: Int) -> String {
    String(decoding: japanese[Int(japaneseStart[i])..<Int(japaneseStart[i + 1])], as: UTF8.self)
  }

  /// Place `i`'s position.
  package func point(_ i: Int) -> Coordinate {
    Coordinate(uncheckedLatitude: latitude[i], longitude: longitude[i])
  }

  /// Reads `places.tsv`: one place per line, `name TAB ja TAB lat TAB lng`; blank lines are
  /// ignored. Errors name the line, counting lines that hold places.
  ///
  /// - Complexity: O(bytes), reading the UTF-8 in place.
  package init(placesUTF8 bytes: UnsafeBufferPointer<UInt8>) throws(ThreeWordDataError) {
    let tab = UInt8(ascii: "\t")
    var names: [UInt8] = []
    var nameStart: [Int32] = [0]
    var japanese: [UInt8] = []
    var japaneseStart: [Int32] = [0]
    var latitude: [Double] = []
    var longitude: [Double] = []
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
      guard fields == 4, let lat = Self.decimal(field(cuts.2, cuts.3 - 1)),
        let lng = Self.decimal(field(cuts.3, end)),
        let point = try? Coordinate(latitude: lat, longitude: lng)
      else {
        throw ThreeWordDataError(
          .invalidData, "places.tsv line \(lineNumber): expected name, ja, lat, lng")
      }
      names.append(contentsOf: field(cuts.0, cuts.1 - 1))
      nameStart.append(Int32(names.count))
      japanese.append(contentsOf: field(cuts.1, cuts.2 - 1))
      japaneseStart.append(Int32(japanese.count))
      latitude.append(point.latitude)
      longitude.append(point.longitude)
    }
    self.init(
      names: Column(names), nameStart: Column(nameStart), japanese: Column(japanese),
      japaneseStart: Column(japaneseStart), latitude: Column(latitude),
      longitude: Column(longitude),
      near: Column(Self.nearCells(latitudes: latitude, longitudes: longitude)),
      index: PointIndex(
        zip(latitude, longitude).enumerated().map { i, point in
          (Coordinate(uncheckedLatitude: point.0, longitude: point.1), Int32(i))
        }
      ).layout)
  }

  /// The decimal as `Double(_:)` reads it, or `nil`.
  ///
  /// A plain decimal of at most 15 digits (`-12.3456`) is its digits as an integer divided by
  /// a power of ten: both exact in a `Double`, so the one rounding of the division gives the
  /// correctly rounded value, as `Double(_:)` does. Anything else goes to `Double(_:)`.
  package static func decimal(_ utf8: UnsafeBufferPointer<UInt8>) -> Double? {
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

  /// Marks every cell holding a point within ``nearRadius`` of some place.
  ///
  /// The geodesic is at least `DistanceMetric.geodesic.lowerBoundRadius` times the central
  /// angle θ, so a nearby point is within θ = radius / that of the place in latitude, and by
  /// the haversine formula within 2 asin(sin(θ/2) / cos φmax) in longitude, φmax being the
  /// largest latitude of the band.
  package static func nearCells(latitudes: [Double], longitudes: [Double]) -> [Bool] {
    let columns = CountryGrid.columns
    var near = [Bool](repeating: false, count: CountryGrid.cellCount)
    let theta = nearRadius / DistanceMetric.geodesic.lowerBoundRadius
    let dLat = theta * 180 / .pi
    let sinHalfTheta = sin(theta / 2)
    near.withUnsafeMutableBufferPointer { near in
      func mark(rows r0: Int, _ r1: Int, columns c0: Int, _ c1: Int) {
        for r in r0...r1 {
          for c in c0...c1 { near[r * columns + c] = true }
        }
      }
      for (latitude, longitude) in zip(latitudes, longitudes) {
        let south = latitude - dLat
        let north = latitude + dLat
        let cosMax = cos(min(90, max(abs(south), abs(north))) * .pi / 180)
        let ratio = sinHalfTheta / cosMax
        let dLng = ratio >= 1 ? 360 : 2 * asin(ratio) * 180 / .pi
        let r0 = CountryGrid.row(south)
        let r1 = CountryGrid.row(north)
        if dLng >= 180 {
          mark(rows: r0, r1, columns: 0, columns - 1)
        } else {
          let west = longitude - dLng
          let east = longitude + dLng
          mark(
            rows: r0, r1, columns: CountryGrid.column(max(-180, west)),
            CountryGrid.column(min(180, east)))
          if west < -180 {
            mark(rows: r0, r1, columns: CountryGrid.column(west + 360), columns - 1)
          }
          if east > 180 { mark(rows: r0, r1, columns: 0, CountryGrid.column(east - 360)) }
        }
      }
    }
    return near
  }
}
