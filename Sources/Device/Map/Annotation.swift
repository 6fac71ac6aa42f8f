import Geo

/// Something shown at a coordinate on a map, like `MKAnnotation`.
///
/// Annotations are objects: ``MapView/removeAnnotation(_:)`` removes the very instance given,
/// as MapKit does [A].
public protocol Annotation: AnyObject {
  /// Where the annotation stands.
  var coordinate: Coordinate { get }
  /// The callout's title, if any.
  var title: String? { get }
  /// The callout's subtitle, if any.
  var subtitle: String? { get }
}

/// A plain annotation with settable coordinate and titles, like `MKPointAnnotation`.
public final class PointAnnotation: Annotation {
  /// Where the annotation stands.
  public var coordinate: Coordinate
  /// The callout's title, if any.
  public var title: String?
  /// The callout's subtitle, if any.
  public var subtitle: String?

  /// An annotation at `coordinate`.
  public init(coordinate: Coordinate, title: String? = nil, subtitle: String? = nil) {
    self.coordinate = coordinate
    self.title = title
    self.subtitle = subtitle
  }
}

/// The blue dot, like `MKUserLocation`: the phone's most recent fix.
///
/// It sits in ``MapView/annotations`` while ``MapView/showsUserLocation`` is on and the user is
/// located (the app has location authorization and the phone a fix) [A][?]. Before the phone
/// has any fix, ``location`` is `nil` and ``coordinate`` is (0°, 0°) [?] (MapKit reports an
/// invalid coordinate there, which `Coordinate` cannot hold).
public final class UserLocation: Annotation {
  unowned let phone: Phone

  init(phone: Phone) { self.phone = phone }

  /// The phone's most recent fix, if any.
  public var location: Location? { phone.lastKnownLocation }
  /// Where the dot stands; (0°, 0°) before the first fix [?].
  public var coordinate: Coordinate {
    location?.coordinate ?? (try! Coordinate(latitude: 0, longitude: 0))
  }
  /// "My Location", MapKit's English default title [?].
  public var title: String? { "My Location" }
  /// No subtitle.
  public var subtitle: String? { nil }
}
