import Cloud
import Device
import GeoSimFrameworks
import JSON
import SimKernel

/// Article 003 (WidgetKit weather app, location part): at launch ask When In Use permission and
/// take one fix at kilometre accuracy, store its latitude and longitude in UserDefaults through
/// a repository, and build the weather request from the stored values.
///
/// The model layer keeps the article's types: `AppDelegate` calls
/// ``LocationManagerHelper/callLocationManager()`` in `didFinishLaunchingWithOptions`;
/// ``UserDefaultsDataStore`` reads and writes `lat` / `lng` (`double(forKey:)`, 0 when never
/// set) behind ``UserRepository``; `WeatherViewModel` builds the `WeatherRequestModel` from
/// the repository and `WeatherRepository` sends it (`GET /data/3.0/onecall?lat=…&lon=…` to
/// the `"weather"` service).
///
/// - `callLocationManager()`: `requestWhenInUseAuthorization()`, then — without waiting for
///   the answer — if Location Services are on, `pausesLocationUpdatesAutomatically = false`,
///   `desiredAccuracy = kCLLocationAccuracyKilometer`, `startUpdatingLocation()`;
/// - `locationManager(_:didUpdateLocations:)`: `locations.last`, stored as `lat` and `lng`,
///   then `stopUpdatingLocation()`;
/// - `fetchWeathers()`: runs when the content view appears — at a launch by the user — and
///   when the `"refresh"` button is tapped. The article does not show the call site (its
///   previous article fetched when the screen appeared); this is the assumption.
///
/// As published (kept): `createRequestModel()` reads `userRepository.lat` / `.lng`, which are
/// `UserDefaults.double(forKey:)` and so 0 when nothing was ever stored (article,
/// `UserDefaultsDataStore.lat`'s getter and `WeatherViewModel.createRequestModel`). On the
/// first launch the screen appears before the permission is answered and the first fix
/// arrives, so the request goes out for latitude 0, longitude 0 (the Gulf of Guinea). Later
/// launches use the previous session's position until the new fix arrives. The first fix
/// delivered is stored whatever its age (`guard let newLocation = locations.last`), so a
/// relaunch may store CoreLocation's cached fix from the previous session and stop there; the
/// corrected variant keeps this too (the fix is outside the scope of the article's bug).
///
/// Corrected (the smallest change): no request while nothing is stored (`object(forKey:)` is
/// `nil`); a fetch asked for then is made as soon as the first fix is stored; and a fix whose
/// `horizontalAccuracy` is negative — an invalid one, whose coordinate means nothing [A] — is
/// not stored (without this, the rare invalid first fix at (0, 0) sends the request to the Gulf
/// of Guinea all the same).
///
/// Nothing in this port traps.
///
/// Screen: the button `"refresh"`. ``observableState``:
/// - `"storedLocation"`: `{"latitude", "longitude"}` as stored, or `null` when never stored;
/// - `"lastRequest"`: `{"latitude", "longitude"}` of the last weather request sent, or `null`;
/// - `"requestCount"`: weather requests sent by this app instance;
/// - `"weather"`: `{"temp", "main", "hourly"}` from the last successful answer (current
///   temperature in °C, condition, number of hourly entries), or `null`.
///
/// Event log (source `"app"`): `"location.stored"` (`latitude`, `longitude`),
/// `"weather.requested"` (`latitude`, `longitude`), `"weather.received"` (`temp`, `main`,
/// `hourly`), `"weather.failed"` (`reason`), `"weather.deferred"` (corrected: a fetch waiting
/// for a stored location).
public final class WeatherWidget: ReferenceApp<WeatherWidget.Configuration>, SimulatedApp, AppScreen
{
  /// The app's configuration.
  ///
  /// Keys (all optional):
  /// - `"suiteName"`: the UserDefaults suite the data store uses (`UserDefaults(suiteName:)`);
  ///   default `null`, the article's `UserDefaults.standard`; `"NSGlobalDomain"` is refused,
  ///   as Apple refuses it ("isn't writeable by apps") [A];
  /// - `"units"`: `"metric"` (default), `"imperial"` or `"standard"`, sent with the request.
  public struct Configuration: Sendable {
    var suiteName: String?
    var units = "metric"

    /// The defaults.
    public init() {}

    /// Reads and validates a configuration object.
    public init(json: JSONValue) throws(ReferenceAppConfigurationError) {
      let reader = try ConfigurationReader(json, allowed: ["suiteName", "units"])
      suiteName = try reader.string("suiteName", nonEmpty: true)
      if suiteName == "NSGlobalDomain" {
        throw ReferenceAppConfigurationError(
          path: "suiteName", message: "NSGlobalDomain is not a suite an app can write")
      }
      units = try reader.choice("units", ["metric", "imperial", "standard"]) ?? units
    }
  }

  /// `UserDefaultsDataStore`: `lat` and `lng` in UserDefaults.
  public final class UserDefaultsDataStore {
    private let suiteName: String?

    init(suiteName: String?) { self.suiteName = suiteName }

    /// `UserDefaults.standard`, or the configured suite's defaults.
    private var defaults: UserDefaults {
      // The configuration refuses the one name `UserDefaults(suiteName:)` answers `nil` for.
      suiteName.map { UserDefaults(suiteName: $0)! } ?? UserDefaults.standard
    }

    /// `defaults.double(forKey: "lat")`: 0 when never set.
    public var lat: Double {
      get { defaults.double(forKey: "lat") }
      set { defaults.set(newValue, forKey: "lat") }
    }

    /// `defaults.double(forKey: "lng")`: 0 when never set.
    public var lng: Double {
      get { defaults.double(forKey: "lng") }
      set { defaults.set(newValue, forKey: "lng") }
    }

    /// Whether both values were ever stored (not in the article; the corrected variant asks).
    public var hasLocation: Bool {
      defaults.object(forKey: "lat") != nil && defaults.object(forKey: "lng") != nil
    }
  }

  /// `UserRepository`: every read and write of the location goes through it.
  public final class UserRepository {
    let userDefaultsDataStore: UserDefaultsDataStore

    init(userDefaultsDataStore: UserDefaultsDataStore) {
      self.userDefaultsDataStore = userDefaultsDataStore
    }

    /// The stored latitude.
    public var lat: Double {
      get { userDefaultsDataStore.lat }
      set { userDefaultsDataStore.lat = newValue }
    }

    /// The stored longitude.
    public var lng: Double {
      get { userDefaultsDataStore.lng }
      set { userDefaultsDataStore.lng = newValue }
    }
  }

  /// `WeatherRequestModel`.
  public struct WeatherRequestModel: Hashable, Sendable {
    /// Latitude.
    public var lat: Double
    /// Longitude.
    public var lng: Double
  }

  /// `WeatherRepository`: sends the request to the `"weather"` service.
  final class WeatherRepository {
    let network: SimulatedNetwork
    let units: String

    init(network: SimulatedNetwork, units: String) {
      self.network = network
      self.units = units
    }

    func fetchWeathers(
      requestModel: WeatherRequestModel,
      completion: @escaping (Result<HTTPResponse, NetworkFailure>) -> Void
    ) {
      let request = HTTPRequest(
        path: "/data/3.0/onecall",
        query: [
          ("lat", "\(requestModel.lat)"), ("lon", "\(requestModel.lng)"), ("units", units),
          ("lang", "ja"),
        ])
      try? network.send(request, to: "weather", completion: completion)
    }
  }

  /// `LocationManagerHelper`: one fix, stored through the repository.
  public final class LocationManagerHelper: NSObject, CLLocationManagerDelegate {
    let userRepository: UserRepository
    let locationManager: CLLocationManager
    /// Called after a location is stored.
    var didStore: ((CLLocationCoordinate2D) -> Void)?
    /// Whether invalid fixes (negative accuracy) are passed over: the corrected variant's.
    var skipsInvalidFixes = false

    init(userRepository: UserRepository) {
      self.userRepository = userRepository
      self.locationManager = CLLocationManager()
      super.init()
      self.locationManager.delegate = self
    }

    /// `callLocationManager()`.
    public func callLocationManager() {
      locationManager.requestWhenInUseAuthorization()

      if CLLocationManager.locationServicesEnabled() {
        locationManager.pausesLocationUpdatesAutomatically = false
        locationManager.desiredAccuracy = kCLLocationAccuracyKilometer
        locationManager.startUpdatingLocation()
      }
    }

    /// Stores the last fix and stops updates.
    public func locationManager(
      _ manager: CLLocationManager, didUpdateLocations locations: [CLLocation]
    ) {
      guard let newLocation = locations.last else {
        return
      }
      if skipsInvalidFixes && newLocation.horizontalAccuracy < 0 { return }

      let location = CLLocationCoordinate2D(
        latitude: newLocation.coordinate.latitude,
        longitude: newLocation.coordinate.longitude
      )

      userRepository.lat = location.latitude
      userRepository.lng = location.longitude

      locationManager.stopUpdatingLocation()
      didStore?(location)
    }
  }

  /// `WeatherViewModel`.
  final class WeatherViewModel {
    let weatherRepository: WeatherRepository
    let userRepository: UserRepository

    init(weatherRepository: WeatherRepository, userRepository: UserRepository) {
      self.weatherRepository = weatherRepository
      self.userRepository = userRepository
    }

    func createRequestModel() -> WeatherRequestModel {
      WeatherRequestModel(lat: userRepository.lat, lng: userRepository.lng)
    }
  }

  private var dataStore: UserDefaultsDataStore?
  private var viewModel: WeatherViewModel?
  /// The helper the app delegate holds.
  public private(set) var locationManagerHelper: LocationManagerHelper?
  private var lastRequest: WeatherRequestModel?
  private var requestCount = 0
  private var weather: JSONValue = .null
  private var fetchDeferred = false

  /// `application(_:didFinishLaunchingWithOptions:)`, then the content view appears.
  public func didLaunch(on phone: Phone, reason: LaunchReason) {
    self.phone = phone
    let store = UserDefaultsDataStore(suiteName: configuration.suiteName)
    dataStore = store
    let userRepository = UserRepository(userDefaultsDataStore: store)
    viewModel = WeatherViewModel(
      weatherRepository: WeatherRepository(network: services.network, units: configuration.units),
      userRepository: userRepository)
    let helper = LocationManagerHelper(userRepository: userRepository)
    helper.didStore = { [weak self] location in self?.locationStored(location) }
    helper.skipsInvalidFixes = variant == .corrected
    locationManagerHelper = helper
    helper.callLocationManager()
    if reason == .user { fetchWeathers() }
  }

  private func locationStored(_ location: CLLocationCoordinate2D) {
    phone?.recordAppEvent(
      "location.stored",
      [
        LogField("latitude", .double(location.latitude)),
        LogField("longitude", .double(location.longitude)),
      ])
    if fetchDeferred {
      fetchDeferred = false
      fetchWeathers()
    }
  }

  /// `WeatherViewModel.fetchWeathers()`.
  func fetchWeathers() {
    guard let viewModel, let phone else { return }
    if variant == .corrected && dataStore?.hasLocation != true {
      fetchDeferred = true
      phone.recordAppEvent("weather.deferred")
      return
    }
    let model = viewModel.createRequestModel()
    lastRequest = model
    requestCount += 1
    phone.recordAppEvent(
      "weather.requested",
      [LogField("latitude", .double(model.lat)), LogField("longitude", .double(model.lng))])
    viewModel.weatherRepository.fetchWeathers(requestModel: model) { [weak self] result in
      self?.received(result)
    }
  }

  private func received(_ result: Result<HTTPResponse, NetworkFailure>) {
    guard let phone else { return }
    switch result {
    case .success(let response) where response.status == 200:
      var temp = JSONValue.null
      var main = JSONValue.null
      var hourly = 0
      if case .object(let body) = response.body {
        if case .object(let current)? = body["current"] {
          temp = current["temp"] ?? .null
          if case .array(let conditions)? = current["weather"],
            case .object(let first)? = conditions.first
          {
            main = first["main"] ?? .null
          }
        }
        if case .array(let entries)? = body["hourly"] { hourly = entries.count }
      }
      weather = .object(["temp": temp, "main": main, "hourly": .number(Double(hourly))])
      var tempField = LogValue.null
      if case .number(let t) = temp { tempField = .double(t) }
      var mainField = LogValue.null
      if case .string(let m) = main { mainField = .string(m) }
      phone.recordAppEvent(
        "weather.received",
        [
          LogField("temp", tempField), LogField("main", mainField),
          LogField("hourly", .int(Int64(hourly))),
        ])
    case .success(let response):
      phone.recordAppEvent(
        "weather.failed", [LogField("reason", .string("HTTP \(response.status)"))])
    case .failure(let failure):
      phone.recordAppEvent("weather.failed", [LogField("reason", .string(failure.description))])
    }
  }

  // MARK: AppScreen

  /// The `"refresh"` button fetches the weather again.
  public func tapButton(_ button: String) throws {
    guard button == "refresh" else {
      throw DeviceError(.invalidArgument, "WeatherWidget has no button '\(button)'")
    }
    fetchWeathers()
  }

  /// `{"storedLocation", "lastRequest", "requestCount", "weather"}`.
  public var observableState: JSONValue {
    var stored = JSONValue.null
    if let dataStore, dataStore.hasLocation {
      stored = .object(["latitude": .number(dataStore.lat), "longitude": .number(dataStore.lng)])
    }
    return .object([
      "storedLocation": stored,
      "lastRequest": lastRequest.map {
        .object(["latitude": .number($0.lat), "longitude": .number($0.lng)])
      } ?? .null,
      "requestCount": .number(Double(requestCount)),
      "weather": weather,
    ])
  }
}
