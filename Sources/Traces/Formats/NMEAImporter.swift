import Geo

/// Reads NMEA 0183 logs: `RMC` and `GGA` sentences from any talker (`$GP`, `$GN`, `$GL`, …).
///
/// Mapping: `RMC` gives the UTC date and time, latitude, longitude, speed (knots, converted at
/// 1852/3600 m/s per knot) and course over ground; `GGA` gives the time of day, latitude,
/// longitude and altitude above mean sea level. Consecutive sentences with the same time of day
/// describe one fix and are merged into one point. `GGA` carries no date: it takes the date of
/// the latest `RMC` (or of the first one, for fixes before it); without any `RMC` the points have
/// no times. An `RMC` with status `V` (void) and a `GGA` with fix quality 0 are skipped.
///
/// A sentence whose checksum (`*hh`, the XOR of the bytes between `$` and `*`) does not match
/// is skipped and reported; one without a checksum is accepted and reported. Other sentence
/// types are ignored; lines that are not sentences are reported.
enum NMEAImporter {
  private struct Fix {
    var timeOfDay: Double
    var day: Int?
    var point: TracePoint
  }

  /// `ddmm.mmmm` with a hemisphere letter as signed degrees.
  private static func angle(_ value: Substring, _ hemisphere: Substring, degreeDigits: Int)
    -> Double?
  {
    // Digits only (and one decimal point in the minutes): a sign is not NMEA, and read as one
    // `-035.0000,N` became 0.583° N.
    guard value.count > degreeDigits, isDecimal(value, wholeDigits: degreeDigits + 2),
      let degrees = Double(value.prefix(degreeDigits)),
      let minutes = ByteScan.double(value.dropFirst(degreeDigits)), minutes < 60
    else { return nil }
    let result = degrees + minutes / 60
    switch hemisphere {
    case "N", "E": return result
    case "S", "W": return -result
    default: return nil
    }
  }

  /// `hhmmss.ss` as seconds of the day.
  private static func timeOfDay(_ value: Substring) -> Double? {
    // Digits only: `-10000` read as -1 h was 23:00 the day before.
    guard value.count >= 6, isDecimal(value, wholeDigits: 6), let h = Int(value.prefix(2)),
      let m = Int(value.dropFirst(2).prefix(2)),
      let s = ByteScan.double(value.dropFirst(4)), h < 24, m < 60, s < 61
    else { return nil }
    return Double(h * 3_600 + m * 60) + s
  }

  /// Whether `value` is exactly `wholeDigits` ASCII digits, optionally followed by a decimal
  /// point and more digits.
  private static func isDecimal(_ value: Substring, wholeDigits: Int) -> Bool {
    let bytes = Array(value.utf8)
    guard bytes.count >= wholeDigits,
      bytes.prefix(wholeDigits).allSatisfy({ (0x30...0x39).contains($0) })
    else { return false }
    let rest = bytes.dropFirst(wholeDigits)
    guard let point = rest.first else { return true }
    return point == 0x2E && rest.dropFirst().allSatisfy { (0x30...0x39).contains($0) }
  }

  /// Whether a sentence at the time of the fix before it describes that fix (an RMC and a GGA
  /// of one fix give the same position), rather than another fix logged in the same second.
  private static func isSameFix(_ fix: Fix, _ coordinate: Coordinate) -> Bool {
    abs(fix.point.coordinate.latitude - coordinate.latitude) < 1e-6
      && abs(fix.point.coordinate.longitude - coordinate.longitude) < 1e-6
  }

  /// `ddmmyy` as days since 1970-01-01 (years 80–99 are 19xx, the rest 20xx).
  private static func day(_ value: Substring) -> Int? {
    guard value.count == 6, let d = Int(value.prefix(2)), let m = Int(value.dropFirst(2).prefix(2)),
      let y = Int(value.dropFirst(4)), (1...31).contains(d), (1...12).contains(m)
    else { return nil }
    return ByteScan.daysFromCivil(year: y >= 80 ? 1_900 + y : 2_000 + y, month: m, day: d)
  }

  static func read(_ bytes: UnsafeBufferPointer<UInt8>, file: String?) throws -> Trace {
    var fixes: [Fix] = []
    var issues: [TraceIssue] = []
    var currentDay: Int?
    var sawSentence = false
    for (number, raw) in textLines(bytes) {
      let line = raw.trimmingSpaces
      if line.isEmpty { continue }
      guard let dollar = line.firstIndex(where: { $0 == "$" || $0 == "!" }) else {
        issues.append(
          TraceIssue(line: number, message: "skipped a line that is not an NMEA sentence"))
        continue
      }
      var body = line[line.index(after: dollar)...]
      if let star = body.lastIndex(of: "*") {
        let given = body[body.index(after: star)...]
        body = body[..<star]
        let computed = body.utf8.reduce(UInt8(0), ^)
        guard given.count == 2, let value = UInt8(given, radix: 16) else {
          issues.append(
            TraceIssue(
              line: number, message: "skipped a sentence: checksum '\(given)' is not two hex digits"
            ))
          continue
        }
        guard value == computed else {
          issues.append(
            TraceIssue(
              line: number,
              message: "skipped a sentence: checksum \(given) does not match the computed "
                + hex(computed)))
          continue
        }
      } else {
        issues.append(TraceIssue(line: number, message: "accepted a sentence without a checksum"))
      }
      sawSentence = true
      let f = body.split(separator: ",", omittingEmptySubsequences: false)
      guard let kind = f.first?.suffix(3) else { continue }
      if kind == "RMC" {
        guard f.count >= 10, let tod = timeOfDay(f[1]) else {
          issues.append(
            TraceIssue(
              line: number, message: "skipped an RMC sentence: expected 10 fields with a time"))
          continue
        }
        guard f[2] == "A" else {
          issues.append(
            TraceIssue(
              line: number, message: "skipped an RMC sentence with status '\(f[2])' (no fix)"))
          continue
        }
        guard let lat = angle(f[3], f[4], degreeDigits: 2),
          let lon = angle(f[5], f[6], degreeDigits: 3),
          let coordinate = try? Coordinate(latitude: lat, longitude: lon)
        else {
          issues.append(
            TraceIssue(
              line: number, message: "skipped an RMC sentence: expected a latitude and longitude"))
          continue
        }
        let date = day(f[9])
        if let date {
          if currentDay == nil {
            for i in fixes.indices where fixes[i].day == nil { fixes[i].day = date }
          }
          currentDay = date
        }
        let speed = ByteScan.double(f[7]).map { $0 * 1_852 / 3_600 }
        let course = ByteScan.double(f[8])
        if let last = fixes.last, last.timeOfDay == tod, !isSameFix(last, coordinate) {
          issues.append(sameSecond(line: number, tod))
        }
        if var last = fixes.last, last.timeOfDay == tod, isSameFix(last, coordinate) {
          last.day = last.day ?? date
          last.point.speed = speed
          last.point.course = course
          fixes[fixes.count - 1] = last
        } else {
          fixes.append(
            Fix(
              timeOfDay: tod, day: date ?? currentDay,
              point: TracePoint(coordinate: coordinate, speed: speed, course: course)))
        }
      } else if kind == "GGA" {
        guard f.count >= 10, let tod = timeOfDay(f[1]) else {
          issues.append(
            TraceIssue(
              line: number, message: "skipped a GGA sentence: expected 10 fields with a time"))
          continue
        }
        guard f[6] != "0", !f[6].isEmpty else {
          issues.append(
            TraceIssue(line: number, message: "skipped a GGA sentence with fix quality 0 (no fix)"))
          continue
        }
        guard let lat = angle(f[2], f[3], degreeDigits: 2),
          let lon = angle(f[4], f[5], degreeDigits: 3),
          let coordinate = try? Coordinate(latitude: lat, longitude: lon)
        else {
          issues.append(
            TraceIssue(
              line: number, message: "skipped a GGA sentence: expected a latitude and longitude"))
          continue
        }
        let altitude = ByteScan.double(f[9])
        if let last = fixes.last, last.timeOfDay == tod, !isSameFix(last, coordinate) {
          issues.append(sameSecond(line: number, tod))
        }
        if var last = fixes.last, last.timeOfDay == tod, isSameFix(last, coordinate) {
          last.point.elevation = altitude
          fixes[fixes.count - 1] = last
        } else {
          fixes.append(
            Fix(
              timeOfDay: tod, day: currentDay,
              point: TracePoint(coordinate: coordinate, elevation: altitude)))
        }
      }
    }
    guard !fixes.isEmpty else {
      throw TraceError(
        .noPoints, file: file,
        sawSentence
          ? "expected RMC or GGA sentences with a fix, found none"
          : "expected NMEA sentences starting with '$', found none")
    }
    if fixes.contains(where: { $0.day == nil }) {
      issues.append(
        TraceIssue(
          line: nil, message: "no RMC sentence gives a date: points without one have no time"))
    }
    let points = fixes.map { fix -> TracePoint in
      var point = fix.point
      point.time = fix.day.map { Double($0) * 86_400 + fix.timeOfDay }
      return point
    }
    return Trace(format: .nmea, tracks: [TraceTrack(points: points)], skipped: issues)
  }

  /// A fix kept beside the one before although both have the same time of day.
  private static func sameSecond(line: Int, _ tod: Double) -> TraceIssue {
    TraceIssue(
      line: line,
      message: "kept a fix at another position than the one before, at the same time of day "
        + "(\(ByteScan.isoText(tod).dropFirst(11).prefix(8))): two points with one time")
  }

  private static func hex(_ value: UInt8) -> String {
    let digits = String(value, radix: 16, uppercase: true)
    return digits.count == 1 ? "0" + digits : digits
  }
}
