// How `UserDefaults`' typed getters coerce a stored value, one rule per function.
//
// Apple's pages for `double(forKey:)`, `integer(forKey:)`, `bool(forKey:)` and
// `string(forKey:)` give the rules by example. Where they stop (a string that is not a number,
// a negative fraction, a value out of range), GeoSim follows the documented `NSString` scalar
// accessors `doubleValue`, `integerValue` and `boolValue`, which the open-source Foundation's
// `UserDefaults` also uses for strings; each such choice is marked "GeoSim's rule(s)" below.

extension StoredValue {
  /// The value as `double(forKey:)` returns it.
  ///
  /// Apple (`UserDefaults.double(forKey:)`): `true` becomes 1.0 and `false` 0.0; an integer
  /// becomes the equal double (2 → 2.0); a string that contains a number becomes that number
  /// ("123.4" → 123.4). Everything else is 0.0.
  ///
  /// GeoSim's rule where Apple is silent: a string is read as `NSString.doubleValue` does.
  /// Leading whitespace is skipped, the longest decimal floating-point prefix is read (so
  /// "3.5 km" is 3.5), a string that does not begin with a number is 0.0, and overflow gives
  /// ±infinity (`HUGE_VAL`, Apple's `NSString.doubleValue`). As in Core Foundation's scanner,
  /// only the characters `0-9 + - . e E` take part: "inf", "nan" and hexadecimal are 0.0.
  var coercedDouble: Double {
    switch self {
    case .bool(let value): value ? 1 : 0
    case .int(let value): Double(value)
    case .double(let value): value
    case .string(let text): DecimalText.doubleValue(text)
    case .data, .date, .array, .dictionary: 0
    }
  }

  /// The value as `integer(forKey:)` returns it.
  ///
  /// Apple (`UserDefaults.integer(forKey:)`): `true` becomes 1 and `false` 0; a floating-point
  /// number becomes an integer (2.67 → 2); a string that contains a number becomes that number
  /// ("123" → 123). Everything else is 0.
  ///
  /// GeoSim's rules where Apple is silent: a double is truncated toward zero, as `NSNumber`'s
  /// `integerValue` and a C conversion do (−2.67 → −2; Apple's wording "the greatest integer
  /// less than the number" would say −3, but its only example is positive); NaN is 0 and values
  /// beyond `Int`'s range saturate at `Int.min` or `Int.max`. A string is read as
  /// `NSString.integerValue` does: leading whitespace, an optional sign, then decimal digits,
  /// ignoring whatever follows ("3.9" → 3, "1e3" → 1); no leading digits gives 0; overflow
  /// gives `Int.max` or `Int.min` (Apple's `NSString.longLongValue`, `LLONG_MAX`/`LLONG_MIN`).
  var coercedInteger: Int {
    switch self {
    case .bool(let value): value ? 1 : 0
    case .int(let value): value
    case .double(let value): Self.truncatingSaturating(value)
    case .string(let text): DecimalText.integerValue(text)
    case .data, .date, .array, .dictionary: 0
    }
  }

  /// The value as `bool(forKey:)` returns it.
  ///
  /// Apple (`UserDefaults.bool(forKey:)`): the numbers 1 and 1.0 and the strings "true",
  /// "YES" and "1" are `true`. Everything else not covered below is `false`.
  ///
  /// GeoSim's rules where Apple is silent: any non-zero number is `true` (`NSNumber.boolValue`;
  /// Core Foundation's `CFPreferencesGetAppBooleanValue` compares with zero the same way). A
  /// string is read as `NSString.boolValue` documents: after leading whitespace, "Y", "y", "T"
  /// or "t" gives `true` whatever follows ("yes", "true", "Yikes"); otherwise an optional sign
  /// and any zeros are skipped and a digit 1–9 gives `true` ("1", " 2", "+007"). So "no",
  /// "false", "0", "+y" and "" are `false`.
  var coercedBool: Bool {
    switch self {
    case .bool(let value): value
    case .int(let value): value != 0
    case .double(let value): value != 0
    case .string(let text): DecimalText.boolValue(text)
    case .data, .date, .array, .dictionary: false
    }
  }

  /// The value as `string(forKey:)` returns it.
  ///
  /// Apple (`UserDefaults.string(forKey:)`): a string is returned as is, a number is converted
  /// to a string (123 → "123"), and a value that cannot make an appropriate string gives `nil`
  /// (data, dates, arrays, dictionaries).
  ///
  /// GeoSim's rules for the number's text, after `NSNumber.stringValue`: a Boolean is "1" or
  /// "0" (it is stored as an `NSNumber`); an integral double within ±1e17 has no fraction
  /// (2.0 → "2"); other doubles use the shortest text that reads back the same ("3.5", "0.1",
  /// "1e+20"); NaN and infinities are "nan", "inf" and "-inf".
  var coercedString: String? {
    switch self {
    case .bool(let value): value ? "1" : "0"
    case .int(let value): String(value)
    case .double(let value): Self.numberText(value)
    case .string(let text): text
    case .data, .date, .array, .dictionary: nil
    }
  }

  private static func truncatingSaturating(_ value: Double) -> Int {
    if value.isNaN { return 0 }
    if value >= 0x1p63 { return .max }
    if value < -0x1p63 { return .min }
    return Int(value.rounded(.towardZero))
  }

  private static func numberText(_ value: Double) -> String {
    if value.isNaN { return "nan" }
    if value.isInfinite { return value < 0 ? "-inf" : "inf" }
    if value == value.rounded(.towardZero) && abs(value) < 1e17 {
      return String(Int64(value))
    }
    return value.description
  }
}

/// Reading numbers and Booleans out of text as `NSString`'s scalar accessors do.
///
/// Whitespace is Unicode's White_Space property. Only ASCII digits count as digits.
enum DecimalText {
  /// `NSString.doubleValue`: the longest decimal floating-point prefix after leading
  /// whitespace; 0 when there is none; ±infinity on overflow.
  static func doubleValue(_ text: String) -> Double {
    let scalars = Array(text.unicodeScalars)
    var i = skipWhitespace(scalars, from: 0)
    let start = i
    if i < scalars.count, scalars[i] == "+" || scalars[i] == "-" { i += 1 }
    let integerDigits = countDigits(scalars, from: i)
    i += integerDigits
    var fractionDigits = 0
    if i < scalars.count, scalars[i] == "." {
      fractionDigits = countDigits(scalars, from: i + 1)
      if integerDigits > 0 || fractionDigits > 0 { i += 1 + fractionDigits }
    }
    guard integerDigits > 0 || fractionDigits > 0 else { return 0 }
    var end = i  // the end of the longest valid prefix so far
    if i < scalars.count, scalars[i] == "e" || scalars[i] == "E" {
      var j = i + 1
      if j < scalars.count, scalars[j] == "+" || scalars[j] == "-" { j += 1 }
      let exponentDigits = countDigits(scalars, from: j)
      if exponentDigits > 0 { end = j + exponentDigits }
    }
    // Swift's parser accepts exactly this grammar, including "5." and ".5", and returns
    // ±infinity when the value is out of range.
    var prefix = String(String.UnicodeScalarView(scalars[start..<end]))
    if prefix.hasSuffix(".") { prefix += "0" }
    return Double(prefix) ?? 0
  }

  /// `NSString.integerValue`: an optional sign and the decimal digits after leading
  /// whitespace; 0 when there are no digits; `Int.max` or `Int.min` on overflow.
  static func integerValue(_ text: String) -> Int {
    let scalars = Array(text.unicodeScalars)
    var i = skipWhitespace(scalars, from: 0)
    var negative = false
    if i < scalars.count, scalars[i] == "+" || scalars[i] == "-" {
      negative = scalars[i] == "-"
      i = skipWhitespace(scalars, from: i + 1)  // Core Foundation's scanner allows "- 5"
    }
    var magnitude: UInt64 = 0
    var overflow = false
    while i < scalars.count, let digit = digitValue(scalars[i]) {
      let (times10, o1) = magnitude.multipliedReportingOverflow(by: 10)
      let (sum, o2) = times10.addingReportingOverflow(UInt64(digit))
      if o1 || o2 { overflow = true } else { magnitude = sum }
      i += 1
    }
    if overflow { return negative ? .min : .max }
    if negative {
      return magnitude > UInt64(Int.max) + 1 ? .min : Int(truncatingIfNeeded: 0 &- magnitude)
    }
    return magnitude > UInt64(Int.max) ? .max : Int(magnitude)
  }

  /// `NSString.boolValue`: `true` on "Y", "y", "T" or "t", or on a digit 1–9 after an optional
  /// sign and zeros; leading whitespace is skipped and anything after is ignored.
  static func boolValue(_ text: String) -> Bool {
    let scalars = Array(text.unicodeScalars)
    var i = skipWhitespace(scalars, from: 0)
    guard i < scalars.count else { return false }
    if "YyTt".unicodeScalars.contains(scalars[i]) { return true }
    if scalars[i] == "+" || scalars[i] == "-" { i += 1 }
    while i < scalars.count, scalars[i] == "0" { i += 1 }
    guard i < scalars.count, let digit = digitValue(scalars[i]) else { return false }
    return digit > 0
  }

  private static func skipWhitespace(_ scalars: [Unicode.Scalar], from start: Int) -> Int {
    var i = start
    while i < scalars.count, scalars[i].properties.isWhitespace { i += 1 }
    return i
  }

  private static func countDigits(_ scalars: [Unicode.Scalar], from start: Int) -> Int {
    var i = start
    while i < scalars.count, digitValue(scalars[i]) != nil { i += 1 }
    return i - start
  }

  private static func digitValue(_ scalar: Unicode.Scalar) -> Int? {
    scalar.value >= 0x30 && scalar.value <= 0x39 ? Int(scalar.value - 0x30) : nil
  }
}
