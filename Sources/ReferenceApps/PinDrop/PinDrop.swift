import Device
import Foundation
import Geo
import JSON
import SimKernel

/// Article 002 (SwiftUI + MKMapView): `UIMapAddressGetView` and its `Coordinator` — a tap or
/// a long press on the map puts one pin ("ポイント") and reverse-geocodes it into a Japanese
/// address string.
///
/// The model layer as the article writes it (`longTapped(gesture:)`, the final listing; the
/// tap listing has the same body without the address, and here the recognizer is chosen by
/// configuration while the body is the final one in both cases):
/// - the gesture's point is converted to a coordinate and a `MKPointAnnotation` titled
///   "ポイント" is made there;
/// - `if !mapView.annotations.isEmpty { mapView.removeAnnotation(mapView.annotations[0]) }`;
/// - one `CLGeocoder` (a property of the coordinator) reverse-geocodes the coordinate; on a
///   placemark the address is `administrativeArea + locality + placeName + subThoroughfare`
///   with `placeName = !thoroughfare.contains(subLocality) ? subLocality + thoroughfare :
///   thoroughfare` (every component `?? ""`); on an error or no placemark the handler returns
///   and the address keeps its previous value;
/// - the new pin is added.
///
/// As published (kept): the handler ignores the recognizer's state (article, `@objc func
/// longTapped(gesture:)` has no `gesture.state` check), and a long press calls it at `.began`,
/// at every `.changed` and at `.ended`: each call replaces the pin and starts a geocode, which
/// cancels the one in flight (`geocodeCanceled`), so one press makes several requests toward
/// the geocoder's rate limit. It removes `mapView.annotations[0]` (article: "あれば1つしかないは
/// ずなので決め打ちで[0]を…削除します") — with the user's position shown (`showsUserLocation`,
/// which the article does not turn on; see the configuration) that is the blue dot, so the
/// first pin removes the dot and pins then replace each other. A failed lookup leaves the
/// previous pin's address on screen.
///
/// Corrected (the smallest changes): a long press acts only at `.began`; the app removes the pin
/// it added (kept in a property) rather than `annotations[0]`; the address is cleared when a new
/// pin is placed, so a failed lookup shows no address rather than the old one.
///
/// Nothing in this port traps.
///
/// Screen: the map. ``observableState``:
/// - `"pin"`: `{"title", "latitude", "longitude"}` of the app's last pin, or `null`;
/// - `"address"`: the address string (`""` before the first lookup, as the article's `@State`);
/// - `"annotations"`: every annotation on the map, `[{"title", "latitude", "longitude"}]`
///   (the blue dot's title is "My Location");
/// - `"userLocationShown"`: whether the blue dot is among the annotations;
/// - `"camera"`: `{"latitude", "longitude", "zoom"}`.
///
/// Event log (source `"app"`): `"gesture"` (`state`: the recognizer state the handler acted
/// on), `"pin"` (`latitude`, `longitude`, `removed`: the removed annotation's kind,
/// `"pin"`, `"userLocation"` or null), `"address"` (`address`), `"address.failed"` (`error`).
public final class PinDrop: ReferenceApp<PinDrop.Configuration>, SimulatedApp, AppScreen {
  /// The gesture that drops the pin.
  public enum Gesture: String, Sendable {
    /// `UITapGestureRecognizer` (the article's first listing).
    case tap
    /// `UILongPressGestureRecognizer` (the article's final listing).
    case longPress
  }

  /// The app's configuration.
  ///
  /// Keys (all optional):
  /// - `"gesture"`: `"tap"` or `"longPress"`, default `"longPress"` (the article's final code);
  /// - `"showsUserLocation"`: whether the map shows the blue dot, default `false` (the article
  ///   does not turn it on);
  /// - `"region"` `{"latitude", "longitude", "latitudeDelta", "longitudeDelta"}`: default
  ///   Tokyo Station, 0.05° × 0.05° [?] (the article keeps MapKit's default region);
  /// - `"mapSize"` `{"width", "height"}`: points, default 390 × 844.
  public struct Configuration: Sendable {
    var map: MapConfiguration
    var gesture = Gesture.longPress
    var showsUserLocation = false

    /// The defaults.
    public init() { map = MapConfiguration(region: PinDrop.initialRegion) }

    /// Reads and validates a configuration object.
    public init(json: JSONValue) throws(ReferenceAppConfigurationError) {
      let reader = try ConfigurationReader(
        json, allowed: MapConfiguration.keys.union(["gesture", "showsUserLocation"]))
      map = try MapConfiguration(reader, defaultRegion: PinDrop.initialRegion)
      if let g = try reader.choice("gesture", ["tap", "longPress"]) {
        gesture = Gesture(rawValue: g)!
      }
      showsUserLocation = try reader.bool("showsUserLocation") ?? showsUserLocation
    }
  }

  static let initialRegion = try! CoordinateRegion(
    center: Coordinate(latitude: 35.681236, longitude: 139.767125), latitudeDelta: 0.05,
    longitudeDelta: 0.05)

  /// The map (`MKMapView`).
  public private(set) var mapView: MapView?
  private var geocoder: Geocoder?
  /// The address string (`@State var address`).
  public private(set) var address = ""
  private var pin: PointAnnotation?

  /// `makeUIView`: the map with the configured recognizer.
  public func didLaunch(on phone: Phone, reason: LaunchReason) {
    self.phone = phone
    let map = configuration.map.makeMapView(on: phone)
    map.showsUserLocation = configuration.showsUserLocation
    let recognizer: GestureRecognizer
    switch configuration.gesture {
    case .tap: recognizer = TapGestureRecognizer { [weak self] in self?.tapped(gesture: $0) }
    case .longPress:
      recognizer = LongPressGestureRecognizer { [weak self] in self?.longTapped(gesture: $0) }
    }
    map.addGestureRecognizer(recognizer)
    mapView = map
    geocoder = Geocoder(phone: phone, service: services.geocodingService)
  }

  /// `tapped(gesture:)`.
  func tapped(gesture: GestureRecognizer) {
    longTapped(gesture: gesture)
  }

  /// `longTapped(gesture:)`.
  func longTapped(gesture: GestureRecognizer) {
    guard let mapView, let geocoder, let phone else { return }
    if variant == .corrected && configuration.gesture == .longPress && gesture.state != .began {
      return
    }
    phone.recordAppEvent("gesture", [LogField("state", .string(gesture.state.description))])
    let viewPoint = gesture.location(in: mapView)
    guard let mapCoordinate = try? mapView.convert(viewPoint) else { return }
    let tapAnotation = PointAnnotation(coordinate: mapCoordinate, title: "ポイント")

    var removed: (any Annotation)?
    switch variant {
    case .asPublished:
      if !mapView.annotations.isEmpty {
        removed = mapView.annotations[0]
        mapView.removeAnnotation(mapView.annotations[0])
      }
    case .corrected:
      if let pin {
        removed = pin
        mapView.removeAnnotation(pin)
      }
      setAddress("")
    }

    geocoder.reverseGeocodeLocation(
      Location(coordinate: mapCoordinate, horizontalAccuracy: 0, timestamp: phone.simulation.now)
    ) { [weak self] placemarks, error in
      guard let self else { return }
      if let error {
        self.phone?.recordAppEvent("address.failed", [LogField("error", .string("\(error.code)"))])
      }
      guard let placemark = placemarks?.first else { return }
      let administrativeArea = placemark.administrativeArea ?? ""
      let locality = placemark.locality ?? ""
      let subLocality = placemark.subLocality ?? ""
      let thoroughfare = placemark.thoroughfare ?? ""
      let subThoroughfare = placemark.subThoroughfare ?? ""
      let placeName =
        !thoroughfare.contains(subLocality) ? subLocality + thoroughfare : thoroughfare
      self.setAddress(administrativeArea + locality + placeName + subThoroughfare)
    }
    mapView.addAnnotation(tapAnotation)
    pin = tapAnotation
    let removedKind: LogValue =
      removed == nil ? .null : .string(removed is UserLocation ? "userLocation" : "pin")
    phone.recordAppEvent("pin", mapCoordinate.logFields() + [LogField("removed", removedKind)])
  }

  private func setAddress(_ value: String) {
    guard value != address else { return }
    address = value
    phone?.recordAppEvent("address", [LogField("address", .string(value))])
  }

  // MARK: AppScreen

  /// `{"pin", "address", "annotations", "userLocationShown", "camera"}`.
  public var observableState: JSONValue {
    let annotations = mapView?.annotations ?? []
    return .object([
      "pin": pin.map(\.markerJSON) ?? .null,
      "address": .string(address),
      "annotations": .array(annotations.map(\.markerJSON)),
      "userLocationShown": .bool(annotations.contains { $0 is UserLocation }),
      "camera": mapView?.cameraJSON ?? .null,
    ])
  }
}
