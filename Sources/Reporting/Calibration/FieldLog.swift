import CSV
import Device
import Errors
import Foundation
import Geo
import JSON
import Replay
import SimKernel
import Traces

/// A field log recorded on a user's own phone: the true track (GPX) and the region events the
/// app logged — which regions it registered, with their centres and radii, and the entries
/// and exits its delegate heard (docs/DEVICE.md, "Field logs").
///
/// Times are virtual-time seconds from the first registration: the trial that simulates the
/// log registers every region then, as the app did.
public struct FieldLog: Sendable {
  /// The true track from the first registration on (trial time 0), in time order.
  public var samples: [TrajectorySample]
  /// The instant trial time 0 stands for, in seconds since 1970.
  public var origin: Double
  /// The regions the app registered.
  public var fences: [CircularRegion]
  /// The entries and exits the app heard, in time order, with the true position at each.
  public var events: [FieldEvent]

  /// A log of these parts.
  public init(
    samples: [TrajectorySample], origin: Double, fences: [CircularRegion], events: [FieldEvent]
  ) {
    self.samples = samples
    self.origin = origin
    self.fences = fences
    self.events = events
  }

  /// The longest a registration may come after the first: the trial registers every region at
  /// once, as an app that sets up its regions at launch does.
  public static let registrationWindow = 60.0

  /// Reads the true track at `track` (GPX, or any format GeoSim's trace reader knows, with
  /// times) and the event log at `events` (CSV or JSON Lines, by extension: `.csv`, else
  /// `.jsonl`/`.ndjson`, else by the first character).
  ///
  /// - Throws: ``FieldLogError`` naming the file, the line and what was expected: a malformed
  ///   row or time, an event outside the track's time span, an entry or exit of a region not
  ///   registered before it, a region registered twice or later than
  ///   ``registrationWindow`` after the first, an empty track, a log without registrations;
  ///   `TraceError` for a track file that cannot be read.
  public static func read(track: String, events: String) throws -> FieldLog {
    let trace = try Trace.read(contentsOf: track)
    guard let first = trace.tracks.first(where: { !$0.points.isEmpty }) else {
      throw FieldLogError(file: track, line: nil, "expected a track with timed points, found none")
    }
    let data: Data
    do {
      data = Data(try readFileContents(atPath: events))
    } catch {
      throw FieldLogError(file: events, line: nil, "cannot read the event log: \(error.reason)")
    }
    guard let text = String(data: data, encoding: .utf8) else {
      throw FieldLogError(file: events, line: nil, "expected UTF-8 text")
    }
    let rows = try rows(text, file: events)
    return try assemble(track: first, trackFile: track, rows: rows, eventsFile: events)
  }

  /// One row of the event log.
  struct Row {
    enum Event: String, CaseIterable { case register, enter, exit }
    let line: Int
    let time: Double
    let event: Event
    let region: String
    let centre: Coordinate?
    let radius: Double?
  }

  /// The columns (CSV) or keys (JSON Lines) of a row.
  static let columns = ["time", "event", "region", "latitude", "longitude", "radius"]

  static func rows(_ text: String, file: String) throws -> [Row] {
    let lower = file.lowercased()
    let firstCharacter = text.first { !$0.isWhitespace && !$0.isNewline }
    let jsonLines =
      lower.hasSuffix(".csv")
      ? false
      : lower.hasSuffix(".jsonl") || lower.hasSuffix(".ndjson") || firstCharacter == "{"
    return try jsonLines ? jsonLinesRows(text, file: file) : csvRows(text, file: file)
  }

  static func csvRows(_ text: String, file: String) throws -> [Row] {
    var reader = CSVReader(text, delimiter: .comma, skipsComments: true)
    let records: [CSVRecord]
    do { records = try reader.records() } catch {
      throw FieldLogError(file: file, line: error.line, column: error.column, error.message)
    }
    let nonEmpty = records.filter { !($0.fields.count == 1 && $0.fields[0].isEmpty) }
    guard let header = nonEmpty.first else {
      throw FieldLogError(
        file: file, line: nil,
        "expected a header line naming the columns \(columns.joined(separator: ","))")
    }
    let names = header.fields.map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
    for name in names where !columns.contains(name) {
      throw FieldLogError(
        file: file, line: header.line,
        "unknown column '\(name)' (expected \(columns.joined(separator: ", ")))")
    }
    for name in columns.prefix(3) where !names.contains(name) {
      throw FieldLogError(file: file, line: header.line, "missing the column '\(name)'")
    }
    return try nonEmpty.dropFirst().map { record in
      guard record.fields.count == names.count else {
        throw FieldLogError(
          file: file, line: record.line,
          "expected \(names.count) fields, as the header has, found \(record.fields.count)")
      }
      var values: [String: String] = [:]
      for (name, field) in zip(names, record.fields) {
        let value = field.trimmingCharacters(in: .whitespaces)
        if !value.isEmpty { values[name] = value }
      }
      return try row(
        line: record.line, file: file, text: { values[$0] },
        number: { key in
          guard let text = values[key] else { return nil }
          guard let n = Double(text), n.isFinite else {
            throw FieldLogError(
              file: file, line: record.line, "expected a number for \(key), found '\(text)'")
          }
          return n
        })
    }
  }

  static func jsonLinesRows(_ text: String, file: String) throws -> [Row] {
    var rows: [Row] = []
    for (index, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated()
    {
      let lineNumber = index + 1
      let trimmed = line.trimmingCharacters(in: .whitespaces)
      if trimmed.isEmpty || trimmed.hasPrefix("#") { continue }
      let value: JSONValue
      do { value = try JSONValue(parsing: Data(trimmed.utf8)) } catch let error as JSONSyntaxError {
        throw FieldLogError(
          file: file, line: lineNumber, column: error.column, "expected JSON: \(error.message)")
      }
      guard case .object(let object) = value else {
        throw FieldLogError(
          file: file, line: lineNumber, "expected a JSON object, found \(value.typeName)")
      }
      for key in object.keys.sorted() where !columns.contains(key) {
        throw FieldLogError(
          file: file, line: lineNumber,
          "unknown key '\(key)' (expected \(columns.joined(separator: ", ")))")
      }
      rows.append(
        try row(
          line: lineNumber, file: file,
          text: { key in
            guard let member = object[key], member != .null else { return nil }
            guard case .string(let s) = member else {
              throw FieldLogError(
                file: file, line: lineNumber,
                "expected a string for \(key), found \(member.typeName)")
            }
            return s
          },
          number: { key in
            guard let member = object[key], member != .null else { return nil }
            guard case .number(let n) = member, n.isFinite else {
              throw FieldLogError(
                file: file, line: lineNumber,
                "expected a number for \(key), found \(member.typeName)")
            }
            return n
          }))
    }
    return rows
  }

  static func row(
    line: Int, file: String, text: (String) throws -> String?,
    number: (String) throws -> Double?
  ) throws -> Row {
    func fail(_ message: String) -> FieldLogError {
      FieldLogError(file: file, line: line, message)
    }
    guard let timeText = try text("time") else { throw fail("missing the time") }
    guard let time = isoTime(timeText) else {
      throw fail(
        "expected an ISO 8601 time with a UTC offset (2026-04-01T08:00:00+09:00), found "
          + "'\(timeText)'")
    }
    guard let eventText = try text("event") else { throw fail("missing the event") }
    guard let event = Row.Event(rawValue: eventText) else {
      throw fail("expected the event register, enter or exit, found '\(eventText)'")
    }
    guard let region = try text("region"), !region.isEmpty else {
      throw fail("missing the region's identifier")
    }
    guard event == .register else {
      return Row(line: line, time: time, event: event, region: region, centre: nil, radius: nil)
    }
    guard let latitude = try number("latitude"), let longitude = try number("longitude"),
      let radius = try number("radius")
    else { throw fail("a register row needs the region's latitude, longitude and radius") }
    guard (-90...90).contains(latitude), (-180...180).contains(longitude),
      let centre = try? Coordinate(latitude: latitude, longitude: longitude)
    else {
      throw fail("expected a latitude in [-90, 90] and a longitude in [-180, 180]")
    }
    guard radius > 0, radius <= 400_000 else {
      throw fail("expected a radius in metres above 0 and at most 400000, found \(radius)")
    }
    return Row(
      line: line, time: time, event: event, region: region, centre: centre, radius: radius)
  }

  /// Seconds since 1970 of an ISO 8601 time that names its UTC offset (`Z` or `±HH:MM`).
  static func isoTime(_ text: String) -> Double? {
    let zoned =
      text.hasSuffix("Z") || text.hasSuffix("z")
      || (text.count > 6
        && text.suffix(6).first.map { $0 == "+" || $0 == "-" } == true
        && text.suffix(3).first == ":")
    guard zoned, text.count >= 20, text.dropFirst(10).first.map({ $0 == "T" || $0 == "t" }) == true
    else { return nil }
    return ByteScan.isoTime(text)
  }

  static func assemble(track: TraceTrack, trackFile: String, rows: [Row], eventsFile: String)
    throws -> FieldLog
  {
    func fail(_ row: Row, _ message: String) -> FieldLogError {
      FieldLogError(file: eventsFile, line: row.line, message)
    }
    let times = track.points.compactMap(\.time)
    guard times.count == track.points.count, let start = times.first, let end = times.last,
      end > start
    else {
      throw FieldLogError(
        file: trackFile, line: nil,
        "expected a track of at least two points, every one with a time, found "
          + "\(track.points.count) point(s), \(times.count) with a time")
    }
    // Registrations are checked against the earliest; the log holds at least one (below).
    let first = rows.filter { $0.event == .register }.map(\.time).min()
    var fences: [CircularRegion] = []
    var registered: [String: Double] = [:]
    for row in rows {
      guard row.time >= start, row.time <= end else {
        throw fail(
          row,
          "the \(row.event.rawValue) of '\(row.region)' at \(ByteScan.isoText(row.time)) is "
            + "outside the track's time span, \(ByteScan.isoText(start)) to "
            + "\(ByteScan.isoText(end)) (\(trackFile))")
      }
      switch row.event {
      case .register:
        guard registered[row.region] == nil else {
          throw fail(row, "the region '\(row.region)' is registered twice")
        }
        let earliest = first ?? row.time
        guard row.time - earliest <= registrationWindow else {
          throw fail(
            row,
            "the region '\(row.region)' is registered \(JSONText.number(row.time - earliest)) s "
              + "after the first region: expected every registration within "
              + "\(JSONText.number(registrationWindow)) s of the first (the fit registers them "
              + "together; split the log at a later registration)")
        }
        registered[row.region] = row.time
        fences.append(
          CircularRegion(center: row.centre!, radius: row.radius!, identifier: row.region))
      case .enter, .exit:
        guard let at = registered[row.region], at <= row.time else {
          throw fail(
            row,
            "an \(row.event.rawValue) of '\(row.region)', which is not registered before it: "
              + "expected a register row for it earlier in the log")
        }
      }
    }
    guard let origin = first else {
      throw FieldLogError(
        file: eventsFile, line: nil,
        "expected at least one register row (the regions the app monitored), found none")
    }
    // The track from the first registration on; points before it only place the phone then.
    let all = try track.trajectorySamples(startingAt: .seconds(start - origin))
    let trajectory = try Trajectory(all)
    guard let atOrigin = trajectory.state(at: .zero) else {
      throw FieldLogError(
        file: trackFile, line: nil, "the track does not cover the first registration")
    }
    var samples = [
      TrajectorySample(time: .zero, coordinate: atOrigin.coordinate, altitude: atOrigin.altitude)
    ]
    samples += all.filter { $0.time > .zero }
    guard samples.count >= 2 else {
      throw FieldLogError(
        file: trackFile, line: nil,
        "expected the track to go on after the first registration at \(ByteScan.isoText(origin))")
    }
    let events = rows.filter { $0.event != .register }.sorted { $0.time < $1.time }.map { row in
      let time = SimTime.seconds(row.time - origin)
      return FieldEvent(
        time: time, fence: row.region, kind: row.event == .enter ? .entry : .exit,
        coordinate: trajectory.state(at: time)?.coordinate ?? atOrigin.coordinate)
    }
    return FieldLog(samples: samples, origin: origin, fences: fences, events: events)
  }

  /// The log as the trial that simulates it: its track and regions, in `conditions`.
  public func trial(_ conditions: FieldConditions) -> FieldTrial {
    FieldTrial(samples: samples, fences: fences, conditions: conditions)
  }

  /// What the log recorded, as a trial's record: the events the app heard and the true
  /// crossings of the regions' circles on the track.
  public func record(geos: GEOSContext) throws -> FieldTrialRecord {
    let (crossings, startsInside) = try FieldTrial.trueCrossings(
      samples: samples, fences: fences, geos: geos)
    return FieldTrialRecord(
      seed: 0, fences: fences, events: events, crossings: crossings, startsInside: startsInside)
  }

  /// The log's registrations and events as the CSV the reader takes: a header, then a
  /// `register` row per region at trial time 0 and a row per event.
  public var csvText: String {
    var out = Self.columns.joined(separator: ",") + "\n"
    let start = ByteScan.isoText(origin)
    for fence in fences {
      out +=
        "\(start),register,\(CSVText.field(fence.identifier)),"
        + "\(JSONText.number(fence.center.latitude)),\(JSONText.number(fence.center.longitude)),"
        + "\(JSONText.number(fence.radius))\n"
    }
    for event in events {
      let kind = event.kind == .entry ? "enter" : "exit"
      out += "\(ByteScan.isoText(origin + event.time.seconds)),\(kind),"
      out += "\(CSVText.field(event.fence)),,,\n"
    }
    return out
  }
}

/// A field log that cannot be read: the file, the line (and column) and what was expected.
public struct FieldLogError: Error, Hashable, Sendable, CustomStringConvertible {
  /// The file.
  public let file: String
  /// The 1-based line, where known.
  public let line: Int?
  /// The 1-based column, where known.
  public let column: Int?
  /// What was expected, and what was found.
  public let message: String

  /// An error at `line` of `file`.
  public init(file: String, line: Int?, column: Int? = nil, _ message: String) {
    self.file = file
    self.line = line
    self.column = column
    self.message = message
  }

  /// `file:line:column: message`, leaving out what is unknown.
  public var description: String {
    "\(filePlace(file, line: line, column: column)): \(message)"
  }
}
