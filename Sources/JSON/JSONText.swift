/// The two pieces of JSON text every GeoSim writer shares, so that the same value always
/// gives the same bytes.
///
/// ``JSONBuffer`` writes the same text as UTF-8 bytes, for writers of large files such as the
/// event log.
public enum JSONText {
  /// The shortest digits that read back exactly as `n`; integral values (below 10¹⁵) are
  /// written without a fraction. `n` must be finite.
  public static func number(_ n: Double) -> String {
    if n == n.rounded(), abs(n) < 1e15 { return String(Int64(n)) }
    return "\(n)"
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
}
