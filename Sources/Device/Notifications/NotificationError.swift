/// A misuse of the notification types: an invalid trigger, or delivering a request that is not
/// pending or not yet due. Each message names the request or value involved.
public struct NotificationError: Error, Hashable, Sendable, CustomStringConvertible {
  /// The kind of error. New kinds may be added.
  public struct Code: Hashable, Sendable {
    let name: String
    /// A trigger that UserNotifications rejects when it is created, such as a time interval
    /// that is not positive, or shorter than 60 seconds while repeating. On a device this is
    /// an `NSInternalInconsistencyException` that ends the app.
    public static let invalidTrigger = Code(name: "invalidTrigger")
    /// Delivering an identifier that has no pending request.
    public static let notPending = Code(name: "notPending")
    /// Delivering a time-triggered request before its fire time.
    public static let notDue = Code(name: "notDue")
    /// A location trigger would exceed the regions an app may monitor (20, shared with region
    /// monitoring [A]).
    public static let tooManyRegions = Code(name: "tooManyRegions")
  }

  /// What kind of error this is.
  public let code: Code
  /// What went wrong.
  public let message: String

  init(_ code: Code, _ message: String) {
    self.code = code
    self.message = message
  }

  /// The message.
  public var description: String { message }
}
