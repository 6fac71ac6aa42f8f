import Device
import Errors
import Foundation
import JSON
import SimKernel

/// Device profile files: the JSON shape `geosim calibrate --fit` writes and a scenario's
/// `"device": {"profile": "profiles/my-iphone.json"}` loads (docs/DEVICE.md, "Device profiles").
///
/// ```json
/// {
///   "profile": "my-iphone",
///   "summary": "fitted to a walk in Shibuya",
///   "parameters": {"staleFirstFixProbability": 0.2},
///   "regionMonitoring": {"missProbability": 0.1, "exitLatencyMedian": 90},
///   "sensor": {"coarseAccuracy": 40}
/// }
/// ```
///
/// The sections take exactly the keys, and check the same domains, as a scenario's `device`
/// block: `parameters`, `regionMonitoring`, `sensor`, `significantChanges` and `visits`. What a
/// file does not set keeps the documented defaults (the `DeviceProfile.urban` profile's).
extension DeviceProfile {
  /// The keys a profile file's top level may hold.
  static let fileKeys = [
    "$schema", "profile", "summary", "parameters", "regionMonitoring", "sensor",
    "significantChanges", "visits",
  ]

  /// Reads and validates the profile file at `path`.
  ///
  /// - Throws: ``ScenarioError`` naming the file, the JSON path, the line and column and what
  ///   was expected.
  public init(contentsOf path: String) throws {
    let data: Data
    do {
      data = Data(try readFileContents(atPath: path))
    } catch {
      throw ScenarioError(file: path, path: "", "cannot read the device profile: \(error.reason)")
    }
    try self.init(data: data, file: path)
  }

  /// Reads and validates a profile from bytes; `file` names it in errors.
  ///
  /// - Throws: ``ScenarioError`` naming `file`, the JSON path, the line and column and what was
  ///   expected.
  public init(data: Data, file: String) throws {
    let document = try Scenario.document(data, file: file)
    let reader = ScenarioReader(
      file: file, folder: URL(fileURLWithPath: file).deletingLastPathComponent(),
      document: document, allowOutside: true)
    self = try reader.profile(Node(value: document.root, path: .root))
  }

  /// The profile as a profile file's text: the name, the summary, every region-monitoring and
  /// sensor number, and the phone's other numbers (`parameters`, `significantChanges`,
  /// `visits`) that differ from the defaults — in the order docs/DEVICE.md lists them, two
  /// spaces of indentation and a final newline.
  ///
  /// The same profile always gives the same bytes, and reading them back
  /// (``init(data:file:)``) gives the same profile.
  public var fileText: String {
    var top: [(String, OrderedJSON)] = [
      ("profile", .string(name)), ("summary", .string(summary)),
    ]
    let phone = Self.phoneMembers(parameters).filter { key, value in
      Self.phoneMembers(PhoneParameters()).first { $0.0 == key }?.1 != value
    }
    if !phone.isEmpty { top.append(("parameters", .object(phone))) }
    top.append(("regionMonitoring", .object(Self.regionMembers(parameters.regionMonitoring))))
    top.append(("sensor", .object(Self.sensorMembers(sensor))))
    for (key, members, defaults) in [
      (
        "significantChanges", Self.significantChangeMembers(parameters.significantChanges),
        Self.significantChangeMembers(SignificantChangeParameters())
      ),
      ("visits", Self.visitMembers(parameters.visits), Self.visitMembers(VisitParameters())),
    ] {
      let changed = members.filter { key, value in defaults.first { $0.0 == key }?.1 != value }
      if !changed.isEmpty { top.append((key, .object(changed))) }
    }
    var out = ""
    OrderedJSON.object(top).write(to: &out, indent: "")
    return out + "\n"
  }

  // MARK: The sections, in the reader's order

  private static func seconds(_ d: SimDuration) -> OrderedJSON { .number(d.seconds) }

  static func phoneMembers(_ p: PhoneParameters) -> [(String, OrderedJSON)] {
    let activities: [(String, ActivityType)] = [
      ("other", .other), ("automotiveNavigation", .automotiveNavigation), ("fitness", .fitness),
      ("otherNavigation", .otherNavigation), ("airborne", .airborne),
    ]
    return [
      ("backgroundGracePeriod", seconds(p.backgroundGracePeriod)),
      ("regionRelaunchWindow", seconds(p.regionRelaunchWindow)),
      ("staleFirstFixProbability", .number(p.staleFirstFixProbability)),
      ("oneShotTimeout", seconds(p.oneShotTimeout)),
      ("stationarySpeed", .number(p.stationarySpeed)),
      (
        "pauseAfter",
        .object(activities.map { ($0.0, p.pauseAfter[$0.1].map(seconds) ?? .null) })
      ),
      ("maximumRegionMonitoringDistance", .number(p.maximumRegionMonitoringDistance)),
      ("maximumMonitoredRegions", .number(Double(p.maximumMonitoredRegions))),
      ("liveUpdatesStationaryAfter", seconds(p.liveUpdatesStationaryAfter)),
      ("liveUpdatesUnavailableAfter", seconds(p.liveUpdatesUnavailableAfter)),
      ("monitorConditionsShareRegionLimit", .bool(p.monitorConditionsShareRegionLimit)),
      ("maximumMonitorConditions", .number(Double(p.maximumMonitorConditions))),
    ]
  }

  static func regionMembers(_ p: RegionMonitoringParameters) -> [(String, OrderedJSON)] {
    [
      ("evaluationInterval", seconds(p.evaluationInterval)),
      ("idleInterval", seconds(p.idleInterval)), ("nearDistance", .number(p.nearDistance)),
      ("gnssWhenNear", .bool(p.gnssWhenNear)), ("hysteresis", .number(p.hysteresis)),
      ("dwell", seconds(p.dwell)), ("minimumEffectiveRadius", .number(p.minimumEffectiveRadius)),
      ("entryLatencyMedian", seconds(p.entryLatencyMedian)),
      ("exitLatencyMedian", seconds(p.exitLatencyMedian)),
      ("latencySigma", .number(p.latencySigma)), ("missProbability", .number(p.missProbability)),
    ]
  }

  static func sensorMembers(_ p: SensorParameters) -> [(String, OrderedJSON)] {
    [
      ("updateInterval", seconds(p.updateInterval)),
      ("gnssOpenSkyAccuracy", .number(p.gnssOpenSkyAccuracy)),
      ("gnssUrbanCanyonAccuracy", .number(p.gnssUrbanCanyonAccuracy)),
      ("wifiAccuracy", .number(p.wifiAccuracy)),
      ("kilometerAccuracy", .number(p.kilometerAccuracy)),
      ("threeKilometersAccuracy", .number(p.threeKilometersAccuracy)),
      ("gnssCorrelationTime", seconds(p.gnssCorrelationTime)),
      ("wifiCorrelationTime", seconds(p.wifiCorrelationTime)),
      ("cellCorrelationTime", seconds(p.cellCorrelationTime)),
      ("invalidFixProbability", .number(p.invalidFixProbability)),
      ("velocityStandardDeviation", .number(p.velocityStandardDeviation)),
      ("minimumSpeedForCourse", .number(p.minimumSpeedForCourse)),
      ("reducedAccuracyInterval", seconds(p.reducedAccuracyInterval)),
      ("reducedAccuracyCellSize", .number(p.reducedAccuracyCellSize)),
      ("reducedAccuracyHorizontalAccuracy", .number(p.reducedAccuracyHorizontalAccuracy)),
      ("coarseAccuracy", .number(p.coarseAccuracy)),
      ("coarseCorrelationTime", seconds(p.coarseCorrelationTime)),
      ("coarseJumpsPerHour", .number(p.coarseJumpsPerHour)),
      ("coarseJumpMeanDuration", seconds(p.coarseJumpMeanDuration)),
      (
        "coarseJumpDistance",
        .object([
          ("min", .number(p.coarseJumpDistance.lowerBound)),
          ("max", .number(p.coarseJumpDistance.upperBound)),
        ])
      ),
      ("wifiCoverage", .number(p.wifiCoverage)), ("wifiMaximumSpeed", .number(p.wifiMaximumSpeed)),
      ("vehicleHold", seconds(p.vehicleHold)), ("cellSpacing", .number(p.cellSpacing)),
      (
        "cellSites",
        .array(
          p.cellSites.map {
            .object([("latitude", .number($0.latitude)), ("longitude", .number($0.longitude))])
          })
      ),
    ]
  }

  static func significantChangeMembers(_ p: SignificantChangeParameters) -> [(
    String, OrderedJSON
  )] {
    [
      ("distance", .number(p.distance)), ("minimumInterval", seconds(p.minimumInterval)),
      ("evaluationInterval", seconds(p.evaluationInterval)),
    ]
  }

  static func visitMembers(_ p: VisitParameters) -> [(String, OrderedJSON)] {
    [
      ("samplingInterval", seconds(p.samplingInterval)), ("radius", .number(p.radius)),
      ("minimumDwell", seconds(p.minimumDwell)), ("arrivalDelay", seconds(p.arrivalDelay)),
      ("departureDelay", seconds(p.departureDelay)),
    ]
  }
}

/// JSON whose object members keep the order they were given in, for files people read.
enum OrderedJSON: Equatable {
  case null
  case bool(Bool)
  case number(Double)
  case string(String)
  case array([OrderedJSON])
  case object([(String, OrderedJSON)])

  static func == (a: OrderedJSON, b: OrderedJSON) -> Bool {
    switch (a, b) {
    case (.null, .null): true
    case (.bool(let x), .bool(let y)): x == y
    case (.number(let x), .number(let y)): x == y
    case (.string(let x), .string(let y)): x == y
    case (.array(let x), .array(let y)): x == y
    case (.object(let x), .object(let y)):
      x.count == y.count && zip(x, y).allSatisfy { $0.0 == $1.0 && $0.1 == $1.1 }
    default: false
    }
  }

  /// Appends the value; an object's members go one a line, indented two spaces deeper than
  /// `indent`, unless they are all scalars that fit on one short line.
  func write(to out: inout String, indent: String) {
    switch self {
    case .null: out += "null"
    case .bool(let b): out += b ? "true" : "false"
    case .number(let n): out += JSONText.number(n)
    case .string(let s): JSONText.writeString(s, to: &out)
    case .array(let items):
      // One item a line, so that a list of cell sites reads as a column.
      guard !items.isEmpty else {
        out += "[]"
        return
      }
      let inner = indent + "  "
      out += "[\n"
      for (i, item) in items.enumerated() {
        out += inner
        item.write(to: &out, indent: inner)
        out += i == items.count - 1 ? "\n" : ",\n"
      }
      out += indent + "]"
    case .object(let members):
      if members.isEmpty {
        out += "{}"
        return
      }
      if members.count <= 2,
        members.allSatisfy({
          switch $0.1 {
          case .object, .array: false
          default: true
          }
        })
      {
        out += "{"
        for (i, (key, value)) in members.enumerated() {
          if i > 0 { out += ", " }
          JSONText.writeString(key, to: &out)
          out += ": "
          value.write(to: &out, indent: indent)
        }
        out += "}"
        return
      }
      let inner = indent + "  "
      out += "{\n"
      for (i, (key, value)) in members.enumerated() {
        out += inner
        JSONText.writeString(key, to: &out)
        out += ": "
        value.write(to: &out, indent: inner)
        out += i == members.count - 1 ? "\n" : ",\n"
      }
      out += indent + "}"
    }
  }
}

extension ScenarioReader {
  /// A profile file's document.
  func profile(_ node: Node) throws -> DeviceProfile {
    let m = try members(node, allowed: DeviceProfile.fileKeys, required: ["profile"])
    if let n = m["$schema"] { _ = try string(n) }
    let nameNode = m["profile"]!
    let name = try string(nameNode)
    guard Scenario.isValidName(name) else {
      throw error(
        nameNode.path,
        "expected a profile name of letters, digits, '.', '_' and '-' (it names the profile's "
          + "file), found '\(name)'")
    }
    var profile = DeviceProfile(name: name, summary: try m["summary"].map(string) ?? "")
    try deviceNumbers(m, parameters: &profile.parameters, sensor: &profile.sensor)
    return profile
  }

  /// Reads a `device` block's or a profile's numbers into `parameters` and `sensor`: the
  /// `parameters`, `regionMonitoring`, `sensor`, `significantChanges` and `visits` sections.
  func deviceNumbers(
    _ m: [String: Node], parameters: inout PhoneParameters, sensor: inout SensorParameters
  ) throws {
    if let n = m["parameters"] { try phoneParameters(n, into: &parameters) }
    if let n = m["regionMonitoring"] {
      try regionParameters(n, into: &parameters.regionMonitoring)
    }
    if let n = m["sensor"] { try sensorParameters(n, into: &sensor) }
    if let n = m["significantChanges"] {
      try significantChangeParameters(n, into: &parameters.significantChanges)
    }
    if let n = m["visits"] { try visitParameters(n, into: &parameters.visits) }
  }

  /// A scenario's `device.profile`: a built-in profile's name, or a profile file's path
  /// relative to the scenario's folder; the file's path is returned as written.
  func deviceProfile(_ node: Node) throws -> (DeviceProfile, file: String?) {
    let text = try string(node)
    let names = DeviceProfile.builtIn.map(\.name).joined(separator: ", ")
    if let profile = DeviceProfile.named(text) { return (profile, nil) }
    guard text.hasSuffix(".json") || text.contains("/") else {
      throw error(
        node.path,
        "unknown device profile '\(text)': expected a built-in profile (\(names)) or the path "
          + "of a profile file ending in .json")
    }
    let url: URL
    do { url = try file(node) } catch let e as ScenarioError where e.code == .invalidScenario {
      throw error(
        node.path, "\(e.message) (a device profile file; the built-in profiles are \(names))")
    }
    do {
      return (try DeviceProfile(contentsOf: url.path), text)
    } catch let e as ScenarioError {
      // The profile file's own place, under the scenario's.
      throw error(node.path, "in the device profile: \(e)")
    }
  }
}
