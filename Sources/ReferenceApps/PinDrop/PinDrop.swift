import Device
import Geo
import GeoSimFrameworks
import JSON
import SimKernel

/// Article 002 (SwiftUI + MKMapView): `UIMapAddressGetView` and its `Coordinator` — a tap or
/// a long press on the map puts one pin ("ポイント") and reverse-geocodes it into a Japanese
/// address string.
///
/// The model layer as the article writes it, with the recognizer chosen by configuration and
/// each recognizer calling its own listing's handler:
/// - `tapped(gesture:)` (the tap listing, `UITapGestureRecognizer`): the gesture's point is
///   converted to a coordinate and a `MKPointAnnotation` titled "ポイント" is made there;
///   `if !mapView.annotations.isEmpty { mapView.removeAnnotation(mapView.annotations[0]) }`;
///   the new pin is added. The article adds the address only to the long-press listing, so a
///   tap looks nothing up and the address stays `""`;
/// - `longTapped(gesture:)` (the final listing, `UILongPressGestureRecognizer`): the same, and
///   between removing and adding, one `CLGeocoder` (a property of the coordinator)
///   reverse-geocodes the coordinate; on a placemark the address is `administrativeArea +
///   locality + placeName + subThoroughfare` with `placeName =
///   !thoroughfare.contains(subLocality) ? subLocality + thoroughfare : thoroughfare` (every
///   component `?? ""`); on an error or no placemark the handler returns and the address keeps
///   its previous value.
///
/// As published (kept): the handler ignores the recognizer's state (article, `@objc func
/// longTapped(gesture:)` has no `gesture.state` check), and a long press calls it at `.began`,
/// at every `.changed` and at `.ended`: each call replaces the pin and starts a geocode, which
/// cancels the one still in flight (`geocodeCanceled`), so one press makes several requests
/// toward the geocoder's rate limit. Both handlers remove `mapView.annotations[0]` (article:
/// "あれば1つしかないはずなので決め打ちで[0]を…削除します") — with the user's position shown
/// (`showsUserLocation`, which the article does not turn on; see the configuration) and
/// located, that is the blue dot, so the first pin removes the dot. A failed lookup leaves the
/// previous pin's address on screen. The tap recognizer does not wait for the map's double tap
/// to fail (the article: a tap may set a pin "通常の地図操作の際にも", during ordinary map use),
/// so a double tap to zoom also moves the pin.
///
/// Corrected (the smallest changes): a long press acts only at `.began`; the app removes the pin
/// it added (kept in a property) rather than `annotations[0]`; the address is cleared when a new
/// pin is placed, so a failed lookup shows no address rather than the old one; the tap
/// recognizer requires the map's double tap to fail.
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
    case .tap:
      gesture = TapGestureRecognizer { [weak self] in self?.tapped(gesture: $0) }
      // Corrected: a double tap zooms the map and leaves the pin where it is.
      if variant != .asPublished {
        gesture.require(toFail: mapView.deviceMap.doubleTapGestureRecognizer)
      }
    case .longPress:
      gesture = LongPressGestureRecognizer { [weak self] in self?.longTapped(gesture: $0) }
    }
    mapView.deviceMap.addGestureRecognizer(gesture)
    mkMapView = mapView
  }

  /// `tapped(gesture:)`: the tap listing, which puts the pin and looks nothing up.
  func tapped(gesture: GestureRecognizer) {
    guard let mapView = mkMapView, let phone else { return }
    phone.recordAppEvent("gesture", [LogField("state", .string(gesture.state.description))])
    guard let (tapAnotation, removed) = replacePin(at: gesture, in: mapView) else { return }
    mapView.addAnnotation(tapAnotation)
    recordPin(tapAnotation, removed: removed)
  }

  /// The handlers' common start: the annotation at the gesture's point, and the old one
  /// removed (`annotations[0]` as published, the app's own pin corrected).
  private func replacePin(at gesture: GestureRecognizer, in mapView: MKMapView)
    -> (MKPointAnnotation, removed: (any MKAnnotation)?)?
  {
    let viewPoint = gesture.location(in: mapView)
    let mapCoordinate: CLLocationCoordinate2D = mapView.convert(
      viewPoint, toCoordinateFrom: mapView)
    guard CLLocationCoordinate2DIsValid(mapCoordinate) else { return nil }
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
    }
    return (tapAnotation, removed)
  }

  /// `longTapped(gesture:)`: the final listing, which also looks the address up.
  func longTapped(gesture: GestureRecognizer) {
    guard let mapView = mkMapView, let geocoder, let phone else { return }
    if variant == .corrected && gesture.state != .began { return }
    phone.recordAppEvent("gesture", [LogField("state", .string(gesture.state.description))])
    guard let (tapAnotation, removed) = replacePin(at: gesture, in: mapView) else { return }
    let mapCoordinate = tapAnotation.coordinate
    if variant != .asPublished { setAddress("") }

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
    recordPin(tapAnotation, removed: removed)
  }

  /// Keeps the new pin and logs it with what it replaced.
  private func recordPin(_ tapAnotation: MKPointAnnotation, removed: (any MKAnnotation)?) {
    pin = tapAnotation
    let removedKind: LogValue =
      removed == nil ? .null : .string(removed is MKUserLocation ? "userLocation" : "pin")
    phone?.recordAppEvent(
      "pin",
      [
        LogField("latitude", .double(tapAnotation.coordinate.latitude)),
        LogField("longitude", .double(tapAnotation.coordinate.longitude)),
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
