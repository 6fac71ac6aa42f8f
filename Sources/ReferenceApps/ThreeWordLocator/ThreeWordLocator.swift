import Cloud
import Device
import Geo
import GeoSimFrameworks
import JSON
import SimKernel

/// Article 000 (what3words on iOS): the `ViewController` that shows the three-word address of
/// the current position in a label and finds a three-word address typed into a search bar.
///
/// The model layer as the article writes it, on Apple's framework names (`GeoSimFrameworks`):
/// - `viewDidLoad` → `requestLoacion()`: the `CLLocationManager` with this app as delegate asks
///   for When In Use permission. The map starts at (35.6812226, 139.7670594), zoom 12, with the
///   user's position shown (`isMyLocationEnabled = true`).
/// - `locationManager(_:didChangeAuthorization:)`: authorized (Always or When In Use) →
///   `startUpdatingLocation()`; anything else only prints.
/// - `locationManager(_:didUpdateLocations:)`: takes `locations.last`, animates the camera
///   there at zoom 17, asks the service for the three words in language `"ja"` and, on the
///   main queue, puts `place?.words` in the label — `nil` on any error, which clears the label
///   — then stops updates.
/// - `searchBarSearchButtonClicked(_:)`: `text.replacingOccurrences(of: " ", with: ".")`,
///   converts the result to coordinates; on success, on the main queue, drops a marker titled
///   with the dotted words and animates the camera there at zoom 17; errors are ignored (no
///   marker, no message). Markers accumulate: the article never removes one.
///
/// The article's map is Google Maps' `GMSMapView`; here it is MapKit's `MKMapView` and its
/// markers `MKPointAnnotation`s. Google's camera at a tile zoom level
/// (`GMSCameraPosition(latitude:longitude:zoom:)`) has no MapKit name, so the two camera moves
/// set the phone's camera under the `MKMapView` (`GeoSimFrameworks.MKMapView.deviceMap`) at
/// that zoom.
///
/// As published (kept): only the ASCII space U+0020 becomes a dot (article, the
/// `replacingOccurrences(of: " ", with: ".")` line of `searchBarSearchButtonClicked`), so
/// words typed with the Japanese IME's ideographic space U+3000 — the natural input for the
/// article's own example "ふつか そうさ ぜんぜん" — or with two spaces, or a trailing space,
/// reach the service unchanged and come back `BadWords`: nothing happens on screen. The first
/// fix delivered is used whatever its age (`guard let currentLocation = locations.last`), so
/// CoreLocation's cached fix from an earlier session can give the label the words of where the
/// phone *was*; updates are then stopped and no fresher fix comes.
///
/// Corrected (the smallest changes): the search text is split on any run of whitespace
/// (`Character.isWhitespace`, which includes U+3000) and the words joined with dots; a fix
/// more than 10 s old is skipped (updates continue until a fresh one arrives). The fix's age is
/// measured against the world's clock (`Date()` is the host's).
///
/// Nothing in this port traps.
///
/// Screen: the text field `"search"` (the search bar; submitting it is the search button). No
/// buttons. ``observableState``:
/// - `"label"`: the three words shown, or `null`;
/// - `"markers"`: `[{"title", "latitude", "longitude"}]`, the search markers in order;
/// - `"camera"`: `{"latitude", "longitude", "zoom"}`, the map's centre now.
///
/// Event log (source `"app"`): `"label"` (`words`, or null), `"search"` (`text` as typed,
/// `words` as sent), `"markers"` (`count`, and the new marker's `title`, `latitude`,
/// `longitude`), `"camera"` (`latitude`, `longitude`, `zoom`: the target the app animates to),
/// `"location.skipped"` (corrected: a stale fix, with its `age` in seconds).
public final class ThreeWordLocator: ReferenceApp<ThreeWordLocator.Configuration>, SimulatedApp,
  AppScreen, CLLocationManagerDelegate, @unchecked Sendable
{
  // Unchecked: the app lives on its phone's one thread, where the framework layer's queues run
  // the blocks it sends to `DispatchQueue.main`.

  /// The app's configuration.
  ///
  /// Keys (all optional):
  /// - `"region"` `{"latitude", "longitude", "latitudeDelta", "longitudeDelta"}`: the map's
  ///   initial region; default the article's camera, (35.6812226, 139.7670594) at zoom 12;
  /// - `"mapSize"` `{"width", "height"}`: points, default 390 × 844;
  /// - `"language"`: the three-word language, default `"ja"` (the article's);
  /// - `"apiKey"`: sent as `key`, default `"input your API key"`, the article's placeholder.
  public struct Configuration: Sendable {
    var map: MapConfiguration
    var language = "ja"
    var apiKey = "input your API key"

    /// The defaults.
    public init() { map = MapConfiguration() }

    /// Reads and validates a configuration object.
    public init(json: JSONValue) throws(ReferenceAppConfigurationError) {
      let reader = try ConfigurationReader(
        json, allowed: MapConfiguration.keys.union(["language", "apiKey"]))
      map = try MapConfiguration(reader, defaultRegion: nil)
      language = try reader.string("language", nonEmpty: true) ?? language
      apiKey = try reader.string("apiKey") ?? apiKey
    }
  }

  /// The article's initial camera: Tokyo Station, zoom 12.
  static let initialCenter = CLLocationCoordinate2D(latitude: 35.6812226, longitude: 139.7670594)

  /// The map: the article's `mapView` (a `GMSMapView`), MapKit's here.
  public private(set) var map: MKMapView?
  /// The location manager, created at launch.
  public private(set) var locationManager: CLLocationManager?
  /// The label's text (`what3wordsLabel.text`); each change is logged.
  public private(set) var what3wordsLabel: String? {
    didSet {
      phone?.recordAppEvent(
        "label", [LogField("words", what3wordsLabel.map(LogValue.string) ?? .null)])
    }
  }
  private var markers: [MKPointAnnotation] = []

  // MARK: Lifecycle (viewDidLoad)

  /// `viewDidLoad`: builds the map and asks for permission.
  public func didLaunch(on phone: Phone, reason: LaunchReason) {
    self.phone = phone
    let size = configuration.map.size
    let mapView = MKMapView(frame: CGRect(x: 0, y: 0, width: size.width, height: size.height))
    if let region = configuration.map.region {
      mapView.setRegion(
        MKCoordinateRegion(
          center: CLLocationCoordinate2D(
            latitude: region.center.latitude, longitude: region.center.longitude),
          span: MKCoordinateSpan(
            latitudeDelta: region.span.latitudeDelta, longitudeDelta: region.span.longitudeDelta)),
        animated: false)
    } else {
      setCamera(of: mapView, to: Self.initialCenter, zoom: 12, animated: false)
    }
    mapView.showsUserLocation = true
    map = mapView
    requestLoacion()
  }

  private func requestLoacion() {
    let locationManager = CLLocationManager()
    self.locationManager = locationManager
    locationManager.delegate = self
    locationManager.requestWhenInUseAuthorization()
  }

  // MARK: CLLocationManagerDelegate

  /// `locationManager(_:didChangeAuthorization:)`: starts updates once authorized.
  public func locationManager(
    _ manager: CLLocationManager, didChangeAuthorization status: CLAuthorizationStatus
  ) {
    switch status {
    case .authorizedAlways, .authorizedWhenInUse:
      locationManager?.startUpdatingLocation()
    case .denied, .notDetermined, .restricted:
      break  // print("許可されていません")
    }
  }

  /// `locationManager(_:didUpdateLocations:)`: camera, three words, stop.
  public func locationManager(
    _ manager: CLLocationManager, didUpdateLocations locations: [CLLocation]
  ) {
    guard let last = locations.last else { return }
    if variant == .corrected, let phone {
      let now = phone.simulation.date(of: phone.simulation.now)
      let age = now.timeIntervalSince(last.timestamp)
      if age > 10 {
        phone.recordAppEvent("location.skipped", [LogField("age", .double(age))])
        return
      }
    }
    let currentLocation = last.coordinate
    animateCamera(to: currentLocation, zoom: 17)
    convertTo3wa(currentLocation)
    locationManager?.stopUpdatingLocation()
  }

  /// `locationManager(_:didFailWithError:)`: only prints.
  public func locationManager(_ manager: CLLocationManager, didFailWithError error: any Error) {
    // The article prints the error here; the port keeps the console quiet.
  }

  private func convertTo3wa(_ coordinates: CLLocationCoordinate2D) {
    let request = HTTPRequest(
      path: "/v3/convert-to-3wa",
      query: [
        ("coordinates", "\(coordinates.latitude),\(coordinates.longitude)"),
        ("language", configuration.language), ("key", configuration.apiKey),
      ])
    try? services.network.send(request, to: "threewords") { [weak self] result in
      let words = Self.string(result, "words")
      DispatchQueue.main.async {
        // place?.words: nil on any failure.
        self?.what3wordsLabel = words
      }
    }
  }

  // MARK: UISearchBarDelegate

  /// `searchBarSearchButtonClicked(_:)`: words to coordinates, marker, camera.
  public func searchBarSearchButtonClicked(_ text: String) {
    let what3words: String
    switch variant {
    case .asPublished:
      what3words = text.replacingOccurrences(of: " ", with: ".")
    case .corrected, .modern:  // `modern` is ArrivalAlarm's only: never made for this app
      what3words = text.split(whereSeparator: \.isWhitespace).joined(separator: ".")
    }
    phone?.recordAppEvent(
      "search", [LogField("text", .string(text)), LogField("words", .string(what3words))])
    let request = HTTPRequest(
      path: "/v3/convert-to-coordinates",
      query: [("words", what3words), ("key", configuration.apiKey)])
    try? services.network.send(request, to: "threewords") { [weak self] result in
      guard let location = Self.coordinates(result) else { return }
      DispatchQueue.main.async {
        guard let self else { return }
        let marker = MKPointAnnotation(coordinate: location, title: what3words, subtitle: nil)
        self.markers.append(marker)
        self.map?.addAnnotation(marker)
        self.phone?.recordAppEvent(
          "markers",
          [
            LogField("count", .int(Int64(self.markers.count))),
            LogField("title", .string(what3words)),
          ] + location.logFields)
        self.animateCamera(to: location, zoom: 17)
      }
    }
  }

  // MARK: The camera

  /// `mapView.animate(to: GMSCameraPosition(latitude:longitude:zoom:))`.
  private func animateCamera(to coordinate: CLLocationCoordinate2D, zoom: Double) {
    guard let map, setCamera(of: map, to: coordinate, zoom: zoom, animated: true) else { return }
    phone?.recordAppEvent("camera", coordinate.logFields + [LogField("zoom", .double(zoom))])
  }

  /// Centres `map` on `coordinate` at Google Maps' tile `zoom` level: MapKit has no zoom
  /// levels, so this is the phone's camera under the `MKMapView`. Whether the camera was
  /// usable.
  @discardableResult
  private func setCamera(
    of map: MKMapView, to coordinate: CLLocationCoordinate2D, zoom: Double, animated: Bool
  ) -> Bool {
    guard
      let center = try? Coordinate(latitude: coordinate.latitude, longitude: coordinate.longitude),
      let camera = try? MapCamera(
        centerCoordinate: center, mapPointsPerPoint: mapPointsPerPoint(zoom: zoom))
    else { return false }
    try? map.deviceMap.setCamera(camera, animated: animated)
    return true
  }

  // MARK: Responses

  private static func object(_ result: Result<HTTPResponse, NetworkFailure>) -> [String:
    JSONValue]?
  {
    guard case .success(let response) = result, response.status == 200,
      case .object(let body) = response.body
    else { return nil }
    return body
  }

  private static func string(_ result: Result<HTTPResponse, NetworkFailure>, _ key: String)
    -> String?
  {
    guard case .string(let s)? = object(result)?[key] else { return nil }
    return s
  }

  /// `place?.coordinates`: the answer's coordinates, if valid.
  private static func coordinates(_ result: Result<HTTPResponse, NetworkFailure>)
    -> CLLocationCoordinate2D?
  {
    guard case .object(let c)? = object(result)?["coordinates"],
      case .number(let lat)? = c["lat"], case .number(let lng)? = c["lng"]
    else { return nil }
    let coordinates = CLLocationCoordinate2D(latitude: lat, longitude: lng)
    return CLLocationCoordinate2DIsValid(coordinates) ? coordinates : nil
  }

  // MARK: AppScreen

  /// The phone's map under ``map``: the one the scenario's touches reach.
  public var mapView: MapView? { map?.deviceMap }

  /// Types into the search bar (`"search"`) and presses its search button.
  public func enterText(_ text: String, in field: String) throws {
    guard field == "search" else {
      throw DeviceError(.invalidArgument, "ThreeWordLocator has no text field '\(field)'")
    }
    searchBarSearchButtonClicked(text)
  }

  /// `{"label", "markers", "camera"}`.
  public var observableState: JSONValue {
    .object([
      "label": what3wordsLabel.map(JSONValue.string) ?? .null,
      "markers": .array(
        markers.map { marker in
          .object([
            "title": marker.title.map(JSONValue.string) ?? .null,
            "latitude": .number(marker.coordinate.latitude),
            "longitude": .number(marker.coordinate.longitude),
          ])
        }),
      "camera": mapView?.cameraJSON ?? .null,
    ])
  }
}

extension CLLocationCoordinate2D {
  /// `latitude` and `longitude` log fields.
  fileprivate var logFields: [LogField] {
    [LogField("latitude", .double(latitude)), LogField("longitude", .double(longitude))]
  }
}
