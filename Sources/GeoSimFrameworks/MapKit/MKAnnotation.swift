import Device
import Geo
import SimKernel

/// Something shown at a coordinate on a map (`MKAnnotation`).
///
/// ``title`` and ``subtitle`` are optional, as in Apple's SDK: an annotation that does not
/// declare them has none. (On iOS they are Objective-C optional requirements, read as
/// `String??` through the protocol; here they are requirements with a default of `nil`, read as
/// `String?`.) The map reads an annotation's coordinate and titles each time it needs them, so
/// an annotation that moves is shown where it is now.
public protocol MKAnnotation: NSObjectProtocol {
  /// Where the annotation stands.
  var coordinate: CLLocationCoordinate2D { get }
  /// The callout's title, if any.
  var title: String? { get }
  /// The callout's subtitle, if any.
  var subtitle: String? { get }
}

extension MKAnnotation {
  /// None, unless the annotation declares one.
  public var title: String? { nil }
  /// None, unless the annotation declares one.
  public var subtitle: String? { nil }
}

/// An annotation at a settable coordinate with a title and a subtitle (`MKPointAnnotation`).
open class MKPointAnnotation: NSObject, MKAnnotation {
  /// Where the annotation stands; (0°, 0°) until set.
  open var coordinate: CLLocationCoordinate2D
  /// The callout's title.
  open var title: String?
  /// The callout's subtitle.
  open var subtitle: String?

  /// An annotation at (0°, 0°) with no titles.
  public override init() {
    coordinate = CLLocationCoordinate2D()
    super.init()
  }

  /// An annotation at `coordinate`.
  public convenience init(coordinate: CLLocationCoordinate2D) {
    self.init(coordinate: coordinate, title: nil, subtitle: nil)
  }

  /// An annotation at `coordinate` with titles.
  public init(coordinate: CLLocationCoordinate2D, title: String?, subtitle: String?) {
    self.coordinate = coordinate
    self.title = title
    self.subtitle = subtitle
    super.init()
  }
}

/// The blue dot (`MKUserLocation`): the phone's most recent fix, among a map's annotations
/// while ``MKMapView/showsUserLocation`` is on [A].
///
/// Each map has one (``MKMapView/userLocation``); it follows the phone's fixes without being
/// told. Before the phone has a fix, ``location`` is `nil` and ``coordinate`` is
/// `kCLLocationCoordinate2DInvalid`.
public final class MKUserLocation: NSObject, MKAnnotation {
  let dot: UserLocation
  private unowned let simulation: Simulation

  init(_ dot: UserLocation, in simulation: Simulation) {
    self.dot = dot
    self.simulation = simulation
    super.init()
  }

  /// The phone's most recent fix, timestamped in the world's calendar; `nil` before the first.
  public var location: CLLocation? {
    dot.location.map { CLLocation($0, in: simulation) }
  }

  /// Where the dot stands: the last fix's coordinate, or `kCLLocationCoordinate2DInvalid`.
  public var coordinate: CLLocationCoordinate2D {
    location?.coordinate ?? kCLLocationCoordinate2DInvalid
  }

  /// "My Location", MapKit's English default [?]; an app may set its own (the event log keeps
  /// recording the default).
  public var title: String? = "My Location"
  /// None by default.
  public var subtitle: String?
}

/// An app's annotation as the phone's map holds it: the map reads the app's object each time,
/// so the annotation's current coordinate and titles are what the map shows and logs.
final class AnnotationBox: Annotation {
  let annotation: any MKAnnotation

  init(_ annotation: any MKAnnotation) {
    self.annotation = annotation
  }

  /// The annotation's coordinate; an invalid one stands at (0°, 0°) [?].
  var coordinate: Coordinate {
    annotation.coordinate.coordinate ?? (try! Coordinate(latitude: 0, longitude: 0))
  }
  var title: String? { annotation.title }
  var subtitle: String? { annotation.subtitle }
}
