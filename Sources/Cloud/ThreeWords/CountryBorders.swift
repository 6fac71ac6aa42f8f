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
  public var longitudes: [Double] { withVertices { _, longitudes in Array(longitudes) } }
  /// The vertices' latitudes in degrees, parallel to ``longitudes``.
  public var latitudes: [Double] { withVertices { latitudes, _ in Array(latitudes) } }
  /// The least and greatest latitude of the vertices (0…0 for a ring without any).
  public let latitudeRange: ClosedRange<Double>
  /// The least and greatest longitude of the vertices (0…0 for a ring without any).
  public let longitudeRange: ClosedRange<Double>
  /// The vertices where they lie: the longitudes and latitudes of every ring of the table the
  /// ring is read from (a ring of the shipped borders copies nothing), and its part of them.
  private let x: Column<Double>
  private let y: Column<Double>
  private let vertices: Range<Int>

  /// A ring of `country` through the given vertices.
  init(country: String, longitudes: [Double], latitudes: [Double]) {
    precondition(longitudes.count == latitudes.count, "a longitude for every latitude")
    self.init(
      country: country, x: Column(longitudes), y: Column(latitudes),
      vertices: 0..<longitudes.count)
  }

  private init(country: String, x: Column<Double>, y: Column<Double>, vertices: Range<Int>) {
    self.country = country
    self.x = x
    self.y = y
    self.vertices = vertices
    func range(_ values: UnsafeBufferPointer<Double>) -> ClosedRange<Double> {
      guard var low = values.first else { return 0...0 }
      var high = low
      for value in values {
        low = min(low, value)
        high = max(high, value)
      }
      return low...high
    }
    (latitudeRange, longitudeRange) = Self.withVertices(x, y, vertices) {
      (range($0), range($1))
    }
  }

  /// Calls `body` with the vertices' latitudes and longitudes, where they lie.
  package func withVertices<R>(
    _ body: (_ latitudes: UnsafeBufferPointer<Double>, _ longitudes: UnsafeBufferPointer<Double>)
      -> R
  ) -> R {
    Self.withVertices(x, y, vertices, body)
  }

  private static func withVertices<R>(
    _ x: Column<Double>, _ y: Column<Double>, _ vertices: Range<Int>,
    _ body: (UnsafeBufferPointer<Double>, UnsafeBufferPointer<Double>) -> R
  ) -> R {
    y.withUnsafeBufferPointer { y in
      x.withUnsafeBufferPointer { x in
        body(UnsafeBufferPointer(rebasing: y[vertices]), UnsafeBufferPointer(rebasing: x[vertices]))
      }
    }
  }

  /// Whether two rings are of the same country through the same vertices.
  public static func == (a: CountryBorderRing, b: CountryBorderRing) -> Bool {
    a.country == b.country
      && a.withVertices { aLatitudes, aLongitudes in
        b.withVertices { bLatitudes, bLongitudes in
          aLatitudes.elementsEqual(bLatitudes) && aLongitudes.elementsEqual(bLongitudes)
        }
      }
  }

  /// Hashes the country and the vertices, as `==` compares them.
  public func hash(into hasher: inout Hasher) {
    hasher.combine(country)
    withVertices { latitudes, longitudes in
      hasher.combine(latitudes.count)
      for (latitude, longitude) in zip(latitudes, longitudes) {
        hasher.combine(latitude)
        hasher.combine(longitude)
      }
    }
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
    (0..<table.count).map { r in
      CountryBorderRing(
        country: table.code(ofRing: r), x: table.x, y: table.y, vertices: table.vertices(ofRing: r))
    }
  }
}
