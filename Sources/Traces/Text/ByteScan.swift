/// Number and time parsing straight from UTF-8 bytes, so that importers need not build a
/// `String` per field.
package enum ByteScan {
  /// Powers of ten that a `Double` holds exactly.
  private static let exactPowers: [Double] = (0...22).map { p in
    var x = 1.0
    for _ in 0..<p { x *= 10 }
    return x
  }

  @inline(__always)
  static func isSpace(_ b: UInt8) -> Bool { b == 0x20 || b == 0x09 || b == 0x0A || b == 0x0D }

  /// Parses a decimal number (`-12.5`, `3e-2`, `+7`) in `bytes[start..<end]`, ignoring
  /// surrounding ASCII whitespace; `nil` unless the whole field is one finite number.
  ///
  /// Numbers of at most 19 significant digits whose scale fits in 10^±22 are computed with one
  /// correctly rounded division or multiplication of exact values; the rest go through the
  /// standard library's parser.
  static func double(_ bytes: UnsafeBufferPointer<UInt8>, _ start: Int, _ end: Int) -> Double? {
    var i = start
    var j = end
    while i < j, isSpace(bytes[i]) { i += 1 }
    while j > i, isSpace(bytes[j - 1]) { j -= 1 }
    guard i < j else { return nil }
    let first = i
    var negative = false
    if bytes[i] == UInt8(ascii: "-") || bytes[i] == UInt8(ascii: "+") {
      negative = bytes[i] == UInt8(ascii: "-")
      i += 1
    }
    var mantissa: UInt64 = 0
    var digits = 0
    var scale = 0
    var sawDigit = false
    while i < j, bytes[i] &- 0x30 < 10 {
      mantissa = mantissa &* 10 &+ UInt64(bytes[i] &- 0x30)
      digits += mantissa == 0 ? 0 : 1
      sawDigit = true
      i += 1
    }
    if i < j, bytes[i] == UInt8(ascii: ".") {
      i += 1
      while i < j, bytes[i] &- 0x30 < 10 {
        mantissa = mantissa &* 10 &+ UInt64(bytes[i] &- 0x30)
        digits += mantissa == 0 ? 0 : 1
        scale -= 1
        sawDigit = true
        i += 1
      }
    }
    guard sawDigit else { return nil }
    if i < j, bytes[i] | 0x20 == UInt8(ascii: "e") {
      i += 1
      var exponentNegative = false
      if i < j, bytes[i] == UInt8(ascii: "-") || bytes[i] == UInt8(ascii: "+") {
        exponentNegative = bytes[i] == UInt8(ascii: "-")
        i += 1
      }
      var exponent = 0
      var sawExponent = false
      while i < j, bytes[i] &- 0x30 < 10 {
        exponent = min(exponent * 10 + Int(bytes[i] &- 0x30), 100_000)
        sawExponent = true
        i += 1
      }
      guard sawExponent else { return nil }
      scale += exponentNegative ? -exponent : exponent
    }
    guard i == j else { return nil }
    if digits <= 19, mantissa < (1 << 53), scale >= -22, scale <= 22 {
      let m = Double(mantissa)
      let value = scale < 0 ? m / exactPowers[-scale] : m * exactPowers[scale]
      return negative ? -value : value
    }
    let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[first..<j]), as: UTF8.self)
    guard let value = Double(text), value.isFinite else { return nil }
    return value
  }

  /// ``double(_:_:_:)`` over a string.
  static func double(_ text: some StringProtocol) -> Double? {
    var s = String(text)
    return s.withUTF8 { double($0, 0, $0.count) }
  }

  /// Reads `count` ASCII digits at `i` as a number, or `nil`.
  @inline(__always)
  private static func digits(_ b: UnsafeBufferPointer<UInt8>, _ i: Int, _ count: Int, _ end: Int)
    -> Int?
  {
    guard i + count <= end else { return nil }
    var value = 0
    for k in i..<i + count {
      let d = b[k] &- 0x30
      guard d < 10 else { return nil }
      value = value * 10 + Int(d)
    }
    return value
  }

  /// Parses an ISO 8601 / RFC 3339 date-time in `bytes[start..<end]` as seconds since the Unix
  /// epoch.
  ///
  /// Accepts `YYYY-MM-DDTHH:MM:SS`, optional fractional seconds, and `Z`, `±HH:MM`, `±HHMM` or
  /// `±HH`; a space may stand for `T`; a time without a zone is read as UTC (GPX requires UTC).
  package static func isoTime(_ b: UnsafeBufferPointer<UInt8>, _ start: Int, _ end: Int) -> Double?
  {
    var i = start
    var e = end
    while i < e, isSpace(b[i]) { i += 1 }
    while e > i, isSpace(b[e - 1]) { e -= 1 }
    guard let year = digits(b, i, 4, e), i + 19 <= e, b[i + 4] == UInt8(ascii: "-"),
      let month = digits(b, i + 5, 2, e), b[i + 7] == UInt8(ascii: "-"),
      let day = digits(b, i + 8, 2, e),
      b[i + 10] == UInt8(ascii: "T") || b[i + 10] == UInt8(ascii: " ")
        || b[i + 10] == UInt8(ascii: "t"),
      let hour = digits(b, i + 11, 2, e), b[i + 13] == UInt8(ascii: ":"),
      let minute = digits(b, i + 14, 2, e), b[i + 16] == UInt8(ascii: ":"),
      let second = digits(b, i + 17, 2, e),
      (1...12).contains(month), (1...31).contains(day), hour < 24, minute < 60, second <= 60
    else { return nil }
    i += 19
    var fraction = 0.0
    if i < e, b[i] == UInt8(ascii: ".") || b[i] == UInt8(ascii: ",") {
      var scale = 0.1
      i += 1
      let digitsStart = i
      while i < e, b[i] &- 0x30 < 10 {
        fraction += Double(b[i] &- 0x30) * scale
        scale /= 10
        i += 1
      }
      guard i > digitsStart else { return nil }
    }
    var offset = 0
    if i < e {
      switch b[i] {
      case UInt8(ascii: "Z"), UInt8(ascii: "z"):
        i += 1
      case UInt8(ascii: "+"), UInt8(ascii: "-"):
        let sign = b[i] == UInt8(ascii: "-") ? -1 : 1
        guard let hours = digits(b, i + 1, 2, e) else { return nil }
        i += 3
        var minutes = 0
        if i < e, b[i] == UInt8(ascii: ":") { i += 1 }
        if i < e {
          guard let m = digits(b, i, 2, e) else { return nil }
          minutes = m
          i += 2
        }
        offset = sign * (hours * 3_600 + minutes * 60)
      default:
        return nil
      }
    }
    guard i == e else { return nil }
    let days = daysFromCivil(year: year, month: month, day: day)
    let whole = days * 86_400 + hour * 3_600 + minute * 60 + second - offset
    return Double(whole) + fraction
  }

  /// ``isoTime(_:_:_:)`` over a string.
  package static func isoTime(_ text: some StringProtocol) -> Double? {
    var s = String(text)
    return s.withUTF8 { isoTime($0, 0, $0.count) }
  }

  /// Days since 1970-01-01 of a proleptic Gregorian date (H. Hinnant, "chrono-compatible
  /// low-level date algorithms").
  static func daysFromCivil(year: Int, month: Int, day: Int) -> Int {
    let y = month <= 2 ? year - 1 : year
    let era = (y >= 0 ? y : y - 399) / 400
    let yoe = y - era * 400
    let doy = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
    return era * 146_097 + doe - 719_468
  }

  /// The date of a day count since 1970-01-01 (the inverse of ``daysFromCivil``).
  static func civilFromDays(_ z: Int) -> (year: Int, month: Int, day: Int) {
    let z = z + 719_468
    let era = (z >= 0 ? z : z - 146_096) / 146_097
    let doe = z - era * 146_097
    let yoe = (doe - doe / 1_460 + doe / 36_524 - doe / 146_096) / 365
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
    let mp = (5 * doy + 2) / 153
    let day = doy - (153 * mp + 2) / 5 + 1
    let month = mp < 10 ? mp + 3 : mp - 9
    return (yoe + era * 400 + (month <= 2 ? 1 : 0), month, day)
  }

  /// Seconds since the epoch as `YYYY-MM-DDTHH:MM:SS[.fff]Z`, rounded to the millisecond, with
  /// the fraction left out when it is zero and trailing zeros trimmed.
  ///
  /// A time outside ``TracePoint/timeRange`` (which readers and ``Trace/text(in:)`` refuse
  /// first) is written as the nearest end of the range, and not-a-number as the epoch, so that
  /// writing never traps.
  package static func isoText(_ seconds: Double) -> String {
    let range = TracePoint.timeRange
    let bounded = seconds.isNaN ? 0 : min(max(seconds, range.lowerBound), range.upperBound - 0.001)
    let totalMilliseconds = Int64((bounded * 1_000).rounded())
    let (wholeSeconds, milliseconds) = floorDivide(totalMilliseconds, 1_000)
    let (days, secondOfDay) = floorDivide(wholeSeconds, 86_400)
    let date = civilFromDays(Int(days))
    func two(_ n: Int) -> String { n < 10 ? "0\(n)" : "\(n)" }
    let year = String(date.year)
    var text =
      String(repeating: "0", count: max(0, 4 - year.count)) + year + "-" + two(date.month) + "-"
      + two(date.day)
    text += "T" + two(Int(secondOfDay / 3_600)) + ":" + two(Int(secondOfDay / 60 % 60))
    text += ":" + two(Int(secondOfDay % 60))
    if milliseconds != 0 {
      var fraction = String(milliseconds + 1_000).dropFirst()
      while fraction.last == "0" { fraction = fraction.dropLast() }
      text += "." + fraction
    }
    return text + "Z"
  }

  private static func floorDivide(_ a: Int64, _ b: Int64) -> (Int64, Int64) {
    let q = a >= 0 ? a / b : -((-a + b - 1) / b)
    return (q, a - q * b)
  }
}
