import SimKernel

/// The app's notification permission (`UNAuthorizationStatus`, same raw values).
public enum NotificationAuthorizationStatus: Int, Hashable, Sendable, CustomStringConvertible {
  /// Not asked yet.
  case notDetermined = 0
  /// The user refused.
  case denied = 1
  /// The user allowed notifications.
  case authorized = 2

  /// The Swift case name.
  public var description: String {
    switch self {
    case .notDetermined: "notDetermined"
    case .denied: "denied"
    case .authorized: "authorized"
    }
  }
}

/// What the app asks permission for (`UNAuthorizationOptions`).
public struct NotificationAuthorizationOptions: OptionSet, Hashable, Sendable {
  /// The raw bits (Apple's values).
  public let rawValue: Int
  /// Creates options from raw bits.
  public init(rawValue: Int) { self.rawValue = rawValue }
  /// Badges.
  public static let badge = NotificationAuthorizationOptions(rawValue: 1 << 0)
  /// Sounds.
  public static let sound = NotificationAuthorizationOptions(rawValue: 1 << 1)
  /// Alerts.
  public static let alert = NotificationAuthorizationOptions(rawValue: 1 << 2)
}

/// How a notification is presented while the app is in the foreground
/// (`UNNotificationPresentationOptions`).
public struct NotificationPresentationOptions: OptionSet, Hashable, Sendable {
  /// The raw bits (Apple's values).
  public let rawValue: Int
  /// Creates options from raw bits.
  public init(rawValue: Int) { self.rawValue = rawValue }
  /// Badge.
  public static let badge = NotificationPresentationOptions(rawValue: 1 << 0)
  /// Sound.
  public static let sound = NotificationPresentationOptions(rawValue: 1 << 1)
  /// A banner.
  public static let banner = NotificationPresentationOptions(rawValue: 1 << 4)
  /// In the notification list.
  public static let list = NotificationPresentationOptions(rawValue: 1 << 3)
}

/// What the app's notification delegate is told (`UNUserNotificationCenterDelegate`).
public protocol UserNotificationCenterDelegate: AnyObject {
  /// A notification arrives while the app is in the foreground; the returned options decide
  /// how it is shown (none by default, as on iOS).
  func userNotificationCenter(
    _ center: UserNotificationCenter, willPresent notification: DeliveredNotification
  ) -> NotificationPresentationOptions

  /// The same question answered later: the notification is presented when
  /// `completionHandler` is first called, and not at all if it never is
  /// (`userNotificationCenter(_:willPresent:withCompletionHandler:)`). By default it answers at
  /// once with ``userNotificationCenter(_:willPresent:)``.
  func userNotificationCenter(
    _ center: UserNotificationCenter, willPresent notification: DeliveredNotification,
    withCompletionHandler completionHandler: @escaping (NotificationPresentationOptions) -> Void)
}

extension UserNotificationCenterDelegate {
  /// Shows nothing, as iOS does without a delegate answer.
  public func userNotificationCenter(
    _ center: UserNotificationCenter, willPresent notification: DeliveredNotification
  ) -> NotificationPresentationOptions { [] }

  /// Answers at once with ``userNotificationCenter(_:willPresent:)``.
  public func userNotificationCenter(
    _ center: UserNotificationCenter, willPresent notification: DeliveredNotification,
    withCompletionHandler completionHandler: @escaping (NotificationPresentationOptions) -> Void
  ) {
    completionHandler(userNotificationCenter(center, willPresent: notification))
  }
}

/// The phone's notification center for the app (`UNUserNotificationCenter.current()`).
///
/// Pending and delivered notifications belong to the system, so they survive app relaunches.
/// Time triggers fire on the kernel's clock; location triggers share the phone's region engine
/// and its limit of 20 regions with region monitoring [A] (a trigger and a monitored region with
/// the same identifier take two places: Apple does not say otherwise). A location trigger fires
/// only while the app has When In Use or Always location permission [A]. Completion handlers are
/// called asynchronously, as on iOS.
///
/// `add` refuses a request, with an error for its completion handler and a `rejected` entry in
/// the log, when the app's notifications are denied (Apple, `UNError.Code.notificationsNotAllowed`:
/// "This error occurs when you try to submit a notification request and your app … isn't
/// authorized to schedule notifications"; a request added before the user answers is kept,
/// and suppressed at delivery unless the answer allowed notifications [?]), when its location
/// trigger's region cannot be monitored or would exceed the region limit, and when no date
/// matches its calendar trigger (`UNError.Code.notificationInvalidNoDate`).
public final class UserNotificationCenter {
  /// Told about notifications that arrive while the app is in the foreground.
  public weak var delegate: (any UserNotificationCenterDelegate)?
  /// The app's notification permission.
  public private(set) var authorizationStatus = NotificationAuthorizationStatus.notDetermined
  /// What the user allowed: the options asked for by the requests the prompt answered, when
  /// the answer was Allow; empty otherwise (the basis of `UNNotificationSettings`' alert, sound
  /// and badge settings).
  public private(set) var authorizedOptions: NotificationAuthorizationOptions = []

  let store: NotificationStore
  unowned let phone: Phone
  private var timer: EventHandle?
  private var pendingAuthorization: [(Bool) -> Void] = []
  private var pendingOptions: NotificationAuthorizationOptions = []
  private var promptShown = false

  init(phone: Phone) {
    self.phone = phone
    self.store = NotificationStore(log: phone.simulation.log, epoch: phone.simulation.epoch)
  }

  private var now: SimTime { phone.simulation.now }

  private func later(_ body: @escaping () -> Void) {
    checkedScheduling { try phone.simulation.schedule(after: .zero) { body() } }
  }

  // MARK: Permission

  /// Asks for permission: shows the prompt from notDetermined (in the foreground), otherwise
  /// answers with the current permission.
  ///
  /// A request made while the prompt cannot appear (the app is not in the foreground, or
  /// another prompt is on screen; logged as `prompt.notShown`) waits, and is answered with the
  /// prompt that a later request shows [?].
  public func requestAuthorization(
    options: NotificationAuthorizationOptions,
    completionHandler: @escaping (Bool, (any Error)?) -> Void
  ) {
    guard authorizationStatus == .notDetermined else {
      let granted = authorizationStatus == .authorized
      later { completionHandler(granted, nil) }
      return
    }
    pendingAuthorization.append { granted in completionHandler(granted, nil) }
    pendingOptions.formUnion(options)
    if !promptShown {
      promptShown = phone.authorization.showNotificationPrompt()
    }
  }

  /// Applies the user's answer to the notification prompt.
  func resolveAuthorization(_ answer: PromptAnswer) {
    authorizationStatus = answer == .allow ? .authorized : .denied
    authorizedOptions = answer == .allow ? pendingOptions : []
    pendingOptions = []
    promptShown = false
    phone.record(NotificationEvent.authorization(authorizationStatus))
    let waiting = pendingAuthorization
    pendingAuthorization.removeAll()
    let granted = authorizationStatus == .authorized
    for completion in waiting { later { completion(granted) } }
  }

  // MARK: Requests

  /// Schedules a request, replacing a pending one with the same identifier [A].
  ///
  /// A refused request (see the type's overview) leaves the pending list as it was; the
  /// completion handler gets a ``DeviceError`` whose code says why:
  /// ``DeviceErrorCode/notificationsNotAllowed``, ``DeviceErrorCode/regionNotMonitorable``,
  /// ``DeviceErrorCode/tooManyRegions`` or ``DeviceErrorCode/noNextDate``.
  public func add(
    _ request: NotificationRequest,
    withCompletionHandler completion: (((any Error)?) -> Void)? = nil
  ) {
    if let (code, reason, message) = refusal(of: request) {
      phone.record(NotificationEvent.rejected(identifier: request.identifier, reason: reason))
      let error = DeviceError(code, "request \(request.identifier): \(message)")
      later { completion?(error) }
      return
    }
    // A replaced request's old region goes with it.
    phone.regions.unwatchTrigger(request: request.identifier)
    let outcome = store.add(request, at: now)
    for dropped in outcome.dropped {
      phone.regions.unwatchTrigger(request: dropped.identifier)
    }
    if store.isPending(request.identifier), case .location(let region, _) = request.trigger {
      // Added inside its region: what iOS does then is assumed (``Assumption``), so say so.
      let inside = phone.location.truePosition().map(region.contains) ?? false
      if inside {
        phone.record(
          AssumptionEvent.locationTriggerAddedInside(
            identifier: request.identifier, region: region.identifier))
      }
      phone.regions.watchTrigger(region, request: request.identifier)
      if inside && phone.parameters.locationTriggerFiresWhenAddedInside {
        // The other reading of Apple's silence: the entry fires at once, as a decided one does.
        let identifier = request.identifier
        later { [weak self] in self?.regionEvent(request: identifier, state: .inside) }
      }
    }
    if request.trigger == nil {
      deliver(request.identifier)
    }
    rearmTimer()
    later { completion?(nil) }
  }

  /// Records that the app's request `identifier` was refused before it could be added: for a
  /// layer that builds requests from the app's own objects and finds one iOS would not take —
  /// a trigger iOS rejects when it is created or content it cannot carry (where a device stops
  /// the app with an exception), or a region with no valid centre.
  public func recordRefusal(identifier: String, reason: NotificationRejection) {
    phone.record(NotificationEvent.rejected(identifier: identifier, reason: reason))
  }

  /// Why `request` cannot be added, if it cannot.
  private func refusal(of request: NotificationRequest)
    -> (DeviceErrorCode, NotificationRejection, String)?
  {
    if authorizationStatus == .denied {
      return (
        .notificationsNotAllowed, .notificationsNotAllowed,
        "the user has not allowed the app's notifications"
      )
    }
    switch request.trigger {
    case .location(let region, _)?:
      let limit = phone.parameters.maximumRegionMonitoringDistance
      guard region.radius.isFinite, region.radius >= 0, region.radius <= limit else {
        return (
          .regionNotMonitorable, .regionNotMonitorable,
          "radius \(region.radius) m is not between 0 and maximumRegionMonitoringDistance \(limit) m"
        )
      }
      let owner = RegionMonitor.Owner.notification(request.identifier)
      guard phone.regions.canWatch(region.identifier, owner: owner) else {
        return (
          .tooManyRegions, .tooManyRegions,
          "the app already uses \(phone.parameters.maximumMonitoredRegions) regions"
        )
      }
    case .calendar(let components, _)?:
      if request.trigger?.nextCalendarMatch(after: now, epoch: phone.simulation.epoch) == nil {
        return (.noNextDate, .noNextDate, "no date after now matches \(components)")
      }
    case .timeInterval?, nil: break
    }
    return nil
  }

  /// When the pending request `identifier` next fires (its trigger's `nextTriggerDate()`);
  /// `nil` for a location trigger, or when no such request is pending.
  public func nextFireTime(of identifier: String) -> SimTime? {
    store.nextFireTime(of: identifier)
  }

  /// The pending requests, in the order the pending limit ranks them.
  public func getPendingNotificationRequests(
    completionHandler: @escaping ([NotificationRequest]) -> Void
  ) {
    let pending = store.pending
    later { completionHandler(pending) }
  }

  /// The delivered notifications still in Notification Center, oldest first.
  public func getDeliveredNotifications(
    completionHandler: @escaping ([DeliveredNotification]) -> Void
  ) {
    let delivered = store.delivered
    later { completionHandler(delivered) }
  }

  /// Removes pending requests; notifications already delivered stay [A].
  public func removePendingNotificationRequests(withIdentifiers identifiers: [String]) {
    store.removePending(identifiers: identifiers, at: now)
    for id in identifiers { phone.regions.unwatchTrigger(request: id) }
    rearmTimer()
  }

  /// Removes every pending request.
  public func removeAllPendingNotificationRequests() {
    for request in store.pending {
      phone.regions.unwatchTrigger(request: request.identifier)
    }
    store.removeAllPending(at: now)
    rearmTimer()
  }

  /// Removes delivered notifications from Notification Center [A].
  public func removeDeliveredNotifications(withIdentifiers identifiers: [String]) {
    store.removeDelivered(identifiers: identifiers, at: now)
  }

  /// Removes every delivered notification.
  public func removeAllDeliveredNotifications() {
    store.removeAllDelivered(at: now)
  }

  // MARK: Delivery

  private func rearmTimer() {
    if let timer { phone.simulation.cancel(timer) }
    timer = nil
    guard let next = store.earliestFireTime else { return }
    timer = checkedScheduling {
      try phone.simulation.schedule(at: max(next, now)) { [weak self] in
        guard let self else { return }
        self.timer = nil
        for request in self.store.due(upTo: self.now) { self.deliver(request.identifier) }
        self.rearmTimer()
      }
    }
  }

  /// The region engine decided a transition for a location trigger.
  func regionEvent(request identifier: String, state: RegionState) {
    guard let request = store.pending.first(where: { $0.identifier == identifier }),
      case .location(let region, _) = request.trigger
    else { return }
    let wanted = state == .inside ? region.notifyOnEntry : region.notifyOnExit
    guard wanted else { return }
    guard phone.authorization.isAuthorized && phone.authorization.isPrecise else {
      phone.record(
        NotificationEvent.suppressed(identifier: identifier, cause: .locationPermission))
      return
    }
    deliver(identifier)
  }

  private func deliver(_ identifier: String) {
    guard authorizationStatus == .authorized else {
      phone.record(
        NotificationEvent.suppressed(identifier: identifier, cause: .notificationPermission))
      // Undisplayable, it is still consumed, as the system consumes it [?].
      _ = try? store.deliver(identifier: identifier, at: now)
      finishIfDone(identifier)
      return
    }
    guard let delivered = try? store.deliver(identifier: identifier, at: now) else { return }
    finishIfDone(identifier)
    guard phone.appState == .foreground else {
      return presented(identifier, options: [.banner, .sound, .list])
    }
    guard let delegate else { return presented(identifier, options: []) }
    var answered = false
    delegate.userNotificationCenter(self, willPresent: delivered) { [weak self] options in
      guard !answered else { return }
      answered = true
      self?.presented(identifier, options: options)
    }
  }

  private func presented(_ identifier: String, options: NotificationPresentationOptions) {
    phone.record(
      NotificationEvent.presented(
        identifier: identifier, appState: phone.appState, banner: options.contains(.banner)))
  }

  /// A delivered non-repeating location request stops watching its region.
  private func finishIfDone(_ identifier: String) {
    if !store.isPending(identifier) {
      phone.regions.unwatchTrigger(request: identifier)
    }
  }
}
