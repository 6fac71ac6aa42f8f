import Device
import SimKernel

/// The app's notification center on the simulated phone (`UNUserNotificationCenter`).
///
/// `current()` is the running world's phone's one center: the behaviour — the permission
/// prompt, pending and delivered requests, the limit of 64 pending, the triggers, the region
/// engine behind location triggers, and the log of it all (source `notifications`) — is the
/// phone's (`Device.UserNotificationCenter`), with Apple's names. Pending and delivered
/// notifications belong to the system: they survive the app's relaunch; two worlds never share
/// a center.
///
/// Every answer comes later, on the app's main thread, never inside the call [A]: a completion
/// handler runs after the work already queued there (and waits while the app is suspended),
/// an `async` method resumes there. Until the answer comes the call is listed among the run
/// loop's pending work as a wait; an answer for a process that has since ended is dropped with
/// it. Outside a world, `current()` stops the process with a message saying how to run the code
/// in one; a center used in another world than its own stops it too.
///
/// Categories, actions, badges set directly and `didReceive` responses are not provided.
open class UNUserNotificationCenter: NSObject, @unchecked Sendable {
  // Unchecked: a center belongs to one world, which runs on one thread.
  /// Told how to present notifications that arrive while the app is in the foreground; held
  /// weakly, as on iOS.
  open weak var delegate: (any UNUserNotificationCenterDelegate)?

  let center: UserNotificationCenter
  unowned let phone: Phone
  private let bridge = Bridge()

  private init(phone: Phone) {
    self.phone = phone
    center = phone.notificationCenter
    super.init()
    bridge.owner = self
    center.delegate = bridge
  }

  /// The notification center of the app running on the calling thread's world.
  open class func current() -> UNUserNotificationCenter {
    let phone = Phone.requireCurrent(doing: "UNUserNotificationCenter.current()")
    return phone.attachment(UNUserNotificationCenter.self) {
      UNUserNotificationCenter(phone: phone)
    }
  }

  // MARK: Permission

  /// Asks the user to allow `options`: the prompt appears only the first time, in the
  /// foreground; later requests are answered with the stored permission [A].
  /// `completionHandler` gets whether notifications are allowed, and no error.
  open func requestAuthorization(
    options: UNAuthorizationOptions = [],
    completionHandler: @escaping @Sendable (Bool, (any Error)?) -> Void
  ) {
    whenAnswered(
      "UNUserNotificationCenter.requestAuthorization(options:completionHandler:)",
      { reply in center.requestAuthorization(options: options.device) { reply(($0, $1)) } },
      then: { completionHandler($0.0, $0.1) })
  }

  /// Asks the user to allow `options` and returns whether notifications are allowed [A].
  open func requestAuthorization(options: UNAuthorizationOptions = []) async throws -> Bool {
    let (granted, error) = await answer(
      "UNUserNotificationCenter.requestAuthorization(options:)",
      ifRunEnds: (false, nil)
    ) { reply in center.requestAuthorization(options: options.device) { reply(($0, $1)) } }
    if let error { throw error }
    return granted
  }

  /// The app's notification settings as they are now.
  open func getNotificationSettings(
    completionHandler: @escaping @Sendable (UNNotificationSettings) -> Void
  ) {
    whenAnswered(
      "UNUserNotificationCenter.getNotificationSettings(completionHandler:)",
      { reply in reply(settings) }, then: completionHandler)
  }

  /// The app's notification settings as they are now.
  open func notificationSettings() async -> UNNotificationSettings {
    await answer("UNUserNotificationCenter.notificationSettings()", ifRunEnds: self.settings) {
      reply in reply(settings)
    }
  }

  private var settings: UNNotificationSettings {
    UNNotificationSettings(status: center.authorizationStatus, allowed: center.authorizedOptions)
  }

  // MARK: Requests

  /// Schedules `request`, replacing a pending request with the same identifier [A].
  ///
  /// At most 64 requests stay pending: adding one more keeps the 64 that fire soonest and drops
  /// the rest silently (`completionHandler` gets no error), logging each as
  /// `notifications.dropped` [A]. `completionHandler` gets an error when the request is
  /// refused, each refusal logged as `notifications.rejected`: a ``UNError`` where iOS has a
  /// code — notifications denied (`notificationsNotAllowed`), a calendar trigger no date
  /// matches (`notificationInvalidNoDate`) — and the phone's `Device.DeviceError` where iOS
  /// stops the app with an exception (a time interval that is not positive, or under 60 s
  /// while repeating; `userInfo` that is not a property list) or documents nothing (a region
  /// that cannot be monitored; more than 20 regions with region monitoring).
  open func add(
    _ request: UNNotificationRequest,
    withCompletionHandler completionHandler: (@Sendable ((any Error)?) -> Void)? = nil
  ) {
    whenAnswered(
      "UNUserNotificationCenter.add(_:withCompletionHandler:)", { submit(request, reply: $0) },
      then: { completionHandler?($0) })
  }

  /// Schedules `request`; throws what ``add(_:withCompletionHandler:)`` reports.
  open func add(_ request: UNNotificationRequest) async throws {
    let error = await answer("UNUserNotificationCenter.add(_:)", ifRunEnds: nil) {
      submit(request, reply: $0)
    }
    if let error { throw error }
  }

  private func submit(_ request: UNNotificationRequest, reply: @escaping ((any Error)?) -> Void) {
    switch request.deviceRequest(epoch: phone.simulation.epoch) {
    case .failure(let refusal):
      center.recordRefusal(identifier: request.identifier, reason: refusal.reason)
      reply(refusal.error)
    case .success(let deviceRequest):
      center.add(deviceRequest) { reply(UNError.forApp($0)) }
    }
  }

  /// The pending requests, soonest-firing first (Apple leaves the order unspecified). A time
  /// trigger's `nextTriggerDate()` is when the system will deliver it.
  open func getPendingNotificationRequests(
    completionHandler: @escaping @Sendable ([UNNotificationRequest]) -> Void
  ) {
    whenAnswered(
      "UNUserNotificationCenter.getPendingNotificationRequests(completionHandler:)",
      pending, then: completionHandler)
  }

  /// The pending requests, soonest-firing first.
  open func pendingNotificationRequests() async -> [UNNotificationRequest] {
    await answer("UNUserNotificationCenter.pendingNotificationRequests()", ifRunEnds: [], pending)
  }

  private func pending(reply: @escaping ([UNNotificationRequest]) -> Void) {
    center.getPendingNotificationRequests { [unowned self] requests in
      let simulation = phone.simulation
      reply(
        requests.map { request in
          UNNotificationRequest(
            request,
            nextFire: center.nextFireTime(of: request.identifier).map(simulation.date(of:)),
            epoch: simulation.epoch)
        })
    }
  }

  /// Removes pending requests by identifier; their delivered notifications stay [A].
  open func removePendingNotificationRequests(withIdentifiers identifiers: [String]) {
    Phone.requireCurrent(
      phone, doing: "UNUserNotificationCenter.removePendingNotificationRequests(withIdentifiers:)")
    center.removePendingNotificationRequests(withIdentifiers: identifiers)
  }

  /// Removes every pending request [A].
  open func removeAllPendingNotificationRequests() {
    Phone.requireCurrent(
      phone, doing: "UNUserNotificationCenter.removeAllPendingNotificationRequests()")
    center.removeAllPendingNotificationRequests()
  }

  // MARK: Delivered notifications

  /// The notifications still in Notification Center, oldest delivery first.
  open func getDeliveredNotifications(
    completionHandler: @escaping @Sendable ([UNNotification]) -> Void
  ) {
    whenAnswered(
      "UNUserNotificationCenter.getDeliveredNotifications(completionHandler:)", delivered,
      then: completionHandler)
  }

  /// The notifications still in Notification Center, oldest delivery first.
  open func deliveredNotifications() async -> [UNNotification] {
    await answer("UNUserNotificationCenter.deliveredNotifications()", ifRunEnds: [], delivered)
  }

  private func delivered(reply: @escaping ([UNNotification]) -> Void) {
    center.getDeliveredNotifications { [unowned self] notifications in
      reply(notifications.map { UNNotification($0, in: phone.simulation) })
    }
  }

  /// Removes delivered notifications by identifier; pending requests stay [A].
  open func removeDeliveredNotifications(withIdentifiers identifiers: [String]) {
    Phone.requireCurrent(
      phone, doing: "UNUserNotificationCenter.removeDeliveredNotifications(withIdentifiers:)")
    center.removeDeliveredNotifications(withIdentifiers: identifiers)
  }

  /// Removes every delivered notification [A].
  open func removeAllDeliveredNotifications() {
    Phone.requireCurrent(phone, doing: "UNUserNotificationCenter.removeAllDeliveredNotifications()")
    center.removeAllDeliveredNotifications()
  }

  // MARK: Answers

  /// Opens a wait named `label`, asks the phone, and hands the reply to `deliver` on the app's
  /// main thread — unless the app's process ended before the reply came.
  private func whenAnswered<Answer>(
    _ label: String, endedBy end: @escaping () -> Void = {},
    _ ask: (_ reply: @escaping (Answer) -> Void) -> Void,
    then deliver: @escaping (Answer) -> Void
  ) {
    Phone.requireCurrent(phone, doing: label)
    let runLoop = phone.runLoop
    let wait = runLoop.beginWaiting(label, endedBy: end)
    ask { answer in
      guard wait.isPending else { return }
      wait.cancel()
      runLoop.enqueue(label) { deliver(answer) }
    }
  }

  /// ``whenAnswered(_:endedBy:_:then:)`` for an `async` method; `ended` is its answer when
  /// the world is over before the phone answered.
  private func answer<Answer: Sendable>(
    _ label: String, ifRunEnds ended: @escaping @autoclosure () -> Answer,
    _ ask: (_ reply: @escaping (Answer) -> Void) -> Void
  ) async -> Answer {
    await withCheckedContinuation { continuation in
      let resumption = Resumption(continuation)
      whenAnswered(
        label, endedBy: { resumption.resume(with: .success(ended())) }, ask,
        then: { resumption.resume(with: .success($0)) })
    }
  }
}

/// Turns the phone's presentation question into the app delegate's, on the app's main thread.
private final class Bridge: UserNotificationCenterDelegate {
  weak var owner: UNUserNotificationCenter?

  func userNotificationCenter(
    _ center: UserNotificationCenter, willPresent notification: DeliveredNotification,
    withCompletionHandler completionHandler: @escaping (NotificationPresentationOptions) -> Void
  ) {
    guard let owner, owner.delegate != nil else { return completionHandler([]) }
    let label = "userNotificationCenter(_:willPresent:withCompletionHandler:)"
    let shown = UNNotification(notification, in: owner.phone.simulation)
    nonisolated(unsafe) let reply = completionHandler
    owner.phone.runLoop.enqueue(label) { [weak owner] in
      guard let owner, let delegate = owner.delegate else { return reply([]) }
      delegate.userNotificationCenter(owner, willPresent: shown) { reply($0.device) }
    }
  }
}
