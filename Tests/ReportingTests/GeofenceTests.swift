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

/// A log builder for the constructed matching cases, from the events the phone declares.
private final class Log {
  let log = EventLog()
  func add(_ time: Double, _ event: some LogEvent) {
    log.record(event, at: .seconds(time))
  }
  func start(_ time: Double, _ id: String, _ at: Coordinate, radius: Double = 100) {
    add(time, RegionEvent.startMonitoring(identifier: id, center: at, radius: radius))
  }
  func decision(_ id: String, _ state: RegionState, request: String? = nil) -> RegionDecision {
    RegionDecision(identifier: id, state: state, estimate: centre, request: request)
  }
  func decided(_ time: Double, _ id: String, _ state: RegionState, request: String? = nil) {
    add(time, RegionEvent.decided(decision(id, state, request: request)))
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
    log.decided(95, "home", .inside)
    log.add(100, RegionEvent.didEnterRegion(identifier: "home", notified: true))
    log.add(105, RegionEvent.didEnterRegion(identifier: "home", notified: true))
    log.add(130, RegionEvent.missed(log.decision("home", .outside)))
    log.decided(292, "home", .inside)
    log.add(300, RegionEvent.suppressed(identifier: "home", cause: .appNotInUse))
    log.add(400, RegionEvent.didExitRegion(identifier: "home", notified: true))
    log.add(50, RegionEvent.didEnterRegion(identifier: "far", notified: true))
    let events = log.log.entries.sorted { ($0.time, $0.sequence) < ($1.time, $1.sequence) }

    let report = try GeofenceReport(
      events: events, trueSamples: thereAndBack(), context: GEOSContext())
    #expect(report.fences.map(\.identifier) == ["far", "home"])
    let home = 1
    let crossings = report.crossings.filter { $0.fence == home }
    #expect(crossings.map(\.direction) == [.entry, .exit, .entry, .exit])
    #expect(crossings.map(\.cause) == [nil, .missed, .appNotInUse, nil])

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

  @Test func aMonitorConditionIsAFenceItsFirstStateIsNoObservationAndItOutlivesAReboot() throws {
    let log = Log()
    let circle = MonitorCondition.circle(
      latitude: centre.latitude, longitude: centre.longitude, radius: 100)
    func delivered(_ time: Double, _ state: ConditionState, _ d: MonitorDiagnostics = []) {
      log.add(
        time,
        MonitorEvent.eventDelivered(monitor: "m", identifier: "home", state: state, diagnostics: d))
    }
    func decided(_ time: Double, _ state: ConditionState) {
      log.add(
        time, MonitorEvent.decided(monitor: "m", identifier: "home", state: state, estimate: centre)
      )
    }
    log.add(
      0,
      MonitorEvent.conditionAdded(
        monitor: "m", identifier: "home", condition: circle, assumed: .unknown))
    decided(0, .unsatisfied)
    delivered(0, .unsatisfied)
    decided(95, .satisfied)
    delivered(100, .satisfied)
    delivered(105, .satisfied, [.authorizationDenied])
    log.add(
      130,
      MonitorEvent.missed(monitor: "m", identifier: "home", state: .unsatisfied, estimate: centre))
    log.add(150, PhoneEvent.reboot)
    decided(292, .satisfied)
    log.add(300, MonitorEvent.suppressed(monitor: "m", identifier: "home", cause: .permission))
    log.add(350, MonitorEvent.conditionRemoved(monitor: "m", identifier: "home"))
    let events = log.log.entries.sorted { ($0.time, $0.sequence) < ($1.time, $1.sequence) }

    let report = try GeofenceReport(
      events: events, trueSamples: thereAndBack(), context: GEOSContext())
    let fence = try #require(report.fences.first)
    #expect(report.fences.count == 1)
    #expect(fence.kind == .monitor)
    #expect(fence.identifier == "m/home")
    #expect(fence.activeUntil == .seconds(350))
    #expect(fence.endedBy == .removed)
    // The first state and a diagnostics event are not crossings the app observed.
    #expect(report.observations.map(\.outcome) == [.detected])
    #expect(abs(try #require(report.observations.first?.latency) - 10) < 1e-6)
    #expect(report.crossings.map(\.cause) == [nil, .missed, .permission, .fenceEnded])
  }

  @Test func aLocationNotificationIsAFenceUntilItsDeliveryAndPermissionCausesAreReported() throws {
    let log = Log()
    var region = CircularRegion(center: centre, radius: 100, identifier: "r")
    region.notifyOnExit = false
    func request(_ id: String) -> LoggedNotificationRequest {
      LoggedNotificationRequest(
        identifier: id, trigger: .location(region, repeats: false), fireTime: nil)
    }
    func delivered(_ id: String) -> NotificationEvent {
      .delivered(request(id), stillPending: false, replacedDelivered: false, nextFireTime: nil)
    }
    log.add(0, NotificationEvent.added(request("a")))
    log.add(0, NotificationEvent.added(request("b")))
    log.decided(98, "r", .inside, request: "a")
    log.decided(98, "r", .inside, request: "b")
    log.add(104, delivered("a"))
    log.add(106, NotificationEvent.suppressed(identifier: "b", cause: .notificationPermission))
    log.add(106, delivered("b"))
    let report = try GeofenceReport(
      events: log.log.entries, trueSamples: thereAndBack(), context: GEOSContext())
    #expect(report.fences.map(\.identifier) == ["a", "b"])
    #expect(report.fences.map(\.endedBy) == [.delivered, .delivered])
    // Entries only (notifyOnExit is false), and only while active: the second pass is after
    // the deliveries.
    #expect(report.crossings.map(\.direction) == [.entry, .entry])
    #expect(report.crossings.map(\.cause) == [nil, .notificationPermission])
    #expect(report.observations.count == 1)
    #expect(abs(try #require(report.observations.first?.latency) - 14) < 1e-6)
  }

  @Test func anEarlyOneShotNotificationIsAnEarlyDetectionOfTheEntryItAnticipated() throws {
    // Delivered 0.35 s (3.5 m) before the true entry at 90 s: the delivery ends the request's
    // fence, but the entry it anticipated is still the one it answers (Radius Networks saw
    // triggers up to about 1 km early [3P]).
    let log = Log()
    var region = CircularRegion(center: centre, radius: 100, identifier: "r")
    region.notifyOnExit = false
    let request = LoggedNotificationRequest(
      identifier: "a", trigger: .location(region, repeats: false), fireTime: nil)
    log.add(0, NotificationEvent.added(request))
    log.decided(85, "r", .inside, request: "a")
    log.add(
      89.65,
      NotificationEvent.delivered(
        request, stillPending: false, replacedDelivered: false, nextFireTime: nil))
    let report = try GeofenceReport(
      events: log.log.entries, trueSamples: thereAndBack(), context: GEOSContext())
    #expect(report.fences.map(\.endedBy) == [.delivered])
    // The anticipated entry counts; the second pass, long after the delivery, does not.
    #expect(report.crossings.map(\.time) == [.seconds(90)])
    let observation = try #require(report.observations.first)
    #expect(observation.outcome == .detected)
    #expect(abs(try #require(observation.latency) + 0.35) < 1e-6)
    #expect(abs(try #require(observation.distancePastBoundary) + 3.5) < 0.01)
    #expect(report.summary.falseTriggers == 0 && report.summary.detected == 1)
    #expect(report.markdown().contains("early"))
  }

  @Test func anAppThatReRegistersItsRegionWhenRelaunchedKeepsOneFence() throws {
    // Relaunched by the entry, the app registers the same region again before its delegate
    // hears the entry, as standard iOS code does: one fence, one detected entry.
    let log = Log()
    log.start(0, "home", centre)
    log.decided(95, "home", .inside)
    log.start(100, "home", centre)
    log.add(100, RegionEvent.didEnterRegion(identifier: "home", notified: true))
    let report = try GeofenceReport(
      events: log.log.entries, trueSamples: thereAndBack(), context: GEOSContext())
    #expect(report.fences.count == 1)
    #expect(report.observations.map(\.outcome) == [.detected])
    #expect(report.crossings.first?.cause == nil)
    #expect(report.summary.falseTriggers == 0)
  }

  @Test func anEventDeliveredAsTheRegionIsReplacedBelongsToTheOldRegistration() throws {
    let far = try projection.unproject(Position(x: 0, y: 5_000))
    let log = Log()
    log.start(0, "home", centre)
    log.decided(95, "home", .inside)
    log.start(100, "home", far)
    log.add(100, RegionEvent.didEnterRegion(identifier: "home", notified: true))
    let report = try GeofenceReport(
      events: log.log.entries, trueSamples: thereAndBack(), context: GEOSContext())
    #expect(report.fences.map(\.registration) == [1, 2])
    #expect(report.observations.map(\.fence) == [0])
    #expect(report.observations.map(\.outcome) == [.detected])
    #expect(report.summary.falseTriggers == 0)
  }

  @Test func anExitOfARegionThatDoesNotNotifyOnExitIsNeitherExpectedNorDetected() throws {
    let log = Log()
    log.add(
      0,
      RegionEvent.startMonitoring(
        identifier: "home", center: centre, radius: 100, notifyOnEntry: true,
        notifyOnExit: false))
    log.decided(95, "home", .inside)
    log.add(100, RegionEvent.didEnterRegion(identifier: "home", notified: true))
    log.decided(250, "home", .outside)
    log.add(260, RegionEvent.didExitRegion(identifier: "home", notified: false))
    let report = try GeofenceReport(
      events: log.log.entries, trueSamples: thereAndBack(), context: GEOSContext())
    #expect(report.fences.first?.notifyOnExit == false)
    #expect(report.crossings.map(\.direction) == [.entry, .entry])
    #expect(report.observations.map(\.direction) == [.entry])
    #expect(abs(try #require(report.summary.latencyMedian) - 10) < 1e-6)
  }

  @Test func onlyCrossingsWhileAFenceIsActiveCount() throws {
    let log = Log()
    // Registered at 100 s, inside the circle (entered at 90 s): no entry is expected.
    log.start(100, "home", centre)
    log.add(250, RegionEvent.stopMonitoring(identifier: "home"))
    log.start(260, "again", centre)
    log.add(300, PhoneEvent.reboot)
    let report = try GeofenceReport(
      events: log.log.entries, trueSamples: thereAndBack(), context: GEOSContext())
    #expect(report.fences.map(\.identifier) == ["home", "again"])
    #expect(report.fences.map(\.endedBy) == [.stopMonitoring, .reboot])
    #expect(report.truth.map(\.insideAtStart) == [true, false])
    #expect(abs(report.truth[0].timeInside - 10) < 1e-6)
    #expect(abs(report.truth[1].timeInside - 10) < 1e-6)
    // The exit at 110 s while "home" is active, the entry at 290 s while "again" is; the exit
    // at 310 s comes after the reboot.
    #expect(report.crossings.map(\.fence) == [0, 1])
    #expect(report.crossings.map(\.direction) == [.exit, .entry])
    #expect(report.crossings.map(\.cause) == [.fenceEnded, .fenceEnded])
  }

  @Test func theShippedArrivalAlarmHasOneTrueEntryDetectedWithAPlausibleLatency() throws {
    let run = try replayShipped("arrival-alarm/train-to-shinagawa-corrected.scenario.json")
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
    // For the user it is one alarm with one arrival, heard at the first fence's latency.
    #expect(report.alarms.map(\.fences) == [[0, 1]])
    let alarm = try #require(report.alarms.first).summary
    #expect(alarm.trueCrossings == 1 && alarm.detected == 1 && alarm.missed == 0)
    #expect(report.summary.trueCrossings == 2)
    #expect(alarm.latencyMedian == report.fenceSummaries.compactMap(\.latencyMedian).min())
    #expect(report.alarms[0].latencies == [try #require(alarm.latencyMedian)])
    #expect(report.markdown().contains("| **all fences** |"))
    let entry = try #require(report.crossings.first)
    #expect(entry.direction == .entry)
    #expect(abs(distance(entry.coordinate, report.fences[0].center) - 300) < 0.01)
    // The same run gives the same bytes.
    let again = try GeofenceReport(input: ReportInput(run), context: GEOSContext())
    #expect(again.json.jsonText == report.json.jsonText)
  }

  @Test func theTrajectoryThePhoneFollowedGivesTheReportSolvingItAgainGives() throws {
    let resources = ReplayResources()
    let run = try replayShipped(
      "arrival-alarm/tunnel-approach-corrected.scenario.json", resources: resources)
    let followed = try GeofenceReport(
      input: ReportInput(run), context: GEOSContext(), resources: resources)
    let solved = try GeofenceReport(input: ReportInput(run), context: GEOSContext())
    #expect(followed.summary.trueCrossings > 0)
    #expect(followed.json.jsonText == solved.json.jsonText)
  }
}
