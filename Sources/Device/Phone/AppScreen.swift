import JSON

/// What the user sees and touches of an app: the surface a scenario drives and checks.
///
/// An app that conforms exposes its map (touches in screen points go to the map's gesture
/// recognizers), accepts text typed into its named fields and taps on its named buttons, and
/// reports its observable state (labels, markers, pins, camera, whatever the user could read off
/// the screen) as a JSON object for expectations and the event log. A relaunch creates a new app
/// instance, so the screen is always read through ``Phone/screen``.
public protocol AppScreen: AnyObject {
  /// The map on screen, if the app has one.
  var mapView: MapView? { get }
  /// The user types `text` into the field called `field` and submits it (the search button of
  /// a search bar, the return key of a text field).
  func enterText(_ text: String, in field: String) throws
  /// The user taps the button called `button`.
  func tapButton(_ button: String) throws
  /// What the screen shows now, as a JSON object with the app's own documented keys.
  var observableState: JSONValue { get }
}

extension AppScreen {
  /// No map by default.
  public var mapView: MapView? { nil }

  /// Throws: the app has no text fields by default.
  public func enterText(_ text: String, in field: String) throws {
    throw DeviceError(.invalidArgument, "the app has no text field called '\(field)'")
  }

  /// Throws: the app has no buttons by default.
  public func tapButton(_ button: String) throws {
    throw DeviceError(.invalidArgument, "the app has no button called '\(button)'")
  }
}

extension Phone {
  /// The running app's screen, when the app is running and shows one.
  public var screen: (any AppScreen)? {
    guard appState != .notRunning else { return nil }
    return runningApp as? any AppScreen
  }
}
