import Device
import Foundation
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
    // The look at 5 s finds the region 1.7 km away, beyond the near distance, so the next is
    // the idle one at 185 s, inside (≤ 300 m since 175 s); looks every 10 s then, the dwell
    // done at 205 s, +2 s.
    #expect(presented.first?.time == .seconds(207))
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

  @Test func aDeniedAppsRequestIsRefusedWithNotificationsNotAllowed() throws {
    // Apple, UNError.Code.notificationsNotAllowed: "This error occurs when you try to submit a
    // notification request and your app … isn't authorized to schedule notifications."
    let (phone, center, _) = try grantedPhone(notifications: .dontAllow)
    #expect(center.authorizationStatus == .denied)
    var error: (any Error)?
    center.add(
      try NotificationRequest(
        identifier: "a", content: NotificationContent(title: "A"),
        trigger: .timeInterval(seconds: 10, repeats: false))
    ) { error = $0 }
    try phone.simulation.run(until: .seconds(30))
    #expect((error as? DeviceError)?.code == .notificationsNotAllowed)
    let rejected = phone.simulation.log.entries(source: "notifications", event: "rejected")
    #expect(rejected.map { $0["reason"] } == [.string("notificationsNotAllowed")])
    #expect(phone.simulation.log.entries(source: "notifications", event: "added").isEmpty)
    #expect(phone.simulation.log.entries(source: "notifications", event: "presented").isEmpty)
  }

  @Test func aRequestAddedBeforeTheUserAnswersIsKeptButSuppressedUnlessAllowed() throws {
    let (phone, center, _) = try grantedPhone(notifications: .unanswered)
    #expect(center.authorizationStatus == .notDetermined)
    var error: (any Error)? = DeviceError(.invalidState, "not called")
    center.add(
      try NotificationRequest(
        identifier: "a", content: NotificationContent(title: "A"),
        trigger: .timeInterval(seconds: 10, repeats: false))
    ) { error = $0 }
    try phone.simulation.run(until: .seconds(30))
    #expect(error == nil)
    let suppressed = phone.simulation.log.entries(source: "notifications", event: "suppressed")
    #expect(suppressed.map { $0["cause"] } == [.string("notificationPermission")])
    #expect(phone.simulation.log.entries(source: "notifications", event: "presented").isEmpty)
  }

  @Test(arguments: [-1.0, .nan, .infinity, 400_001])
  func aLocationTriggerWhoseRegionCannotBeMonitoredIsRefused(radius: Double) throws {
    let (phone, center, _) = try grantedPhone()
    var error: (any Error)?
    center.add(try alarm("far", radius: radius)) { error = $0 }
    try phone.simulation.run(until: .seconds(10))
    #expect((error as? DeviceError)?.code == .regionNotMonitorable)
    let rejected = phone.simulation.log.entries(source: "notifications", event: "rejected")
    #expect(rejected.map { $0["reason"] } == [.string("regionNotMonitorable")])
    var pending: [NotificationRequest] = [try alarm("placeholder")]
    center.getPendingNotificationRequests { pending = $0 }
    try phone.simulation.run(until: .seconds(11))
    #expect(pending.isEmpty)
  }

  @Test func aLateDelegateAnswerPresentsTheNotificationWhenItComes() throws {
    final class LateDelegate: UserNotificationCenterDelegate {
      var answer: ((NotificationPresentationOptions) -> Void)?
      func userNotificationCenter(
        _ center: UserNotificationCenter, willPresent notification: DeliveredNotification,
        withCompletionHandler completionHandler: @escaping (NotificationPresentationOptions) -> Void
      ) { answer = completionHandler }
    }
    let (phone, center, _) = try grantedPhone()
    let delegate = LateDelegate()
    center.delegate = delegate
    center.add(
      try NotificationRequest(
        identifier: "a", content: NotificationContent(title: "A"),
        trigger: .timeInterval(seconds: 10, repeats: false)))
    try phone.simulation.run(until: .seconds(30))
    #expect(phone.simulation.log.entries(source: "notifications", event: "presented").isEmpty)
    try phone.simulation.schedule(after: .seconds(5)) {
      delegate.answer?([.banner])
      delegate.answer?([])
    }
    try phone.simulation.run(until: .seconds(40))
    let presented = phone.simulation.log.entries(source: "notifications", event: "presented")
    #expect(presented.map(\.time) == [.seconds(35)])
    #expect(presented.first?["banner"] == .bool(true))
  }

  @Test func theUserAllowsWhatTheAnsweredRequestsAskedFor() throws {
    let (_, center, _) = try grantedPhone()
    #expect(center.authorizedOptions == [.alert, .sound])
    let (_, refused, _) = try grantedPhone(notifications: .dontAllow)
    #expect(refused.authorizedOptions.isEmpty)
  }

  @Test func aRequestThePromptCouldNotAnswerIsAnsweredByALaterPrompt() throws {
    let made = makePhone(
      parameters: deterministic(),
      user: UserScript(answers: [.notifications: [.allow]], answerDelay: .seconds(1)))
    let phone = made.phone
    let center = phone.notificationCenter
    try phone.launchApp()
    phone.sendAppToBackground()
    var answers: [Bool] = []
    center.requestAuthorization(options: [.alert]) { granted, _ in answers.append(granted) }
    try phone.simulation.run(until: .seconds(2))
    #expect(phone.simulation.log.entries(source: "prompt", event: "notShown").count == 1)
    #expect(answers.isEmpty)
    phone.bringAppToForeground()
    center.requestAuthorization(options: [.badge]) { granted, _ in answers.append(granted) }
    try phone.simulation.run(until: .seconds(10))
    #expect(phone.simulation.log.entries(source: "prompt", event: "shown").count == 1)
    #expect(answers == [true, true])
    #expect(center.authorizedOptions == [.alert, .badge])
  }

  @Test func aCalendarTriggerFiresAtTheNextMatchingDateInUTC() throws {
    let (phone, center, _) = try grantedPhone()
    // The simulation's epoch is 1970-01-01T00:00:00Z: 00:01:00 is 60 s in.
    var components = DateComponents()
    components.minute = 1
    components.second = 0
    center.add(
      try NotificationRequest(
        identifier: "hourly", content: NotificationContent(title: "Tick"),
        trigger: .calendar(components, repeats: true)))
    try phone.simulation.run(until: .seconds(7_300))
    let presented = phone.simulation.log.entries(source: "notifications", event: "presented")
    #expect(presented.map(\.time) == [.seconds(60), .seconds(3_660), .seconds(7_260)])
  }

  @Test func aCalendarTriggerNoLaterDateMatchesIsRefusedWithNoNextDate() throws {
    let (phone, center, _) = try grantedPhone()
    var components = DateComponents()
    components.year = 1969
    var error: (any Error)?
    center.add(
      try NotificationRequest(
        identifier: "past", content: NotificationContent(title: "Too late"),
        trigger: .calendar(components, repeats: false))
    ) { error = $0 }
    try phone.simulation.run(until: .seconds(10))
    #expect((error as? DeviceError)?.code == .noNextDate)
    let rejected = phone.simulation.log.entries(source: "notifications", event: "rejected")
    #expect(rejected.map { $0["reason"] } == [.string("noNextDate")])
  }
}
