import Foundation
import ThreeWordData

/// One ring of the country borders GeoSim ships (`Resources/places/countries.txt`, DCW-GMT
/// simplified to 0.01°): an outer ring or a hole of one country, closing on its first vertex.
///
/// The same data the three-word service's country look-up reads, offered for drawing: a coarse
/// base layer that lets a reader of a map tell where things are.
public struct CountryBorderRing: Hashable, Sendable {
  /// The country's ISO 3166-1 alpha-2 code.
  public let country: String
  /// The vertices' longitudes in degrees, in order (the ring closes on the first).
  public let longitudes: [Double]
  /// The vertices' latitudes in degrees, parallel to ``longitudes``.
  public let latitudes: [Double]
  /// The least and greatest latitude of the vertices (0…0 for a ring without any).
  public let latitudeRange: ClosedRange<Double>
  /// The least and greatest longitude of the vertices (0…0 for a ring without any).
  public let longitudeRange: ClosedRange<Double>

  /// A ring of `country` through the given vertices.
  init(country: String, longitudes: [Double], latitudes: [Double]) {
    self.country = country
    self.longitudes = longitudes
    self.latitudes = latitudes
    latitudeRange = (latitudes.min() ?? 0)...(latitudes.max() ?? 0)
    longitudeRange = (longitudes.min() ?? 0)...(longitudes.max() ?? 0)
  }
}

extension CountryBorderRing {
  // From the table the package build made of the bundled folder (`BorderTable`).
  private static let cached = Result { () throws(CloudError) -> [CountryBorderRing] in
    rings(of: try BorderTable.bundled())
  }

  /// The rings of the shipped borders, read on first use and shared afterwards.
  ///
  /// - Throws: ``CloudError`` when the bundled file is missing or damaged.
  public static func bundled() throws(CloudError) -> [CountryBorderRing] { try cached.get() }

  /// The rings of a borders file in the format of `countries.txt`, read afresh.
  ///
  /// - Throws: ``CloudError`` when the file cannot be read or a line is damaged (naming it).
  public static func rings(contentsOf file: URL) throws(CloudError) -> [CountryBorderRing] {
    rings(
      of: try ThreeWordGazetteer.read(file) { bytes throws(ThreeWordDataError) in
        try BorderTable(countriesUTF8: bytes)
      })
  }

  /// Reads `countries.txt`: one ring per line, `CC x0 y0 dx1 dy1 …` in thousandths of a degree,
  /// the first vertex absolute and the others as differences; fields are separated by spaces
  /// and blank lines are ignored.
  static func rings(countriesText text: String) throws(CloudError) -> [CountryBorderRing] {
    rings(
      of: try ThreeWordGazetteer.parse(text) { bytes throws(ThreeWordDataError) in
        try BorderTable(countriesUTF8: bytes)
      })
  }

  /// The rings of a border table.
  package static func rings(of table: BorderTable) -> [CountryBorderRing] {
    table.x.withUnsafeBufferPointer { x in
      table.y.withUnsafeBufferPointer { y in
        (0..<table.count).map { r in
          let vertices = table.vertices(ofRing: r)
          return CountryBorderRing(
            country: table.code(ofRing: r), longitudes: Array(x[vertices]),
            latitudes: Array(y[vertices]))
        }
      }
    }
  }
}
