/// The two pieces of JSON text every GeoSim writer shares, so that the same value always
/// gives the same bytes.
///
/// Each comes in two forms that give the same text: appending to a `String`, and appending
/// UTF-8 to a byte buffer (for writers of large files, such as the event log).
public enum JSONText {
  /// The shortest digits that read back exactly as `n`; integral values (below 10¹⁵) are
  /// written without a fraction. `n` must be finite.
  public static func number(_ n: Double) -> String {
    if n == n.rounded(), abs(n) < 1e15 { return String(Int64(n)) }
    return "\(n)"
  }

  /// Appends ``number(_:)``'s text for `n` to `out` as UTF-8. `n` must be finite.
  public static func writeNumber(_ n: Double, to out: inout [UInt8]) {
    if n == n.rounded(), abs(n) < 1e15 { return writeInteger(Int64(n), to: &out) }
    var text = n.description
    text.withUTF8 { out.append(contentsOf: $0) }
  }

  /// Appends the decimal digits of `i` (with a minus sign when negative) to `out`: the bytes
  /// of `String(i)`.
  public static func writeInteger(_ i: Int64, to out: inout [UInt8]) {
    // Made from the end in a buffer of its own (19 digits and a sign at most), appended once.
    withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 20) { digits in
      var rest = i.magnitude
      var first = 20
      repeat {
        first -= 1
        digits[first] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: rest % 10)
        rest /= 10
      } while rest != 0
      if i < 0 {
        first -= 1
        digits[first] = UInt8(ascii: "-")
      }
      out.append(contentsOf: UnsafeBufferPointer(rebasing: digits[first...]))
    }
  }

  /// Appends `s` as a quoted JSON string, escaping quotes, backslashes and control characters.
  public static func writeString(_ s: String, to out: inout String) {
    out += "\""
    for scalar in s.unicodeScalars {
      switch scalar {
      case "\"": out += "\\\""
      case "\\": out += "\\\\"
      case "\n": out += "\\n"
      case "\r": out += "\\r"
      case "\t": out += "\\t"
      case let c where c.value < 0x20:
        let hex = String(c.value, radix: 16)
        out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
      default: out.unicodeScalars.append(scalar)
      }
    }
    out += "\""
  }

  /// Appends `s` as a quoted JSON string to `out` as UTF-8: the same bytes as the text the
  /// `String` form appends.
  public static func writeString(_ s: String, to out: inout [UInt8]) {
    var s = s
    s.withUTF8 { writeString(utf8: $0, to: &out) }
  }

  private static func writeString(utf8: UnsafeBufferPointer<UInt8>, to out: inout [UInt8]) {
    out.append(UInt8(ascii: "\""))
    // Runs of bytes that need no escape are copied whole; only ASCII needs escapes, so the
    // bytes of other scalars are copied as they are.
    var run = 0
    for (i, byte) in utf8.enumerated() where byte < 0x20 || byte == 0x22 || byte == 0x5C {
      out.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[run..<i]))
      run = i + 1
      out.append(UInt8(ascii: "\\"))
      switch byte {
      case 0x22, 0x5C: out.append(byte)
      case 0x0A: out.append(UInt8(ascii: "n"))
      case 0x0D: out.append(UInt8(ascii: "r"))
      case 0x09: out.append(UInt8(ascii: "t"))
      default:
        let hex: [UInt8] = Array("0123456789abcdef".utf8)
        out.append(contentsOf: [
          UInt8(ascii: "u"), 0x30, 0x30, hex[Int(byte >> 4)], hex[Int(byte & 15)],
        ])
      }
    }
    out.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[run...]))
    out.append(UInt8(ascii: "\""))
  }
}
