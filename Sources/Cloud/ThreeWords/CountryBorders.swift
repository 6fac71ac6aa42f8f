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
    let space: UInt8 = 0x20
    var rings: [CountryBorderRing] = []
    var lineNumber = 0
    var start = 0
    while start < bytes.count {
      var end = start
      while end < bytes.count, bytes[end] != 0x0A { end += 1 }
      defer { start = end + 1 }
      if end == start { continue }
      lineNumber += 1
      // First pass: the fields (runs of non-spaces) and the length of the first.
      var fields = 0
      var codeStart = -1
      var codeEnd = -1
      var i = start
      while i < end {
        while i < end, bytes[i] == space { i += 1 }
        guard i < end else { break }
        let fieldStart = i
        while i < end, bytes[i] != space { i += 1 }
        if fields == 0 { (codeStart, codeEnd) = (fieldStart, i) }
        fields += 1
      }
      guard fields >= 7, fields % 2 == 1, codeEnd - codeStart == 2 else {
        throw CloudError(.invalidData, "countries.txt line \(lineNumber): expected CC x y dx dy …")
      }
      // Second pass: the numbers after the code, as running sums.
      var longitudes: [Double] = []
      var latitudes: [Double] = []
      longitudes.reserveCapacity(fields / 2)
      latitudes.reserveCapacity(fields / 2)
      var px = 0
      var py = 0
      i = codeEnd
      for k in 0..<fields / 2 {
        guard let dx = integer(bytes, &i, end), let dy = integer(bytes, &i, end) else {
          throw CloudError(.invalidData, "countries.txt line \(lineNumber): bad number")
        }
        px = k == 0 ? dx : px + dx
        py = k == 0 ? dy : py + dy
        longitudes.append(Double(px) / 1_000)
        latitudes.append(Double(py) / 1_000)
      }
      rings.append(
        CountryBorderRing(
          country: String(
            decoding: UnsafeBufferPointer(rebasing: bytes[codeStart..<codeEnd]),
            as: UTF8.self),
          longitudes: longitudes, latitudes: latitudes))
    }
    return rings
  }

  /// The next field after `i` (skipping spaces) as a decimal `Int` with an optional sign, as
  /// `Int(_:)` reads it, or `nil`; leaves `i` after the field.
  @inline(__always)
  private static func integer(
    _ bytes: UnsafeBufferPointer<UInt8>, _ i: inout Int, _ end: Int
  ) -> Int? {
    while i < end, bytes[i] == 0x20 { i += 1 }
    var negative = false
    if i < end, bytes[i] == UInt8(ascii: "-") || bytes[i] == UInt8(ascii: "+") {
      negative = bytes[i] == UInt8(ascii: "-")
      i += 1
    }
    var value = 0
    var digits = 0
    var valid = true
    while i < end, bytes[i] != 0x20 {
      let digit = Int(bytes[i]) &- 48
      if digit < 0 || digit > 9 { valid = false }
      let (times10, o1) = value.multipliedReportingOverflow(by: 10)
      let (next, o2) =
        negative
        ? times10.subtractingReportingOverflow(digit) : times10.addingReportingOverflow(digit)
      if o1 || o2 { valid = false }
      value = next
      digits += 1
      i += 1
    }
    return valid && digits > 0 ? value : nil
  }
}
