import CSV
import Geo

/// Reads delimited text whose first non-blank, non-`#` line names the columns.
///
/// Columns are found by name, in any order and case: `lat`/`latitude`; `lon`/`lng`/`long`/
/// `longitude`; `time`/`timestamp`/`datetime` (ISO 8601, or seconds since the Unix epoch — a
/// number above 10¹¹ is read as milliseconds); `ele`/`elevation`/`alt`/`altitude` (metres);
/// `speed` (m/s); `course`/`bearing`/`heading` (degrees); `accuracy`/`horizontal_accuracy`/
/// `hacc` (metres); `track`/`vehicle`/`id` (rows with the same value form one track, in order of
/// first appearance). Other columns are ignored. The text is read by `CSVReader` (RFC 4180):
/// the separator is whichever of comma, semicolon and tab occurs most often in the header line;
/// fields may be double-quoted, with `""` for a quote and line breaks inside; lines starting
/// with `#` and blank lines are skipped. A quote that is never closed is a ``TraceError`` naming
/// the line and column where it opens.
///
/// A row without a valid latitude and longitude is skipped and reported with its line; a time that
/// cannot be read leaves the point without one and is reported.
enum CSVImporter {
  private enum Column {
    case latitude, longitude, time, elevation, speed, course, accuracy, track
  }

  private static let names: [String: Column] = [
    "lat": .latitude, "latitude": .latitude, "lon": .longitude, "lng": .longitude,
    "long": .longitude, "longitude": .longitude, "time": .time, "timestamp": .time,
    "datetime": .time, "date_time": .time, "ele": .elevation, "elevation": .elevation,
    "alt": .elevation, "altitude": .elevation, "speed": .speed, "course": .course,
    "bearing": .course, "heading": .course, "accuracy": .accuracy,
    "horizontal_accuracy": .accuracy, "horizontalaccuracy": .accuracy, "hacc": .accuracy,
    "track": .track, "vehicle": .track, "id": .track,
  ]

  static func read(_ bytes: UnsafeBufferPointer<UInt8>, file: String?) throws -> Trace {
    var reader = CSVReader(bytes, skipsComments: true)
    do {
      return try read(&reader, file: file)
    } catch let error as CSVSyntaxError {
      throw TraceError(
        .malformed, file: file, line: error.line, column: error.column, error.message)
    }
  }

  private static func read(_ reader: inout CSVReader, file: String?) throws -> Trace {
    guard let header = try reader.next() else {
      throw TraceError(.noPoints, file: file, line: 1, "expected a header line naming the columns")
    }
    let columnNames = header.fields.map { $0.trimmingSpaces.lowercased() }
    var columns: [Column: Int] = [:]
    for (index, name) in columnNames.enumerated() {
      if let column = names[name], columns[column] == nil { columns[column] = index }
    }
    guard columns[.latitude] != nil, columns[.longitude] != nil else {
      throw TraceError(
        .malformed, file: file, line: header.line,
        "expected columns named lat/latitude and lon/lng/longitude, found: "
          + columnNames.joined(separator: ", "))
    }
    // The column each field of a row is, by position (the first of two with one name).
    var columnAt = [Column?](repeating: nil, count: columnNames.count)
    for (column, index) in columns { columnAt[index] = column }
    var order: [String] = []
    var trackOf: [String: Int] = [:]
    var points: [[TracePoint]] = []
    var issues: [TraceIssue] = []
    // One row, read field by field from its bytes: no string is made of a number or a time.
    // Its numbers by column: latitude, longitude, elevation, speed, course and accuracy.
    let numbered: [Column] = [.latitude, .longitude, .elevation, .speed, .course, .accuracy]
    var numbers = [Double?](repeating: nil, count: numbered.count)
    var shown = (latitude: "", longitude: "")
    var timeProblem: String?
    var time: Double?
    var track = ""
    while true {
      for k in numbers.indices { numbers[k] = nil }
      shown = ("", "")
      timeProblem = nil
      time = nil
      track = ""
      let line = try reader.nextRecord { index, bytes in
        guard index < columnAt.count, let column = columnAt[index] else { return }
        var first = 0
        var end = bytes.count
        while first < end, bytes[first] == 0x20 || bytes[first] == 0x09 { first += 1 }
        while end > first, bytes[end - 1] == 0x20 || bytes[end - 1] == 0x09 { end -= 1 }
        switch column {
        case .latitude, .longitude, .elevation, .speed, .course, .accuracy:
          let slot = numbered.firstIndex(of: column)!
          if column == .latitude { shown.latitude = String(decoding: bytes, as: UTF8.self) }
          if column == .longitude { shown.longitude = String(decoding: bytes, as: UTF8.self) }
          if first < end { numbers[slot] = ByteScan.double(bytes, first, end) }
        case .time:
          guard first < end else { return }
          func text() -> String {
            String(decoding: UnsafeBufferPointer(rebasing: bytes[first..<end]), as: UTF8.self)
          }
          if let seconds = ByteScan.double(bytes, first, end) {
            time = seconds > 1e11 ? seconds / 1_000 : seconds
          } else if let seconds = ByteScan.isoTime(bytes, first, end) {
            time = seconds
          } else {
            timeProblem = "'\(text())' is not a time"
          }
          if let seconds = time, !TracePoint.timeRange.contains(seconds) {
            time = nil
            timeProblem = TracePoint.outOfRange(text())
          }
        case .track:
          track = String(decoding: UnsafeBufferPointer(rebasing: bytes[first..<end]), as: UTF8.self)
        }
      }
      guard let line else { break }
      guard let latitude = numbers[0], let longitude = numbers[1],
        let coordinate = try? Coordinate(latitude: latitude, longitude: longitude)
      else {
        issues.append(
          TraceIssue(
            line: line,
            message: "skipped a row: expected a latitude and longitude, found '\(shown.latitude)', "
              + "'\(shown.longitude)'"))
        continue
      }
      if let timeProblem {
        issues.append(
          TraceIssue(line: line, message: "kept a row without its time: \(timeProblem)"))
      }
      let point = TracePoint(
        time: time, coordinate: coordinate, elevation: numbers[2], speed: numbers[3],
        course: numbers[4], horizontalAccuracy: numbers[5])
      if let known = trackOf[track] {
        points[known].append(point)
      } else {
        trackOf[track] = points.count
        order.append(track)
        points.append([point])
      }
    }
    guard !order.isEmpty else {
      throw TraceError(
        .noPoints, file: file, "expected rows with a latitude and longitude, found none")
    }
    return Trace(
      format: .csv,
      tracks: zip(order, points).map { TraceTrack(name: $0.isEmpty ? nil : $0, points: $1) },
      skipped: issues)
  }
}

extension StringProtocol {
  /// The text without leading and trailing spaces and tabs.
  var trimmingSpaces: Substring {
    let s = Substring(self)
    guard let first = s.firstIndex(where: { $0 != " " && $0 != "\t" }) else {
      return s[s.endIndex...]
    }
    let last = s.lastIndex(where: { $0 != " " && $0 != "\t" })!
    return s[first...last]
  }
}
