import Device
import Geo

/// Something that happens to the phone at a moment of the scenario.
public struct TimelineEvent: Sendable {
  /// Seconds after the scenario's start.
  public var at: Double
  /// What happens.
  public var action: Action
  /// Where the event is in the scenario document (`timeline[3]`), for error messages.
  public var origin: String

  /// An event.
  public init(at: Double, _ action: Action, origin: String = "") {
    self.at = at
    self.action = action
    self.origin = origin
  }

  /// Where a touch lands: a screen point, or the screen point showing a coordinate on the map
  /// at the moment of the touch.
  public enum TouchTarget: Sendable {
    /// A point on the screen.
    case screen(Point)
    /// Wherever the map shows this coordinate then.
    case coordinate(Coordinate)
  }

  /// The kinds of timeline events.
  public enum Action: Sendable {
    /// The user opens the app (launching it if it is not running).
    case launch
    /// The user switches to another app.
    case background
    /// The user returns to the app.
    case foreground
    /// The app is terminated.
    case terminate
    /// The app is terminated and opened again.
    case relaunch
    /// The phone restarts.
    case reboot
    /// The user answers the prompt on screen.
    case answerPrompt(PromptAnswer)
    /// The user changes the app's location setting.
    case locationSetting(LocationSetting)
    /// The user turns Precise Location on or off.
    case preciseLocation(Bool)
    /// The user turns Location Services on or off.
    case locationServices(Bool)
    /// The user turns Airplane mode on or off.
    case airplaneMode(Bool)
    /// The connection comes back or goes away (an outage, not a setting).
    case network(online: Bool)
    /// A tap.
    case tap(TouchTarget)
    /// A double tap.
    case doubleTap(TouchTarget)
    /// A long press held for `duration` seconds.
    case longPress(TouchTarget, duration: Double)
    /// A one-finger drag along screen points over `duration` seconds.
    case drag([Point], duration: Double)
    /// Raw touch samples; their times are seconds after the event.
    case touches([TouchSample])
    /// The user types `text` into the field called `field` and submits it.
    case enterText(field: String, text: String)
    /// The user taps the button called `button`.
    case tapButton(String)
    /// The true movement starts or changes: the new trace replaces what remains of the old one.
    case trace(TraceSource)
  }
}
