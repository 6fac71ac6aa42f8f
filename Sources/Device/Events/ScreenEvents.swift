import Geo
import SimKernel

/// A raw touch sample reaching the app's views (source `"touch"`; the event is the phase).
public enum TouchEvent: LogEvent, Hashable {
  /// A finger touched, moved, lifted or was cancelled.
  case touch(TouchSample)

  /// The component that records these events.
  public static let source = "touch"
  /// Every event this type records.
  public static let declarations = [TouchPhase.began, .moved, .ended, .cancelled].map {
    LogEventDeclaration(
      source, $0.rawValue, fields: ["finger", "x", "y"], "A touch sample, at screen points.")
  }
  /// The event's name in the log.
  public var name: String {
    switch self {
    case .touch(let sample): sample.phase.rawValue
    }
  }
  /// The event's fields, in the log's order.
  public var fields: [LogField] {
    switch self {
    case .touch(let sample):
      [
        LogField("finger", .int(Int64(sample.finger))), LogField("x", .double(sample.point.x)),
        LogField("y", .double(sample.point.y)),
      ]
    }
  }
}

/// A gesture recognizer as the log records it.
public struct LoggedGesture: Hashable, Sendable {
  /// The recognizer's kind (`"tap"`, `"longPress"`, `"pan"`, `"pinch"`).
  public let recognizer: String
  /// The name the app gave it.
  public let recognizerName: String?
  /// Its state.
  public let state: GestureRecognizer.State
  /// Where it last saw the touches.
  public let location: Point
}

/// Gesture recognizers' state changes (source `"gesture"`; the event is the new state's name,
/// or `"waiting"`).
public enum GestureEvent: LogEvent, Hashable {
  /// The recognizer entered its current state.
  case changed(LoggedGesture)
  /// The recognizer would change state but waits for another to fail (`require(toFail:)`).
  case waiting(LoggedGesture)

  /// The component that records these events.
  public static let source = "gesture"
  /// Every event this type records.
  public static let declarations =
    [GestureRecognizer.State.possible, .began, .changed, .ended, .cancelled, .failed].map {
      LogEventDeclaration(
        source, $0.description, fields: fieldNames, "A recognizer entered this state.")
    } + [
      LogEventDeclaration(
        source, "waiting", fields: fieldNames,
        "A recognizer waits for another to fail before it changes state.")
    ]
  static let fieldNames = ["recognizer", "name", "state", "x", "y"]

  /// The event's name in the log.
  public var name: String {
    switch self {
    case .changed(let g): g.state.description
    case .waiting: "waiting"
    }
  }
  /// The event's fields, in the log's order.
  public var fields: [LogField] {
    switch self {
    case .changed(let g), .waiting(let g):
      [
        LogField("recognizer", .string(g.recognizer)),
        LogField("name", g.recognizerName.map(LogValue.string) ?? .null),
        LogField("state", .int(Int64(g.state.rawValue))),
        LogField("x", .double(g.location.x)), LogField("y", .double(g.location.y)),
      ]
    }
  }
}

/// An annotation as the log records it.
public struct LoggedAnnotation: Hashable, Sendable {
  /// Whether it is the map's user-location annotation.
  public let isUserLocation: Bool
  /// Its title.
  public let title: String?
  /// Where it is.
  public let coordinate: Coordinate
  /// Its index among the annotations (after adding, before removing).
  public let index: Int
  /// How many annotations the map has afterwards.
  public let count: Int
}

/// The map view (source `"map"`).
public enum MapEvent: LogEvent, Hashable {
  /// The camera moved (at creation, `setRegion`, `setCenter`, `setCamera`, a gesture, or a
  /// frame of an animation); `span` is the region it shows.
  case camera(reason: String, animated: Bool, camera: MapCamera, span: CoordinateSpan)
  /// An animated camera change began towards `target`.
  case cameraAnimationBegan(reason: String, duration: SimDuration, target: MapCamera)
  /// An annotation was added.
  case addAnnotation(LoggedAnnotation)
  /// An annotation was removed.
  case removeAnnotation(LoggedAnnotation)

  /// The component that records these events.
  public static let source = "map"
  static let cameraFieldNames = ["latitude", "longitude", "heading", "mapPointsPerPoint"]
  static let annotationFieldNames = ["kind", "title", "latitude", "longitude", "index", "count"]
  /// Every event this type records.
  public static let declarations = [
    LogEventDeclaration(
      source, "camera",
      fields: ["reason", "animated"] + cameraFieldNames + ["latitudeDelta", "longitudeDelta"],
      "The camera moved; `reason` is init, setRegion, setCenter, setCamera, pan, pinch or doubleTap."
    ),
    LogEventDeclaration(
      source, "cameraAnimationBegan", fields: ["reason", "duration"] + cameraFieldNames,
      "An animated camera change began towards the camera given."),
    LogEventDeclaration(
      source, "addAnnotation", fields: annotationFieldNames, "An annotation was added."),
    LogEventDeclaration(
      source, "removeAnnotation", fields: annotationFieldNames, "An annotation was removed."),
  ]
  /// The event's name in the log.
  public var name: String {
    switch self {
    case .camera: "camera"
    case .cameraAnimationBegan: "cameraAnimationBegan"
    case .addAnnotation: "addAnnotation"
    case .removeAnnotation: "removeAnnotation"
    }
  }
  /// The event's fields, in the log's order.
  public var fields: [LogField] {
    switch self {
    case .camera(let reason, let animated, let camera, let span):
      return [LogField("reason", .string(reason)), LogField("animated", .bool(animated))]
        + Self.fields(camera)
        + [
          LogField("latitudeDelta", .double(span.latitudeDelta)),
          LogField("longitudeDelta", .double(span.longitudeDelta)),
        ]
    case .cameraAnimationBegan(let reason, let duration, let target):
      return [
        LogField("reason", .string(reason)), LogField("duration", .double(duration.seconds)),
      ] + Self.fields(target)
    case .addAnnotation(let a), .removeAnnotation(let a):
      return [
        LogField("kind", .string(a.isUserLocation ? "userLocation" : "annotation")),
        LogField("title", a.title.map(LogValue.string) ?? .null),
        LogField("latitude", .double(a.coordinate.latitude)),
        LogField("longitude", .double(a.coordinate.longitude)),
        LogField("index", .int(Int64(a.index))), LogField("count", .int(Int64(a.count))),
      ]
    }
  }

  private static func fields(_ camera: MapCamera) -> [LogField] {
    let c = camera.centerCoordinate
    return [
      LogField("latitude", .double(c.latitude)), LogField("longitude", .double(c.longitude)),
      LogField("heading", .double(camera.heading)),
      LogField("mapPointsPerPoint", .double(camera.mapPointsPerPoint)),
    ]
  }
}
