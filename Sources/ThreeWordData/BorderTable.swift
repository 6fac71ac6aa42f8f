/// The country borders (`countries.txt`) as flat tables: every ring's vertices one ring after
/// another, each ring closed by a repeat of its first vertex.
///
/// Ring `r` belongs to the country `ringCodes[2r ..< 2r + 2]` (ISO 3166-1 alpha-2, as bytes)
/// and runs through vertices `ringStart[r] ..< ringStart[r + 1]` of `x` (longitudes) and `y`
/// (latitudes) in degrees, the last of them the closing repeat. So vertex `e` to `e + 1` is an
/// edge unless `e + 1` starts a ring.
package struct BorderTable: Equatable, Sendable {
  package var ringCodes: Column<UInt8>
  package var ringStart: Column<Int32>
  package var x: Column<Double>
  package var y: Column<Double>

  /// The number of rings.
  package var count: Int { ringStart.count - 1 }

  /// Tables as they were built (read back from a table file, whose reader checks their shape).
  package init(
    ringCodes: Column<UInt8>, ringStart: Column<Int32>, x: Column<Double>, y: Column<Double>
  ) {
    self.ringCodes = ringCodes
    self.ringStart = ringStart
    self.x = x
    self.y = y
  }

  /// The country code of ring `r`.
  package func code(ofRing r: Int) -> String {
    String(decoding: ringCodes[2 * r..<2 * r + 2], as: UTF8.self)
  }

  /// The vertices of ring `r` without the closing repeat.
  package func vertices(ofRing r: Int) -> Range<Int> {
    Int(ringStart[r])..<Int(ringStart[r + 1]) - 1
  }

  /// Reads `countries.txt`: one ring per line, `CC x0 y0 dx1 dy1 …` in thousandths of a
  /// degree, the first vertex absolute and the others as differences; fields are separated by
  /// spaces and blank lines are ignored. Errors name the line, counting lines that hold rings.
  ///
  /// - Complexity: O(bytes), reading the UTF-8 in place (no substring per line or field).
  package init(countriesUTF8 bytes: UnsafeBufferPointer<UInt8>) throws(ThreeWordDataError) {
    let space = UInt8(ascii: " ")
    let newline = UInt8(ascii: "\n")
    var ringCodes: [UInt8] = []
    var ringStart: [Int32] = [0]
    var x: [Double] = []
    var y: [Double] = []
    // At most one number for every two bytes, and one more.
    x.reserveCapacity(bytes.count / 4 + 1)
    y.reserveCapacity(bytes.count / 4 + 1)
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
        throw ThreeWordDataError(
          .invalidData, "countries.txt line \(lineNumber): expected CC x y dx dy …")
      }
      guard !bad else {
        throw ThreeWordDataError(.invalidData, "countries.txt line \(lineNumber): bad number")
      }
      ringCodes.append(bytes[code.lowerBound])
      ringCodes.append(bytes[code.lowerBound + 1])
      var px = 0
      var py = 0
      for k in 0..<count / 2 {
        px = k == 0 ? numbers[0] : px + numbers[2 * k]
        py = k == 0 ? numbers[1] : py + numbers[2 * k + 1]
        x.append(Double(px) / 1_000)
        y.append(Double(py) / 1_000)
      }
      x.append(Double(numbers[0]) / 1_000)
      y.append(Double(numbers[1]) / 1_000)
      ringStart.append(Int32(x.count))
    }
    self.init(
      ringCodes: Column(ringCodes), ringStart: Column(ringStart), x: Column(x), y: Column(y))
  }
}
