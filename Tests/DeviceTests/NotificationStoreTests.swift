import Device
import Foundation
import Geo
import SimKernel
import Testing

private func content(_ body: String = "") -> NotificationContent {
  NotificationContent(title: "Alarm", body: body, sound: .default)
}

private func timed(_ identifier: String, after seconds: Double, repeats: Bool = false) throws
  -> NotificationRequest
{
  try NotificationRequest(
    identifier: identifier, content: content(),
    trigger: .timeInterval(seconds: seconds, repeats: repeats))
}

private func located(_ identifier: String, repeats: Bool = false) throws -> NotificationRequest {
  let tokyo = try Coordinate(latitude: 35.681236, longitude: 139.767125)
  var region = CircularRegion(center: tokyo, radius: 200, identifier: identifier)
  region.notifyOnExit = false
  return try NotificationRequest(
    identifier: identifier, content: content("Arrived"),
    trigger: .location(region, repeats: repeats))
}

private func immediate(_ identifier: String) throws -> NotificationRequest {
  try NotificationRequest(identifier: identifier, content: content(), trigger: nil)
}

/// The (time, event, identifier) of every notifications entry, for comparing whole histories.
private func history(_ log: EventLog) -> [String] {
  log.entries(source: "notifications").map { entry in
    guard case .string(let identifier)? = entry["identifier"] else { return "?" }
    return "\(entry.time.seconds) \(entry.event) \(identifier)"
  }
}

@Suite struct NotificationStoreTests {
  // MARK: Adding and replacing

  @Test func anAddedTimeTriggerIsPendingUntilItsIntervalHasPassed() throws {
    let store = NotificationStore(log: EventLog())
    store.add(try timed("tea", after: 180), at: .seconds(20))
    #expect(store.pending.map(\.identifier) == ["tea"])
    #expect(store.nextFireTime(of: "tea") == .seconds(200))
    #expect(store.earliestFireTime == .seconds(200))
    #expect(store.due(upTo: .seconds(199.999)).isEmpty)
    #expect(store.due(upTo: .seconds(200)).map(\.identifier) == ["tea"])
    store.checkInvariants()
  }

  @Test func addingAnExistingIdentifierReplacesThePendingRequestAndRestartsItsClock() throws {
    let log = EventLog()
    let store = NotificationStore(log: log)
    store.add(try timed("tea", after: 60), at: .zero)
    let replacement = try NotificationRequest(
      identifier: "tea", content: content("stronger"),
      trigger: .timeInterval(seconds: 300, repeats: false))
    let outcome = store.add(replacement, at: .seconds(30))
    #expect(outcome.replacedPending)
    #expect(outcome.dropped.isEmpty)
    #expect(store.pending == [replacement])
    #expect(store.nextFireTime(of: "tea") == .seconds(330))
    #expect(history(log) == ["0.0 added tea", "30.0 replaced tea"])
    store.checkInvariants()
  }

  @Test func aRequestWithoutATriggerIsDueTheInstantItIsAdded() throws {
    let store = NotificationStore(log: EventLog())
    store.add(try immediate("now"), at: .seconds(5))
    #expect(store.nextFireTime(of: "now") == .seconds(5))
    #expect(store.due(upTo: .seconds(5)).map(\.identifier) == ["now"])
    try store.deliver(identifier: "now", at: .seconds(5))
    #expect(store.pending.isEmpty)
    #expect(store.delivered.map(\.request.identifier) == ["now"])
  }

  @Test func pendingIsListedSoonestFiringFirstThenLocationTriggersInOrderOfAddition() throws {
    let store = NotificationStore(log: EventLog())
    store.add(try located("home"), at: .zero)
    store.add(try timed("late", after: 500), at: .zero)
    store.add(try timed("soon", after: 10), at: .zero)
    store.add(try located("office"), at: .zero)
    store.add(try timed("tie", after: 10), at: .zero)
    #expect(store.pending.map(\.identifier) == ["soon", "tie", "late", "home", "office"])
    #expect(store.due(upTo: .seconds(10)).map(\.identifier) == ["soon", "tie"])
  }

  // MARK: The pending limit

  @Test func theSixtyFifthPendingRequestIsDroppedWhenItFiresLatest() throws {
    let log = EventLog()
    let store = NotificationStore(log: log)
    for i in 1...64 {
      store.add(try timed("r\(i)", after: Double(i) * 60), at: .zero)
    }
    #expect(store.pendingCount == 64)
    let outcome = store.add(try timed("r65", after: 65 * 60), at: .seconds(1))
    #expect(outcome.dropped.map(\.identifier) == ["r65"])
    #expect(store.pendingCount == 64)
    #expect(!store.isPending("r65"))
    let drops = log.entries(source: "notifications", event: "dropped")
    #expect(drops.count == 1)
    #expect(drops.first?.time == .seconds(1))
    #expect(drops.first?["identifier"] == .string("r65"))
    #expect(drops.first?["reason"] == .string("pendingLimit"))
    store.checkInvariants()
  }

  @Test func aSoonerSixtyFifthRequestDropsTheLatestFiringOne() throws {
    let store = NotificationStore(log: EventLog())
    for i in 1...64 {
      store.add(try timed("r\(i)", after: Double(i) * 60), at: .zero)
    }
    let outcome = store.add(try timed("urgent", after: 1), at: .zero)
    #expect(outcome.dropped.map(\.identifier) == ["r64"])
    #expect(store.isPending("urgent"))
    #expect(store.pending.first?.identifier == "urgent")
    store.checkInvariants()
  }

  @Test func withSixtyFourDatedRequestsALocationTriggerIsTheOneDropped() throws {
    let store = NotificationStore(log: EventLog())
    store.add(try located("station"), at: .zero)
    for i in 1...64 {
      store.add(try timed("r\(i)", after: Double(i) * 3_600), at: .zero)
    }
    #expect(!store.isPending("station"))
    #expect(store.locationTriggerCount == 0)
    store.checkInvariants()
  }

  @Test func amongLocationTriggersTheLastAddedIsDroppedFirst() throws {
    let store = NotificationStore(log: EventLog(), pendingLimit: 3)
    store.add(try located("a"), at: .zero)
    store.add(try located("b"), at: .zero)
    store.add(try located("c"), at: .zero)
    let outcome = store.add(try timed("timer", after: 600), at: .zero)
    #expect(outcome.dropped.map(\.identifier) == ["c"])
    #expect(store.pending.map(\.identifier) == ["timer", "a", "b"])
  }

  @Test func equalFireTimesDropTheLaterAddition() throws {
    let store = NotificationStore(log: EventLog(), pendingLimit: 2)
    store.add(try timed("first", after: 60), at: .zero)
    store.add(try timed("second", after: 60), at: .zero)
    let outcome = store.add(try timed("third", after: 60), at: .zero)
    #expect(outcome.dropped.map(\.identifier) == ["third"])
  }

  @Test func theMostRecentlyAddedPolicyDropsTheOldestAddition() throws {
    let store = NotificationStore(
      log: EventLog(), pendingLimit: 2, limitPolicy: .mostRecentlyAdded)
    store.add(try timed("soon", after: 10), at: .zero)
    store.add(try timed("later", after: 100), at: .zero)
    let outcome = store.add(try timed("latest", after: 1_000), at: .zero)
    #expect(outcome.dropped.map(\.identifier) == ["soon"])
    #expect(store.pending.map(\.identifier) == ["later", "latest"])
  }

  @Test func aRepeatingRequestCountsOnceAgainstTheLimit() throws {
    let store = NotificationStore(log: EventLog(), pendingLimit: 2)
    store.add(try timed("hourly", after: 3_600, repeats: true), at: .zero)
    store.add(try timed("once", after: 60), at: .zero)
    try store.deliver(identifier: "once", at: .seconds(60))
    for hour in 1...5 {
      try store.deliver(identifier: "hourly", at: .seconds(Double(hour) * 3_600))
    }
    #expect(store.pendingCount == 1)
    #expect(store.add(try timed("another", after: 60), at: .seconds(18_000)).dropped.isEmpty)
  }

  // MARK: Delivering

  @Test func aRepeatingTimeTriggerRearmsAfterEachDelivery() throws {
    let log = EventLog()
    let store = NotificationStore(log: log)
    store.add(try timed("stretch", after: 60, repeats: true), at: .zero)
    let first = try store.deliver(identifier: "stretch", at: .seconds(60))
    #expect(first.date == .seconds(60))
    #expect(store.isPending("stretch"))
    #expect(store.nextFireTime(of: "stretch") == .seconds(120))
    try store.deliver(identifier: "stretch", at: .seconds(120))
    #expect(store.nextFireTime(of: "stretch") == .seconds(180))
    #expect(store.delivered.map(\.date) == [.seconds(120)])
    let deliveries = log.entries(source: "notifications", event: "delivered")
    #expect(deliveries.map { $0["nextFireTime"] } == [.double(120), .double(180)])
    #expect(deliveries.map { $0["replacedDelivered"] } == [.bool(false), .bool(true)])
    store.checkInvariants()
  }

  @Test func aNonRepeatingTimeTriggerLeavesPendingWhenDelivered() throws {
    let store = NotificationStore(log: EventLog())
    store.add(try timed("tea", after: 180), at: .zero)
    try store.deliver(identifier: "tea", at: .seconds(180))
    #expect(!store.isPending("tea"))
    #expect(store.nextFireTime(of: "tea") == nil)
    #expect(store.delivered.map(\.request.identifier) == ["tea"])
  }

  @Test func aNonRepeatingLocationTriggerLeavesPendingWhenDelivered() throws {
    let store = NotificationStore(log: EventLog())
    store.add(try located("station"), at: .zero)
    #expect(store.nextFireTime(of: "station") == nil)
    #expect(store.earliestFireTime == nil)
    #expect(store.due(upTo: .seconds(1e6)).isEmpty)
    let delivered = try store.deliver(identifier: "station", at: .seconds(1_234))
    #expect(delivered.date == .seconds(1_234))
    #expect(store.pending.isEmpty)
    #expect(store.locationTriggerRegions.isEmpty)
    #expect(store.delivered == [delivered])
  }

  @Test func aRepeatingLocationTriggerStaysPendingAfterDelivery() throws {
    let store = NotificationStore(log: EventLog())
    store.add(try located("gym", repeats: true), at: .zero)
    try store.deliver(identifier: "gym", at: .seconds(100))
    try store.deliver(identifier: "gym", at: .seconds(5_000))
    #expect(store.isPending("gym"))
    #expect(store.locationTriggerCount == 1)
    #expect(store.delivered.map(\.date) == [.seconds(5_000)])
  }

  @Test func deliveringAnUnknownOrNotYetDueRequestThrows() throws {
    let store = NotificationStore(log: EventLog())
    store.add(try timed("tea", after: 180), at: .zero)
    let early = #expect(throws: DeviceError.self) {
      try store.deliver(identifier: "tea", at: .seconds(179))
    }
    #expect(early?.code == .notDue)
    let unknown = #expect(throws: DeviceError.self) {
      try store.deliver(identifier: "coffee", at: .seconds(200))
    }
    #expect(unknown?.code == .notPending)
    #expect(unknown?.message.contains("coffee") == true)
    #expect(store.isPending("tea"))
    #expect(store.delivered.isEmpty)
  }

  @Test func anIntervalBeyondVirtualTimeNeverComesDue() throws {
    let store = NotificationStore(log: EventLog())
    store.add(try timed("someday", after: 1e12), at: .seconds(10))
    #expect(store.nextFireTime(of: "someday") == SimTime(nanoseconds: .max))
  }

  // MARK: Removing

  @Test func removingAPendingRequestKeepsItsDeliveredNotification() throws {
    let store = NotificationStore(log: EventLog())
    store.add(try timed("stretch", after: 60, repeats: true), at: .zero)
    try store.deliver(identifier: "stretch", at: .seconds(60))
    store.removePending(identifiers: ["stretch"], at: .seconds(70))
    #expect(!store.isPending("stretch"))
    #expect(store.delivered.map(\.request.identifier) == ["stretch"])
  }

  @Test func removingADeliveredNotificationKeepsItsRepeatingRequestPending() throws {
    let store = NotificationStore(log: EventLog())
    store.add(try timed("stretch", after: 60, repeats: true), at: .zero)
    try store.deliver(identifier: "stretch", at: .seconds(60))
    store.removeDelivered(identifiers: ["stretch"], at: .seconds(70))
    #expect(store.delivered.isEmpty)
    #expect(store.isPending("stretch"))
    #expect(store.nextFireTime(of: "stretch") == .seconds(120))
  }

  @Test func removingAnIdentifierThatIsNotThereChangesNothingAndLogsNothing() throws {
    let log = EventLog()
    let store = NotificationStore(log: log)
    store.add(try timed("tea", after: 60), at: .zero)
    try store.deliver(identifier: "tea", at: .seconds(60))
    let before = log.entries.count
    store.removePending(identifiers: ["tea", "coffee"], at: .seconds(61))
    store.removeDelivered(identifiers: ["coffee"], at: .seconds(61))
    #expect(log.entries.count == before)
    #expect(store.delivered.count == 1)
  }

  @Test func removeAllPendingLeavesDeliveredAndRemoveAllDeliveredLeavesPending() throws {
    let log = EventLog()
    let store = NotificationStore(log: log)
    store.add(try timed("a", after: 60), at: .zero)
    store.add(try located("b"), at: .zero)
    store.add(try timed("c", after: 30), at: .zero)
    try store.deliver(identifier: "a", at: .seconds(60))
    store.removeAllPending(at: .seconds(61))
    #expect(store.pending.isEmpty)
    #expect(store.delivered.map(\.request.identifier) == ["a"])

    store.add(try timed("d", after: 60), at: .seconds(62))
    store.removeAllDelivered(at: .seconds(63))
    #expect(store.delivered.isEmpty)
    #expect(store.pending.map(\.identifier) == ["d"])
    #expect(
      log.entries(source: "notifications", event: "removedPending").map { $0["identifier"] } == [
        .string("c"), .string("b"),
      ])
    store.checkInvariants()
  }

  @Test func theArrivalAlarmsRemovalByPrefixClearsPendingAndDelivered() throws {
    // Seed 004's remove(_:) walks the identifiers it knows and removes each one matching the
    // prefix from both lists.
    let store = NotificationStore(log: EventLog())
    store.add(try located("dest-1"), at: .zero)
    store.add(try located("dest-2"), at: .zero)
    store.add(try located("other"), at: .zero)
    try store.deliver(identifier: "dest-1", at: .seconds(30))
    let known = store.pending.map(\.identifier) + store.delivered.map(\.request.identifier)
    for identifier in known where identifier.hasPrefix("dest") {
      store.removePending(identifiers: [identifier], at: .seconds(40))
      store.removeDelivered(identifiers: [identifier], at: .seconds(40))
    }
    #expect(store.pending.map(\.identifier) == ["other"])
    #expect(store.delivered.isEmpty)
  }

  // MARK: Regions

  @Test func locationTriggersExposeTheRegionsTheyHoldInOrderOfAddition() throws {
    let store = NotificationStore(log: EventLog())
    store.add(try located("home"), at: .zero)
    store.add(try timed("timer", after: 5), at: .zero)
    store.add(try located("office", repeats: true), at: .zero)
    #expect(store.locationTriggerCount == 2)
    #expect(store.locationTriggerRegions.map(\.identifier) == ["home", "office"])
    #expect(store.locationTriggerRegions.allSatisfy { $0.notifyOnEntry && !$0.notifyOnExit })
  }

  @Test func locationTriggerEntriesCarryTheirRegionsCentreRadiusAndNotifyFlags() throws {
    let log = EventLog()
    let store = NotificationStore(log: log)
    store.add(try located("home"), at: .zero)
    try store.deliver(identifier: "home", at: .seconds(3))
    let entries = log.entries(source: "notifications")
    #expect(entries.map(\.event) == ["added", "delivered"])
    for entry in entries {
      #expect(entry["region"] == .string("home"))
      #expect(entry["latitude"] == .double(35.681236))
      #expect(entry["longitude"] == .double(139.767125))
      #expect(entry["radius"] == .double(200))
      #expect(entry["notifyOnEntry"] == .bool(true))
      #expect(entry["notifyOnExit"] == .bool(false))
    }
    store.add(try timed("timer", after: 5), at: .zero)
    #expect(log.entries(source: "notifications", event: "added").last?["radius"] == .null)
  }

  // MARK: Validation

  @Test(arguments: [
    (0.0, false, "greater than 0"), (-5, false, "greater than 0"), (.nan, false, "greater than 0"),
    (.infinity, false, "finite"), (59.9, true, "at least 60"), (0, true, "greater than 0"),
  ])
  func invalidTimeIntervalsThrowWithAClearMessage(
    seconds: Double, repeats: Bool, phrase: String
  ) throws {
    let error = #expect(throws: DeviceError.self) {
      try timed("bad", after: seconds, repeats: repeats)
    }
    #expect(error?.code == .invalidTrigger)
    #expect(error?.message.contains(phrase) == true)
  }

  @Test func theShortestValidIntervalsAreAnyPositiveOneAndSixtySecondsWhenRepeating() throws {
    _ = try timed("tiny", after: 0.001)
    _ = try timed("minute", after: 60, repeats: true)
    try NotificationTrigger.timeInterval(seconds: 60, repeats: true).validate()
    #expect(NotificationTrigger.minimumRepeatingInterval == 60)
  }

  // MARK: Logging

  @Test func everyChangeIsLoggedWithItsIdentifierAndVirtualTime() throws {
    let log = EventLog()
    let store = NotificationStore(log: log, pendingLimit: 2)
    store.add(try timed("a", after: 10), at: .seconds(1))
    store.add(try located("b"), at: .seconds(2))
    store.add(try timed("a", after: 20), at: .seconds(3))
    store.add(try timed("c", after: 5), at: .seconds(4))
    try store.deliver(identifier: "c", at: .seconds(9))
    store.removePending(identifiers: ["a"], at: .seconds(10))
    store.removeDelivered(identifiers: ["c"], at: .seconds(11))
    #expect(
      history(log) == [
        "1.0 added a", "2.0 added b", "3.0 replaced a", "4.0 added c", "4.0 dropped b",
        "9.0 delivered c", "10.0 removedPending a", "11.0 removedDelivered c",
      ])
    let added = log.entries(source: "notifications", event: "added")
    #expect(added[0]["trigger"] == .string("timeInterval"))
    #expect(added[0]["repeats"] == .bool(false))
    #expect(added[0]["fireTime"] == .double(11))
    #expect(added[1]["trigger"] == .string("location"))
    #expect(added[1]["region"] == .string("b"))
    #expect(added[1]["fireTime"] == .null)
    let delivered = log.entries(source: "notifications", event: "delivered")
    #expect(delivered[0]["stillPending"] == .bool(false))
  }

  // MARK: Driving it from the kernel

  @Test func aKernelTimerAtTheEarliestFireTimeDeliversARepeatingRequestEveryInterval() throws {
    let sim = Simulation(seed: 1)
    let store = NotificationStore(log: sim.log)
    var timer: EventHandle?
    func reschedule() throws {
      if let timer { sim.cancel(timer) }
      timer = nil
      guard let next = store.earliestFireTime else { return }
      timer = try sim.schedule(at: next) {
        for request in store.due(upTo: sim.now) {
          try store.deliver(identifier: request.identifier, at: sim.now)
        }
        try reschedule()
      }
    }
    try sim.schedule(at: .seconds(30)) {
      store.add(try timed("stretch", after: 60, repeats: true), at: sim.now)
      store.add(try timed("tea", after: 90), at: sim.now)
      try reschedule()
    }
    try sim.schedule(at: .seconds(400)) {
      store.removePending(identifiers: ["stretch"], at: sim.now)
      try reschedule()
    }
    try sim.run(until: .seconds(1_000))

    let deliveries = sim.log.entries(source: "notifications", event: "delivered")
    #expect(deliveries.map(\.time) == [90, 120, 150, 210, 270, 330, 390].map(SimTime.seconds))
    #expect(store.pending.isEmpty)
    #expect(store.delivered.map(\.request.identifier) == ["tea", "stretch"])
  }

  // MARK: Calendar triggers

  @Test func aCalendarTriggerIsDueAtTheNextMatchAfterItWasAddedAndRepeatsAtEachLaterOne() throws {
    // 2026-04-01T00:00:00Z; 08:30 UTC every day.
    let epoch = Date(timeIntervalSince1970: 1_775_001_600)
    let store = NotificationStore(log: EventLog(), epoch: epoch)
    var components = DateComponents()
    components.hour = 8
    components.minute = 30
    let request = try NotificationRequest(
      identifier: "daily", content: content(), trigger: .calendar(components, repeats: true))
    store.add(request, at: .seconds(60))
    #expect(store.nextFireTime(of: "daily") == .seconds(30_600))
    try store.deliver(identifier: "daily", at: .seconds(30_600))
    #expect(store.nextFireTime(of: "daily") == .seconds(30_600 + 86_400))
    store.checkInvariants()
  }

  @Test func aNonRepeatingCalendarTriggerLeavesPendingWhenDelivered() throws {
    let store = NotificationStore(log: EventLog())
    var components = DateComponents()
    components.second = 30
    store.add(
      try NotificationRequest(
        identifier: "once", content: content(), trigger: .calendar(components, repeats: false)),
      at: .zero)
    #expect(store.nextFireTime(of: "once") == .seconds(30))
    try store.deliver(identifier: "once", at: .seconds(30))
    #expect(store.pendingCount == 0)
  }

  @Test func calendarComponentsWithTheirOwnTimeZoneMatchInIt() throws {
    // 00:00 in Tokyo (UTC+9) is 15:00 UTC the day before.
    var components = DateComponents()
    components.hour = 0
    components.minute = 0
    components.timeZone = TimeZone(identifier: "Asia/Tokyo")
    let trigger = NotificationTrigger.calendar(components, repeats: false)
    #expect(
      trigger.nextCalendarMatch(after: .zero, epoch: Date(timeIntervalSince1970: 0))
        == .seconds(54_000))
  }

  @Test func aRepeatingCalendarTriggerWithNoLaterMatchLeavesPendingAfterItsLastDelivery() throws {
    let store = NotificationStore(log: EventLog())
    var components = DateComponents()
    components.year = 1970
    components.month = 1
    components.day = 2
    store.add(
      try NotificationRequest(
        identifier: "once", content: content(), trigger: .calendar(components, repeats: true)),
      at: .zero)
    #expect(store.nextFireTime(of: "once") == .seconds(86_400))
    try store.deliver(identifier: "once", at: .seconds(86_400))
    #expect(store.pendingCount == 0)
  }
}
