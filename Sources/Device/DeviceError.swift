import Errors

/// A misuse of the simulated phone: an argument out of its domain, a request that the phone's
/// state does not allow, or a notification request UserNotifications would refuse. The message
/// names the value and what was expected.
public typealias DeviceError = ModuleError<DeviceErrorCode>

/// The kind of a ``DeviceError``. New kinds may be added.
public struct DeviceErrorCode: ModuleErrorCode, CustomStringConvertible {
  let name: String
  /// An argument outside its documented domain.
  public static let invalidArgument = DeviceErrorCode(name: "invalidArgument")
  /// A trajectory that cannot be used (empty, or times not increasing).
  public static let invalidTrajectory = DeviceErrorCode(name: "invalidTrajectory")
  /// A request the phone's current state does not allow (no app installed, no prompt shown).
  public static let invalidState = DeviceErrorCode(name: "invalidState")
  /// A notification trigger that UserNotifications rejects when it is created, such as a time
  /// interval that is not positive, or shorter than 60 seconds while repeating. On a device
  /// this is an `NSInternalInconsistencyException` that ends the app.
  public static let invalidTrigger = DeviceErrorCode(name: "invalidTrigger")
  /// Delivering a notification identifier that has no pending request.
  public static let notPending = DeviceErrorCode(name: "notPending")
  /// Delivering a time-triggered notification before its fire time.
  public static let notDue = DeviceErrorCode(name: "notDue")
  /// A location trigger would exceed the regions an app may monitor (20, shared with region
  /// monitoring [A]).
  public static let tooManyRegions = DeviceErrorCode(name: "tooManyRegions")
  /// A notification request added while the user has not allowed the app's notifications
  /// (`UNError.Code.notificationsNotAllowed` [A]).
  public static let notificationsNotAllowed = DeviceErrorCode(name: "notificationsNotAllowed")
  /// A location trigger whose region cannot be monitored: a radius that is not a non-negative
  /// number or exceeds the phone's `maximumRegionMonitoringDistance`, or no valid centre.
  public static let regionNotMonitorable = DeviceErrorCode(name: "regionNotMonitorable")
  /// A calendar trigger that no date after the request was added matches
  /// (`UNError.Code.notificationInvalidNoDate` [A]).
  public static let noNextDate = DeviceErrorCode(name: "noNextDate")
  /// The code's name.
  public var description: String { name }
}
