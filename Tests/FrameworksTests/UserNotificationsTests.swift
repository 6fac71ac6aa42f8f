import Device
import Foundation
import Geo
import GeoSimFrameworks
import SimKernel
import Testing

// Each test checks one documented behaviour of Apple's UserNotifications API, as GeoSim's
// framework layer gives it over the phone's notification center. [A] marks Apple's
// documentation; docs/DEVICE.md and docs/FRAMEWORKS.md say where GeoSim decides.

/// An app that does nothing by itself: the tests call the framework as its code would.
private final class Idle: NSObject {}

/// An app that asks for When In Use location permission at launch, as location triggers need.
private final class Locator: NSObject, CLLocationManagerDelegate {
  let manager = CLLocationManager()
  override init() {
    super.init()
    manager.delegate = self
    manager.requestWhenInUseAuthorization()
  }
}

/// What a callback saw, kept in a reference so that escaping callbacks can fill it.
private final class Seen<Value> {
  var value: Value
  init(_ value: Value) { self.value = value }
}

private let allowEverything = UserScript(
  answers: [.notifications: [.allow], .location: [.allowWhileUsing]])

/// A world at 5 s whose app asked for notifications at launch and was answered `answer` at
/// 2 s; with `location`, it first asked for When In Use location permission, allowed at 2 s,
/// and asked for notifications at 3 s, answered at 5 s.
private func authorizedWorld(
  _ answer: PromptAnswer = .allow, location: Bool = false,
  truth: @escaping (SimTime) -> Coordinate? = { _ in
    try? Coordinate(latitude: 35.68, longitude: 139.76)
  }
) throws -> TestWorld {
  let world = TestWorld(
    user: UserScript(answers: [.notifications: [answer], .location: [.allowWhileUsing]]),
    truth: truth
  ) { location ? Locator() : Idle() }
  // One prompt at a time: the notification prompt cannot appear over the location prompt.
  try world.launchAndRun(until: location ? 3 : 0)
  world.inApp {
    UNUserNotificationCenter.current().requestAuthorization(options: [.alert, .sound]) { _, _ in }
  }
  try world.run(until: 5)
  return world
}

private func request(
  _ identifier: String, after seconds: TimeInterval, repeats: Bool = false
) -> UNNotificationRequest {
  let content = UNMutableNotificationContent()
  content.title = identifier
  return UNNotificationRequest(
    identifier: identifier, content: content,
    trigger: UNTimeIntervalNotificationTrigger(timeInterval: seconds, repeats: repeats))
}

/// What an `add` completion handler was told.
private struct Added {
  var called = false
  var error: (any Error)?
  /// The completion ran, with no error.
  var succeeded: Bool { called && error == nil }
}

/// Adds `request` as app code and runs the world one second on.
private func add(_ request: UNNotificationRequest, in world: TestWorld) throws -> Added {
  let seen = Seen(Added())
  world.inApp {
    UNUserNotificationCenter.current().add(request) { seen.value = Added(called: true, error: $0) }
  }
  try world.run(until: world.simulation.now.seconds + 1)
  return seen.value
}

private func pending(in world: TestWorld) throws -> [UNNotificationRequest] {
  let seen = Seen<[UNNotificationRequest]>([])
  world.inApp {
    UNUserNotificationCenter.current().getPendingNotificationRequests { seen.value = $0 }
  }
  try world.run(until: world.simulation.now.seconds + 1)
  return seen.value
}

private func delivered(in world: TestWorld) throws -> [UNNotification] {
  let seen = Seen<[UNNotification]>([])
  world.inApp { UNUserNotificationCenter.current().getDeliveredNotifications { seen.value = $0 } }
  try world.run(until: world.simulation.now.seconds + 1)
  return seen.value
}

/// The world's date `seconds` after its start (2026-04-01T00:00:00Z).
private func date(_ seconds: Double) -> Date {
  Date(timeIntervalSince1970: 1_775_001_600 + seconds)
}

@Suite("UserNotifications on the simulated phone")
struct UserNotificationsTests {
  // MARK: The center

  @Test("current() is one center per phone, and two worlds never share one")
  func oneCenterPerPhone() throws {
    let first = try authorizedWorld()
    let second = try authorizedWorld()
    let a = first.inApp { UNUserNotificationCenter.current() }
    #expect(first.inApp { UNUserNotificationCenter.current() } === a)
    #expect(second.inApp { UNUserNotificationCenter.current() } !== a)
    _ = try add(request("only-here", after: 600), in: first)
    #expect(try pending(in: first).map(\.identifier) == ["only-here"])
    #expect(try pending(in: second).isEmpty)
  }

  @Test("current() outside a world stops with Phone.requireCurrent's message")
  func outsideAWorldStops() async {
    let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
      _ = UNUserNotificationCenter.current()
    }
    let message = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
    #expect(message.contains("UNUserNotificationCenter.current() was used outside a GeoSim world"))
  }

  // MARK: Permission

  @Test("the completion handler runs later on the main thread, after the user's answer [A]")
  func requestAuthorizationAnswersLater() throws {
    let world = TestWorld(user: UserScript(answers: [.notifications: [.allow]])) { Idle() }
    try world.launchAndRun(until: 0)
    let granted = Seen<Bool?>(nil)
    world.inApp {
      UNUserNotificationCenter.current().requestAuthorization(options: [.alert]) { ok, error in
        #expect(error == nil)
        granted.value = ok
      }
    }
    #expect(granted.value == nil)
    // While the prompt is up the call is a wait on the main thread.
    #expect(world.phone.runLoop.pendingWork.map(\.kind) == [.waiting])
    try world.run(until: 1)
    #expect(granted.value == nil)
    try world.run(until: 3)
    #expect(granted.value == true)
    #expect(world.phone.runLoop.pendingWork.isEmpty)
    #expect(world.entries("prompt", "shown").map { $0["kind"] } == [.string("notifications")])
  }

  @Test("later requests do not prompt again and answer with the stored permission [A]")
  func askingAgainDoesNotPrompt() throws {
    let world = try authorizedWorld(.dontAllow)
    let granted = Seen<Bool?>(nil)
    world.inApp {
      UNUserNotificationCenter.current().requestAuthorization(options: [.badge]) { ok, _ in
        granted.value = ok
      }
    }
    try world.run(until: 7)
    #expect(granted.value == false)
    #expect(world.entries("prompt", "shown").count == 1)
  }

  @Test("the async form returns whether notifications are allowed, and closes its wait")
  func requestAuthorizationAsync() throws {
    let world = TestWorld(user: UserScript(answers: [.notifications: [.allow]])) { Idle() }
    try world.launchAndRun(until: 0)
    let granted = Seen<Bool?>(nil)
    world.inApp {
      Task {
        granted.value = try await UNUserNotificationCenter.current().requestAuthorization(
          options: [.alert, .sound])
      }
    }
    try world.run(until: 1)
    #expect(
      world.phone.runLoop.pendingWork.map(\.label) == [
        "UNUserNotificationCenter.requestAuthorization(options:)"
      ])
    try world.run(until: 3)
    #expect(granted.value == true)
    #expect(world.phone.runLoop.pendingWork.isEmpty)
  }

  @Test("settings report the permission and the options the user allowed")
  func settingsFollowTheAnswer() throws {
    func settings(_ world: TestWorld) throws -> UNNotificationSettings? {
      let seen = Seen<UNNotificationSettings?>(nil)
      world.inApp { UNUserNotificationCenter.current().getNotificationSettings { seen.value = $0 } }
      #expect(seen.value == nil)
      try world.run(until: world.simulation.now.seconds + 1)
      return seen.value
    }
    let fresh = TestWorld { Idle() }
    try fresh.launchAndRun(until: 0)
    let undetermined = try #require(try settings(fresh))
    #expect(undetermined.authorizationStatus == .notDetermined)
    #expect(undetermined.alertSetting == .notSupported)

    let allowed = try #require(try settings(try authorizedWorld()))
    #expect(allowed.authorizationStatus == .authorized)
    #expect(allowed.alertSetting == .enabled)
    #expect(allowed.soundSetting == .enabled)
    #expect(allowed.badgeSetting == .disabled)  // not asked for
    #expect(allowed.alertStyle == .banner)
    #expect(allowed.carPlaySetting == .notSupported)

    let denied = try #require(try settings(try authorizedWorld(.dontAllow)))
    #expect(denied.authorizationStatus == .denied)
    #expect(denied.alertSetting == .disabled)
    #expect(denied.alertStyle == UNAlertStyle.none)
  }

  @Test("notificationSettings() is the async form")
  func settingsAsync() throws {
    let world = try authorizedWorld()
    let status = Seen<UNAuthorizationStatus?>(nil)
    world.inApp {
      Task {
        status.value = await UNUserNotificationCenter.current().notificationSettings()
          .authorizationStatus
      }
    }
    try world.run(until: 6)
    #expect(status.value == .authorized)
  }

  @Test("pendingNotificationRequests() and deliveredNotifications() are the async forms")
  func pendingAndDeliveredAsync() throws {
    let world = try authorizedWorld()
    let pending = Seen<[String]?>(nil)
    let delivered = Seen<[String]?>(nil)
    world.inApp {
      Task {
        try await UNUserNotificationCenter.current().add(request("a", after: 60))
        pending.value = await UNUserNotificationCenter.current().pendingNotificationRequests()
          .map(\.identifier)
        try await Task.sleep(for: .seconds(120))
        delivered.value = await UNUserNotificationCenter.current().deliveredNotifications()
          .map(\.request.identifier)
      }
    }
    try world.run(until: 10)
    #expect(pending.value == ["a"])
    #expect(delivered.value == nil)
    try world.run(until: 200)
    #expect(delivered.value == ["a"])
    #expect(world.phone.runLoop.pendingWork.isEmpty)
  }

  // MARK: Requests

  @Test("a time-interval request is pending until its interval has passed, then delivered [A]")
  func timeIntervalRequest() throws {
    let world = try authorizedWorld()
    let content = UNMutableNotificationContent()
    content.title = "Tea"
    content.subtitle = "Green"
    content.body = "Three minutes are up."
    content.sound = UNNotificationSound(named: UNNotificationSoundName("kettle.caf"))
    content.badge = 2
    content.categoryIdentifier = "timer"
    content.threadIdentifier = "kitchen"
    content.userInfo = ["minutes": 3, "strong": true, "leaf": "sencha", "ratio": 1.5]
    let tea = UNNotificationRequest(
      identifier: "tea", content: content,
      trigger: UNTimeIntervalNotificationTrigger(timeInterval: 180, repeats: false))
    #expect(try add(tea, in: world).succeeded)  // added at 5 s

    let pendingTea = try #require(try pending(in: world).first)
    #expect(pendingTea.identifier == "tea")
    let trigger = try #require(pendingTea.trigger as? UNTimeIntervalNotificationTrigger)
    #expect(trigger.timeInterval == 180)
    #expect(!trigger.repeats)
    #expect(trigger.nextTriggerDate() == date(185))

    try world.run(until: 200)
    #expect(try pending(in: world).isEmpty)
    let arrived = try #require(try delivered(in: world).first)
    #expect(arrived.date == date(185))
    let shown = arrived.request.content
    #expect(shown.title == "Tea" && shown.subtitle == "Green")
    #expect(shown.body == "Three minutes are up.")
    #expect(shown.sound == UNNotificationSound(named: UNNotificationSoundName("kettle.caf")))
    #expect(shown.badge == 2)
    #expect(shown.categoryIdentifier == "timer" && shown.threadIdentifier == "kitchen")
    #expect(shown.userInfo["minutes"] as? Int == 3)
    #expect(shown.userInfo["strong"] as? Bool == true)
    #expect(shown.userInfo["leaf"] as? String == "sencha")
    #expect(shown.userInfo["ratio"] as? Double == 1.5)
    #expect(world.entries("notifications", "presented").map(\.time) == [.seconds(185)])
  }

  @Test("a request copies its content: later changes to the mutable content do not reach it [A]")
  func requestCopiesContent() {
    let content = UNMutableNotificationContent()
    content.title = "Before"
    let request = UNNotificationRequest(identifier: "a", content: content, trigger: nil)
    content.title = "After"
    #expect(request.content.title == "Before")
    #expect(!(request.content is UNMutableNotificationContent))
    let copy = request.content.mutableCopy() as? UNMutableNotificationContent
    #expect(copy?.title == "Before")
  }

  @Test("a request without a trigger is delivered at once [A]")
  func immediateRequest() throws {
    let world = try authorizedWorld()
    _ = try add(
      UNNotificationRequest(
        identifier: "now", content: UNMutableNotificationContent(), trigger: nil), in: world)
    #expect(try delivered(in: world).map(\.date) == [date(5)])
  }

  @Test("adding an identifier that is pending replaces the request [A]")
  func sameIdentifierReplaces() throws {
    let world = try authorizedWorld()
    _ = try add(request("alarm", after: 600), in: world)
    _ = try add(request("alarm", after: 60), in: world)
    let all = try pending(in: world)
    #expect(all.count == 1)
    #expect((all.first?.trigger as? UNTimeIntervalNotificationTrigger)?.timeInterval == 60)
    #expect(world.entries("notifications", "replaced").count == 1)
  }

  @Test("removing pending keeps delivered, and removing delivered keeps a repeating request [A]")
  func removal() throws {
    let world = try authorizedWorld()
    _ = try add(request("hourly", after: 3_600, repeats: true), in: world)
    _ = try add(request("later", after: 7_200), in: world)
    try world.run(until: 3_700)
    world.inApp {
      UNUserNotificationCenter.current().removeDeliveredNotifications(withIdentifiers: ["hourly"])
    }
    #expect(try delivered(in: world).isEmpty)
    // Soonest-firing first: "hourly" fires again at 7 205 s, "later" at 7 206 s.
    #expect(try pending(in: world).map(\.identifier) == ["hourly", "later"])
    world.inApp {
      UNUserNotificationCenter.current().removePendingNotificationRequests(withIdentifiers: [
        "later"
      ])
    }
    #expect(try pending(in: world).map(\.identifier) == ["hourly"])
    try world.run(until: 7_300)
    world.inApp { UNUserNotificationCenter.current().removeAllPendingNotificationRequests() }
    #expect(try pending(in: world).isEmpty)
    #expect(try delivered(in: world).map(\.request.identifier) == ["hourly"])
    world.inApp { UNUserNotificationCenter.current().removeAllDeliveredNotifications() }
    #expect(try delivered(in: world).isEmpty)
  }

  @Test("a 65th pending request keeps the 64 that fire soonest, silently to the app [A]")
  func sixtyFifthRequest() throws {
    let world = try authorizedWorld()
    for i in 0..<64 { _ = try add(request("r\(i)", after: 1_000 + Double(i)), in: world) }
    // Fires after all 64: it is the one dropped, and the app hears no error.
    #expect(try add(request("latest", after: 5_000), in: world).succeeded)
    var all = try pending(in: world)
    #expect(all.count == 64)
    #expect(!all.contains { $0.identifier == "latest" })
    // Fires before all of them: the latest-firing one goes instead.
    #expect(try add(request("soonest", after: 100), in: world).succeeded)
    all = try pending(in: world)
    #expect(all.count == 64)
    #expect(all.first?.identifier == "soonest")
    #expect(!all.contains { $0.identifier == "r63" })
    let dropped = world.entries("notifications", "dropped")
    #expect(dropped.map { $0["identifier"] } == [.string("latest"), .string("r63")])
    #expect(dropped.allSatisfy { $0["reason"] == .string("pendingLimit") })
  }

  // MARK: Bad input

  @Test(
    "a time interval iOS rejects at the trigger's creation makes add fail, and the log says so",
    arguments: [(0.0, false), (-5, false), (59, true), (.nan, false)])
  func invalidTimeInterval(seconds: Double, repeats: Bool) throws {
    let world = try authorizedWorld()
    let trigger = UNTimeIntervalNotificationTrigger(timeInterval: seconds, repeats: repeats)
    #expect(world.inApp { trigger.nextTriggerDate() } == nil)
    let error = try add(
      UNNotificationRequest(
        identifier: "bad", content: UNMutableNotificationContent(), trigger: trigger),
      in: world
    ).error
    #expect((error as? DeviceError)?.code == .invalidTrigger)
    #expect(
      world.entries("notifications", "rejected").map { $0["reason"] } == [.string("invalidTrigger")]
    )
    #expect(try pending(in: world).isEmpty)
  }

  @Test("a repeating interval of exactly 60 s is accepted [A]")
  func sixtySecondsRepeating() throws {
    let world = try authorizedWorld()
    #expect(try add(request("minutely", after: 60, repeats: true), in: world).succeeded)
    try world.run(until: 200)
    #expect(
      world.entries("notifications", "presented").map(\.time) == [
        .seconds(65), .seconds(125), .seconds(185),
      ])
  }

  @Test("a denied app's request fails with UNError.notificationsNotAllowed [A]")
  func deniedAppsRequestFails() throws {
    let world = try authorizedWorld(.dontAllow)
    let error = try add(request("a", after: 60), in: world).error
    #expect((error as? UNError)?.code == .notificationsNotAllowed)
    let caught = Seen<String?>(nil)
    world.inApp {
      Task {
        do {
          try await UNUserNotificationCenter.current().add(request("b", after: 60))
          caught.value = "no error"
        } catch UNError.notificationsNotAllowed {
          caught.value = "notificationsNotAllowed"
        } catch {
          caught.value = "\(error)"
        }
      }
    }
    try world.run(until: 10)
    #expect(caught.value == "notificationsNotAllowed")
    #expect(
      world.entries("notifications", "rejected").map { $0["reason"] } == [
        .string("notificationsNotAllowed"), .string("notificationsNotAllowed"),
      ])
  }

  @Test("userInfo that is not a property list makes add fail instead of stopping the app")
  func nonPropertyListUserInfo() throws {
    let world = try authorizedWorld()
    let content = UNMutableNotificationContent()
    content.userInfo = ["when": NSNull()]
    let error = try add(
      UNNotificationRequest(identifier: "odd", content: content, trigger: nil), in: world
    ).error
    #expect((error as? DeviceError)?.code == .invalidArgument)
    #expect(
      world.entries("notifications", "rejected").map { $0["reason"] } == [.string("invalidContent")]
    )
    #expect(try delivered(in: world).isEmpty)
  }

  // MARK: Calendar triggers

  @Test("a calendar trigger fires at the next matching date, in UTC (the phone has no time zone)")
  func calendarTrigger() throws {
    let world = try authorizedWorld()
    var components = DateComponents()
    components.hour = 1
    components.minute = 30
    let trigger = UNCalendarNotificationTrigger(dateMatching: components, repeats: true)
    #expect(world.inApp { trigger.nextTriggerDate() } == date(5_400))
    let content = UNMutableNotificationContent()
    content.title = "Stand up"
    _ = try add(
      UNNotificationRequest(identifier: "daily", content: content, trigger: trigger), in: world)
    try world.run(until: 2 * 86_400)
    #expect(
      world.entries("notifications", "presented").map(\.time) == [
        .seconds(5_400), .seconds(5_400 + 86_400),
      ])
    let again = try #require(
      try pending(in: world).first?.trigger as? UNCalendarNotificationTrigger)
    #expect(again.dateComponents.hour == 1 && again.repeats)
  }

  @Test("a calendar trigger no date matches fails with UNError.notificationInvalidNoDate [A]")
  func calendarTriggerWithoutDate() throws {
    let world = try authorizedWorld()
    var components = DateComponents()
    components.year = 2020
    let trigger = UNCalendarNotificationTrigger(dateMatching: components, repeats: false)
    #expect(world.inApp { trigger.nextTriggerDate() } == nil)
    let error = try add(
      UNNotificationRequest(
        identifier: "past", content: UNMutableNotificationContent(), trigger: trigger), in: world
    ).error
    #expect((error as? UNError)?.code == .notificationInvalidNoDate)
    #expect(
      world.entries("notifications", "rejected").map { $0["reason"] } == [.string("noNextDate")])
  }

  // MARK: Location triggers

  private func arrival(
    _ id: String, radius: CLLocationDistance = 100,
    center: CLLocationCoordinate2D = CLLocationCoordinate2D(latitude: 35.68, longitude: 139.76)
  )
    -> UNNotificationRequest
  {
    let region = CLCircularRegion(center: center, radius: radius, identifier: id)
    region.notifyOnExit = false
    let trigger = UNLocationNotificationTrigger(region: region, repeats: false)
    // The trigger took a copy: a later change to the app's region does not reach it [A].
    region.notifyOnExit = true
    let content = UNMutableNotificationContent()
    content.title = "Arrived"
    return UNNotificationRequest(identifier: id, content: content, trigger: trigger)
  }

  @Test("a location trigger fires on entering its region, once, and copies its region")
  func locationTrigger() throws {
    let world = try authorizedWorld(location: true, truth: ConcurrencyTests.walk)
    _ = try add(arrival("place"), in: world)
    let waiting = try #require(
      try pending(in: world).first?.trigger as? UNLocationNotificationTrigger)
    #expect(waiting.region.identifier == "place")
    #expect(!waiting.region.notifyOnExit)
    try world.run(until: 1_800)
    let presented = world.entries("notifications", "presented")
    #expect(presented.count == 1)
    // The walk enters the 100 m circle at 900 s; the dwell and latency follow.
    let time = try #require(presented.first?.time.seconds)
    #expect(time > 900 && time < 1_100)
    #expect(try pending(in: world).isEmpty)
  }

  @Test("without location permission a location trigger is added, its firing suppressed [A]")
  func locationTriggerWithoutPermission() throws {
    let world = try authorizedWorld(truth: ConcurrencyTests.walk)
    #expect(try add(arrival("place"), in: world).succeeded)
    try world.run(until: 1_800)
    #expect(world.entries("notifications", "presented").isEmpty)
    #expect(
      world.entries("notifications", "suppressed").map { $0["cause"] } == [
        .string("locationPermission")
      ])
    #expect(try pending(in: world).map(\.identifier) == ["place"])
  }

  @Test(
    "a region that cannot be monitored makes add fail, and the log says so",
    arguments: [
      (100.0, CLLocationCoordinate2D(latitude: 91, longitude: 0)),
      (-1, CLLocationCoordinate2D(latitude: 35.68, longitude: 139.76)),
      (500_000, CLLocationCoordinate2D(latitude: 35.68, longitude: 139.76)),
    ])
  func unmonitorableRegion(radius: Double, center: CLLocationCoordinate2D) throws {
    let world = try authorizedWorld(location: true)
    let error = try add(arrival("bad", radius: radius, center: center), in: world).error
    #expect((error as? DeviceError)?.code == .regionNotMonitorable)
    #expect(
      world.entries("notifications", "rejected").map { $0["reason"] } == [
        .string("regionNotMonitorable")
      ])
    #expect(try pending(in: world).isEmpty)
  }

  @Test("location triggers share the 20 regions with region monitoring [A]")
  func twentyFirstRegion() throws {
    let world = try authorizedWorld(location: true)
    for i in 0..<20 {
      let center = CLLocationCoordinate2D(latitude: 35.60 + Double(i) * 0.01, longitude: 139.70)
      #expect(try add(arrival("r\(i)", center: center), in: world).succeeded)
    }
    let error = try add(arrival("one-too-many"), in: world).error
    #expect((error as? DeviceError)?.code == .tooManyRegions)
  }

  // MARK: The delegate

  private final class Presenter: NSObject, UNUserNotificationCenterDelegate {
    var seen: [String] = []
    func userNotificationCenter(
      _ center: UNUserNotificationCenter, willPresent notification: UNNotification,
      withCompletionHandler completionHandler: @escaping (UNNotificationPresentationOptions) -> Void
    ) {
      seen.append(notification.request.identifier)
      completionHandler([.banner, .sound])
    }
  }

  private final class AsyncPresenter: NSObject, UNUserNotificationCenterDelegate {
    var seen: [String] = []
    func userNotificationCenter(
      _ center: UNUserNotificationCenter, willPresent notification: UNNotification
    ) async -> UNNotificationPresentationOptions {
      seen.append(notification.request.identifier)
      return [.list]
    }
  }

  @Test("in the foreground the delegate decides the presentation, in either form [A]")
  func delegateDecides() throws {
    let world = try authorizedWorld()
    let presenter = Presenter()
    world.inApp { UNUserNotificationCenter.current().delegate = presenter }
    _ = try add(request("a", after: 10), in: world)
    try world.run(until: 20)
    #expect(presenter.seen == ["a"])
    let asyncPresenter = AsyncPresenter()
    world.inApp { UNUserNotificationCenter.current().delegate = asyncPresenter }
    _ = try add(request("b", after: 10), in: world)
    try world.run(until: 40)
    #expect(asyncPresenter.seen == ["b"])
    #expect(
      world.entries("notifications", "presented").map { $0["banner"] } == [
        .bool(true), .bool(false),
      ])
  }

  @Test("without a delegate a notification arriving in the foreground shows no banner [A]")
  func noDelegate() throws {
    let world = try authorizedWorld()
    _ = try add(request("a", after: 10), in: world)
    try world.run(until: 20)
    #expect(world.entries("notifications", "presented").map { $0["banner"] } == [.bool(false)])
  }

  // MARK: The app's process

  @Test("an answer for a process that has ended is dropped with it")
  func answersDieWithTheProcess() throws {
    let world = TestWorld(user: UserScript(answers: [.notifications: [.allow]])) { Idle() }
    try world.launchAndRun(until: 0)
    let answered = Seen(false)
    world.inApp {
      UNUserNotificationCenter.current().requestAuthorization(options: [.alert]) { _, _ in
        answered.value = true
      }
    }
    world.terminate()
    try world.relaunch()
    try world.run(until: 10)
    #expect(!answered.value)
    #expect(world.entries("app", "workDropped").count == 1)
  }

  @Test("pending requests belong to the system and survive the app's relaunch [A]")
  func pendingSurvivesRelaunch() throws {
    let world = try authorizedWorld()
    _ = try add(request("tomorrow", after: 86_400), in: world)
    world.terminate()
    try world.relaunch()
    #expect(try pending(in: world).map(\.identifier) == ["tomorrow"])
  }
}

@Suite("An iOS-style check-in feature")
struct CheckInTests {
  /// Two places 1.5 km apart on the walk of ``ConcurrencyTests/walk(_:)``.
  static let places = [
    "office": CLLocationCoordinate2D(latitude: 35.68, longitude: 139.76),
    "cafe": CLLocationCoordinate2D(
      latitude: 35.68, longitude: 139.76 + 1_500 / (111_320 * cos(35.68 * .pi / 180))),
  ]

  @Test("it notifies at both places and remembers the last one at the next launch")
  func checkIn() throws {
    var current: CheckIn?
    let world = TestWorld(
      user: UserScript(answers: [
        .location: [.allowWhileUsing], .alwaysUpgrade: [.changeToAlways], .notifications: [.allow],
      ]),
      truth: ConcurrencyTests.walk
    ) {
      let made = CheckIn(places: CheckInTests.places)
      current = made
      return made
    }
    try world.launchAndRun(until: 30)
    let first = try #require(current)
    #expect(first.previousPlace == nil)
    #expect(first.notes == ["may notify"])
    world.phone.sendAppToBackground()
    try world.run(until: 3_200)
    #expect(first.notes == ["may notify", "checked in at office", "checked in at cafe"])
    let banners = world.entries("notifications", "presented")
    #expect(
      banners.map { $0["identifier"] } == [.string("check-in.office"), .string("check-in.cafe")])
    #expect(banners.allSatisfy { $0["banner"] == .bool(true) })

    world.terminate()
    try world.relaunch()
    let second = try #require(current)
    #expect(second !== first)
    #expect(second.previousPlace == "cafe")
    #expect(world.entries("defaults", "set").last?["value"] == .string("cafe"))
  }
}
