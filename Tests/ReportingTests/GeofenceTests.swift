import Device
import Foundation
import Geo
import JSON
import ReferenceAppCatalog
import Replay
import Reporting
import SimKernel
import Testing

/// The fence centre of the constructed cases: Tokyo Station.
private let centre = try! Coordinate(latitude: 35.681236, longitude: 139.767125)
private let projection = LocalProjection(center: centre)

/// A trace along the straight line y = `offset` in the projection around `centre`, from
/// x = `from` to x = `to` metres at `speed` m/s, one sample every `step` seconds, starting at
/// `start` seconds.
private func line(
  offset: Double = 0, from: Double, to: Double, speed: Double = 10, step: Double = 1,
  start: Double = 0
) throws -> [TrajectorySample] {
  let duration = abs(to - from) / speed
  let count = Int((duration / step).rounded(.down))
  var times = (0...count).map { Double($0) * step }
  if times.last! < duration { times.append(duration) }
  return try times.map { t in
    let x = from + (to - from) * t / duration
    return TrajectorySample(
      time: .seconds(start + t), coordinate: try projection.unproject(Position(x: x, y: offset)))
  }
}

/// Metres between two coordinates.
private func distance(_ a: Coordinate, _ b: Coordinate) -> Double {
  Geodesic.wgs84.inverse(from: a, to: b).distance
}

/// A log builder for the constructed matching cases.
private final class Log {
  let log = EventLog()
  func add(_ time: Double, _ source: String, _ event: String, _ fields: [String: LogValue]) {
    log.record(
      at: .seconds(time), source: source, event: event,
      fields.keys.sorted().map { LogField($0, fields[$0]!) })
  }
  func start(_ time: Double, _ id: String, _ at: Coordinate, radius: Double = 100) {
    add(
      time, "region", "startMonitoring",
      [
        "identifier": .string(id), "latitude": .double(at.latitude),
        "longitude": .double(at.longitude), "radius": .double(radius),
      ])
  }
  func decided(_ time: Double, _ id: String, _ state: String, request: String? = nil) {
    var fields: [String: LogValue] = [
      "identifier": .string(id), "state": .string(state),
      "estimateLatitude": .double(centre.latitude), "estimateLongitude": .double(centre.longitude),
    ]
    if let request { fields["request"] = .string(request) }
    add(time, "region", "decided", fields)
  }
}

@Suite struct GeofenceMatchingTests {
  /// Through the 100 m fence and back: true entries at 90 and 290 s, exits at 110 and 310 s.
  func thereAndBack() throws -> [TrajectorySample] {
    try line(from: -1_000, to: 1_000) + line(from: 1_000, to: -1_000, start: 200).dropFirst()
  }

  @Test func aConstructedLogIsMatchedWithLatencyMissesFalseTriggersAndDuplicates() throws {
    let far = try projection.unproject(Position(x: 0, y: 5_000))
    let log = Log()
    log.start(0, "home", centre)
    log.start(0, "far", far)
    log.decided(95, "home", "inside")
    log.add(100, "region", "didEnterRegion", ["identifier": .string("home")])
    log.add(105, "region", "didEnterRegion", ["identifier": .string("home")])
    log.add(130, "region", "missed", ["identifier": .string("home"), "state": .string("outside")])
    log.decided(292, "home", "inside")
    log.add(
      300, "region", "suppressed",
      ["identifier": .string("home"), "cause": .string("appNotInUse")])
    log.add(400, "region", "didExitRegion", ["identifier": .string("home")])
    log.add(50, "region", "didEnterRegion", ["identifier": .string("far")])
    let events = log.log.entries.sorted { ($0.time, $0.sequence) < ($1.time, $1.sequence) }

    let report = try GeofenceReport(
      events: events, trueSamples: thereAndBack(), context: GEOSContext())
    #expect(report.fences.map(\.identifier) == ["far", "home"])
    let home = 1
    let crossings = report.crossings.filter { $0.fence == home }
    #expect(crossings.map(\.direction) == [.entry, .exit, .entry, .exit])
    #expect(crossings.map(\.cause) == [nil, "missed", "appNotInUse", nil])

    let observations = report.observations
    #expect(observations.map(\.outcome) == [.falseTrigger, .detected, .duplicate, .detected])
    let first = observations[1]
    #expect(abs(try #require(first.latency) - 10) < 1e-6)
    #expect(abs(try #require(first.distancePastBoundary) - 100) < 0.01)
    #expect(abs(first.distanceFromBoundary + 100) < 0.01)
    #expect(first.believedPosition == centre)
    let exit = observations[3]
    #expect(abs(try #require(exit.latency) - 90) < 1e-6)
    // From the exit at x = −100 m, 900 m further west by t = 400 s.
    #expect(abs(try #require(exit.distancePastBoundary) - 900) < 0.01)
    #expect(abs(exit.distanceFromBoundary - 900) < 0.01)

    let summary = report.fenceSummaries[home]
    #expect(summary.trueCrossings == 4)
    #expect(summary.detected == 2)
    #expect(summary.missed == 2)
    #expect(summary.duplicates == 1)
    #expect(summary.falseTriggers == 0)
    #expect(summary.sensitivity == 0.5)
    #expect(summary.precision == 1)
    #expect(abs(try #require(summary.latencyMedian) - 50) < 1e-6)
    #expect(abs(try #require(summary.latencyMax) - 90) < 1e-6)
    #expect(report.summary.falseTriggers == 1)
    #expect(report.summary.precision == 2.0 / 3)
    #expect(report.fenceSummaries[0].latencyMedian == nil)
    #expect(abs(report.truth[home].timeInside - 40) < 1e-6)
    #expect(!report.truth[home].insideAtStart)

    // The JSON is stable and rounded.
    let text = report.json.jsonText
    #expect(text == report.json.jsonText)
    #expect(text.contains("\"latency\":10,"))
    #expect(report.markdown().contains("| region `home` | 100 m | 0–end "))
  }

  @Test func aLocationNotificationIsAFenceUntilItsDeliveryAndPermissionCausesAreReported() throws {
    let log = Log()
    let trigger: [String: LogValue] = [
      "trigger": .string("location"), "repeats": .bool(false), "region": .string("r"),
      "latitude": .double(centre.latitude), "longitude": .double(centre.longitude),
      "radius": .double(100), "notifyOnEntry": .bool(true), "notifyOnExit": .bool(false),
    ]
    log.add(0, "notifications", "added", trigger.merging(["identifier": .string("a")]) { $1 })
    log.add(0, "notifications", "added", trigger.merging(["identifier": .string("b")]) { $1 })
    log.decided(98, "r", "inside", request: "a")
    log.decided(98, "r", "inside", request: "b")
    log.add(
      104, "notifications", "delivered",
      trigger.merging(["identifier": .string("a"), "stillPending": .bool(false)]) { $1 })
    log.add(
      106, "notifications", "suppressed",
      ["identifier": .string("b"), "cause": .string("notificationPermission")])
    log.add(
      106, "notifications", "delivered",
      trigger.merging(["identifier": .string("b"), "stillPending": .bool(false)]) { $1 })
    let report = try GeofenceReport(
      events: log.log.entries, trueSamples: thereAndBack(), context: GEOSContext())
    #expect(report.fences.map(\.identifier) == ["a", "b"])
    #expect(report.fences.map(\.endedBy) == ["delivered", "delivered"])
    // Entries only (notifyOnExit is false), and only while active: the second pass is after
    // the deliveries.
    #expect(report.crossings.map(\.direction) == [.entry, .entry])
    #expect(report.crossings.map(\.cause) == [nil, "notificationPermission"])
    #expect(report.observations.count == 1)
    #expect(abs(try #require(report.observations.first?.latency) - 14) < 1e-6)
  }

  @Test func onlyCrossingsWhileAFenceIsActiveCount() throws {
    let log = Log()
    // Registered at 100 s, inside the circle (entered at 90 s): no entry is expected.
    log.start(100, "home", centre)
    log.add(250, "region", "stopMonitoring", ["identifier": .string("home")])
    log.start(260, "again", centre)
    log.add(300, "phone", "reboot", [:])
    let report = try GeofenceReport(
      events: log.log.entries, trueSamples: thereAndBack(), context: GEOSContext())
    #expect(report.fences.map(\.identifier) == ["home", "again"])
    #expect(report.fences.map(\.endedBy) == ["stopMonitoring", "reboot"])
    #expect(report.truth.map(\.insideAtStart) == [true, false])
    #expect(abs(report.truth[0].timeInside - 10) < 1e-6)
    #expect(abs(report.truth[1].timeInside - 10) < 1e-6)
    // The exit at 110 s while "home" is active, the entry at 290 s while "again" is; the exit
    // at 310 s comes after the reboot.
    #expect(report.crossings.map(\.fence) == [0, 1])
    #expect(report.crossings.map(\.direction) == [.exit, .entry])
    #expect(report.crossings.map(\.cause) == ["fenceEnded", "fenceEnded"])
  }

  @Test func theShippedArrivalAlarmHasOneTrueEntryDetectedWithAPlausibleLatency() throws {
    let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
      .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Scenarios")
    let run = try ScenarioRun(
      Scenario(
        contentsOf: folder.appendingPathComponent(
          "arrival-alarm/train-to-shinagawa-corrected.scenario.json"
        ).path), catalog: .referenceApps, resources: ReplayResources())
    let report = try GeofenceReport(input: ReportInput(run), context: GEOSContext())
    // The app monitors the region and schedules the notification: two fences, one place.
    #expect(report.fences.map(\.kind) == [.notification, .region])
    for index in report.fences.indices {
      let summary = report.fenceSummaries[index]
      #expect(summary.trueCrossings == 1)
      #expect(summary.detected == 1)
      #expect(summary.falseTriggers == 0)
      let latency = try #require(summary.latencyMedian)
      #expect(latency > -60 && latency < 120)
    }
    let entry = try #require(report.crossings.first)
    #expect(entry.direction == .entry)
    #expect(abs(distance(entry.coordinate, report.fences[0].center) - 300) < 0.01)
    // The same run gives the same bytes.
    let again = try GeofenceReport(input: ReportInput(run), context: GEOSContext())
    #expect(again.json.jsonText == report.json.jsonText)
  }
}
