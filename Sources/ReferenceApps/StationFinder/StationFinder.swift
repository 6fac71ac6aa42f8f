import Cloud
import Device
import Geo
import GeoSimFrameworks
import JSON
import SimKernel

/// Article 001 (NCMB map search): `StationView` with its `TapplableMapView` — a tap on the map
/// searches the datastore's `Station` class around the tap, a second tap searches the box
/// between the two taps, and a trash button clears every marker.
///
/// The model layer as the article writes it:
/// - the map starts at (35.6585805, 139.7454329) with a 0.065° × 0.065° span and a tap
///   recognizer; a tap converts its point to a coordinate (`selectedLocation`) and sets
///   `showingAlert`, whose `onChange` calls `_addLocation` and lowers the flag;
/// - `_addLocation`: with two taps already, `tapLocations[0] = tapLocations[1]` and
///   `remove(at: 1)` (the oldest is dropped); the tap is appended; two taps → `_geoBoxSearch`,
///   otherwise `_nearBySearch`;
/// - `_nearBySearch`: `Station` where `geo` `nearGeoPoint` `selectedLocation!`
///   `withinKilometers: 3.0`;
/// - `_geoBoxSearch`: `withinGeoBoxFromSouthwest: tapLocations[0], toNortheast:
///   tapLocations[1]` — the taps in tap order;
/// - `findInBackground`: on `.success` `_appendStations` replaces `stations` with every
///   result's `station["geo"]!`; failures are ignored;
/// - `_removeMarkers` (the trash button): clears `tapLocations` and `stations`.
///
/// As published (kept): the box's corners are the taps in tap order (article,
/// `query.where(field: "geo", withinGeoBoxFromSouthwest: geo1, toNortheast: geo2)` in
/// `_geoBoxSearch`), so tapping north-east first, or north-west then south-east, sends a
/// "southwest" corner that is north or east of the "northeast" one (the datastore reads such
/// boxes as MongoDB does and logs `invertedBox`; NCMB's own behaviour is undocumented). Every
/// response is applied when it arrives (`findInBackground(callback:)` → `_appendStations`,
/// which starts with `stations.removeAll()`): a slow answer to an earlier search overwrites the
/// markers of a later one, and an answer arriving after the trash button brings markers back.
///
/// Corrected (the smallest changes): the box is sent with its south-west corner at the smaller
/// latitude and longitude and its north-east corner at the larger (taps in Japan never straddle
/// the antimeridian); each search and the trash button advance a generation number, and a
/// response from an older generation is dropped.
///
/// Traps kept: `selectedLocation!` and `station["geo"]!` (the article's force unwraps). A tap
/// always sets `selectedLocation` before the search, and the datastore only returns stations
/// that have a `geo` field for a query on it, so neither traps in a scenario.
///
/// Screen: the map (taps search) and the button `"trash"`. ``observableState``:
/// - `"tapLocations"`: `[{"latitude", "longitude"}]`, at most two, oldest first;
/// - `"stations"`: `[{"title", "latitude", "longitude"}]`, the last applied search's results
///   (title: the station's `name` field, or `null`);
/// - `"markers"`: every marker on the map, taps (title `"タップ"`) then stations;
/// - `"camera"`: `{"latitude", "longitude", "zoom"}`.
///
/// Event log (source `"app"`): `"search.near"` (`latitude`, `longitude`, `kilometers`, `id`),
/// `"search.box"` (`southwestLatitude`, `southwestLongitude`, `northeastLatitude`,
/// `northeastLongitude` as sent, `id`), `"search.results"` (`id`, `count`), `"search.dropped"`
/// (corrected: a stale response, `id`), `"markers"` (`taps`, `stations`: counts after every
/// change).
public final class StationFinder: ReferenceApp<StationFinder.Configuration>, SimulatedApp, AppScreen
{
  /// The app's configuration.
  ///
  /// Keys (all optional):
  /// - `"region"` `{"latitude", "longitude", "latitudeDelta", "longitudeDelta"}`: default the
  ///   article's (35.6585805, 139.7454329), 0.065° × 0.065°;
  /// - `"mapSize"` `{"width", "height"}`: points, default 390 × 844;
  /// - `"className"`: the datastore class searched, default `"Station"`;
  /// - `"field"`: its GeoPoint field, default `"geo"`;
  /// - `"withinKilometers"`: the near search's radius, default 3 (the article's).
  public struct Configuration: Sendable {
    var map: MapConfiguration
    var className = "Station"
    var field = "geo"
    var withinKilometers = 3.0

    /// The defaults.
    public init() { map = MapConfiguration(region: StationFinder.initialRegion) }

    /// Reads and validates a configuration object.
    public init(json: JSONValue) throws(ReferenceAppConfigurationError) {
      let reader = try ConfigurationReader(
        json, allowed: MapConfiguration.keys.union(["className", "field", "withinKilometers"]))
      map = try MapConfiguration(reader, defaultRegion: StationFinder.initialRegion)
      className = try reader.string("className", nonEmpty: true) ?? className
      field = try reader.string("field", nonEmpty: true) ?? field
      withinKilometers = try reader.positiveNumber("withinKilometers") ?? withinKilometers
    }
  }

  /// The article's initial region (`TapplableMapView.init`).
  static let initialRegion = try! CoordinateRegion(
    center: Coordinate(latitude: 35.6585805, longitude: 139.7454329), latitudeDelta: 0.065,
    longitudeDelta: 0.065)

  /// A station on the map.
  struct Station {
    var coordinate: CLLocationCoordinate2D
    var name: String?
  }

  /// The map (`TapplableMapView`'s `mapView`).
  private(set) var mkMapView: MKMapView?
  private var selectedLocation: CLLocationCoordinate2D?
  private var showingAlert = false
  private(set) var tapLocations: [CLLocationCoordinate2D] = []
  private(set) var stations: [Station] = []
  private var annotations: [MKPointAnnotation] = []
  private var searchCount = 0
  /// Corrected: responses to searches before this one are dropped.
  private var generation = 0

  /// Builds the map with its tap recognizer (`TapplableMapView.init(frame:)`).
  public func didLaunch(on phone: Phone, reason: LaunchReason) {
    self.phone = phone
    let size = configuration.map.size
    let mapView = MKMapView(frame: CGRect(x: 0, y: 0, width: size.width, height: size.height))
    // GeoSim's recognizers take a closure (there is no target–action) and live on the phone's map.
    let tapGestureRecognizer = TapGestureRecognizer { [weak self] in self?.onTap(sender: $0) }
    // The region comes from the configuration; by default the article's.
    let initial = configuration.map.region ?? StationFinder.initialRegion
    let coordinate = CLLocationCoordinate2DMake(initial.center.latitude, initial.center.longitude)
    let span = MKCoordinateSpan(
      latitudeDelta: initial.span.latitudeDelta, longitudeDelta: initial.span.longitudeDelta)
    let region = MKCoordinateRegion(center: coordinate, span: span)
    mapView.setRegion(region, animated: false)
    mapView.deviceMap.addGestureRecognizer(tapGestureRecognizer)
    mkMapView = mapView
  }

  /// `onTap(sender:)`: the tapped coordinate becomes `selectedLocation` and raises the flag.
  private func onTap(sender: GestureRecognizer) {
    guard let mapView = mkMapView, sender.state == .ended else { return }
    let tapPoint = sender.location(in: mapView)
    let location = mapView.convert(tapPoint, toCoordinateFrom: mapView)
    guard CLLocationCoordinate2DIsValid(location) else { return }
    selectedLocation = location
    showingAlert = true
    showingAlertChanged()
  }

  /// `.onChange(of: showingAlert)`.
  private func showingAlertChanged() {
    if showingAlert == false { return }
    if let location = selectedLocation {
      _addLocation(location: location)
      showingAlert = false
    }
  }

  private func _addLocation(location: CLLocationCoordinate2D) {
    if tapLocations.count == 2 {
      tapLocations[0] = tapLocations[1]
      tapLocations.remove(at: 1)
    }
    tapLocations.append(location)
    markersChanged()
    if tapLocations.count == 2 {
      _geoBoxSearch()
    } else {
      _nearBySearch()
    }
  }

  private func _nearBySearch() {
    var query = DatastoreQuery.getQuery(className: configuration.className)
    // NCMBGeoPoint cannot fail; a map coordinate is always a valid GeoPoint.
    let geo = try! GeoPoint(
      latitude: selectedLocation!.latitude, longitude: selectedLocation!.longitude)
    query.where(
      field: configuration.field, nearGeoPoint: geo,
      withinKilometers: configuration.withinKilometers)
    let id = nextSearch()
    phone?.recordAppEvent(
      "search.near",
      [
        LogField("id", .int(Int64(id))), LogField("latitude", .double(geo.latitude)),
        LogField("longitude", .double(geo.longitude)),
        LogField("kilometers", .double(configuration.withinKilometers)),
      ])
    findInBackground(query, id: id)
  }

  private func _geoBoxSearch() {
    var query = DatastoreQuery.getQuery(className: configuration.className)
    var first = tapLocations[0]
    var second = tapLocations[1]
    if variant == .corrected {
      let southwest = CLLocationCoordinate2D(
        latitude: min(first.latitude, second.latitude),
        longitude: min(first.longitude, second.longitude))
      let northeast = CLLocationCoordinate2D(
        latitude: max(first.latitude, second.latitude),
        longitude: max(first.longitude, second.longitude))
      first = southwest
      second = northeast
    }
    // Both corners come from the map's valid coordinates, so they are valid GeoPoints.
    let geo1 = try! GeoPoint(latitude: first.latitude, longitude: first.longitude)
    let geo2 = try! GeoPoint(latitude: second.latitude, longitude: second.longitude)
    query.where(field: configuration.field, withinGeoBoxFromSouthwest: geo1, toNortheast: geo2)
    let id = nextSearch()
    phone?.recordAppEvent(
      "search.box",
      [LogField("id", .int(Int64(id)))] + first.logFields(prefix: "southwest")
        + second.logFields(prefix: "northeast"))
    findInBackground(query, id: id)
  }

  private func nextSearch() -> Int {
    searchCount += 1
    generation = searchCount
    return searchCount
  }

  /// `query.findInBackground`: the SDK's REST request, `GET /2013-09-01/classes/{class}?where=…`.
  private func findInBackground(_ query: DatastoreQuery, id: Int) {
    let request = HTTPRequest(
      path: "/2013-09-01/classes/\(query.className)",
      query: [("where", query.whereJSON.jsonText)])
    try? services.network.send(request, to: "ncmb") { [weak self] result in
      guard let self else { return }
      guard case .success(let response) = result, response.status == 200,
        case .object(let body) = response.body, case .array(let results)? = body["results"]
      else { return }
      if self.variant == .corrected && id != self.generation {
        self.phone?.recordAppEvent("search.dropped", [LogField("id", .int(Int64(id)))])
        return
      }
      self.phone?.recordAppEvent(
        "search.results",
        [LogField("id", .int(Int64(id))), LogField("count", .int(Int64(results.count)))])
      self._appendStations(ary: results)
    }
  }

  private func _appendStations(ary: [JSONValue]) {
    stations.removeAll()
    for station in ary {
      guard case .object(let fields) = station else { continue }
      let geo = try! GeoPoint(json: fields[configuration.field]!)
      let location = CLLocationCoordinate2D(latitude: geo.latitude, longitude: geo.longitude)
      var name: String?
      if case .string(let n)? = fields["name"] { name = n }
      stations.append(Station(coordinate: location, name: name))
    }
    markersChanged()
  }

  private func _removeMarkers() {
    tapLocations.removeAll()
    stations.removeAll()
    if variant == .corrected {
      searchCount += 1
      generation = searchCount
    }
    markersChanged()
  }

  /// The SwiftUI `MapView`'s `updateUIView`: the map shows the taps and the stations.
  private func markersChanged() {
    guard let mapView = mkMapView else { return }
    mapView.removeAnnotations(annotations)
    annotations =
      tapLocations.map { MKPointAnnotation(coordinate: $0, title: "タップ", subtitle: nil) }
      + stations.map { MKPointAnnotation(coordinate: $0.coordinate, title: $0.name, subtitle: nil) }
    mapView.addAnnotations(annotations)
    phone?.recordAppEvent(
      "markers",
      [
        LogField("taps", .int(Int64(tapLocations.count))),
        LogField("stations", .int(Int64(stations.count))),
      ])
  }

  // MARK: AppScreen

  /// The trash button (`"trash"`): `_removeMarkers`.
  public func tapButton(_ button: String) throws {
    guard button == "trash" else {
      throw DeviceError(.invalidArgument, "StationFinder has no button '\(button)'")
    }
    _removeMarkers()
  }

  /// The map on screen: the phone's map under `mkMapView`, which the scenario's taps reach.
  public var mapView: MapView? { mkMapView?.deviceMap }

  /// `{"tapLocations", "stations", "markers", "camera"}`.
  public var observableState: JSONValue {
    .object([
      "tapLocations": .array(tapLocations.map(\.json)),
      "stations": .array(
        stations.map {
          .object([
            "title": $0.name.map(JSONValue.string) ?? .null,
            "latitude": .number($0.coordinate.latitude),
            "longitude": .number($0.coordinate.longitude),
          ])
        }),
      "markers": .array(annotations.map(\.markerJSON)),
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

extension CLLocationCoordinate2D {
  /// `{"latitude": …, "longitude": …}`.
  fileprivate var json: JSONValue {
    .object(["latitude": .number(latitude), "longitude": .number(longitude)])
  }

  /// `latitude` and `longitude` log fields with a prefix (`"southwestLatitude"`).
  fileprivate func logFields(prefix: String) -> [LogField] {
    [
      LogField("\(prefix)Latitude", .double(latitude)),
      LogField("\(prefix)Longitude", .double(longitude)),
    ]
  }
}

extension MKPointAnnotation {
  /// `{"title": …, "latitude": …, "longitude": …}`.
  fileprivate var markerJSON: JSONValue {
    .object([
      "title": title.map(JSONValue.string) ?? .null,
      "latitude": .number(coordinate.latitude), "longitude": .number(coordinate.longitude),
    ])
  }
}
