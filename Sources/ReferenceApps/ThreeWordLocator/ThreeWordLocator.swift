import Cloud
import Device
import Foundation
import Geo
import JSON
import SimKernel

/// Article 000 (what3words on iOS): the `ViewController` that shows the three-word address of
/// the current position in a label and finds a three-word address typed into a search bar.
///
/// The model layer as the article writes it:
/// - `viewDidLoad` → `requestLoacion()`: a location manager with this app as delegate asks for
///   When In Use permission. The map starts at (35.6812226, 139.7670594), zoom 12, with the
///   user's position shown (`isMyLocationEnabled = true`).
/// - `locationManager(_:didChangeAuthorization:)`: authorized (Always or When In Use) →
///   `startUpdatingLocation()`; anything else only prints.
/// - `locationManager(_:didUpdateLocations:)`: takes `locations.last`, animates the camera
///   there at zoom 17, asks the service for the three words in language `"ja"` and puts
///   `place?.words` in the label — `nil` on any error, which clears the label — then stops
///   updates.
/// - `searchBarSearchButtonClicked(_:)`: `text.replacingOccurrences(of: " ", with: ".")`,
///   converts the result to coordinates; on success drops a marker titled with the dotted
///   words and animates the camera there at zoom 17; errors are ignored (no marker, no
///   message). Markers accumulate: the article never removes one.
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
/// more than 10 s old is skipped (updates continue until a fresh one arrives).
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
  AppScreen, LocationManagerDelegate
{
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
  static let initialCenter = try! Coordinate(latitude: 35.6812226, longitude: 139.7670594)

  /// The map (`GMSMapView`).
  public private(set) var mapView: MapView?
  /// The location manager, created at launch.
  public private(set) var locationManager: LocationManager?
  /// The label's text (`what3wordsLabel.text`).
  public private(set) var what3wordsLabel: String?
  private var markers: [PointAnnotation] = []

  // MARK: Lifecycle (viewDidLoad)

  /// `viewDidLoad`: builds the map and asks for permission.
  public func didLaunch(on phone: Phone, reason: LaunchReason) {
    self.phone = phone
    let map: MapView
    do {
      map = try MapView(phone: phone, size: configuration.map.size)
    } catch {
      preconditionFailure("the map size was validated: \(error)")
    }
    if let region = configuration.map.region {
      map.setRegion(region, animated: false)
    } else {
      try? map.setCamera(
        MapCamera(
          centerCoordinate: Self.initialCenter, mapPointsPerPoint: mapPointsPerPoint(zoom: 12)),
        animated: false)
    }
    map.showsUserLocation = true
    mapView = map
    requestLoacion()
  }

  private func requestLoacion() {
    guard let phone else { return }
    let manager = LocationManager(phone: phone)
    locationManager = manager
    manager.delegate = self
    manager.requestWhenInUseAuthorization()
  }

  // MARK: CLLocationManagerDelegate

  /// `locationManager(_:didChangeAuthorization:)`: starts updates once authorized.
  public func locationManagerDidChangeAuthorization(_ manager: LocationManager) {
    switch manager.authorizationStatus {
    case .authorizedAlways, .authorizedWhenInUse:
      locationManager?.startUpdatingLocation()
    case .denied, .notDetermined, .restricted:
      break  // print("許可されていません")
    }
  }

  /// `locationManager(_:didUpdateLocations:)`: camera, three words, stop.
  public func locationManager(_ manager: LocationManager, didUpdateLocations locations: [Location])
  {
    guard let phone, let last = locations.last else { return }
    if variant == .corrected {
      let age = (phone.simulation.now - last.timestamp).seconds
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

  private func convertTo3wa(_ coordinate: Coordinate) {
    let request = HTTPRequest(
      path: "/v3/convert-to-3wa",
      query: [
        ("coordinates", "\(coordinate.latitude),\(coordinate.longitude)"),
        ("language", configuration.language), ("key", configuration.apiKey),
      ])
    try? services.network.send(request, to: "threewords") { [weak self] result in
      // place?.words: nil on any failure.
      self?.setLabel(Self.string(result, "words"))
    }
  }

  private func setLabel(_ words: String?) {
    what3wordsLabel = words
    phone?.recordAppEvent("label", [LogField("words", words.map(LogValue.string) ?? .null)])
  }

  // MARK: UISearchBarDelegate

  /// `searchBarSearchButtonClicked(_:)`: words to coordinates, marker, camera.
  public func searchBarSearchButtonClicked(_ text: String) {
    let what3words: String
    switch variant {
    case .asPublished:
      what3words = text.replacingOccurrences(of: " ", with: ".")
    case .corrected:
      what3words = text.split(whereSeparator: \.isWhitespace).joined(separator: ".")
    }
    phone?.recordAppEvent(
      "search", [LogField("text", .string(text)), LogField("words", .string(what3words))])
    let request = HTTPRequest(
      path: "/v3/convert-to-coordinates",
      query: [("words", what3words), ("key", configuration.apiKey)])
    try? services.network.send(request, to: "threewords") { [weak self] result in
      guard let self, let location = Self.coordinates(result) else { return }
      let marker = PointAnnotation(coordinate: location, title: what3words)
      self.markers.append(marker)
      self.mapView?.addAnnotation(marker)
      self.phone?.recordAppEvent(
        "markers",
        [
          LogField("count", .int(Int64(self.markers.count))),
          LogField("title", .string(what3words)),
        ]
          + location.logFields())
      self.animateCamera(to: location, zoom: 17)
    }
  }

  private func animateCamera(to coordinate: Coordinate, zoom: Double) {
    guard let mapView,
      let camera = try? MapCamera(
        centerCoordinate: coordinate, mapPointsPerPoint: mapPointsPerPoint(zoom: zoom))
    else { return }
    try? mapView.setCamera(camera, animated: true)
    phone?.recordAppEvent("camera", coordinate.logFields() + [LogField("zoom", .double(zoom))])
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

  private static func coordinates(_ result: Result<HTTPResponse, NetworkFailure>) -> Coordinate? {
    guard case .object(let c)? = object(result)?["coordinates"],
      case .number(let lat)? = c["lat"], case .number(let lng)? = c["lng"]
    else { return nil }
    return try? Coordinate(latitude: lat, longitude: lng)
  }

  // MARK: AppScreen

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
      "markers": .array(markers.map(\.markerJSON)),
      "camera": mapView?.cameraJSON ?? .null,
    ])
  }
}
