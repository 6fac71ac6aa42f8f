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
  /// the first vertex absolute and the others as differences; fields are separated by spaces
  /// and blank lines are ignored.
  ///
  /// - Complexity: O(bytes), reading the UTF-8 in place (no substring per line or field).
  static func rings(countriesText text: String) throws(CloudError) -> [CountryBorderRing] {
    var text = text
    let parsed = text.withUTF8 { bytes in
      Result { () throws(CloudError) in try rings(countriesUTF8: bytes) }
    }
    return try parsed.get()
  }

  private static func rings(
    countriesUTF8 bytes: UnsafeBufferPointer<UInt8>
  ) throws(CloudError) -> [CountryBorderRing] {
    let space = UInt8(ascii: " ")
    let newline = UInt8(ascii: "\n")
    var rings: [CountryBorderRing] = []
    // A line's numbers: at most one for every two bytes of it, and one more.
    let numbers = UnsafeMutableBufferPointer<Int>.allocate(capacity: bytes.count / 2 + 1)
    defer { numbers.deallocate() }
    var lineNumber = 0
    var i = 0
    // One pass: each line's fields are counted and its numbers read as they go by; the line
    // is judged at its end, its field count first (as the message for a short line is).
    while i < bytes.count {
      while i < bytes.count, bytes[i] == newline { i += 1 }
      guard i < bytes.count else { break }
      lineNumber += 1
      var count = 0
      var fields = 0
      var code = 0..<0
      var bad = false
      while i < bytes.count, bytes[i] != newline {
        if bytes[i] == space {
          i += 1
          continue
        }
        let start = i
        if fields == 0 {
          while i < bytes.count, bytes[i] != space, bytes[i] != newline { i += 1 }
          code = start..<i
        } else {
          // A decimal integer with an optional sign, as `Int(_:)` reads it.
          let negative = bytes[i] == UInt8(ascii: "-")
          if negative || bytes[i] == UInt8(ascii: "+") { i += 1 }
          let digitsStart = i
          var value = 0
          while i < bytes.count {
            let digit = bytes[i] &- UInt8(ascii: "0")
            guard digit < 10 else { break }
            value = value &* 10 &+ Int(digit)
            i += 1
          }
          if i == digitsStart || (i < bytes.count && bytes[i] != space && bytes[i] != newline) {
            bad = true
            while i < bytes.count, bytes[i] != space, bytes[i] != newline { i += 1 }
          } else if i - digitsStart > 18 {
            // Long enough to overflow: let `Int(_:)` judge it.
            let text = String(
              decoding: UnsafeBufferPointer(rebasing: bytes[start..<i]), as: UTF8.self)
            if let exact = Int(text) { value = exact } else { bad = true }
          } else if negative {
            value = -value
          }
          numbers[count] = value
          count += 1
        }
        fields += 1
      }
      guard fields >= 7, fields % 2 == 1, code.count == 2 else {
        throw CloudError(.invalidData, "countries.txt line \(lineNumber): expected CC x y dx dy …")
      }
      guard !bad else {
        throw CloudError(.invalidData, "countries.txt line \(lineNumber): bad number")
      }
      var px = 0
      var py = 0
      let vertices = count / 2
      let longitudes = [Double](unsafeUninitializedCapacity: vertices) { out, initialized in
        for k in 0..<vertices {
          px = k == 0 ? numbers[0] : px + numbers[2 * k]
          out[k] = Double(px) / 1_000
        }
        initialized = vertices
      }
      let latitudes = [Double](unsafeUninitializedCapacity: vertices) { out, initialized in
        for k in 0..<vertices {
          py = k == 0 ? numbers[1] : py + numbers[2 * k + 1]
          out[k] = Double(py) / 1_000
        }
        initialized = vertices
      }
      rings.append(
        CountryBorderRing(
          country: String(decoding: UnsafeBufferPointer(rebasing: bytes[code]), as: UTF8.self),
          longitudes: longitudes, latitudes: latitudes))
    }
    return rings
  }
}
