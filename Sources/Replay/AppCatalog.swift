import Cloud
import Device
import JSON

/// What an app model may use, handed to its maker once per world.
public struct AppContext {
  /// The phone's connection to the simulated cloud (`ncmb`, `threewords`, `weather`).
  public let network: SimulatedNetwork
  /// The on-device reverse geocoder's service (CLGeocoder's backend).
  public let geocodingService: GeocodingService
  /// The variant the scenario asks for, if any.
  public let variant: String?
  /// The app's configuration object from the scenario (an empty object when it gives none).
  public let configuration: JSONValue
}

/// A configuration the app maker refuses; `path` is relative to the app's `configuration`
/// object (`destination.latitude`), empty for the object itself.
public struct AppConfigurationError: Error, Sendable, CustomStringConvertible {
  /// Where in the configuration, as a JSON path (`destination.latitude`, `markers[2]`).
  public let path: String
  /// What was expected.
  public let message: String

  /// An error.
  public init(path: String, _ message: String) {
    self.path = path
    self.message = message
  }

  /// The path and the message.
  public var description: String { path.isEmpty ? message : "\(path): \(message)" }
}

/// The apps a scenario can name: each entry makes, from a world's ``AppContext``, the factory
/// the phone calls at every launch.
///
/// The `geosim` tool's catalog holds the five reference apps; a test suite adds its own app
/// model with ``register(_:variants:events:make:)`` and replays the same scenarios against it.
public struct AppCatalog: Sendable {
  /// Makes an app's launch factory for one world; throws ``AppConfigurationError`` for a bad
  /// configuration.
  public typealias Maker = @Sendable (AppContext) throws -> () -> any SimulatedApp

  struct Entry: Sendable {
    let variants: [String]
    let events: [String]
    let make: Maker
  }

  private(set) var entries: [String: Entry] = [:]

  /// An empty catalog.
  public init() {}

  /// The registered app names, sorted.
  public var names: [String] { entries.keys.sorted() }

  /// The variants an app accepts (empty: it takes no variant).
  public func variants(of name: String) -> [String]? { entries[name]?.variants }

  /// Registers (or replaces) the app called `name`.
  ///
  /// - Parameters:
  ///   - name: the name a scenario's `app.name` gives.
  ///   - variants: the variant names the app accepts; empty when it has none. A scenario
  ///     naming an app with variants must pick one.
  ///   - events: the names of the events the app records with `Phone.recordAppEvent` (source
  ///     `"app"`); a scenario's `count` expectation may name only these and the phone's own.
  ///   - make: builds the launch factory from a world's context.
  public mutating func register(
    _ name: String, variants: [String] = [], events: [String] = [], make: @escaping Maker
  ) {
    entries[name] = Entry(variants: variants, events: events, make: make)
  }

  func entry(_ name: String) -> Entry? { entries[name] }
}
