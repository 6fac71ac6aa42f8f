import Device
import SimKernel

/// A request to show a local notification when its trigger fires (`UNNotificationRequest`).
///
/// The identifier is the request's name: adding a request with the identifier of a pending one
/// replaces it, and removal goes by identifier [A]. A `nil` trigger delivers it at once [A].
open class UNNotificationRequest: NSObject, NSCopying, @unchecked Sendable {
  // Unchecked: immutable.
  /// The app's name for the request.
  public let identifier: String
  /// What the notification shows: a copy of the content given, so later changes to the app's
  /// mutable content do not reach the request [A].
  public let content: UNNotificationContent
  /// When it fires; `nil` fires at once.
  public let trigger: UNNotificationTrigger?

  /// A request; it never fails here, as on iOS: a trigger or content the system cannot take
  /// makes ``UNUserNotificationCenter/add(_:withCompletionHandler:)`` fail.
  public init(identifier: String, content: UNNotificationContent, trigger: UNNotificationTrigger?) {
    self.identifier = identifier
    self.content = UNNotificationContent(fields: content.fields)
    self.trigger = trigger
    super.init()
  }

  /// Itself: a request is immutable.
  open func copy(with zone: NSZone? = nil) -> Any { self }

  /// The phone's request, or why iOS would not take this one.
  func deviceRequest(epoch: Date) -> Result<NotificationRequest, UNRefusal> {
    let content: NotificationContent
    switch self.content.deviceContent(epoch: epoch) {
    case .success(let made): content = made
    case .failure(let refusal): return .failure(refusal)
    }
    var trigger: NotificationTrigger?
    if let appTrigger = self.trigger {
      switch appTrigger.deviceTrigger() {
      case .success(let made): trigger = made
      case .failure(let refusal): return .failure(refusal)
      }
    }
    do {
      return .success(
        try NotificationRequest(identifier: identifier, content: content, trigger: trigger))
    } catch let error as DeviceError {
      return .failure(UNRefusal(.invalidTrigger, error.message, code: error.code))
    } catch {
      return .failure(UNRefusal(.invalidTrigger, "\(error)"))
    }
  }

  /// The app's request for a pending or delivered one of the phone.
  convenience init(_ request: NotificationRequest, nextFire: Date?, epoch: Date) {
    self.init(
      identifier: request.identifier,
      content: UNNotificationContent(request.content, epoch: epoch),
      trigger: request.trigger.map { UNNotificationTrigger.make($0, nextFire: nextFire) })
  }
}

/// A notification the system delivered (`UNNotification`): its request and when it arrived.
open class UNNotification: NSObject, NSCopying, @unchecked Sendable {
  // Unchecked: immutable.
  /// When it was delivered, in the world's calendar.
  public let date: Date
  /// The request that produced it.
  public let request: UNNotificationRequest

  init(date: Date, request: UNNotificationRequest) {
    self.date = date
    self.request = request
    super.init()
  }

  convenience init(_ delivered: DeliveredNotification, in simulation: Simulation) {
    self.init(
      date: simulation.date(of: delivered.date),
      request: UNNotificationRequest(delivered.request, nextFire: nil, epoch: simulation.epoch))
  }

  /// Itself: a notification is immutable.
  open func copy(with zone: NSZone? = nil) -> Any { self }
}
