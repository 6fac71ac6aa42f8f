import Device
import Foundation
import Geo
import SimKernel
import Testing

@testable import Reporting

/// The calibration suite's machinery: its intervals, its measures, trials through the phone's
/// public API, and a reduced run of every published design. Whether today's region engine
/// lands inside the bands is `geosim calibrate --check`'s business, not these tests'.
@Suite struct CalibrationSuiteTests {
  static let centre = try! Coordinate(latitude: 35.6262, longitude: 139.7236)

  // MARK: Intervals

  @Test func wilsonIntervalOfThePublishedSensitivity() {
    let e = CalibrationEstimate.proportion(297, of: 360)
    #expect(e.value == 0.825)
    #expect(abs(e.lower! - 0.78238) < 1e-5 && abs(e.upper! - 0.86076) < 1e-5)
    #expect(e.method == .wilson && e.count == 360 && e.successes == 297)
  }

  @Test func wilsonIntervalStaysInsideZeroAndOneAtTheEnds() {
    let none = CalibrationEstimate.proportion(0, of: 10)
    #expect(none.lower == 0 && abs(none.upper! - 0.27753) < 1e-5)
    let all = CalibrationEstimate.proportion(10, of: 10)
    #expect(abs(all.lower! - 0.72247) < 1e-5 && all.upper! <= 1)
    #expect(CalibrationEstimate.proportion(0, of: 0).value == nil)
  }

  @Test func medianIntervalUsesTheBinomialOrderStatistics() {
    #expect(CalibrationEstimate.medianRanks(100) == (40, 61))
    #expect(CalibrationEstimate.medianRanks(20) == (6, 15))
    // Below six values no pair of order statistics reaches 95 %: the range.
    #expect(CalibrationEstimate.medianRanks(5) == (1, 5))
    let e = CalibrationEstimate.median((1...100).map(Double.init).reversed())
    #expect(e.value == 50.5 && e.lower == 40 && e.upper == 61 && e.method == .orderStatistic)
  }

  @Test func bootstrapIntervalIsSeededAndHoldsTheMean() {
    let values = (0..<50).map { Double(($0 * 37) % 101) }
    let a = CalibrationEstimate.mean(values, random: RandomStream(seed: 7))
    let b = CalibrationEstimate.mean(values, random: RandomStream(seed: 7))
    let c = CalibrationEstimate.mean(values, random: RandomStream(seed: 8))
    #expect(a == b)
    #expect(a.lower != c.lower || a.upper != c.upper)
    #expect(a.lower! < a.value! && a.value! < a.upper!)
    let constant = CalibrationEstimate.mean([4, 4, 4], random: RandomStream(seed: 1))
    #expect(constant.value == 4 && constant.lower == 4 && constant.upper == 4)
  }

  // MARK: Measures

  func record(entry: Double?, exit: Double?, entryDepth: Double = 50) throws -> FieldTrialRecord {
    let fence = CircularRegion(center: Self.centre, radius: 100, identifier: "fence")
    func at(_ distance: Double) throws -> Coordinate {
      try Geodesic.wgs84.direct(from: Self.centre, azimuth: 90, distance: distance).coordinate
    }
    var events: [FieldEvent] = []
    if let entry {
      events.append(
        FieldEvent(
          time: .seconds(100 + entry), fence: "fence", kind: .entry,
          coordinate: try at(100 - entryDepth)))
    }
    if let exit {
      events.append(
        FieldEvent(time: .seconds(300 + exit), fence: "fence", kind: .exit, coordinate: try at(400))
      )
    }
    return FieldTrialRecord(
      seed: 0, fences: [fence], events: events,
      crossings: [
        FieldEvent(time: .seconds(100), fence: "fence", kind: .entry, coordinate: try at(100)),
        FieldEvent(time: .seconds(300), fence: "fence", kind: .exit, coordinate: try at(100)),
      ])
  }

  @Test func measuresCountCrossingsEntriesAndLatencies() throws {
    let records = [
      try record(entry: 10, exit: 120, entryDepth: 14),
      try record(entry: -20, exit: nil, entryDepth: -600),
      try record(entry: nil, exit: 60), try record(entry: 90, exit: 240, entryDepth: 30),
    ]
    let random = RandomStream(seed: 1)
    func value(_ m: CalibrationMeasure) -> Double? { m.estimate(records, random: random).value }
    #expect(value(.detectedCrossings) == 6.0 / 8)
    #expect(value(.entriesWithin(seconds: 30)) == 2.0 / 4)
    #expect(value(.entriesMissedOrLaterThan(seconds: 60)) == 2.0 / 4)
    #expect(value(.entriesFartherThan(metres: 500)) == 1.0 / 3)
    #expect(value(.medianExitLatency) == 120)
    #expect(abs(value(.medianEntryDepth)! - 14) < 1e-6)
    #expect(abs(value(.meanEntryLatency)! - 80.0 / 3) < 1e-9)
  }

  // MARK: Trials through the phone

  /// A walk through a 200 m fence with no randomness in the region engine.
  func walkThrough(app: FieldAppState) throws -> FieldTrialRecord {
    var route = StraightRoute(centre: Self.centre, start: -1_000)
    route.move(to: 1_000, speed: 1.4)
    route.stay(600)
    var conditions = FieldConditions()
    conditions.app = app
    conditions.parameters.regionMonitoring.missProbability = 0
    conditions.parameters.regionMonitoring.latencySigma = 0
    let fence = CircularRegion(center: Self.centre, radius: 200, identifier: "fence")
    return try FieldTrial(samples: try route.samples(), fences: [fence], conditions: conditions)
      .run(seed: 3, geos: GEOSContext())
  }

  @Test(arguments: FieldAppState.allCases)
  func aWalkThroughAFenceIsHeardInEveryAppState(app: FieldAppState) throws {
    let record = try walkThrough(app: app)
    #expect(record.crossings.map(\.kind) == [.entry, .exit])
    let entry = try #require(record.firstEvent(.entry, fence: "fence"))
    let exit = try #require(record.firstEvent(.exit, fence: "fence"))
    #expect(entry.time < exit.time)
    // The true crossings are 800 m (entry) and 1,200 m (exit) into the walk.
    #expect(abs(record.crossings[0].time.seconds - 800 / 1.4) < 1)
    #expect(abs(record.crossings[1].time.seconds - 1_200 / 1.4) < 1)
    #expect(try #require(record.latency(.exit, fence: "fence")) > 0)
  }

  @Test func aTrialHearsNothingWhenTheEngineMissesEveryTransition() throws {
    var route = StraightRoute(centre: Self.centre, start: -1_000)
    route.move(to: 1_000, speed: 1.4)
    var conditions = FieldConditions()
    conditions.parameters.regionMonitoring.missProbability = 1
    let fence = CircularRegion(center: Self.centre, radius: 200, identifier: "fence")
    let record = try FieldTrial(
      samples: try route.samples(), fences: [fence], conditions: conditions
    ).run(seed: 3, geos: GEOSContext())
    #expect(record.events.isEmpty)
    #expect(record.crossings.count == 2)
    #expect(
      CalibrationMeasure.detectedCrossings.estimate([record], random: RandomStream(seed: 1)).value
        == 0)
  }

  @Test func aTrialIsTheSameForTheSameSeed() throws {
    #expect(try walkThrough(app: .background) == walkThrough(app: .background))
  }

  // MARK: The published suite, reduced

  @Test func everyPublishedCheckGivesARowInOrder() throws {
    let suite = CalibrationSuite.published
    let report = try suite.run(trials: 3, seed: 5)
    let ids = suite.designs.flatMap { $0.checks.map(\.id) }
    #expect(report.rows.map(\.check.id) == ids)
    #expect(Set(ids).count == ids.count)
    #expect(report.rows.allSatisfy { $0.trials == 3 })
    for design in suite.designs {
      #expect(!design.assumptions.isEmpty && design.trials >= 50, "\(design.id)")
      for check in design.checks {
        #expect(check.band.lowerBound < check.band.upperBound, "\(check.id)")
      }
    }
    let markdown = report.markdown
    for id in ids { #expect(markdown.contains("`\(id)`")) }
    #expect(report.svg.hasPrefix("<?xml"))
  }

  // MARK: The published suite, whole

  /// The calibration itself: every published figure, re-run with the design's own number of
  /// trials, lies inside the band docs/DEVICE.md states for it.
  @Test func everyPublishedRowLiesInsideItsBand() throws {
    let report = try CalibrationSuite.published.run(seed: 0)
    for row in report.rows {
      #expect(
        row.isInsideBand,
        "\(row.check.id): \(row.estimate.value.map { "\($0)" } ?? "no estimate") outside \(row.check.band)"
      )
    }
  }

  /// Each design runs on the device profile whose conditions match its source's.
  @Test func designsRunOnTheProfilesOfTheirConditions() {
    let profiles = Dictionary(
      uniqueKeysWithValues: CalibrationSuite.published.designs.map { ($0.id, $0.profile.name) })
    #expect(profiles["radius-networks-2015"] == "urban")
    #expect(profiles["shevchenko-reips-2024"] == "suburban")
    #expect(profiles["qiita-train"] == "transit")
    #expect(profiles["apple-average"] == "urban")
  }

  @Test func theReportIsByteIdenticalForASeed() throws {
    let suite = CalibrationSuite(designs: [
      CalibrationSuite.radiusNetworks, CalibrationSuite.appleAverage,
    ])
    let a = try suite.run(trials: 4, seed: 11)
    let b = try suite.run(trials: 4, seed: 11)
    #expect(a.markdown == b.markdown && a.json == b.json && a.svg == b.svg)
    let c = try suite.run(trials: 4, seed: 12)
    #expect(a.json != c.json)
  }

  @Test func theReportIsWrittenAsThreeFiles() throws {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
      "calibration-\(UUID().uuidString)")
    defer { try? FileManager.default.removeItem(at: folder) }
    let report = try CalibrationSuite(designs: [CalibrationSuite.qiitaWalk]).run(trials: 2)
    try report.write(to: folder)
    let names = try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
    #expect(names == ["calibration.json", "calibration.md", "calibration.svg"])
    let json = try Data(contentsOf: folder.appendingPathComponent("calibration.json"))
    #expect(String(decoding: json, as: UTF8.self).contains("\"qiita-walk-depth\""))
  }

  @Test func aRowWithoutAnEstimateIsOutsideItsBand() throws {
    let row = CalibrationRow(
      design: CalibrationSuite.qiitaWalk, check: CalibrationSuite.qiitaWalk.checks[0], trials: 0,
      estimate: .median([]))
    #expect(!row.isInsideBand)
    #expect(!CalibrationReport(seed: 0, rows: [row]).allInsideBands)
  }
}
