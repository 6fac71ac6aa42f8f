import Foundation

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
}

extension CountryBorderRing {
  private static let cached = Result { () throws(CloudError) -> [CountryBorderRing] in
    try rings(
      contentsOf: ThreeWordGazetteer.bundledDirectory().appendingPathComponent("countries.txt"))
  }

  /// The rings of the shipped borders, read on first use and shared afterwards.
  ///
  /// - Throws: ``CloudError`` when the bundled file is missing or damaged.
  public static func bundled() throws(CloudError) -> [CountryBorderRing] { try cached.get() }

  /// The rings of a borders file in the format of `countries.txt`, read afresh.
  ///
  /// - Throws: ``CloudError`` when the file cannot be read or a line is damaged (naming it).
  public static func rings(contentsOf file: URL) throws(CloudError) -> [CountryBorderRing] {
    let text: String
    do {
      text = try String(contentsOf: file, encoding: .utf8)
    } catch {
      throw CloudError(.invalidData, "cannot read \(file.path): \(error)")
    }
    return try rings(countriesText: text)
  }

  /// Reads `countries.txt`: one ring per line, `CC x0 y0 dx1 dy1 …` in thousandths of a degree,
  /// the first vertex absolute and the others as differences.
  static func rings(countriesText text: String) throws(CloudError) -> [CountryBorderRing] {
    var rings: [CountryBorderRing] = []
    for (n, line) in text.split(separator: "\n").enumerated() {
      let fields = line.split(separator: " ")
      guard fields.count >= 7, fields.count % 2 == 1, fields[0].utf8.count == 2 else {
        throw CloudError(.invalidData, "countries.txt line \(n + 1): expected CC x y dx dy …")
      }
      var longitudes: [Double] = []
      var latitudes: [Double] = []
      longitudes.reserveCapacity(fields.count / 2)
      latitudes.reserveCapacity(fields.count / 2)
      var px = 0
      var py = 0
      for i in stride(from: 1, to: fields.count, by: 2) {
        guard let dx = Int(fields[i]), let dy = Int(fields[i + 1]) else {
          throw CloudError(.invalidData, "countries.txt line \(n + 1): bad number")
        }
        px = i == 1 ? dx : px + dx
        py = i == 1 ? dy : py + dy
        longitudes.append(Double(px) / 1_000)
        latitudes.append(Double(py) / 1_000)
      }
      rings.append(
        CountryBorderRing(
          country: String(fields[0]), longitudes: longitudes, latitudes: latitudes))
    }
    return rings
  }
}
