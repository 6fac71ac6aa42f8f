/// Writing delimited text that ``CSVReader`` (and other RFC 4180 readers) read back as written.
public enum CSVText {
  /// `field` as it goes between delimiters: as it is, or in double quotes with each `"` doubled
  /// when it holds the delimiter, a quote or a line break.
  public static func field(_ field: String, delimiter: CSVDelimiter = .comma) -> String {
    let needsQuotes = field.utf8.contains {
      $0 == delimiter.rawValue || $0 == UInt8(ascii: "\"") || $0 == 0x0A || $0 == 0x0D
    }
    guard needsQuotes else { return field }
    var out = "\""
    for c in field.unicodeScalars {
      if c == "\"" { out += "\"\"" } else { out.unicodeScalars.append(c) }
    }
    return out + "\""
  }
}
