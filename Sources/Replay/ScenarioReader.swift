import Cloud
import Device
import Errors
import Foundation
import Geo
import JSON
import SimKernel
import Traces

extension Scenario {
  /// Reads and validates the scenario file at `path`.
  ///
  /// Paths in the scenario are relative to its folder and may not lead out of it unless
  /// `allowPathsOutsideFolder` is set.
  ///
  /// - Throws: ``ScenarioError`` naming the file, the JSON path, the line and column and what
  ///   was expected: unknown keys, wrong types, values out of range, times out of order,
  ///   missing files.
  /// With `profile`, the phone starts from that device profile instead of the one the
  /// scenario's `device` block names; the block's own numbers still override it.
  public init(
    contentsOf path: String, allowPathsOutsideFolder: Bool = false, profile: DeviceProfile? = nil
  ) throws {
    let data: Data
    do {
      data = Data(try readFileContents(atPath: path))
    } catch {
      throw ScenarioError(file: path, path: "", error.reason)
    }
    let folder = URL(fileURLWithPath: path).deletingLastPathComponent()
    try self.init(
      data: data, file: path, folder: folder, allowPathsOutsideFolder: allowPathsOutsideFolder,
      profile: profile)
  }

  /// Reads and validates a scenario from bytes; `file` names it in errors and `folder` is where
  /// its relative paths start; `profile` replaces the device profile the scenario names.
  ///
  /// With `resources`, the GeoJSON files of the report's map layers are parsed once per
  /// process for the same bytes (a sweep reads its scenario once a point).
  public init(
    data: Data, file: String, folder: URL, allowPathsOutsideFolder: Bool = false,
    profile: DeviceProfile? = nil, resources: ReplayResources? = nil
  ) throws {
    try self.init(
      document: try Self.document(data, file: file), file: file, folder: folder,
      allowPathsOutsideFolder: allowPathsOutsideFolder, profile: profile, resources: resources)
  }

  /// Reads and validates a scenario from its parsed `document`, as ``init(data:file:folder:allowPathsOutsideFolder:profile:resources:)``
  /// reads its bytes; an error names a line and column only where the document has them
  /// (`JSONDocument(value:)` has none).
  public init(
    document: JSONDocument, file: String, folder: URL, allowPathsOutsideFolder: Bool = false,
    profile: DeviceProfile? = nil, resources: ReplayResources? = nil
  ) throws {
    let reader = ScenarioReader(
      file: file, folder: folder, document: document, allowOutside: allowPathsOutsideFolder,
      profile: profile, resources: resources)
    self = try reader.scenario()
  }
}

extension Scenario {
  /// The JSON document of the scenario file at `path`, unvalidated (a sweep varies it before
  /// reading it as a scenario).
  ///
  /// - Throws: ``ScenarioError`` for a file that cannot be read or is not JSON.
  public static func document(contentsOf path: String) throws -> JSONDocument {
    let data: Data
    do {
      data = Data(try readFileContents(atPath: path))
    } catch {
      throw ScenarioError(file: path, path: "", error.reason)
    }
    return try document(data, file: path)
  }

  static func document(_ data: Data, file: String) throws(ScenarioError) -> JSONDocument {
    do {
      return try JSONDocument(parsing: data)
    } catch {
      throw ScenarioError(
        file: file, path: "", line: error.line, column: error.column, error.message)
    }
  }
}

/// A value in the scenario document and where it is.
struct Node {
  let value: JSONValue
  let path: JSONPath
}

/// Reads a scenario document into a ``Scenario``, failing at the first problem with its place.
struct ScenarioReader {
  let file: String
  let folder: URL
  let document: JSONDocument
  let allowOutside: Bool
  /// The device profile that replaces the one the `device` block names (or the standard one),
  /// when a test chooses one (`Scenario(contentsOf:allowPathsOutsideFolder:profile:)`).
  var profile: DeviceProfile? = nil
  /// Where parsed map layers are kept, if anywhere.
  var resources: ReplayResources? = nil

  func error(
    _ path: JSONPath, _ message: String, key: Bool = false,
    code: ScenarioError.Code = .invalidScenario
  ) -> ScenarioError {
    let location = key ? document.keyLocation(of: path) : document.location(of: path)
    return ScenarioError(
      file: file, path: path.description, line: location?.line, column: location?.column,
      code: code, message)
  }

  // MARK: Typed access

  /// The members of an object, refusing keys outside `allowed` and requiring `required`.
  func members(_ node: Node, allowed: [String], required: [String] = []) throws -> [String: Node] {
    guard case .object(let object) = node.value else {
      throw error(node.path, "expected an object, found \(node.value.typeName)")
    }
    // The first unknown key in sorted order (not the dictionary's), sorted only when there is one.
    if object.keys.contains(where: { !allowed.contains($0) }) {
      for key in object.keys.sorted() where !allowed.contains(key) {
        throw error(
          node.path.appending(key: key),
          "unknown key '\(key)' (expected one of: \(allowed.joined(separator: ", ")))", key: true)
      }
    }
    for key in required where object[key] == nil {
      throw error(node.path, "missing required key '\(key)'")
    }
    var result: [String: Node] = [:]
    result.reserveCapacity(object.count)
    for (key, value) in object {
      result[key] = Node(value: value, path: node.path.appending(key: key))
    }
    return result
  }

  func string(_ node: Node) throws -> String {
    guard case .string(let s) = node.value else {
      throw error(node.path, "expected a string, found \(node.value.typeName)")
    }
    return s
  }

  func number(_ node: Node, _ range: ClosedRange<Double>? = nil, what: String = "a number")
    throws -> Double
  {
    guard case .number(let n) = node.value, n.isFinite else {
      throw error(node.path, "expected \(what), found \(node.value.typeName)")
    }
    if let range, !range.contains(n) {
      throw error(node.path, "expected \(what) in \(describe(range)), found \(JSONText.number(n))")
    }
    return n
  }

  func seconds(_ node: Node, allowZero: Bool = true) throws -> Double {
    let s = try number(node, 0...1e9, what: "a number of seconds")
    if !allowZero && s == 0 { throw error(node.path, "expected a positive number of seconds") }
    return s
  }

  /// The shortest interval a scenario may ask for (a sensor update, a region evaluation, a
  /// synthesized trace's sampling): finer steps add events, not fidelity, and below it a run or
  /// a synthesized trace grows without bound.
  static let minimumInterval = 0.01

  /// A repeating interval in seconds, from ``minimumInterval`` to 10⁹.
  func interval(_ node: Node) throws -> Double {
    try number(node, Self.minimumInterval...1e9, what: "an interval in seconds")
  }

  func integer(_ node: Node, _ range: ClosedRange<Double>) throws -> Int {
    let n = try number(node, range, what: "an integer")
    guard n == n.rounded() else {
      throw error(node.path, "expected an integer, found \(JSONText.number(n))")
    }
    return Int(n)
  }

  /// A number of runs: a whole number from 1 to ``Scenario/maximumRuns``.
  func runs(_ node: Node) throws -> Int {
    let what = "a whole number of runs from 1 to \(Scenario.maximumRuns)"
    guard case .number(let n) = node.value, n.isFinite else {
      throw error(node.path, "expected \(what), found \(node.value.typeName)")
    }
    guard n == n.rounded(), n >= 1, n <= Double(Scenario.maximumRuns) else {
      throw error(node.path, "expected \(what), found \(JSONText.number(n))")
    }
    return Int(n)
  }

  func bool(_ node: Node) throws -> Bool {
    guard case .bool(let b) = node.value else {
      throw error(node.path, "expected true or false, found \(node.value.typeName)")
    }
    return b
  }

  func array(_ node: Node) throws -> [Node] {
    guard case .array(let a) = node.value else {
      throw error(node.path, "expected an array, found \(node.value.typeName)")
    }
    return a.enumerated().map { Node(value: $1, path: node.path.appending(index: $0)) }
  }

  func choice<T: RawRepresentable & CaseIterable>(_ node: Node, _ type: T.Type) throws -> T
  where T.RawValue == String {
    let s = try string(node)
    guard let value = T(rawValue: s) else {
      let options = T.allCases.map { "'\($0.rawValue)'" }.joined(separator: ", ")
      throw error(node.path, "expected one of \(options), found '\(s)'")
    }
    return value
  }

  func coordinate(_ node: Node) throws -> Coordinate {
    let m = try members(
      node, allowed: ["latitude", "longitude"], required: ["latitude", "longitude"])
    let lat = try number(m["latitude"]!, -90...90, what: "a latitude")
    let lon = try number(m["longitude"]!, -180...180, what: "a longitude")
    do { return try Coordinate(latitude: lat, longitude: lon) } catch {
      throw self.error(node.path, "\(error)")
    }
  }

  /// A file named relative to the scenario's folder; it must exist and, unless allowed, stay
  /// inside the folder.
  func file(_ node: Node) throws -> URL {
    let text = try string(node)
    guard !text.isEmpty else {
      throw error(node.path, "expected a file path, found an empty string")
    }
    let resolved =
      resources?.resolvingSymlinks(text, in: folder)
      ?? ReplayResources.resolvingSymlinks(text, in: folder)
    if !allowOutside {
      let resolvedFolder =
        resources?.resolvingSymlinks(folder) ?? folder.standardizedFileURL.resolvingSymlinksInPath()
      let base = resolvedFolder.path
      let inside = resolved.path.hasPrefix(base.hasSuffix("/") ? base : base + "/")
      guard inside else {
        throw error(
          node.path,
          "'\(text)' leads outside the scenario's folder \(base); paths outside the "
            + "scenario's folder are not allowed", code: .pathOutsideFolder)
      }
    }
    var isDirectory: ObjCBool = false
    guard FileManager.default.fileExists(atPath: resolved.path, isDirectory: &isDirectory),
      !isDirectory.boolValue
    else {
      throw error(node.path, "no such file: \(resolved.path)")
    }
    return resolved
  }

  private func describe(_ range: ClosedRange<Double>) -> String {
    "[\(JSONText.number(range.lowerBound)), \(JSONText.number(range.upperBound))]"
  }

  // MARK: The document

  func scenario() throws -> Scenario {
    let root = Node(value: document.root, path: .root)
    let m = try members(
      root,
      allowed: [
        "$schema", "format", "name", "description", "expect", "seed", "runs", "start", "timeZone",
        "duration", "device", "app", "datasets", "backend", "database", "table",
        "statementTimeout", "gazetteer",
        "trace", "environment", "timeline", "expectations", "report",
      ],
      required: ["format", "name", "start", "duration", "app"])
    // The JSON Schema an editor checks the document against (docs/schemas); only its type
    // matters here.
    if let n = m["$schema"] { _ = try string(n) }
    let format = try string(m["format"]!)
    guard format == Scenario.format else {
      throw error(m["format"]!.path, "expected \"\(Scenario.format)\", found \"\(format)\"")
    }
    let name = try string(m["name"]!)
    guard Scenario.isValidName(name) else {
      throw error(
        m["name"]!.path,
        "expected a name of letters, digits, '.', '_' and '-' (it names the scenario's report "
          + "folder), found '\(name)'")
    }
    let startText = try string(m["start"]!)
    guard let start = Self.date(startText) else {
      throw error(
        m["start"]!.path,
        "expected an ISO 8601 date and time with at most nine fractional digits and a UTC "
          + "offset (2026-04-01T08:00:00+09:00), found '\(startText)'")
    }
    let duration = try seconds(m["duration"]!, allowZero: false)
    guard duration <= 30 * 86_400 else {
      throw error(m["duration"]!.path, "expected at most 30 days (2592000 s)")
    }
    var scenario = Scenario(
      name: name, start: start, duration: duration, app: try app(m["app"]!))
    scenario.file = file
    if let n = m["description"] { scenario.description = try string(n) }
    if let n = m["expect"] { scenario.expectedOutcome = try choice(n, ExpectedOutcome.self) }
    if let n = m["seed"] {
      scenario.seed = UInt64(try integer(n, 0...Double(Scenario.maximumSeed)))
    }
    if let n = m["runs"] { scenario.runs = try runs(n) }
    if let n = m["timeZone"] {
      let id = try string(n)
      guard let zone = TimeZone(identifier: id) else {
        throw error(n.path, "expected an IANA time zone such as 'Asia/Tokyo', found '\(id)'")
      }
      scenario.timeZone = zone
    }
    if let n = m["device"] {
      scenario.device = try device(n)
    } else if let profile {
      scenario.device.apply(profile)
    }
    if let n = m["datasets"] { scenario.datasets = try array(n).map(dataset) }
    try backend(m, into: &scenario)
    if let n = m["gazetteer"] { scenario.gazetteer = try file(n) }
    if let n = m["trace"] { scenario.trace = try trace(n, startAt: nil) }
    if let n = m["environment"] { scenario.environment = try environment(n, duration: duration) }
    if let n = m["timeline"] { scenario.timeline = try timeline(n, duration: duration) }
    if let n = m["report"] { scenario.report = try report(n) }
    if let n = m["expectations"] {
      scenario.expectations = Expectation.distinctlyNamed(
        try array(n).map { try expectation($0, duration: duration) })
    }
    return scenario
  }

  /// The instant an RFC 3339 date-time names — `YYYY-MM-DDTHH:MM:SS`, at most nine fractional
  /// digits, then `Z` or `±HH:MM` — or `nil` for any other text or a day the month does not have.
  ///
  /// The shape is checked here and the instant computed by the trace reader's own parser, so
  /// that no text reaches Foundation's date parsing (which fails hard on some inputs, such as
  /// dozens of fractional digits).
  static func date(_ text: String) -> Date? {
    let b = Array(text.utf8)
    func digits(_ range: Range<Int>) -> Int? {
      guard range.upperBound <= b.count else { return nil }
      var value = 0
      for i in range {
        guard b[i] >= 0x30, b[i] <= 0x39 else { return nil }
        value = value * 10 + Int(b[i] - 0x30)
      }
      return value
    }
    func byte(_ i: Int, _ c: Character) -> Bool { i < b.count && b[i] == c.asciiValue! }
    guard let year = digits(0..<4), byte(4, "-"), let month = digits(5..<7), byte(7, "-"),
      let day = digits(8..<10), byte(10, "T") || byte(10, "t"), let hour = digits(11..<13),
      byte(13, ":"), let minute = digits(14..<16), byte(16, ":"), let second = digits(17..<19),
      (1...12).contains(month), hour < 24, minute < 60, second < 60
    else { return nil }
    let leap = year % 4 == 0 && (year % 100 != 0 || year % 400 == 0)
    let days = [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][month - 1]
    guard (1...days).contains(day) else { return nil }
    var i = 19
    if byte(i, ".") {
      let first = i + 1
      i = first
      while i < b.count, b[i] >= 0x30, b[i] <= 0x39 { i += 1 }
      guard (1...9).contains(i - first) else { return nil }
    }
    if byte(i, "Z") || byte(i, "z") {
      i += 1
    } else {
      guard byte(i, "+") || byte(i, "-"), let offsetHours = digits(i + 1..<i + 3),
        byte(i + 3, ":"), let offsetMinutes = digits(i + 4..<i + 6), offsetHours < 24,
        offsetMinutes < 60
      else { return nil }
      i += 6
    }
    guard i == b.count, let seconds = ByteScan.isoTime(text) else { return nil }
    return Date(timeIntervalSince1970: seconds)
  }

  func app(_ node: Node) throws -> AppSelection {
    let m = try members(node, allowed: ["name", "variant", "configuration"], required: ["name"])
    var selection = AppSelection(name: try string(m["name"]!))
    if let n = m["variant"] { selection.variant = try string(n) }
    if let n = m["configuration"] {
      guard case .object = n.value else {
        throw error(n.path, "expected an object, found \(n.value.typeName)")
      }
      selection.configuration = n.value
    }
    return selection
  }

  /// `"backend"`, and with `"postgis"` its `"database"` URL, the optional user `"table"` and
  /// `"statementTimeout"` (seconds).
  func backend(_ m: [String: Node], into scenario: inout Scenario) throws {
    let names = ["strtree", "brute", "memory", "sqlite", "postgis"]
    let name = try m["backend"].map { try string($0) } ?? "memory"
    guard name == "postgis" else {
      for key in ["database", "table", "statementTimeout"] {
        if let n = m[key] {
          throw error(n.path, "expected only with \"backend\": \"postgis\"")
        }
      }
      switch name {
      case "strtree": scenario.backend = .strtree
      case "brute": scenario.backend = .bruteForce
      case "memory": scenario.backend = .inMemory
      case "sqlite": scenario.backend = .sqlite(directory: nil)
      default:
        throw error(
          m["backend"]!.path,
          "expected one of \(names.map { "'\($0)'" }.joined(separator: ", ")), found '\(name)'")
      }
      return
    }
    guard let databaseNode = m["database"] else {
      throw error(
        m["backend"]!.path,
        "\"postgis\" needs \"database\": a URL such as postgresql://user@host:5432/db")
    }
    let url = try string(databaseNode)
    guard !url.isEmpty else {
      throw error(databaseNode.path, "expected a PostgreSQL URL, found an empty string")
    }
    var target = PostGISTarget(url: url)
    if let n = m["statementTimeout"] {
      let s = try seconds(n)
      guard s <= 86_400 else { throw error(n.path, "expected at most 86400 s (0: none)") }
      target.statementTimeoutMilliseconds = Int((s * 1000).rounded())
    }
    if let n = m["table"] {
      let t = try members(
        n,
        allowed: [
          "schema", "name", "geometryColumn", "idColumn", "nameColumn", "class", "geoField",
        ],
        required: ["name"])
      func text(_ key: String, _ fallback: String) throws -> String {
        guard let node = t[key] else { return fallback }
        let value = try string(node)
        guard !value.isEmpty else { throw error(node.path, "expected a name, found \"\"") }
        return value
      }
      target.table = PostGISTable(
        schema: try text("schema", "public"), name: try text("name", ""),
        geometryColumn: try text("geometryColumn", "geom"), idColumn: try text("idColumn", "id"),
        nameColumn: try t["nameColumn"].map { _ in try text("nameColumn", "") })
      scenario.tableStations = TableStations(
        className: try text("class", "Station"), geoField: try text("geoField", "geo"))
      if !scenario.datasets.isEmpty {
        throw error(
          n.path,
          "expected either \"datasets\" or a PostGIS \"table\", not both: the table's rows "
            + "are the stations")
      }
    }
    scenario.backend = .postgis(target)
  }

  func dataset(_ node: Node) throws -> DatasetSource {
    let m = try members(node, allowed: ["file", "class", "geoField"], required: ["file"])
    var source = DatasetSource(file: try file(m["file"]!))
    if let n = m["class"] { source.className = try string(n) }
    if let n = m["geoField"] { source.geoField = try string(n) }
    return source
  }

  // MARK: Device

  func device(_ node: Node) throws -> DeviceSetup {
    let m = try members(
      node,
      allowed: [
        "locationServices", "airplaneMode", "preciseLocation", "locationSetting", "restricted",
        "promptAnswers", "answerDelay", "screen", "profile", "parameters", "regionMonitoring",
        "sensor", "significantChanges", "visits",
      ])
    var d = DeviceSetup()
    // The profile comes first, whatever the keys' order: the block's own numbers override it.
    if let profile {
      d.apply(profile)
    } else if let n = m["profile"] {
      let (profile, file) = try deviceProfile(n)
      d.apply(profile, file: file)
    }
    if let n = m["locationServices"] { d.locationServices = try bool(n) }
    if let n = m["airplaneMode"] { d.airplaneMode = try bool(n) }
    if let n = m["preciseLocation"] { d.preciseLocation = try bool(n) }
    if let n = m["restricted"] { d.restricted = try bool(n) }
    if let n = m["locationSetting"] { d.locationSetting = try choice(n, LocationSetting.self) }
    if let n = m["answerDelay"] { d.answerDelay = try seconds(n) }
    if let n = m["promptAnswers"] {
      let answers = try members(n, allowed: PromptKind.allCases.map(\.rawValue))
      for key in answers.keys.sorted() {
        let list = answers[key]!
        let kind = PromptKind(rawValue: key)!
        d.promptAnswers[kind] = try array(list).map { item in
          let answer = try choice(item, PromptAnswer.self)
          guard answer.isValid(for: kind) else {
            throw error(item.path, "'\(answer.rawValue)' is not an answer the \(key) prompt offers")
          }
          return answer
        }
      }
    }
    if let n = m["screen"] {
      let s = try members(n, allowed: ["width", "height"], required: ["width", "height"])
      d.screen = Size(
        width: try number(s["width"]!, 1...10_000, what: "a width in points"),
        height: try number(s["height"]!, 1...10_000, what: "a height in points"))
    }
    try deviceNumbers(m, parameters: &d.parameters, sensor: &d.sensor)
    return d
  }

  func significantChangeParameters(_ node: Node, into p: inout SignificantChangeParameters)
    throws
  {
    let m = try members(node, allowed: ["distance", "minimumInterval", "evaluationInterval"])
    if let n = m["distance"] { p.distance = try number(n, 0...100_000, what: "metres") }
    if let n = m["minimumInterval"] { p.minimumInterval = .seconds(try seconds(n)) }
    if let n = m["evaluationInterval"] { p.evaluationInterval = .seconds(try interval(n)) }
  }

  func visitParameters(_ node: Node, into p: inout VisitParameters) throws {
    let m = try members(
      node,
      allowed: ["samplingInterval", "radius", "minimumDwell", "arrivalDelay", "departureDelay"])
    if let n = m["samplingInterval"] { p.samplingInterval = .seconds(try interval(n)) }
    if let n = m["radius"] { p.radius = try number(n, 0...100_000, what: "metres") }
    if let n = m["minimumDwell"] { p.minimumDwell = .seconds(try seconds(n)) }
    if let n = m["arrivalDelay"] { p.arrivalDelay = .seconds(try seconds(n)) }
    if let n = m["departureDelay"] { p.departureDelay = .seconds(try seconds(n)) }
  }

  func phoneParameters(_ node: Node, into p: inout PhoneParameters) throws {
    let m = try members(
      node,
      allowed: [
        "backgroundGracePeriod", "regionRelaunchWindow", "staleFirstFixProbability",
        "oneShotTimeout", "stationarySpeed", "pauseAfter", "maximumRegionMonitoringDistance",
        "maximumMonitoredRegions", "liveUpdatesStationaryAfter", "liveUpdatesUnavailableAfter",
        "monitorConditionsShareRegionLimit", "maximumMonitorConditions",
        "locationTriggerFiresWhenAddedInside",
      ])
    if let n = m["backgroundGracePeriod"] { p.backgroundGracePeriod = .seconds(try seconds(n)) }
    if let n = m["regionRelaunchWindow"] { p.regionRelaunchWindow = .seconds(try seconds(n)) }
    if let n = m["staleFirstFixProbability"] {
      p.staleFirstFixProbability = try number(n, 0...1, what: "a probability")
    }
    if let n = m["oneShotTimeout"] { p.oneShotTimeout = .seconds(try seconds(n, allowZero: false)) }
    if let n = m["stationarySpeed"] {
      p.stationarySpeed = try number(n, 0...100, what: "a speed in m/s")
    }
    if let n = m["pauseAfter"] {
      let activities: [String: ActivityType] = [
        "other": .other, "automotiveNavigation": .automotiveNavigation, "fitness": .fitness,
        "otherNavigation": .otherNavigation, "airborne": .airborne,
      ]
      let after = try members(n, allowed: activities.keys.sorted())
      for key in after.keys.sorted() {
        let value = after[key]!
        // null: updates for this activity never pause.
        p.pauseAfter[activities[key]!] =
          value.value == .null ? nil : .seconds(try seconds(value, allowZero: false))
      }
    }
    if let n = m["maximumRegionMonitoringDistance"] {
      p.maximumRegionMonitoringDistance = try number(n, 0...1e8, what: "a distance in metres")
    }
    if let n = m["maximumMonitoredRegions"] {
      p.maximumMonitoredRegions = try integer(n, 0...1_000)
    }
    if let n = m["liveUpdatesStationaryAfter"] {
      p.liveUpdatesStationaryAfter = .seconds(try seconds(n, allowZero: false))
    }
    if let n = m["liveUpdatesUnavailableAfter"] {
      p.liveUpdatesUnavailableAfter = .seconds(try seconds(n, allowZero: false))
    }
    if let n = m["monitorConditionsShareRegionLimit"] {
      p.monitorConditionsShareRegionLimit = try bool(n)
    }
    if let n = m["maximumMonitorConditions"] {
      p.maximumMonitorConditions = try integer(n, 0...1_000)
    }
    if let n = m["locationTriggerFiresWhenAddedInside"] {
      p.locationTriggerFiresWhenAddedInside = try bool(n)
    }
  }

  func regionParameters(_ node: Node, into p: inout RegionMonitoringParameters) throws {
    let m = try members(
      node,
      allowed: [
        "evaluationInterval", "idleInterval", "nearDistance", "gnssWhenNear", "hysteresis", "dwell",
        "minimumEffectiveRadius", "entryLatencyMedian", "exitLatencyMedian", "latencySigma",
        "missProbability",
      ])
    if let n = m["evaluationInterval"] {
      p.evaluationInterval = .seconds(try interval(n))
    }
    if let n = m["idleInterval"] { p.idleInterval = .seconds(try interval(n)) }
    if let n = m["nearDistance"] { p.nearDistance = try number(n, 0...100_000, what: "metres") }
    if let n = m["gnssWhenNear"] { p.gnssWhenNear = try bool(n) }
    if let n = m["hysteresis"] { p.hysteresis = try number(n, 0...100_000, what: "metres") }
    if let n = m["dwell"] { p.dwell = .seconds(try seconds(n)) }
    if let n = m["minimumEffectiveRadius"] {
      p.minimumEffectiveRadius = try number(n, 0...100_000, what: "metres")
    }
    if let n = m["entryLatencyMedian"] { p.entryLatencyMedian = .seconds(try seconds(n)) }
    if let n = m["exitLatencyMedian"] { p.exitLatencyMedian = .seconds(try seconds(n)) }
    if let n = m["latencySigma"] {
      p.latencySigma = try number(n, 0...10, what: "a log-normal sigma")
    }
    if let n = m["missProbability"] {
      p.missProbability = try number(n, 0...1, what: "a probability")
    }
    do { try p.validate() } catch { throw self.error(node.path, "\(error)") }
  }

  func sensorParameters(_ node: Node, into p: inout SensorParameters) throws {
    let m = try members(
      node,
      allowed: [
        "updateInterval", "gnssOpenSkyAccuracy", "gnssUrbanCanyonAccuracy", "wifiAccuracy",
        "kilometerAccuracy", "threeKilometersAccuracy", "gnssCorrelationTime",
        "wifiCorrelationTime", "cellCorrelationTime", "invalidFixProbability",
        "velocityStandardDeviation", "minimumSpeedForCourse", "reducedAccuracyInterval",
        "reducedAccuracyCellSize", "reducedAccuracyHorizontalAccuracy", "coarseAccuracy",
        "coarseCorrelationTime", "coarseJumpsPerHour", "coarseJumpMeanDuration",
        "coarseJumpDistance", "wifiCoverage", "wifiMaximumSpeed", "vehicleHold", "cellSpacing",
        "cellSites",
      ])
    if let n = m["updateInterval"] { p.updateInterval = .seconds(try interval(n)) }
    for (key, path) in [
      ("gnssOpenSkyAccuracy", \SensorParameters.gnssOpenSkyAccuracy),
      ("gnssUrbanCanyonAccuracy", \.gnssUrbanCanyonAccuracy), ("wifiAccuracy", \.wifiAccuracy),
      ("kilometerAccuracy", \.kilometerAccuracy),
      ("threeKilometersAccuracy", \.threeKilometersAccuracy),
      ("reducedAccuracyHorizontalAccuracy", \.reducedAccuracyHorizontalAccuracy),
      ("coarseAccuracy", \.coarseAccuracy),
    ] {
      if let n = m[key] {
        p[keyPath: path] = try number(n, 0...100_000, what: "an accuracy in metres")
      }
    }
    for (key, path) in [
      ("gnssCorrelationTime", \SensorParameters.gnssCorrelationTime),
      ("wifiCorrelationTime", \.wifiCorrelationTime),
      ("cellCorrelationTime", \.cellCorrelationTime),
      ("coarseCorrelationTime", \.coarseCorrelationTime),
      ("coarseJumpMeanDuration", \.coarseJumpMeanDuration),
    ] {
      if let n = m[key] { p[keyPath: path] = .seconds(try seconds(n)) }
    }
    if let n = m["reducedAccuracyInterval"] {
      p.reducedAccuracyInterval = .seconds(try interval(n))
    }
    if let n = m["invalidFixProbability"] {
      p.invalidFixProbability = try number(n, 0...1, what: "a probability")
    }
    for (key, path) in [
      ("velocityStandardDeviation", \SensorParameters.velocityStandardDeviation),
      ("minimumSpeedForCourse", \.minimumSpeedForCourse),
    ] {
      if let n = m[key] { p[keyPath: path] = try number(n, 0...100, what: "a speed in m/s") }
    }
    if let n = m["reducedAccuracyCellSize"] {
      p.reducedAccuracyCellSize = try number(n, 0.001...90, what: "a cell size in degrees")
    }
    if let n = m["coarseJumpsPerHour"] {
      p.coarseJumpsPerHour = try number(n, 0...3_600, what: "a rate per hour")
    }
    if let n = m["wifiCoverage"] { p.wifiCoverage = try number(n, 0...1, what: "a share") }
    if let n = m["wifiMaximumSpeed"] {
      p.wifiMaximumSpeed = try number(n, 0...1_000, what: "a speed in m/s")
    }
    if let n = m["vehicleHold"] { p.vehicleHold = .seconds(try seconds(n)) }
    if let n = m["cellSpacing"] {
      p.cellSpacing = try number(n, 1...100_000, what: "a spacing in metres")
    }
    if let n = m["cellSites"] { p.cellSites = try array(n).map(coordinate) }
    if let n = m["coarseJumpDistance"] {
      let r = try members(n, allowed: ["min", "max"], required: ["min", "max"])
      let low = try number(r["min"]!, 0...100_000, what: "a distance in metres")
      let high = try number(r["max"]!, 0...100_000, what: "a distance in metres")
      guard low <= high else {
        throw error(
          r["max"]!.path,
          "expected a distance at least min (\(JSONText.number(low))), found \(JSONText.number(high))"
        )
      }
      p.coarseJumpDistance = low...high
    }
    do { try p.validate() } catch { throw self.error(node.path, "\(error)") }
  }

  // MARK: Trace and environment

  /// A trace: `{"file"}`, `{"waypoints", "speed"}` or `{"stationary"}`; on the timeline it
  /// starts at the event (`startAt` given), at the top level at `startAt` (default 0).
  func trace(_ node: Node, startAt eventTime: Double?) throws -> TraceSource {
    var allowed = [
      "file", "track", "allowSkippedPoints", "gpxWaypoints", "waypoints", "speed", "interval",
      "stationary",
    ]
    if eventTime == nil { allowed.append("startAt") }
    let m = try members(node, allowed: allowed)
    let startAt = try eventTime ?? m["startAt"].map { try seconds($0) } ?? 0
    let kinds = ["file", "waypoints", "stationary"].filter { m[$0] != nil }
    guard kinds.count == 1 else {
      throw error(node.path, "expected exactly one of 'file', 'waypoints' or 'stationary'")
    }
    func refuse(_ keys: [String]) throws {
      for key in keys where m[key] != nil {
        throw error(m[key]!.path, "'\(key)' does not apply to a '\(kinds[0])' trace", key: true)
      }
    }
    switch kinds[0] {
    case "file":
      try refuse(["speed", "interval"])
      let track = try m["track"].map { try integer($0, 0...1_000_000) } ?? 0
      let allowSkipped = try m["allowSkippedPoints"].map(bool) ?? false
      let gpxWaypoints = try m["gpxWaypoints"].map { node -> GPXWaypoints in
        guard case .string(let name) = node.value, let policy = GPXWaypoints(rawValue: name) else {
          throw error(
            node.path,
            "expected one of "
              + GPXWaypoints.allCases.map { "'\($0.rawValue)'" }.joined(separator: ", "))
        }
        return policy
      }
      return .file(
        try file(m["file"]!), track: track, startAt: startAt, allowSkippedPoints: allowSkipped,
        gpxWaypoints: gpxWaypoints ?? .automatic)
    case "waypoints":
      try refuse(["track", "allowSkippedPoints", "gpxWaypoints"])
      guard let speedNode = m["speed"] else {
        throw error(node.path, "missing required key 'speed' (walk, run, bike, car, train or m/s)")
      }
      let speed: String
      switch speedNode.value {
      case .number(let v) where v > 0 && v.isFinite: speed = JSONText.number(v)
      case .string(let s): speed = s
      default: throw error(speedNode.path, "expected a profile name or a positive speed in m/s")
      }
      do { _ = try SpeedProfile(parsing: speed) } catch {
        throw self.error(speedNode.path, "\(error)")
      }
      let interval = try m["interval"].map { try self.interval($0) } ?? 1
      let points = try array(m["waypoints"]!)
      guard points.count >= 2 else {
        throw error(m["waypoints"]!.path, "expected at least two waypoints, found \(points.count)")
      }
      let waypoints = try points.map { point in
        let w = try members(
          point, allowed: ["latitude", "longitude", "dwell", "teleport"],
          required: ["latitude", "longitude"])
        let coordinate = try coordinate(
          Node(
            value: .object(["latitude": w["latitude"]!.value, "longitude": w["longitude"]!.value]),
            path: point.path))
        return Waypoint(
          coordinate: coordinate, dwell: try w["dwell"].map { try seconds($0) } ?? 0,
          teleport: try w["teleport"].map(bool) ?? false)
      }
      return .synthesized(waypoints: waypoints, speed: speed, interval: interval, startAt: startAt)
    default:
      try refuse(["speed", "interval", "track", "allowSkippedPoints", "gpxWaypoints"])
      return .stationary(try coordinate(m["stationary"]!), startAt: startAt)
    }
  }

  func environment(_ node: Node, duration: Double) throws -> EnvironmentSetup {
    let m = try members(node, allowed: ["areas", "network", "services", "offline"])
    var e = EnvironmentSetup()
    if let n = m["areas"] {
      e.areas = try array(n).map { item in
        let a = try members(
          item, allowed: ["kind", "geometry", "name"], required: ["kind", "geometry"])
        let kindName = try string(a["kind"]!)
        let kinds: [String: EnvironmentKind] = [
          "outage": .outage, "tunnel": .outage, "underground": .underground, "indoor": .indoor,
          "urbanCanyon": .urbanCanyon,
        ]
        guard let kind = kinds[kindName] else {
          throw error(
            a["kind"]!.path,
            "expected 'outage' (or 'tunnel'), 'underground', 'indoor' or 'urbanCanyon', found "
              + "'\(kindName)'")
        }
        let geometry: Geometry
        do {
          geometry = try GeoJSON.geometry(in: a["geometry"]!.value, at: a["geometry"]!.path)
        } catch let error as GeoJSON.Problem {
          throw self.error(
            error.path, "expected a GeoJSON Polygon or MultiPolygon: \(error.message)")
        }
        switch geometry {
        case .polygon, .multiPolygon: break
        default:
          throw error(a["geometry"]!.path, "expected a GeoJSON Polygon or MultiPolygon")
        }
        if let name = a["name"] { _ = try string(name) }
        return (kind, geometry)
      }
    }
    if let n = m["network"] { e.network = try link(n) }
    if let n = m["services"] {
      let services = try members(n, allowed: ["ncmb", "threewords", "weather"])
      for name in services.keys.sorted() { e.services[name] = try link(services[name]!) }
    }
    if let n = m["offline"] {
      var previousEnd = -Double.infinity
      e.offline = try array(n).map { item in
        let w = try members(item, allowed: ["from", "to"], required: ["from", "to"])
        let from = try seconds(w["from"]!)
        let to = try seconds(w["to"]!)
        guard to > from else {
          throw error(w["to"]!.path, "expected an end after the start (\(JSONText.number(from)) s)")
        }
        guard from >= previousEnd else {
          throw error(w["from"]!.path, "offline windows must be in time order and not overlap")
        }
        guard to <= duration else {
          throw error(
            w["to"]!.path,
            "expected at most the scenario's duration (\(JSONText.number(duration)) s)")
        }
        previousEnd = to
        return from...to
      }
    }
    return e
  }

  /// The `report` block: `{"layers": [{"file": "rail.geojson", "label": "JR lines"}]}`. Each
  /// layer's GeoJSON is read here, so that a damaged file stops the scenario with its own file,
  /// line, column and path before anything runs.
  func report(_ node: Node) throws -> ReportSetup {
    let m = try members(node, allowed: ["layers"])
    var setup = ReportSetup()
    if let n = m["layers"] {
      setup.layers = try array(n).map { item in
        let l = try members(item, allowed: ["file", "label"], required: ["file"])
        let name = try string(l["file"]!)
        let url = try file(l["file"]!)
        let label = try l["label"].map(string) ?? name
        let features: [GeoJSONFeature]
        do {
          let data = try Data(contentsOf: url)
          features =
            try resources?.geoJSONFeatures(data, file: name)
            ?? GeoJSON.features(from: data, file: name)
        } catch let error as GeoError {
          throw self.error(l["file"]!.path, "\(error.message)")
        } catch {
          throw self.error(l["file"]!.path, "cannot read '\(name)': \(error)")
        }
        return MapLayer(file: name, label: label, features: features)
      }
    }
    return setup
  }

  func link(_ node: Node) throws -> LinkSetup {
    let m = try members(
      node,
      allowed: [
        "latencyMedian", "latencySigma", "failureRate", "timeout", "maximumConcurrentRequests",
      ])
    var l = LinkSetup()
    if let n = m["latencyMedian"] { l.latencyMedian = try seconds(n) }
    if let n = m["latencySigma"] {
      l.latencySigma = try number(n, 0...10, what: "a log-normal sigma")
    }
    if let n = m["failureRate"] { l.failureRate = try number(n, 0...1, what: "a probability") }
    if let n = m["timeout"] { l.timeout = try seconds(n, allowZero: false) }
    if let n = m["maximumConcurrentRequests"] {
      l.maximumConcurrentRequests = try integer(n, 1...1_000)
    }
    return l
  }
}
