import Device

/// What the notification center tells the app (`UNUserNotificationCenterDelegate`).
///
/// Every method is optional, as in Apple's SDK. The one the phone calls is `willPresent`: a
/// notification arriving while the app is in the foreground is presented as the delegate
/// answers — through the completion handler, or the `async` form's result — and not at all
/// without a delegate or an answer [A]. The call comes on the app's main thread, after the work
/// already queued there.
///
/// `userNotificationCenter(_:didReceive:withCompletionHandler:)` is not provided: the phone
/// does not model the user tapping a notification, so it would never be called (and code that
/// implements it does not compile here, for want of `UNNotificationResponse`, rather than
/// silently never hearing a tap). `openSettingsFor` is not provided either.
public protocol UNUserNotificationCenterDelegate: AnyObject {
  /// A notification arrived while the app is in the foreground: call `completionHandler` with
  /// how to present it.
  func userNotificationCenter(
    _ center: UNUserNotificationCenter, willPresent notification: UNNotification,
    withCompletionHandler completionHandler:
      @escaping @Sendable (
        UNNotificationPresentationOptions
      ) -> Void)

  /// A notification arrived while the app is in the foreground: return how to present it.
  func userNotificationCenter(
    _ center: UNUserNotificationCenter, willPresent notification: UNNotification
  ) async -> UNNotificationPresentationOptions
}

extension UNUserNotificationCenterDelegate {
  /// Not implemented: answers with the `async` form, which presents nothing unless the app
  /// implements it.
  public func userNotificationCenter(
    _ center: UNUserNotificationCenter, willPresent notification: UNNotification,
    withCompletionHandler completionHandler:
      @escaping @Sendable (
        UNNotificationPresentationOptions
      ) -> Void
  ) {
    nonisolated(unsafe) let delegate: any UNUserNotificationCenterDelegate = self
    Task {
      completionHandler(await delegate.userNotificationCenter(center, willPresent: notification))
    }
  }

  /// Not implemented: presents nothing, as iOS does without a delegate's answer.
  public func userNotificationCenter(
    _ center: UNUserNotificationCenter, willPresent notification: UNNotification
  ) async -> UNNotificationPresentationOptions { [] }
}
