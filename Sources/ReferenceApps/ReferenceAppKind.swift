import Cloud
import Device
import JSON

/// Which version of a reference app runs: the article's code as published, bugs included, or
/// with the smallest fixes for them; for ArrivalAlarm also the same app written on today's
/// APIs.
public enum ReferenceAppVariant: String, CaseIterable, Hashable, Sendable {
  /// The article's code, bugs included.
  case asPublished = "as-published"
  /// The article's code with the smallest fixes for its bugs.
  case corrected
  /// The app rewritten as an iOS 18 developer writes it (`CLMonitor`, live updates, service
  /// sessions, `async` calls): ArrivalAlarm only (``ModernArrivalAlarm``).
  case modern
}

/// The five reference apps, one per source article (`shared/seeds`).
public enum ReferenceAppKind: String, CaseIterable, Sendable {
  /// Article 000: three-word address of the current position, three-word search.
  case threeWordLocator = "ThreeWordLocator"
  /// Article 001: NCMB station search around and between map taps.
  case stationFinder = "StationFinder"
  /// Article 002: one pin by tap or long press, reverse-geocoded to a Japanese address.
  case pinDrop = "PinDrop"
  /// Article 003: one fix stored in UserDefaults, then the weather request built from it.
  case weatherWidget = "WeatherWidget"
  /// Article 004: a location-triggered notification and region monitoring at a destination
  /// (variant `modern`: a `CLMonitor` condition and live updates).
  case arrivalAlarm = "ArrivalAlarm"
}

/// What the reference apps reach outside the phone: the cloud services.
///
/// The network must have the services an app calls registered: `"threewords"`
/// (ThreeWordLocator), `"ncmb"` (StationFinder), `"weather"` (WeatherWidget). ArrivalAlarm's and
/// PinDrop's `CLGeocoder()`s geocode through the phone's own server (`Phone.geocodingService`),
/// which a replayed world sets to the scenario's gazetteer.
public struct ReferenceAppServices {
  /// The phone's connection to the simulated cloud.
  public var network: SimulatedNetwork

  /// Services for the apps.
  public init(network: SimulatedNetwork) {
    self.network = network
  }
}

extension ReferenceAppKind {
  /// The variants the app comes in: every app `as-published` and `corrected`; ArrivalAlarm
  /// also `modern`.
  public var variants: [ReferenceAppVariant] {
    switch self {
    case .arrivalAlarm: [.asPublished, .corrected, .modern]
    case .threeWordLocator, .stationFinder, .pinDrop, .weatherWidget: [.asPublished, .corrected]
    }
  }

  /// The names of the events the app records as its own (source `"app"`), for scenario checks.
  public var events: [String] {
    switch self {
    case .threeWordLocator:
      ["location.skipped", "label", "search", "markers", "camera"]
    case .stationFinder:
      ["search.near", "search.box", "search.dropped", "search.results", "markers"]
    case .pinDrop:
      ["gesture", "address.failed", "pin", "address"]
    case .weatherWidget:
      [
        "location.stored", "weather.deferred", "weather.requested", "weather.received",
        "weather.failed",
      ]
    case .arrivalAlarm:
      [
        "destination.failed", "destination", "alarm.noDestination", "alarm.removed",
        "alarm.registered", "monitoring.skipped", "monitoring.started", "region.state",
        "alarm.alreadyInside", "region.entered", "monitor.event", "updates.started",
        "updates.stopped",
      ]
    }
  }

  /// Validates `configuration` (a JSON object; unknown keys and wrong types are errors) and
  /// returns the factory the phone calls at each launch.
  ///
  /// The keys each app accepts are documented on its configuration type:
  /// ``ThreeWordLocator/Configuration``, ``StationFinder/Configuration``,
  /// ``PinDrop/Configuration``, ``WeatherWidget/Configuration``,
  /// ``ArrivalAlarm/Configuration`` (also ``ModernArrivalAlarm``'s). `null` is read as an empty
  /// object (every default). A variant the app does not come in (``variants``) is an error at
  /// the root of the configuration, naming the app's variants.
  public func factory(
    variant: ReferenceAppVariant, configuration: JSONValue, services: ReferenceAppServices
  ) throws(ReferenceAppConfigurationError) -> () -> any SimulatedApp {
    guard variants.contains(variant) else {
      let names = variants.map { "'\($0.rawValue)'" }.joined(separator: ", ")
      throw ReferenceAppConfigurationError(
        path: "",
        message: "\(rawValue) has no variant '\(variant.rawValue)' (its variants: \(names))")
    }
    switch self {
    case .threeWordLocator:
      let c = try ThreeWordLocator.Configuration(json: configuration)
      return { ThreeWordLocator(variant: variant, configuration: c, services: services) }
    case .stationFinder:
      let c = try StationFinder.Configuration(json: configuration)
      return { StationFinder(variant: variant, configuration: c, services: services) }
    case .pinDrop:
      let c = try PinDrop.Configuration(json: configuration)
      return { PinDrop(variant: variant, configuration: c, services: services) }
    case .weatherWidget:
      let c = try WeatherWidget.Configuration(json: configuration)
      return { WeatherWidget(variant: variant, configuration: c, services: services) }
    case .arrivalAlarm:
      let c = try ArrivalAlarm.Configuration(json: configuration)
      if variant == .modern {
        return { ModernArrivalAlarm(variant: variant, configuration: c, services: services) }
      }
      return { ArrivalAlarm(variant: variant, configuration: c, services: services) }
    }
  }
}
