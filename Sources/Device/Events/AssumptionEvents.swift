import SimKernel

/// A behaviour of the simulated phone that no source confirms (tagged `[?]`) and that can decide
/// a scenario's verdict when it happens.
///
/// The phone records an ``AssumptionEvent`` each time a run depends on one, so that a report
/// can say which unconfirmed behaviour its verdict rests on (docs/REPORTS.md, "Assumptions this
/// run depended on").
public enum Assumption: String, Hashable, Sendable, CaseIterable {
  /// Starting location updates first delivered the cached last fix with its old timestamp.
  ///
  /// That cached first fixes happen is documented: Apple's old delegate reference warned that
  /// the location "may contain the data that was cached from a previous usage of the location
  /// service" [A], and significant-change updates deliver "usually the most recently cached
  /// location event" first [A]. How often standard updates do so is published nowhere:
  /// ``PhoneParameters/staleFirstFixProbability`` (0.5) is assumed.
  case staleFirstFix
  /// A fix with `horizontalAccuracy` −1 (coordinate invalid, GeoSim puts it at (0, 0)) reached
  /// the app.
  ///
  /// A negative accuracy "indicates that the latitude and longitude are invalid" [A]
  /// (`CLLocation.horizontalAccuracy`), and apps have met fixes at latitude or longitude 0 [3P]
  /// (home-assistant/iOS #684, #763); their rate, ``SensorParameters/invalidFixProbability``
  /// (0.2 %), and the (0, 0) coordinate are assumed.
  case invalidFix
  /// A location-triggered notification was added while the phone was truly inside its region.
  ///
  /// By default GeoSim then treats the phone as already inside, as region monitoring does
  /// [A][3P]: no entry fires until the phone leaves and comes back, and an exit fires when it
  /// leaves; ``PhoneParameters/locationTriggerFiresWhenAddedInside`` makes the entry fire at
  /// once instead. Apple documents the trigger only as firing when the device crosses the
  /// boundary (`CLRegion.notifyOnEntry`: "a device crossing from outside the region to inside
  /// the region") [A]; what it does for a request added inside is unconfirmed.
  case locationTriggerAddedInside

  /// The default behind the assumption, as a Swift name.
  public var parameter: String {
    switch self {
    case .staleFirstFix: "PhoneParameters.staleFirstFixProbability"
    case .invalidFix: "SensorParameters.invalidFixProbability"
    case .locationTriggerAddedInside: "PhoneParameters.locationTriggerFiresWhenAddedInside"
    }
  }

  /// What the assumption says, in one sentence.
  public var summary: String {
    switch self {
    case .staleFirstFix:
      "Starting location updates first hands the app the cached last fix, with its old timestamp, with this probability."
    case .invalidFix:
      "Each fix is invalid (horizontalAccuracy −1, coordinate (0, 0)) with this probability."
    case .locationTriggerAddedInside:
      "Whether a location trigger added while the phone is inside its region fires its entry at once; when false it fires none until the phone leaves and comes back, and an exit when it leaves."
    }
  }
}

/// What the phone records when a run depends on an ``Assumption`` (source `"assumption"`).
public enum AssumptionEvent: LogEvent, Hashable {
  /// The cached last fix, `age` seconds old, reached `manager` as its first fix.
  case staleFirstFix(manager: Int, age: Double)
  /// An invalid fix (`horizontalAccuracy` −1) reached `manager`.
  case invalidFix(manager: Int)
  /// The location-triggered request `identifier` for `region` was added while the phone was
  /// truly inside the region.
  case locationTriggerAddedInside(identifier: String, region: String)

  /// The component that records these events.
  public static let source = "assumption"
  /// Every event this type records.
  public static let declarations = [
    LogEventDeclaration(
      source, Assumption.staleFirstFix.rawValue, fields: ["manager", "age"],
      "The cached last fix, `age` seconds old, reached the manager as its first fix (`staleFirstFixProbability` [?])."
    ),
    LogEventDeclaration(
      source, Assumption.invalidFix.rawValue, fields: ["manager"],
      "A fix with horizontalAccuracy −1 at (0, 0) reached the manager (`invalidFixProbability` [?])."
    ),
    LogEventDeclaration(
      source, Assumption.locationTriggerAddedInside.rawValue, fields: ["identifier", "region"],
      "A location-triggered request was added while the phone was inside its region (`locationTriggerFiresWhenAddedInside` [?])."
    ),
  ]

  /// The assumption the run depended on.
  public var assumption: Assumption {
    switch self {
    case .staleFirstFix: .staleFirstFix
    case .invalidFix: .invalidFix
    case .locationTriggerAddedInside: .locationTriggerAddedInside
    }
  }

  /// The event's name in the log: the assumption's name.
  public var name: String { assumption.rawValue }

  /// The event's fields, in the log's order.
  public var fields: [LogField] {
    switch self {
    case .staleFirstFix(let manager, let age):
      [LogField("manager", .int(Int64(manager))), LogField("age", .double(age))]
    case .invalidFix(let manager): [LogField("manager", .int(Int64(manager)))]
    case .locationTriggerAddedInside(let identifier, let region):
      [LogField("identifier", .string(identifier)), LogField("region", .string(region))]
    }
  }
}
