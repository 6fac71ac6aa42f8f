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
}

extension UserNotificationCenterDelegate {
  /// Shows nothing, as iOS does without a delegate answer.
  public func userNotificationCenter(
    _ center: UserNotificationCenter, willPresent notification: DeliveredNotification
  ) -> NotificationPresentationOptions { [] }
}

/// The phone's notification center for the app (`UNUserNotificationCenter.current()`).
///
/// Pending and delivered notifications belong to the system, so they survive app relaunches.
/// Time triggers fire on the kernel's clock; location triggers share the phone's region engine
/// and its limit of 20 regions with region monitoring [A] (a trigger and a monitored region with
/// the same identifier take two places: Apple does not say otherwise). A location trigger fires
/// only while the app has When In Use or Always location permission [A]. Completion handlers are
/// called asynchronously, as on iOS.
public final class UserNotificationCenter {
  /// Told about notifications that arrive while the app is in the foreground.
  public weak var delegate: (any UserNotificationCenterDelegate)?
  /// The app's notification permission.
  public private(set) var authorizationStatus = NotificationAuthorizationStatus.notDetermined

  let store: NotificationStore
  unowned let phone: Phone
  private var timer: EventHandle?
  private var pendingAuthorization: [(Bool) -> Void] = []

  init(phone: Phone) {
    self.phone = phone
    self.store = NotificationStore(log: phone.simulation.log)
  }

  private var now: SimTime { phone.simulation.now }

  private func later(_ body: @escaping () -> Void) {
    checkedScheduling { try phone.simulation.schedule(after: .zero) { body() } }
  }

  // MARK: Permission

  /// Asks for permission: shows the prompt from notDetermined (in the foreground), otherwise
  /// answers with the current permission.
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
    if pendingAuthorization.count == 1 {
      phone.authorization.showNotificationPrompt()
    }
  }

  /// Applies the user's answer to the notification prompt.
  func resolveAuthorization(_ answer: PromptAnswer) {
    authorizationStatus = answer == .allow ? .authorized : .denied
    phone.record(NotificationEvent.authorization(authorizationStatus))
    let waiting = pendingAuthorization
    pendingAuthorization.removeAll()
    let granted = authorizationStatus == .authorized
    for completion in waiting { later { completion(granted) } }
  }

  // MARK: Requests

  /// Schedules a request, replacing a pending one with the same identifier [A].
  public func add(
    _ request: NotificationRequest,
    withCompletionHandler completion: (((any Error)?) -> Void)? = nil
  ) {
    if case .location(let region, _) = request.trigger {
      let owner = RegionMonitor.Owner.notification(request.identifier)
      if !phone.regions.canWatch(region.identifier, owner: owner) {
        let error = DeviceError(
          .tooManyRegions,
          "request \(request.identifier): the app already uses \(phone.parameters.maximumMonitoredRegions) regions"
        )
        phone.record(
          NotificationEvent.rejected(identifier: request.identifier, reason: .tooManyRegions))
        later { completion?(error) }
        return
      }
    }
    // A replaced request's old region goes with it.
    phone.regions.unwatchTrigger(request: request.identifier)
    let outcome = store.add(request, at: now)
    for dropped in outcome.dropped {
      phone.regions.unwatchTrigger(request: dropped.identifier)
    }
    if store.isPending(request.identifier), case .location(let region, _) = request.trigger {
      phone.regions.watchTrigger(region, request: request.identifier)
    }
    if request.trigger == nil {
      deliver(request.identifier)
    }
    rearmTimer()
    later { completion?(nil) }
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
    let foreground = phone.appState == .foreground
    var options: NotificationPresentationOptions = [.banner, .sound, .list]
    if foreground {
      options = delegate?.userNotificationCenter(self, willPresent: delivered) ?? []
    }
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
