import Cloud
import Device
import Foundation
import Geo
import JSON
import Traces

/// A scenario: one replay of an app in a simulated world, read from a scenario document
/// (`docs/SCENARIOS.md` gives the format).
///
/// Times in a scenario are seconds after ``start``; paths are relative to the scenario's folder.
public struct Scenario: Sendable {
  /// The document format this reader understands.
  public static let format = "geosim-scenario/1"

  /// Where the scenario was read from (`nil` for one built in code).
  public var file: String?
  /// A short name, unique in a folder of scenarios.
  public var name: String
  /// The story the scenario tells.
  public var description: String
  /// Whether the scenario is meant to pass or to show a failure (a published bug).
  public var expectedOutcome: ExpectedOutcome
  /// The world's seed: every random stream in the world derives from it. With several
  /// ``runs``, it is run 0's seed and the other runs' derive from it (``seed(ofRun:)``).
  public var seed: UInt64
  /// How many times the scenario is replayed, each run with its own seed (1 to
  /// ``maximumRuns``; default 1). Plain expectations must hold in every run; one with a
  /// ``Expectation/rate`` in at least its share of them.
  public var runs: Int
  /// The instant virtual time 0 stands for.
  public var start: Date
  /// The time zone the story happens in (for reports; the simulation runs on UTC instants).
  public var timeZone: TimeZone
  /// How long the world runs, in seconds after ``start``.
  public var duration: Double
  /// The phone's settings and parameters.
  public var device: DeviceSetup
  /// The app under test.
  public var app: AppSelection
  /// Station lists loaded into the NCMB-compatible datastore.
  public var datasets: [DatasetSource]
  /// The datastore's spatial backend (`"backend"`; Geo's `PointIndex`, `"memory"`, by default). A PostGIS
  /// backend whose target names a user's table reads the scenario's stations from that table,
  /// into ``tableStations``, instead of from datasets.
  public var backend: SpatialBackendKind
  /// Where the stations of a PostGIS user table go in the datastore.
  public var tableStations: TableStations
  /// The reverse geocoder's gazetteer: a GeoJSON file, or `nil` for the built-in central Tokyo.
  public var gazetteer: URL?
  /// The true movement, if the phone moves (or is anywhere at all) before a timeline `trace`.
  public var trace: TraceSource?
  /// Outage and urban-canyon areas, the network's links and offline windows.
  public var environment: EnvironmentSetup
  /// What happens, in time order.
  public var timeline: [TimelineEvent]
  /// What must hold after the run.
  public var expectations: [Expectation]
  /// What the reports draw besides the replay itself: the map layers of the replay viewer.
  public var report: ReportSetup

  /// A scenario with defaults for everything but its name, start, duration and app.
  public init(name: String, start: Date, duration: Double, app: AppSelection) {
    self.file = nil
    self.name = name
    self.description = ""
    self.expectedOutcome = .pass
    self.seed = 1
    self.runs = 1
    self.start = start
    self.timeZone = TimeZone(identifier: "UTC")!
    self.duration = duration
    self.device = DeviceSetup()
    self.app = app
    self.datasets = []
    self.backend = .inMemory
    self.tableStations = TableStations()
    self.gazetteer = nil
    self.trace = nil
    self.environment = EnvironmentSetup()
    self.timeline = []
    self.expectations = []
    self.report = ReportSetup()
  }
}

extension Scenario {
  /// The most runs a scenario may ask for (`"runs"`, `--runs`): ten thousand runs judge a rate
  /// to within ±1 percentage point (the 95 % interval's half-width at 50 %), and a scenario
  /// that needs more is better split.
  public static let maximumRuns = 10_000

  /// The largest seed a scenario document can hold: 2⁵³ − 1, the largest integer a JSON
  /// number keeps exactly.
  public static let maximumSeed: UInt64 = 9_007_199_254_740_991

  /// The seed of run `run` (0-based) of this scenario: ``runSeed(_:run:)`` of its ``seed``.
  public func seed(ofRun run: Int) -> UInt64 { Self.runSeed(seed, run: run) }

  /// The seed of run `run` of a scenario whose seed is `seed`.
  ///
  /// Run 0 keeps `seed` itself, so a one-run scenario replays exactly as it always has. Run
  /// i ≥ 1 takes the i-th number SplitMix64 draws when seeded with `seed` (Steele, Lea & Flood
  /// 2014: the finalizer of `seed + i · 0x9E3779B97F4A7C15`, modulo 2⁶⁴), keeping its low 53
  /// bits, so that every run's seed can be written in a scenario's `seed` and given to
  /// `--seed` to replay that run alone. The derivation is fixed: the same seed and run give
  /// the same seed on every machine and in every version that keeps this format.
  ///
  /// - Precondition: `run ≥ 0`.
  public static func runSeed(_ seed: UInt64, run: Int) -> UInt64 {
    precondition(run >= 0, "a run's index is at least 0, got \(run)")
    guard run > 0 else { return seed }
    var z = seed &+ UInt64(run) &* 0x9E37_79B9_7F4A_7C15
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return (z ^ (z >> 31)) & maximumSeed
  }

  /// Whether `name` can name a scenario: ASCII letters, digits, `.`, `_` and `-`, not `.` or
  /// `..` — it becomes the scenario's folder in a run's reports.
  public static func isValidName(_ name: String) -> Bool {
    guard !name.isEmpty, name != ".", name != "..", name.count <= 200 else { return false }
    return name.unicodeScalars.allSatisfy {
      ("a"..."z").contains($0) || ("A"..."Z").contains($0) || ("0"..."9").contains($0)
        || $0 == "." || $0 == "_" || $0 == "-"
    }
  }
}

/// Whether a scenario is expected to pass, or to fail because it demonstrates a bug.
public enum ExpectedOutcome: String, Sendable, CaseIterable {
  /// Every expectation should hold.
  case pass
  /// At least one expectation should fail (an as-published bug the scenario shows).
  case fail
}

/// The phone's state at the start and the numbers behind its simulation.
public struct DeviceSetup: Sendable {
  /// Location Services on system-wide.
  public var locationServices = true
  /// Airplane mode on.
  public var airplaneMode = false
  /// Precise Location on for the app.
  public var preciseLocation = true
  /// The app's location setting, or `nil` for never asked.
  public var locationSetting: LocationSetting?
  /// Restricted by parental controls or a profile.
  public var restricted = false
  /// Scripted answers per prompt kind, used in order.
  public var promptAnswers: [PromptKind: [PromptAnswer]] = [:]
  /// Seconds the user takes to answer a scripted prompt (`UserScript`'s default when `nil`).
  public var answerDelay: Double?
  /// The screen size in points (an iPhone 15's 393 × 852 by default).
  public var screen = Size(width: 393, height: 852)
  /// The name of the device profile the parameters and sensor started from
  /// (`DeviceProfile.standard`'s unless a profile was applied).
  public var profileName = DeviceProfile.standard.name
  /// The profile file's path as the scenario names it (relative to the scenario's folder), or
  /// `nil` for a built-in profile or one chosen in code.
  public var profileFile: String?
  /// The phone's parameters (defaults from `docs/DEVICE.md`).
  public var parameters = PhoneParameters()
  /// The sensor's parameters.
  public var sensor = SensorParameters()

  /// The defaults: the standard device profile.
  public init() {}

  /// The defaults, with the phone's parameters and sensor from `profile`.
  public init(profile: DeviceProfile) {
    apply(profile)
  }

  /// Takes the phone's parameters and sensor from `profile` (read from `file`, when one),
  /// replacing any set before.
  public mutating func apply(_ profile: DeviceProfile, file: String? = nil) {
    profileName = profile.name
    profileFile = file
    parameters = profile.parameters
    sensor = profile.sensor
  }
}

/// The app under test and its configuration.
public struct AppSelection: Sendable {
  /// The app's name in the ``AppCatalog`` (a reference app such as `ArrivalAlarm`, or a
  /// registered user app).
  public var name: String
  /// The variant (`as-published` or `corrected` for reference apps; ArrivalAlarm also
  /// `modern`).
  public var variant: String?
  /// The app's own configuration object.
  public var configuration: JSONValue

  /// An app selection.
  public init(name: String, variant: String? = nil, configuration: JSONValue = .object([:])) {
    self.name = name
    self.variant = variant
    self.configuration = configuration
  }
}

/// The class and GeoPoint field that the stations of a user's PostGIS table are imported into.
public struct TableStations: Sendable, Hashable {
  /// The NCMB class.
  public var className = "Station"
  /// The GeoPoint field.
  public var geoField = "geo"

  /// The seed app's `Station.geo`, unless given.
  public init(className: String = "Station", geoField: String = "geo") {
    self.className = className
    self.geoField = geoField
  }
}

extension Scenario {
  /// The user's PostGIS table the stations are read from, if the backend names one.
  public var postGISTable: PostGISTarget? {
    if case .postgis(let target) = backend, target.table != nil { return target }
    return nil
  }
}

/// A station list for the datastore.
public struct DatasetSource: Sendable {
  /// The JSON or CSV file (`GeoDatastore.stations(json:file:)`).
  public var file: URL
  /// The NCMB class the stations go into.
  public var className = "Station"
  /// The GeoPoint field.
  public var geoField = "geo"

  /// A dataset.
  public init(file: URL, className: String = "Station", geoField: String = "geo") {
    self.file = file
    self.className = className
    self.geoField = geoField
  }
}

/// Where a true trace comes from.
public enum TraceSource: Sendable, Hashable {
  /// A trace file (GPX, GeoJSON, CSV, NMEA, SUMO FCD), its first timed point at `startAt`
  /// seconds; `track` picks the track (0 = first). What the importer skips or notes fails the
  /// replay unless `allowSkippedPoints`. `gpxWaypoints` says how a GPX file's top-level
  /// waypoints are read.
  case file(
    URL, track: Int = 0, startAt: Double = 0, allowSkippedPoints: Bool = false,
    gpxWaypoints: GPXWaypoints = .automatic)
  /// Synthesized through waypoints with a speed profile, starting at `startAt` seconds.
  case synthesized(waypoints: [Waypoint], speed: String, interval: Double, startAt: Double)
  /// A phone that stays at one place from `startAt`.
  case stationary(Coordinate, startAt: Double)
}

/// The world around the phone.
public struct EnvironmentSetup: Sendable {
  /// Areas where positioning degrades (tunnels, urban canyons, indoors).
  public var areas: [(kind: EnvironmentKind, polygon: Geometry)] = []
  /// The link profile of every service, before per-service overrides.
  public var network = LinkSetup()
  /// Per-service link overrides, by service name (`ncmb`, `threewords`, `weather`).
  public var services: [String: LinkSetup] = [:]
  /// Windows (seconds after start) with no connection.
  public var offline: [ClosedRange<Double>] = []

  /// No areas, default links, always online.
  public init() {}
}

/// What a scenario asks its reports to draw besides the replay (`"report"` in the scenario).
public struct ReportSetup: Sendable {
  /// GeoJSON layers drawn under the replay viewer's map (rail lines, stations), in order.
  public var layers: [MapLayer] = []

  /// No layers.
  public init() {}
}

/// A GeoJSON layer a scenario names for its maps, read when the scenario is read.
public struct MapLayer: Sendable {
  /// The file as the scenario names it (relative to the scenario's folder).
  public var file: String
  /// What the layer shows, as the map's legend says it ("JR lines").
  public var label: String
  /// The layer's features; a feature's `name` property labels it on the map.
  public var features: [GeoJSONFeature]

  /// A layer from its parts.
  public init(file: String, label: String, features: [GeoJSONFeature]) {
    self.file = file
    self.label = label
    self.features = features
  }
}

/// Overrides of a `LinkProfile` (`nil` keeps the default).
public struct LinkSetup: Sendable {
  /// Median round trip, seconds.
  public var latencyMedian: Double?
  /// Log-normal sigma of the round trip.
  public var latencySigma: Double?
  /// Probability of a 503.
  public var failureRate: Double?
  /// Seconds before a request times out.
  public var timeout: Double?
  /// Requests in flight at once.
  public var maximumConcurrentRequests: Int?

  /// No overrides.
  public init() {}
}
