import Foundation
import SimKernel

/// One app's notification requests, pending and delivered: the state behind
/// `UNUserNotificationCenter`.
///
/// The store keeps UserNotifications' bookkeeping rules and nothing else: authorization
/// prompts, the region engine and the kernel events that deliver requests belong to the
/// notification center built on top of it. Every method that changes something takes the
/// virtual time it happens at, and every change is recorded in the event log under source
/// `"notifications"`: events `"added"`, `"replaced"`, `"dropped"`, `"delivered"`,
/// `"removedPending"` and `"removedDelivered"`, each with the request's `identifier`. Entries
/// about a request with a location trigger also carry its region: `region` (the identifier),
/// `latitude`, `longitude`, `radius` (metres), `notifyOnEntry` and `notifyOnExit`, so that a
/// report can rebuild the fence from the log alone.
///
/// The rules, from Apple's documentation via FIDELITY.md:
/// - Adding a request whose identifier is already pending replaces the pending request
///   (`UNNotificationRequest.identifier`). When it is delivered it also replaces a delivered
///   notification with that identifier (the `UNUserNotificationCenter.h` header comment on
///   `addNotificationRequest:`).
/// - At most ``pendingLimit`` (64) requests stay pending: "the system keeps the soonest-firing
///   64 notifications (with automatically rescheduled notifications counting as a single
///   notification) and discards the rest" (Apple's archived Local and Remote Notification
///   Programming Guide; FIDELITY.md, notifications [A]). See ``LimitPolicy`` for what
///   "soonest" means for a location trigger, which Apple does not say.
/// - Removing a pending request does not remove its delivered notification, and removing a
///   delivered notification does not cancel a request that is still pending
///   (`removePendingNotificationRequests(withIdentifiers:)`,
///   `removeDeliveredNotifications(withIdentifiers:)`).
/// - Delivery removes a non-repeating request from the pending list; a repeating one stays and
///   re-arms (`UNTimeIntervalNotificationTrigger`, `UNLocationNotificationTrigger`:
///   "reschedule the notification request each time the system delivers the notification").
///
/// A center drives it like this: after every change, schedule one kernel event at
/// ``earliestFireTime``; when it fires, ``deliver(identifier:at:)`` each of ``due(upTo:)``.
/// An event left over from a replaced or removed request then simply finds nothing due.
/// Location triggers never come due by time; the region engine delivers them.
public final class NotificationStore {
  /// Which pending requests survive when adding one brings the count above ``pendingLimit``.
  public enum LimitPolicy: Hashable, Sendable {
    /// Keep the requests that fire soonest (Apple, Local and Remote Notification Programming
    /// Guide: "the system keeps the soonest-firing 64 notifications … and discards the rest").
    ///
    /// Requests without a trigger rank by the time they were added (they fire at once); time
    /// triggers by their next fire time. Location triggers have no fire time, and Apple does not
    /// say how they rank: GeoSim's rule puts them after every dated request, in the order they
    /// were added, so with 64 dated requests pending a location trigger is the one dropped. Ties
    /// go to the request added first: the later one is dropped.
    case soonestFiring
    /// Keep the requests added most recently, dropping the oldest additions.
    ///
    /// Third-party testing on iOS 10 reported this behaviour for `UNNotificationRequest`
    /// (a Stack Overflow answer citing an Open Radar); a scenario can choose it to test an app
    /// against either reading.
    case mostRecentlyAdded
  }

  /// What ``add(_:at:)`` did besides making the request pending.
  public struct AddOutcome: Hashable, Sendable {
    /// Whether a pending request with the same identifier was replaced.
    public let replacedPending: Bool
    /// The requests discarded to stay within ``NotificationStore/pendingLimit``, possibly
    /// including the one just added, in the order they were ranked.
    public let dropped: [NotificationRequest]
  }

  /// How many pending requests iOS keeps per app: 64 (FIDELITY.md, notifications [A]).
  public static let defaultPendingLimit = 64

  /// The most requests kept pending.
  public let pendingLimit: Int
  /// Which requests survive when there are more.
  public let limitPolicy: LimitPolicy

  private let log: EventLog
  private let epoch: Date
  private var entries: [String: Entry] = [:]
  private var deliveredNotifications: [DeliveredNotification] = []
  private var additions = 0

  /// A pending request and its scheduling state.
  private struct Entry {
    var request: NotificationRequest
    /// The order of addition, from 0; a replacement gets a new one.
    let sequence: Int
    /// When it next comes due; `nil` for a location trigger.
    var fireTime: SimTime?
  }

  /// Creates an empty store.
  ///
  /// - Parameters:
  ///   - log: where every change is recorded.
  ///   - pendingLimit: the most requests kept pending; must not be negative.
  ///   - limitPolicy: which requests survive when there are more.
  ///   - epoch: the date of virtual time zero, which calendar triggers are matched against.
  public init(
    log: EventLog, pendingLimit: Int = NotificationStore.defaultPendingLimit,
    limitPolicy: LimitPolicy = .soonestFiring, epoch: Date = Date(timeIntervalSince1970: 0)
  ) {
    precondition(pendingLimit >= 0, "the pending limit must not be negative, got \(pendingLimit)")
    self.log = log
    self.epoch = epoch
    self.pendingLimit = pendingLimit
    self.limitPolicy = limitPolicy
  }

  // MARK: Reading

  /// The pending requests, soonest-firing first
  /// (`getPendingNotificationRequests(completionHandler:)`).
  ///
  /// Apple leaves the order unspecified; GeoSim lists them in the ``LimitPolicy/soonestFiring``
  /// ranking (by next fire time, then location triggers, ties in order of addition), so the
  /// list is the same on every run.
  public var pending: [NotificationRequest] {
    entries.values.sorted(by: Self.firesSooner).map(\.request)
  }

  /// How many requests are pending.
  public var pendingCount: Int { entries.count }

  /// Whether a request with `identifier` is pending.
  public func isPending(_ identifier: String) -> Bool {
    entries[identifier] != nil
  }

  /// The delivered notifications still in Notification Center, oldest delivery first
  /// (`getDeliveredNotifications(completionHandler:)`).
  public var delivered: [DeliveredNotification] { deliveredNotifications }

  /// When the pending request `identifier` next comes due; `nil` when it is not pending or has
  /// a location trigger, which no clock decides (`UNTimeIntervalNotificationTrigger`'s
  /// `nextTriggerDate()`).
  ///
  /// A request without a trigger is due from the instant it was added. An interval too long
  /// for virtual time (about 292 years from the epoch) gives the last representable instant.
  public func nextFireTime(of identifier: String) -> SimTime? {
    entries[identifier]?.fireTime
  }

  /// The earliest ``nextFireTime(of:)`` of all pending requests; `nil` when none has one.
  public var earliestFireTime: SimTime? {
    entries.values.compactMap(\.fireTime).min()
  }

  /// The pending requests whose fire time is at or before `time`, in the order they fire
  /// (ties in order of addition): what a center delivers when its timer fires.
  ///
  /// - Complexity: O(*n* log *n*) in the number of pending requests, at most ``pendingLimit``.
  public func due(upTo time: SimTime) -> [NotificationRequest] {
    entries.values
      .filter { $0.fireTime.map { $0 <= time } ?? false }
      .sorted(by: Self.firesSooner)
      .map(\.request)
  }

  /// The regions of the pending location-triggered requests, in the order they were added.
  ///
  /// Each counts against the 20 regions an app may monitor, a limit shared with Core
  /// Location's region monitoring (FIDELITY.md, region monitoring [A]); the region engine
  /// enforces it. A delivered non-repeating request no longer holds its region.
  public var locationTriggerRegions: [CircularRegion] {
    entries.values.sorted { $0.sequence < $1.sequence }.compactMap { entry in
      if case .location(let region, _)? = entry.request.trigger { return region }
      return nil
    }
  }

  /// How many pending requests have a location trigger.
  public var locationTriggerCount: Int {
    entries.values.count(where: { entry in
      if case .location? = entry.request.trigger { return true }
      return false
    })
  }

  // MARK: Adding

  /// Makes `request` pending at `now`, replacing a pending request with the same identifier,
  /// then drops requests beyond ``pendingLimit`` (`add(_:withCompletionHandler:)`).
  ///
  /// A time trigger's first fire time is `now` plus its interval; a request without a trigger
  /// is due at `now`. The drop is silent towards the app, as on iOS, but each one is logged as
  /// `"dropped"` with reason `"pendingLimit"` and returned in the outcome.
  @discardableResult
  public func add(_ request: NotificationRequest, at now: SimTime) -> AddOutcome {
    let replaced = entries[request.identifier] != nil
    let entry = Entry(
      request: request, sequence: additions,
      fireTime: firstFireTime(of: request.trigger, addedAt: now))
    additions += 1
    entries[request.identifier] = entry
    let logged = logged(entry)
    record(replaced ? .replaced(logged) : .added(logged), at: now)
    return AddOutcome(replacedPending: replaced, dropped: enforceLimit(at: now))
  }

  private func enforceLimit(at now: SimTime) -> [NotificationRequest] {
    guard entries.count > pendingLimit else { return [] }
    let ranked: [Entry] =
      switch limitPolicy {
      case .soonestFiring: entries.values.sorted(by: Self.firesSooner)
      case .mostRecentlyAdded: entries.values.sorted { $0.sequence > $1.sequence }
      }
    var dropped: [NotificationRequest] = []
    for entry in ranked[pendingLimit...] {
      entries.removeValue(forKey: entry.request.identifier)
      dropped.append(entry.request)
      record(.dropped(logged(entry), reason: .pendingLimit), at: now)
    }
    return dropped
  }

  // MARK: Delivering

  /// Delivers the pending request `identifier` at `now` and returns the notification.
  ///
  /// The notification joins ``delivered``, replacing one with the same identifier. A
  /// non-repeating request leaves the pending list; a repeating one stays: a time trigger
  /// re-arms to fire its interval after `now`, a location trigger waits for the next crossing.
  ///
  /// - Throws: ``DeviceErrorCode/notPending`` when no request `identifier` is pending,
  ///   and ``DeviceErrorCode/notDue`` when its fire time is after `now`. Location
  ///   triggers may be delivered at any time.
  @discardableResult
  public func deliver(identifier: String, at now: SimTime) throws -> DeliveredNotification {
    guard var entry = entries[identifier] else {
      throw DeviceError(
        .notPending, "no pending request \"\(identifier)\" to deliver at \(now)")
    }
    if let fireTime = entry.fireTime, fireTime > now {
      throw DeviceError(
        .notDue, "request \"\(identifier)\" fires at \(fireTime), not at \(now)")
    }
    let notification = DeliveredNotification(request: entry.request, date: now)
    let replacedDelivered = deliveredNotifications.contains {
      $0.request.identifier == identifier
    }
    deliveredNotifications.removeAll { $0.request.identifier == identifier }
    deliveredNotifications.append(notification)

    var rearmed = entry.request.trigger?.repeats ?? false
    switch entry.request.trigger {
    case .timeInterval(let seconds, _)? where rearmed:
      entry.fireTime = Self.fireTime(after: seconds, from: now)
    case .calendar? where rearmed:
      // A repeating calendar trigger with no later matching date has nothing left to fire.
      entry.fireTime = entry.request.trigger?.nextCalendarMatch(after: now, epoch: epoch)
      rearmed = entry.fireTime != nil
    default: break
    }
    if rearmed {
      entries[identifier] = entry
    } else {
      entries.removeValue(forKey: identifier)
    }
    record(
      .delivered(
        logged(entry, includeFireTime: false), stillPending: rearmed,
        replacedDelivered: replacedDelivered, nextFireTime: rearmed ? entry.fireTime : nil),
      at: now)
    return notification
  }

  // MARK: Removing

  /// Removes the pending requests with these identifiers
  /// (`removePendingNotificationRequests(withIdentifiers:)`).
  ///
  /// Delivered notifications stay. An identifier with no pending request, such as that of a
  /// non-repeating request already delivered, is ignored (Apple: "this method ignores the
  /// identifier") and not logged.
  public func removePending(identifiers: [String], at now: SimTime) {
    for identifier in identifiers where entries.removeValue(forKey: identifier) != nil {
      record(.removedPending(identifier: identifier), at: now)
    }
  }

  /// Removes every pending request, logging each in ``pending`` order
  /// (`removeAllPendingNotificationRequests()`). Delivered notifications stay.
  public func removeAllPending(at now: SimTime) {
    let identifiers = pending.map(\.identifier)
    entries.removeAll()
    for identifier in identifiers {
      record(.removedPending(identifier: identifier), at: now)
    }
  }

  /// Removes the delivered notifications with these identifiers from Notification Center
  /// (`removeDeliveredNotifications(withIdentifiers:)`).
  ///
  /// Pending requests stay, repeating ones included. Unknown identifiers are ignored and not
  /// logged.
  public func removeDelivered(identifiers: [String], at now: SimTime) {
    for identifier in identifiers {
      guard
        let index = deliveredNotifications.firstIndex(where: {
          $0.request.identifier == identifier
        })
      else { continue }
      deliveredNotifications.remove(at: index)
      record(.removedDelivered(identifier: identifier), at: now)
    }
  }

  /// Removes every delivered notification, logging each oldest first
  /// (`removeAllDeliveredNotifications()`). Pending requests stay.
  public func removeAllDelivered(at now: SimTime) {
    let identifiers = deliveredNotifications.map(\.request.identifier)
    deliveredNotifications.removeAll()
    for identifier in identifiers {
      record(.removedDelivered(identifier: identifier), at: now)
    }
  }

  // MARK: Invariants

  /// Stops the program if the store's bookkeeping is inconsistent; tests call it.
  ///
  /// At most ``pendingLimit`` pending requests, each filed under its own identifier, with a
  /// fire time exactly when its trigger is not a location; delivered identifiers unique.
  package func checkInvariants() {
    precondition(entries.count <= pendingLimit, "more pending requests than the limit")
    var sequences = Set<Int>()
    for (identifier, entry) in entries {
      precondition(entry.request.identifier == identifier, "request filed under another name")
      precondition(entry.sequence < additions, "sequence from the future")
      precondition(sequences.insert(entry.sequence).inserted, "duplicate sequence")
      if case .location? = entry.request.trigger {
        precondition(entry.fireTime == nil, "a location trigger with a fire time")
      } else {
        precondition(entry.fireTime != nil, "a dated request without a fire time")
      }
    }
    let deliveredIdentifiers = deliveredNotifications.map(\.request.identifier)
    precondition(
      Set(deliveredIdentifiers).count == deliveredIdentifiers.count,
      "two delivered notifications share an identifier")
  }

  // MARK: Helpers

  /// The ``LimitPolicy/soonestFiring`` ranking: dated requests by fire time, then location
  /// triggers; ties in order of addition.
  private static func firesSooner(_ a: Entry, _ b: Entry) -> Bool {
    switch (a.fireTime, b.fireTime) {
    case (let x?, let y?): x != y ? x < y : a.sequence < b.sequence
    case (.some, nil): true
    case (nil, .some): false
    case (nil, nil): a.sequence < b.sequence
    }
  }

  /// A calendar trigger that no later date matches never comes due (the center refuses such
  /// requests before they reach the store).
  private func firstFireTime(of trigger: NotificationTrigger?, addedAt now: SimTime) -> SimTime? {
    switch trigger {
    case nil: now
    case .timeInterval(let seconds, _)?: Self.fireTime(after: seconds, from: now)
    case .location?: nil
    case let calendar?:
      calendar.nextCalendarMatch(after: now, epoch: epoch) ?? SimTime(nanoseconds: .max)
    }
  }

  /// `now` plus `seconds`, or the last representable instant when that is beyond it.
  private static func fireTime(after seconds: Double, from now: SimTime) -> SimTime {
    let nanoseconds = (seconds * 1e9).rounded()
    guard nanoseconds < Double(Int64.max &- now.nanoseconds) else {
      return SimTime(nanoseconds: .max)
    }
    return now + SimDuration(nanoseconds: Int64(nanoseconds))
  }

  private func logged(_ entry: Entry, includeFireTime: Bool = true) -> LoggedNotificationRequest {
    LoggedNotificationRequest(
      identifier: entry.request.identifier, trigger: entry.request.trigger,
      fireTime: includeFireTime ? entry.fireTime : nil)
  }

  private func record(_ event: NotificationEvent, at now: SimTime) {
    log.record(event, at: now)
  }
}
