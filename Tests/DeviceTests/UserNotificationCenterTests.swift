import Device
import Geo
import SimKernel
import Testing

private final class NotificationDelegate: UserNotificationCenterDelegate {
  var presented: [String] = []
  func userNotificationCenter(
    _ center: UserNotificationCenter, willPresent notification: DeliveredNotification
  ) -> NotificationPresentationOptions {
    presented.append(notification.request.identifier)
    return [.banner]
  }
}

/// A phone with both permissions granted at once and the app launched.
private func grantedPhone(
  location: PromptAnswer = .allowWhileUsing, notifications: PromptAnswer = .allow,
  truth: @escaping (SimTime) -> Coordinate? = { _ in tokyoStation }
) throws -> (phone: Phone, center: UserNotificationCenter, app: () -> RecordingApp?) {
  let made = makePhone(
    parameters: deterministic(),
    user: UserScript(
      answers: [.location: [location], .notifications: [notifications]], answerDelay: .seconds(1)),
    launch: { manager, phone in
      // The arrival alarm's order: notifications first, location in the completion handler.
      phone.notificationCenter.requestAuthorization(options: [.alert, .sound]) { granted, _ in
        if granted { manager.requestWhenInUseAuthorization() }
      }
    }, truth: truth)
  try made.phone.launchApp()
  try made.phone.simulation.run(until: .seconds(5))
  return (made.phone, made.phone.notificationCenter, made.app)
}

private func alarm(_ id: String, at center: Coordinate = tokyoStation, radius: Double = 300)
  throws -> NotificationRequest
{
  var region = CircularRegion(center: center, radius: radius, identifier: id)
  region.notifyOnExit = false
  return try NotificationRequest(
    identifier: id, content: NotificationContent(title: "Arrival", body: id),
    trigger: .location(region, repeats: false))
}

@Suite struct UserNotificationCenterTests {
  @Test func permissionsAreAskedInTheArticlesOrder() throws {
    let (phone, center, app) = try grantedPhone()
    #expect(center.authorizationStatus == .authorized)
    #expect(app()!.manager.authorizationStatus == .authorizedWhenInUse)
    let prompts = phone.simulation.log.entries(source: "prompt", event: "shown").map { $0["kind"] }
    #expect(prompts == [.string("notifications"), .string("location")])
  }

  @Test func aLocationTriggerFiresOnEntryWhileTheAppIsInTheBackground() throws {
    let (phone, center, _) = try grantedPhone(truth: { t in offset(10 * t.seconds - 2_003) })
    center.add(try alarm("arrive"))
    phone.sendAppToBackground()
    try phone.simulation.run(until: .seconds(600))
    let presented = phone.simulation.log.entries(source: "notifications", event: "presented")
    #expect(presented.count == 1)
    #expect(presented.first?["appState"] == .string("suspended"))
    // Evaluations run at 5, 15, … s: inside (≤ 300 m) from 175 s, dwell done at 195 s, +10 s.
    #expect(presented.first?.time == .seconds(205))
    var pending: [NotificationRequest] = []
    center.getPendingNotificationRequests { pending = $0 }
    try phone.simulation.run(until: .seconds(601))
    #expect(pending.isEmpty)
  }

  @Test func inTheForegroundTheDelegateDecidesThePresentation() throws {
    let (phone, center, _) = try grantedPhone(truth: { t in offset(10 * t.seconds - 2_003) })
    let delegate = NotificationDelegate()
    center.delegate = delegate
    center.add(try alarm("arrive"))
    try phone.simulation.run(until: .seconds(600))
    #expect(delegate.presented == ["arrive"])
  }

  @Test func aLocationTriggerNeedsLocationPermission() throws {
    let (phone, center, _) = try grantedPhone(
      location: .dontAllow, truth: { t in offset(10 * t.seconds - 2_003) })
    center.add(try alarm("arrive"))
    try phone.simulation.run(until: .seconds(600))
    let suppressed = phone.simulation.log.entries(source: "notifications", event: "suppressed")
    #expect(suppressed.first?["cause"] == .string("locationPermission"))
    #expect(phone.simulation.log.entries(source: "notifications", event: "presented").isEmpty)
  }

  @Test func timeIntervalTriggersFireOnTheVirtualClock() throws {
    let (phone, center, _) = try grantedPhone()
    let request = try NotificationRequest(
      identifier: "tea", content: NotificationContent(title: "Tea"),
      trigger: .timeInterval(seconds: 180, repeats: false))
    center.add(request)
    try phone.simulation.run(until: .seconds(1_000))
    let presented = phone.simulation.log.entries(source: "notifications", event: "presented")
    #expect(presented.map(\.time) == [.seconds(185)])
  }

  @Test func removingPendingKeepsDeliveredAndRemovingDeliveredClearsIt() throws {
    let (phone, center, _) = try grantedPhone()
    center.add(
      try NotificationRequest(
        identifier: "a", content: NotificationContent(title: "A"),
        trigger: .timeInterval(seconds: 10, repeats: false)))
    try phone.simulation.run(until: .seconds(20))
    center.removePendingNotificationRequests(withIdentifiers: ["a"])
    var delivered: [DeliveredNotification] = []
    center.getDeliveredNotifications { delivered = $0 }
    try phone.simulation.run(until: .seconds(21))
    #expect(delivered.map(\.request.identifier) == ["a"])
    center.removeDeliveredNotifications(withIdentifiers: ["a"])
    center.getDeliveredNotifications { delivered = $0 }
    try phone.simulation.run(until: .seconds(22))
    #expect(delivered.isEmpty)
  }

  @Test func locationTriggersShareTheTwentyRegionLimitWithMonitoring() throws {
    let (phone, center, app) = try grantedPhone()
    for i in 0..<20 {
      app()!.manager.startMonitoring(
        for: CircularRegion(center: offset(Double(i) * 1_000), radius: 100, identifier: "r\(i)"))
    }
    var error: (any Error)?
    center.add(try alarm("one-too-many")) { error = $0 }
    try phone.simulation.run(until: .seconds(10))
    #expect((error as? DeviceError)?.code == .tooManyRegions)
  }

  @Test func withoutNotificationPermissionNothingIsPresented() throws {
    let (phone, center, _) = try grantedPhone(notifications: .dontAllow)
    #expect(center.authorizationStatus == .denied)
    center.add(
      try NotificationRequest(
        identifier: "a", content: NotificationContent(title: "A"),
        trigger: .timeInterval(seconds: 10, repeats: false)))
    try phone.simulation.run(until: .seconds(30))
    #expect(phone.simulation.log.entries(source: "notifications", event: "presented").isEmpty)
    #expect(phone.simulation.log.entries(source: "notifications", event: "suppressed").count == 1)
  }
}
