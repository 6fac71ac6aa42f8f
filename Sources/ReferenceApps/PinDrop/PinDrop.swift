import Device
import Geo
import GeoSimFrameworks
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

  /// The map (`UIMapAddressGetView`'s `@State var mapView = MKMapView()`).
  private(set) var mkMapView: MKMapView?
  /// The coordinator's `let geocoder = CLGeocoder()`.
  private var geocoder: CLGeocoder?
  /// The address string (`@State var address`).
  public private(set) var address = ""
  private var pin: MKPointAnnotation?

  /// The view's map, the coordinator's geocoder, then `makeUIView`: the configured recognizer.
  public func didLaunch(on phone: Phone, reason: LaunchReason) {
    self.phone = phone
    let size = configuration.map.size
    let mapView = MKMapView(frame: CGRect(x: 0, y: 0, width: size.width, height: size.height))
    geocoder = CLGeocoder()
    // The article keeps MapKit's default region; here the configured one [?].
    if let initial = configuration.map.region {
      mapView.setRegion(
        MKCoordinateRegion(
          center: CLLocationCoordinate2D(
            latitude: initial.center.latitude, longitude: initial.center.longitude),
          span: MKCoordinateSpan(
            latitudeDelta: initial.span.latitudeDelta, longitudeDelta: initial.span.longitudeDelta)
        ), animated: false)
    }
    mapView.showsUserLocation = configuration.showsUserLocation
    // GeoSim's recognizers take a closure (there is no target–action) and live on the phone's map.
    let gesture: GestureRecognizer
    switch configuration.gesture {
    case .tap: gesture = TapGestureRecognizer { [weak self] in self?.tapped(gesture: $0) }
    case .longPress:
      gesture = LongPressGestureRecognizer { [weak self] in self?.longTapped(gesture: $0) }
    }
    mapView.deviceMap.addGestureRecognizer(gesture)
    mkMapView = mapView
  }

  /// `tapped(gesture:)`.
  func tapped(gesture: GestureRecognizer) {
    longTapped(gesture: gesture)
  }

  /// `longTapped(gesture:)`.
  func longTapped(gesture: GestureRecognizer) {
    guard let mapView = mkMapView, let geocoder, let phone else { return }
    if variant == .corrected && configuration.gesture == .longPress && gesture.state != .began {
      return
    }
    phone.recordAppEvent("gesture", [LogField("state", .string(gesture.state.description))])
    let viewPoint = gesture.location(in: mapView)
    let mapCoordinate: CLLocationCoordinate2D = mapView.convert(
      viewPoint, toCoordinateFrom: mapView)
    guard CLLocationCoordinate2DIsValid(mapCoordinate) else { return }
    let tapAnotation = MKPointAnnotation()
    tapAnotation.coordinate = mapCoordinate
    tapAnotation.title = "ポイント"

    var removed: (any MKAnnotation)?
    switch variant {
    case .asPublished:
      if !mapView.annotations.isEmpty {
        removed = mapView.annotations[0]
        mapView.removeAnnotation(mapView.annotations[0])
      }
    case .corrected, .modern:  // `modern` is ArrivalAlarm's only: never made for this app
      if let pin {
        removed = pin
        mapView.removeAnnotation(pin)
      }
      setAddress("")
    }

    geocoder.reverseGeocodeLocation(
      CLLocation(latitude: mapCoordinate.latitude, longitude: mapCoordinate.longitude)
    ) { [weak self] placemarks, error in
      guard let self else { return }
      if let error {
        let code = (error as? CLError).map { "\($0.code)" } ?? "\(error)"
        self.phone?.recordAppEvent("address.failed", [LogField("error", .string(code))])
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
      removed == nil ? .null : .string(removed is MKUserLocation ? "userLocation" : "pin")
    phone.recordAppEvent(
      "pin",
      [
        LogField("latitude", .double(mapCoordinate.latitude)),
        LogField("longitude", .double(mapCoordinate.longitude)),
        LogField("removed", removedKind),
      ])
  }

  private func setAddress(_ value: String) {
    guard value != address else { return }
    address = value
    phone?.recordAppEvent("address", [LogField("address", .string(value))])
  }

  // MARK: AppScreen

  /// The map on screen: the phone's map under `mkMapView`, which the scenario's touches reach.
  public var mapView: MapView? { mkMapView?.deviceMap }

  /// `{"pin", "address", "annotations", "userLocationShown", "camera"}`.
  public var observableState: JSONValue {
    // What the phone's map shows (the blue dot as the map logs it).
    let annotations = mapView?.annotations ?? []
    return .object([
      "pin": pin.map { pin in
        .object([
          "title": pin.title.map(JSONValue.string) ?? .null,
          "latitude": .number(pin.coordinate.latitude),
          "longitude": .number(pin.coordinate.longitude),
        ])
      } ?? .null,
      "address": .string(address),
      "annotations": .array(annotations.map(\.markerJSON)),
      "userLocationShown": .bool(annotations.contains { $0 is UserLocation }),
      "camera": mapView?.cameraJSON ?? .null,
    ])
  }
}

extension GestureRecognizer {
  /// `location(in:)` in an `MKMapView`'s points: GeoSim's recognizers live on the phone's map
  /// under it and give the touch in that map's points.
  fileprivate func location(in mapView: MKMapView) -> CGPoint {
    let point = location(in: mapView.deviceMap)
    return CGPoint(x: point.x, y: point.y)
  }
}
