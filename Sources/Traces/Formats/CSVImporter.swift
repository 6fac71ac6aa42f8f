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
    guard let latitudeColumn = columns[.latitude], let longitudeColumn = columns[.longitude] else {
      throw TraceError(
        .malformed, file: file, line: header.line,
        "expected columns named lat/latitude and lon/lng/longitude, found: "
          + columnNames.joined(separator: ", "))
    }
    var order: [String] = []
    var tracks: [String: [TracePoint]] = [:]
    var issues: [TraceIssue] = []
    while let record = try reader.next() {
      let row = record.fields
      func value(_ column: Column) -> Substring? {
        guard let index = columns[column], index < row.count else { return nil }
        let field = row[index].trimmingSpaces
        return field.isEmpty ? nil : field
      }
      func number(_ column: Column) -> Double? { value(column).flatMap { ByteScan.double($0) } }
      guard let latitude = number(.latitude), let longitude = number(.longitude),
        let coordinate = try? Coordinate(latitude: latitude, longitude: longitude)
      else {
        let shown = [latitudeColumn, longitudeColumn].map { $0 < row.count ? row[$0] : "" }
        issues.append(
          TraceIssue(
            line: record.line,
            message: "skipped a row: expected a latitude and longitude, found '\(shown[0])', "
              + "'\(shown[1])'"))
        continue
      }
      var time: Double?
      if let text = value(.time) {
        if let seconds = ByteScan.double(text) {
          time = seconds > 1e11 ? seconds / 1_000 : seconds
        } else if let seconds = ByteScan.isoTime(text) {
          time = seconds
        } else {
          issues.append(
            TraceIssue(
              line: record.line, message: "kept a row without its time: '\(text)' is not a time"))
        }
        if let seconds = time, !TracePoint.timeRange.contains(seconds) {
          time = nil
          issues.append(
            TraceIssue(
              line: record.line,
              message: "kept a row without its time: \(TracePoint.outOfRange(text))"))
        }
      }
      let point = TracePoint(
        time: time, coordinate: coordinate, elevation: number(.elevation), speed: number(.speed),
        course: number(.course), horizontalAccuracy: number(.accuracy))
      let track = value(.track).map(String.init) ?? ""
      if tracks[track] == nil { order.append(track) }
      tracks[track, default: []].append(point)
    }
    guard !order.isEmpty else {
      throw TraceError(
        .noPoints, file: file, "expected rows with a latitude and longitude, found none")
    }
    return Trace(
      format: .csv,
      tracks: order.map { TraceTrack(name: $0.isEmpty ? nil : $0, points: tracks[$0]!) },
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
