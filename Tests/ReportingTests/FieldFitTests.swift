import Device
import Foundation
import Geo
import SimKernel
import Testing
import Traces

@testable import Replay
@testable import Reporting

/// `geosim calibrate --fit`'s machinery: the field log's reader and its errors, the matching
/// of heard events to true crossings, and a fit that recovers the numbers a synthetic log was
/// simulated with.
@Suite struct FieldFitTests {
  static let origin = 1_775_000_000.0  // 2026-03-31T23:33:20Z

  /// A walk at 1.4 m/s east through `count` fences of 100 m, 500 m apart, and back.
  static func walk(fences count: Int = 6) throws -> (
    samples: [TrajectorySample], fences: [CircularRegion]
  ) {
    let start = try Coordinate(latitude: 35.6262, longitude: 139.7236)
    let length = Double(count - 1) * 500 + 800
    func point(_ distance: Double) throws -> Coordinate {
      try Geodesic.wgs84.direct(from: start, azimuth: 90, distance: distance).coordinate
    }
    let fences = try (0..<count).map { i in
      CircularRegion(center: try point(400 + Double(i) * 500), radius: 100, identifier: "f\(i)")
    }
    var samples: [TrajectorySample] = []
    let step = 50.0
    var t = 0.0
    var d = 0.0
    while d < length {
      samples.append(TrajectorySample(time: .seconds(t), coordinate: try point(d)))
      d += step
      t += step / 1.4
    }
    while d > 0 {
      samples.append(TrajectorySample(time: .seconds(t), coordinate: try point(d)))
      d -= step
      t += step / 1.4
    }
    samples.append(TrajectorySample(time: .seconds(t), coordinate: start))
    samples.append(TrajectorySample(time: .seconds(t + 300), coordinate: start))
    return (samples, fences)
  }

  /// A log the simulator itself recorded on `walk` with `profile`, with seed `seed`.
  static func syntheticLog(_ profile: DeviceProfile, seed: UInt64, fences count: Int = 6) throws
    -> FieldLog
  {
    let (samples, fences) = try walk(fences: count)
    var conditions = FieldConditions()
    conditions.parameters = profile.parameters
    conditions.sensor = profile.sensor
    let record = try FieldTrial(samples: samples, fences: fences, conditions: conditions).run(
      seed: seed, geos: GEOSContext())
    return FieldLog(samples: samples, origin: origin, fences: fences, events: record.events)
  }

  /// A log with known numbers: urban, but missing three transitions in ten and delivering
  /// exits after a 60 s median.
  static var known: DeviceProfile {
    var profile = DeviceProfile.urban
    profile.parameters.regionMonitoring.missProbability = 0.3
    profile.parameters.regionMonitoring.exitLatencyMedian = .seconds(60)
    return profile
  }

  /// The fit of the known log, run once for the tests that read it (3 trials a candidate:
  /// a debug build runs it in about ten seconds).
  static let recovered = Result {
    try FieldFit(
      log: try syntheticLog(known, seed: 1_000), base: .urban, name: "recovered", trials: 3
    ).run()
  }

  // MARK: The fit

  @Test func theFitRecoversTheNumbersASyntheticLogWasSimulatedWith() throws {
    let report = try Self.recovered.get()
    for p in report.parameters {
      let truth = p.parameter.value(in: Self.known)
      guard p.identified else {
        // What the log does not pin keeps the base's value: here the truth.
        #expect(p.fitted == p.base && p.base == truth, "\(p.parameter)")
        #expect(p.note?.hasPrefix("not identified") == true)
        continue
      }
      let lower = try #require(p.lower)
      let upper = try #require(p.upper)
      #expect(
        lower <= truth && truth <= upper, "\(p.parameter): \(truth) outside \(lower)…\(upper)")
      #expect(lower <= p.fitted && p.fitted <= upper, "\(p.parameter)")
    }
    let miss = report.parameters[0]
    #expect(miss.parameter == .missProbability && miss.identified)
    #expect(abs(miss.fitted - 0.3) < 0.2)
    let exit = report.parameters[2]
    #expect(exit.parameter == .exitLatencyMedian && exit.identified)
    #expect(abs(exit.fitted - 60) < 45)
    // The fitted simulation agrees with the log where the base one does not.
    let heard = report.statistics[0]
    #expect(heard.statistic == .detectedCrossings)
    #expect(heard.base.value! > heard.observed.upper!)
    #expect(
      heard.fitted.lower! <= heard.observed.value! && heard.observed.value! <= heard.fitted.upper!)
  }

  @Test func theProfileChangesOnlyTheFittedNumbersOfTheBase() throws {
    let report = try Self.recovered.get()
    var expected = DeviceProfile.urban
    for p in report.parameters { p.parameter.set(p.fitted, in: &expected) }
    #expect(report.profile.parameters == expected.parameters)
    #expect(report.profile.sensor == expected.sensor)
    #expect(report.profile.name == "recovered")
    let read = try DeviceProfile(data: Data(report.profile.fileText.utf8), file: "recovered.json")
    #expect(read == report.profile)
  }

  @Test func theReportIsWrittenAsMarkdownJSONAndTheProfile() throws {
    let report = try Self.recovered.get()
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
      "geosim-fit-report-\(getpid())")
    defer { try? FileManager.default.removeItem(at: folder) }
    try? FileManager.default.removeItem(at: folder)
    try report.write(to: folder)
    let names = try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
    #expect(names == ["fit.json", "fit.md", "recovered.json"])
    #expect(report.markdown.contains("| `missProbability` | crossings heard | 0.00 | "))
    guard case .object(let o) = report.json, case .array(let parameters)? = o["parameters"] else {
      Issue.record("no parameters")
      return
    }
    #expect(o["format"] == .string("geosim-fit/1") && parameters.count == 4)
  }

  @Test func aLogWithoutExitsLeavesTheExitLatencyUnidentified() throws {
    // Walk into one fence and stay there.
    let start = try Coordinate(latitude: 35.6262, longitude: 139.7236)
    let centre = try Geodesic.wgs84.direct(from: start, azimuth: 90, distance: 400).coordinate
    let fence = CircularRegion(center: centre, radius: 100, identifier: "home")
    let samples = [
      TrajectorySample(time: .zero, coordinate: start),
      TrajectorySample(time: .seconds(400 / 1.4), coordinate: centre),
      TrajectorySample(time: .seconds(400 / 1.4 + 600), coordinate: centre),
    ]
    let log = FieldLog(
      samples: samples, origin: Self.origin, fences: [fence],
      events: [FieldEvent(time: .seconds(240), fence: "home", kind: .entry, coordinate: centre)])
    let report = try FieldFit(
      log: log, base: .urban, name: "home", trials: 1, passes: 1, resamples: 50
    ).run()
    let exit = report.parameters[2]
    #expect(!exit.identified && exit.fitted == 150 && exit.lower == nil)
    #expect(exit.note?.contains("no exit") == true, "\(exit.note ?? "")")
    #expect(report.profile.parameters.regionMonitoring.exitLatencyMedian == .seconds(150))
    #expect(report.parameters[0].identified)
  }

  @Test func theSameLogOptionsAndSeedGiveTheSameBytes() throws {
    let log = try Self.syntheticLog(Self.known, seed: 5, fences: 2)
    let fit = FieldFit(log: log, base: .urban, name: "x", trials: 1, passes: 1, resamples: 50)
    let a = try fit.run()
    let b = try fit.run()
    #expect(a.json.jsonText == b.json.jsonText && a.markdown == b.markdown)
    #expect(a.profile.fileText == b.profile.fileText)
  }

  @Test func aLogThatCrossesNoRegionHasNothingToFit() throws {
    let (samples, _) = try Self.walk(fences: 2)
    let far = CircularRegion(
      center: try Coordinate(latitude: 36, longitude: 140), radius: 100, identifier: "far")
    let log = FieldLog(samples: samples, origin: Self.origin, fences: [far], events: [])
    #expect {
      _ = try FieldFit(log: log, base: .urban, name: "x", trials: 1).run()
    } throws: { error in
      "\(error)".contains("crosses none of the registered regions")
    }
  }

  // MARK: The documented example

  static let exampleFolder = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .deletingLastPathComponent().deletingLastPathComponent()
    .appendingPathComponent("docs/examples/field-log")

  /// The example's phone: urban, missing one transition in five, exits after a 90 s median.
  static var exampleTruth: DeviceProfile {
    var profile = DeviceProfile.urban
    profile.parameters.regionMonitoring.missProbability = 0.2
    profile.parameters.regionMonitoring.exitLatencyMedian = .seconds(90)
    return profile
  }

  /// docs/examples/field-log holds a log the simulator recorded with ``exampleTruth`` (seed 7);
  /// `GEOSIM_RECORD_EXAMPLES=1` writes it again.
  @Test func theDocumentedExampleIsALogTheSimulatorRecorded() throws {
    let log = try Self.syntheticLog(Self.exampleTruth, seed: 7)
    let track = Self.exampleFolder.appendingPathComponent("walk.gpx")
    let events = Self.exampleFolder.appendingPathComponent("events.csv")
    if ProcessInfo.processInfo.environment["GEOSIM_RECORD_EXAMPLES"] == "1" {
      let points = log.samples.map {
        TracePoint(time: Self.origin + $0.time.seconds, coordinate: $0.coordinate)
      }
      let trace = Trace(name: "walk", format: .gpx, tracks: [TraceTrack(points: points)])
      try FileManager.default.createDirectory(
        at: Self.exampleFolder, withIntermediateDirectories: true)
      try Data(trace.gpxText.utf8).write(to: track)
      try Data(log.csvText.utf8).write(to: events)
    }
    let read = try FieldLog.read(track: track.path, events: events.path)
    #expect(read.fences == log.fences)
    #expect(read.events.map(\.kind) == log.events.map(\.kind))
    #expect(try String(contentsOf: events, encoding: .utf8) == log.csvText)
  }

  // MARK: Matching events to crossings

  @Test func eachCrossingTakesTheFirstEventOfItsKindSinceTheCrossingBefore() throws {
    let c = try Coordinate(latitude: 35, longitude: 139)
    let fence = CircularRegion(center: c, radius: 100, identifier: "f")
    func event(_ t: Double, _ kind: FieldCrossingKind) -> FieldEvent {
      FieldEvent(time: .seconds(t), fence: "f", kind: kind, coordinate: c)
    }
    // Two visits: the first entry heard early (before the true entry at 100), the first exit
    // missed, the second entry late, an extra exit at the end.
    let record = FieldTrialRecord(
      seed: 0, fences: [fence],
      events: [event(90, .entry), event(700, .entry), event(1_000, .exit), event(1_100, .exit)],
      crossings: [event(100, .entry), event(300, .exit), event(600, .entry), event(900, .exit)])
    let (matches, unmatched) = record.matches()
    #expect(matches.map(\.latency) == [-10, nil, 100, 100])
    #expect(unmatched == 1)
  }

  // MARK: Reading a log

  static func write(_ log: FieldLog, to folder: URL, eventsName: String, events: String? = nil)
    throws -> (track: String, events: String)
  {
    try? FileManager.default.removeItem(at: folder)
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    let points = log.samples.map {
      TracePoint(time: origin + $0.time.seconds, coordinate: $0.coordinate)
    }
    let trace = Trace(name: "walk", format: .gpx, tracks: [TraceTrack(points: points)])
    let track = folder.appendingPathComponent("walk.gpx")
    try Data(trace.gpxText.utf8).write(to: track)
    let eventsFile = folder.appendingPathComponent(eventsName)
    try Data((events ?? log.csvText).utf8).write(to: eventsFile)
    return (track.path, eventsFile.path)
  }

  @Test func aLogWrittenAsGPXAndCSVReadsBackWithItsRegionsAndEvents() throws {
    let log = try Self.syntheticLog(Self.known, seed: 3, fences: 2)
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
      "geosim-field-log-csv-\(getpid())")
    defer { try? FileManager.default.removeItem(at: folder) }
    let (track, events) = try Self.write(log, to: folder, eventsName: "log.csv")
    let read = try FieldLog.read(track: track, events: events)
    #expect(read.origin == Self.origin)
    #expect(read.fences == log.fences)
    #expect(read.events.map(\.fence) == log.events.map(\.fence))
    #expect(read.events.map(\.kind) == log.events.map(\.kind))
    for (a, b) in zip(read.events, log.events) {
      #expect(abs((a.time - b.time).seconds) < 0.001)
    }
    #expect(read.samples.first?.time == .zero && read.samples.count == log.samples.count)
  }

  @Test func aLogInJSONLinesReadsAsTheSameCSV() throws {
    let (samples, fences) = try Self.walk(fences: 1)
    let log = FieldLog(samples: samples, origin: Self.origin, fences: fences, events: [])
    let jsonl = """
      {"time": "2026-03-31T23:33:20Z", "event": "register", "region": "f0", "latitude": \(fences[0].center.latitude), "longitude": \(fences[0].center.longitude), "radius": 100}
      # a comment
      {"time": "2026-04-01T08:38:00+09:00", "event": "enter", "region": "f0"}

      {"time": "2026-03-31T23:40:00.5Z", "event": "exit", "region": "f0"}
      """
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
      "geosim-field-log-jsonl-\(getpid())")
    defer { try? FileManager.default.removeItem(at: folder) }
    let (track, events) = try Self.write(log, to: folder, eventsName: "log.jsonl", events: jsonl)
    let read = try FieldLog.read(track: track, events: events)
    #expect(read.fences == fences)
    #expect(read.events.map(\.kind) == [.entry, .exit])
    #expect(read.events.map(\.time) == [.seconds(280), .seconds(400.5)])
  }

  @Test(arguments: [
    (
      "time,event,region,latitude,longitude,radius\n2026-03-31T23:33:20Z,register,f0,35.6262,139.7317,100\n2026-04-01T23:33:20Z,enter,f0,,,\n",
      "log.csv:3: the enter of 'f0' at 2026-04-01T23:33:20Z is outside the track's time span"
    ),
    (
      "time,event,region,latitude,longitude,radius\n2026-03-31T23:33:20Z,register,f0,35.6262,139.7317,100\n2026-03-31T23:40:00Z,exit,home,,,\n",
      "log.csv:3: an exit of 'home', which is not registered before it"
    ),
    (
      "time,event,region,latitude,longitude,radius\n2026-03-31 23:33:20,register,f0,35.6262,139.7317,100\n",
      "log.csv:2: expected an ISO 8601 time with a UTC offset"
    ),
    (
      "time,event,region,latitude,longitude,radius\n2026-03-31T23:33:20Z,arrive,f0,,,\n",
      "log.csv:2: expected the event register, enter or exit, found 'arrive'"
    ),
    (
      "time,event,region,latitude,longitude,radius\n2026-03-31T23:33:20Z,register,f0,,,\n",
      "log.csv:2: a register row needs the region's latitude, longitude and radius"
    ),
    (
      "time,event,region,lat,lon,radius\n", "log.csv:1: unknown column 'lat'"
    ),
    (
      "time,event,region,latitude,longitude,radius\n2026-03-31T23:33:20Z,register,a,35.6262,139.7317,100\n2026-03-31T23:43:20Z,register,b,35.6262,139.7317,100\n",
      "log.csv:3: the region 'b' is registered 600 s after the first region"
    ),
    ("time,event,region\n", "log.csv: expected at least one register row"),
  ])
  func aBadLogNamesTheFileTheLineAndWhatWasExpected(_ csv: String, _ message: String) throws {
    let (samples, fences) = try Self.walk(fences: 1)
    let log = FieldLog(samples: samples, origin: Self.origin, fences: fences, events: [])
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
      "geosim-field-log-bad-\(getpid())-\(abs(message.hashValue))")
    defer { try? FileManager.default.removeItem(at: folder) }
    let (track, events) = try Self.write(log, to: folder, eventsName: "log.csv", events: csv)
    #expect {
      _ = try FieldLog.read(track: track, events: events)
    } throws: { error in
      let text = "\(error)"
      return text.hasPrefix(events)
        && text.dropFirst(events.count - "log.csv".count).hasPrefix(message)
    }
  }

  @Test func anEmptyTrackIsAnErrorNamingTheTrackFile() throws {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
      "geosim-field-log-empty-\(getpid())")
    defer { try? FileManager.default.removeItem(at: folder) }
    try? FileManager.default.removeItem(at: folder)
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    let track = folder.appendingPathComponent("empty.gpx")
    try Data(
      #"<?xml version="1.0"?><gpx version="1.1" xmlns="http://www.topografix.com/GPX/1/1"><trk><trkseg></trkseg></trk></gpx>"#
        .utf8
    ).write(to: track)
    let events = folder.appendingPathComponent("log.csv")
    try Data("time,event,region\n".utf8).write(to: events)
    #expect {
      _ = try FieldLog.read(track: track.path, events: events.path)
    } throws: { error in
      "\(error)".hasPrefix(track.path)
    }
  }
}
