import Cloud
import Device
import Foundation
import Geo
import JSON
import ReferenceApps
import SimKernel

/// The bundled three-word languages, read once for the whole target (a moment in debug builds).
enum Languages {
  static let bundled: ThreeWordLanguages = try! ThreeWordLanguages.bundled()
}

let tokyoStation = try! Coordinate(latitude: 35.681236, longitude: 139.767125)

/// A point `distance` metres from `origin` towards `azimuth`.
func offset(_ distance: Double, azimuth: Double = 90, from origin: Coordinate = tokyoStation)
  -> Coordinate
{
  try! Geodesic.wgs84.direct(from: origin, azimuth: azimuth, distance: distance).coordinate
}

/// A sensor reporting the truth exactly, once a second, for the apps' logic apart from noise.
final class ExactSensor: LocationSensor {
  let updateInterval = SimDuration.seconds(1)
  var truth: (SimTime) -> Coordinate?

  init(truth: @escaping (SimTime) -> Coordinate?) { self.truth = truth }

  func reading(at time: SimTime, desiredAccuracy: Double, reducedAccuracy: Bool) -> SensorReading {
    guard let c = truth(time) else { return .silent }
    return .fix(Location(coordinate: c, horizontalAccuracy: 5, speed: 0, timestamp: time))
  }

  func coarseEstimate(at time: SimTime) -> Location? {
    truth(time).map { Location(coordinate: $0, horizontalAccuracy: 65, timestamp: time) }
  }
}

/// A small gazetteer: 東京都 ⊃ 千代田区 ⊃ 丸の内１丁目 / ２丁目, and the place 東京駅.
func gazetteerJSON() -> String {
  func box(_ w: Double, _ s: Double, _ e: Double, _ n: Double, _ properties: String) -> String {
    """
    {"type":"Feature","properties":{\(properties)},"geometry":{"type":"Polygon",
     "coordinates":[[[\(w),\(s)],[\(e),\(s)],[\(e),\(n)],[\(w),\(n)],[\(w),\(s)]]]}}
    """
  }
  return """
    {"type":"FeatureCollection","features":[
    \(box(139.70, 35.65, 139.80, 35.72, #""administrativeArea":"東京都","country":"日本""#)),
    \(box(139.74, 35.67, 139.78, 35.70, #""locality":"千代田区""#)),
    \(box(139.755, 35.675, 139.765, 35.685, #""subLocality":"丸の内","thoroughfare":"丸の内１丁目""#)),
    \(box(139.765, 35.675, 139.775, 35.685, #""subLocality":"丸の内","thoroughfare":"丸の内２丁目""#)),
    {"type":"Feature","properties":{"name":"東京駅","locality":"千代田区"},
     "geometry":{"type":"Point","coordinates":[139.767125,35.681236]}}
    ]}
    """
}

/// Stations for the NCMB datastore: (name, latitude, longitude).
let stationList: [(String, Double, Double)] = [
  ("浜松町", 35.655646, 139.756749), ("大門", 35.656785, 139.754870),
  ("神谷町", 35.662978, 139.745069), ("六本木", 35.662836, 139.731443),
  ("東京", 35.681236, 139.767125), ("新宿", 35.689592, 139.700413),
]

/// One world: kernel, phone with an exact sensor, network with the three cloud services, a
/// geocoding server, and the reference app installed.
final class World {
  let simulation: Simulation
  let phone: Phone
  let sensor: ExactSensor
  let network: SimulatedNetwork
  let geocoding: GeocodingService
  let weather: WeatherService
  let datastore: GeoDatastore

  // As a replayed world does when it is over: the app's waiting tasks are released.
  deinit { phone.shutDown() }

  init(
    seed: UInt64 = 1,
    answers: [PromptKind: [PromptAnswer]] = [
      .location: [.allowWhileUsing], .notifications: [.allow],
    ],
    parameters: PhoneParameters = PhoneParameters(), link: LinkProfile = LinkProfile(),
    truth: @escaping (SimTime) -> Coordinate? = { _ in tokyoStation }
  ) throws {
    simulation = Simulation(seed: seed)
    sensor = ExactSensor(truth: truth)
    phone = Phone(
      simulation: simulation, geos: GEOSContext(), sensor: sensor, parameters: parameters,
      user: UserScript(answers: answers))
    network = SimulatedNetwork(simulation: simulation)
    datastore = GeoDatastore(seed: seed, simulation: simulation)
    for (name, lat, lon) in stationList {
      try datastore.create(
        className: "Station",
        fields: [
          "name": .string(name),
          "geo": .object([
            "__type": .string("GeoPoint"), "latitude": .number(lat), "longitude": .number(lon),
          ]),
        ])
    }
    try network.register(NCMBEndpoint(datastore: datastore), profile: link)
    try network.register(
      ThreeWordEndpoint(service: ThreeWordAddressService(languages: Languages.bundled)),
      profile: link)
    weather = WeatherService(simulation: simulation, seed: seed)
    try network.register(weather, profile: link)
    geocoding = GeocodingService(
      gazetteer: try Gazetteer(geoJSON: Data(gazetteerJSON().utf8), context: phone.geos))
    // As a replayed world does: the apps' `CLGeocoder()`s talk to the phone's server.
    phone.geocodingService = geocoding
  }

  var services: ReferenceAppServices {
    ReferenceAppServices(network: network)
  }

  /// Installs `kind` and launches it, with the phone current (as a world's driver runs app
  /// code: the apps' Apple-named objects find their phone there).
  func launch(
    _ kind: ReferenceAppKind, _ variant: ReferenceAppVariant,
    configuration: JSONValue = .object([:])
  ) throws {
    phone.install(
      try kind.factory(variant: variant, configuration: configuration, services: services))
    try current { try phone.launchApp() }
  }

  /// Launches the installed app again, with the phone current.
  func relaunch() throws {
    try phone.makeCurrent { try phone.launchApp() }
  }

  /// Runs the world up to `seconds` of virtual time, with its phone current (as a replayed
  /// world runs, so that the apps' Apple-named objects find it).
  func run(until seconds: Double) throws {
    try current { try simulation.run(until: .seconds(seconds)) }
  }

  /// Runs `body` with the phone current, as a replay runs the app's code (the apps' Apple-named
  /// objects find their phone there).
  func current<T>(_ body: () throws -> T) throws -> T {
    try phone.makeCurrent(during: body)
  }

  /// Runs `body` at `seconds` of virtual time.
  func at(_ seconds: Double, _ body: @escaping () throws -> Void) throws {
    try simulation.schedule(at: .seconds(seconds)) { try body() }
  }

  var screen: any AppScreen { phone.screen! }
  /// The app's observable state, read with the phone current (as a replay reads it).
  var state: [String: JSONValue] {
    guard case .object(let members) = phone.makeCurrent(during: { screen.observableState }) else {
      return [:]
    }
    return members
  }

  /// The app's log entries called `event`.
  func appEvents(_ event: String) -> [LogEntry] {
    simulation.log.entries(source: "app", event: event)
  }

  /// Taps the app's map at `coordinate` at `seconds`.
  func tapMap(at coordinate: Coordinate, time seconds: Double) throws {
    let map = screen.mapView!
    try map.replay(Touches.tap(at: map.convert(coordinate), time: .seconds(seconds)))
  }
}

extension JSONValue {
  /// The member `key` of an object.
  subscript(key: String) -> JSONValue? {
    guard case .object(let members) = self else { return nil }
    return members[key]
  }

  var number: Double? {
    if case .number(let n) = self { n } else { nil }
  }

  var string: String? {
    if case .string(let s) = self { s } else { nil }
  }

  var array: [JSONValue]? {
    if case .array(let a) = self { a } else { nil }
  }
}
