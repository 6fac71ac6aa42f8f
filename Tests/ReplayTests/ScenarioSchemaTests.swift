import Foundation
import JSON
import Testing
import Traces

@testable import Replay

/// `docs/schemas/scenario.schema.json` describes what the scenario reader accepts, so that an
/// editor checks a scenario as it is typed: every shipped scenario names it and follows it, and
/// the reader and the schema refuse the same mistakes and accept the same documents — but for
/// the rules a schema cannot state, listed in ``readerOnlyRules``.
@Suite struct ScenarioSchemaTests {
  static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .deletingLastPathComponent().deletingLastPathComponent()
  static let schemaFile = repository.appendingPathComponent("docs/schemas/scenario.schema.json")

  /// Documents with one mistake each, which both must refuse.
  static let invalidFolder = fixtures.appendingPathComponent("invalid-scenarios")
  static let invalidFiles = jsonFiles(in: invalidFolder)
  /// Documents with optional keys present and absent, which both must accept.
  static let validFolder = fixtures.appendingPathComponent("valid-scenarios")
  static let validFiles = jsonFiles(in: validFolder)

  static func jsonFiles(in folder: URL) -> [String] {
    ((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? [])
      .filter { $0.hasSuffix(".json") }.sorted()
  }

  func schema() throws -> JSONSchemaValidator {
    try JSONSchemaValidator(JSONValue(parsing: Data(contentsOf: Self.schemaFile)))
  }

  func json(_ url: URL) throws -> JSONValue {
    try JSONValue(parsing: Data(contentsOf: url))
  }

  /// The error the reader gives for the file at `url`, or `nil` when it reads.
  func readerError(_ url: URL) -> ScenarioError? {
    do {
      _ = try Scenario(contentsOf: url.path)
      return nil
    } catch let error as ScenarioError {
      return error
    } catch {
      Issue.record("unexpected error \(error)")
      return nil
    }
  }

  /// The minimal scenario the inline documents below build on.
  let minimal = """
    {"format": "geosim-scenario/1", "name": "m", "start": "2026-04-01T08:00:00+09:00",
     "duration": 60, "app": {"name": "FixCounter"}
    """

  // MARK: The schema and the shipped scenarios

  @Test func theSchemaIsDraft2020_12AndUsesOnlyKeywordsTheValidatorKnows() throws {
    let root = try json(Self.schemaFile)
    #expect(
      root.object?["$schema"] == .string("https://json-schema.org/draft/2020-12/schema"))
    _ = try schema()
  }

  /// Every `*.scenario.json` under `Scenarios/` and the example app's tests, found by walking
  /// the folders so that a new scenario is covered too.
  static func shippedScenarios() -> [URL] {
    ["Scenarios", "Examples/CheckIn"].flatMap { folder -> [URL] in
      let base = repository.appendingPathComponent(folder)
      let found = FileManager.default.enumerator(atPath: base.path)?.compactMap { $0 as? String }
      return (found ?? []).filter { $0.hasSuffix(".scenario.json") && !$0.hasPrefix(".build/") }
        .sorted().map { base.appendingPathComponent($0) }
    }
  }

  @Test func everyShippedScenarioNamesTheSchemaFirstAndFollowsIt() throws {
    let validator = try schema()
    let files = Self.shippedScenarios()
    #expect(files.count >= 33)
    #expect(files.contains { $0.path.contains("Examples/CheckIn/") })
    for file in files {
      let text = try String(contentsOf: file, encoding: .utf8)
      // The first key, so that an editor finds it before anything it would check.
      let opening = text.drop { $0 == "{" || $0.isWhitespace }
      #expect(opening.hasPrefix("\"$schema\":"), "\(file.path): '$schema' is not the first key")
      let document = try JSONValue(parsing: Data(text.utf8))
      guard case .string(let reference)? = document.object?["$schema"] else {
        Issue.record("\(file.path): no '$schema' string")
        continue
      }
      let target = file.deletingLastPathComponent().appendingPathComponent(reference)
        .standardizedFileURL
      #expect(target.path == Self.schemaFile.standardizedFileURL.path, "\(file.path)")
      let violations = validator.violations(of: document)
      #expect(violations.isEmpty, "\(file.path): \(violations)")
      #expect(readerError(file) == nil, "\(file.path)")
    }
  }

  // MARK: The reader and the schema agree

  @Test func thereAreInvalidDocumentsForEveryPartOfTheFormat() {
    #expect(Self.invalidFiles.count >= 30)
    for part in [
      "top-", "schema-", "app-", "dataset-", "device-", "trace-", "area-", "network-",
      "services-", "offline-", "event-", "expectation-", "notification-", "state-", "markers-",
      "count-",
    ] {
      #expect(Self.invalidFiles.contains { $0.hasPrefix(part) }, "no invalid '\(part)' document")
    }
    #expect(Self.validFiles.count >= 5)
  }

  /// Both refuse the document, and at the same place: the schema's complaint (inside the
  /// alternative that came closest, for a value that matches none) is at the reader's path, or
  /// at a value inside it or around it, so that a document refused for some other, unintended
  /// reason shows up.
  @Test(arguments: invalidFiles)
  func bothTheReaderAndTheSchemaRefuse(file: String) throws {
    let url = Self.invalidFolder.appendingPathComponent(file)
    let error = try #require(readerError(url), "the reader accepts \(file)")
    let violations = try schema().violations(of: try json(url))
    #expect(!violations.isEmpty, "the schema accepts \(file); the reader says \(error)")
    guard !violations.isEmpty else { return }
    #expect(
      violations.flatMap(\.places).contains { Self.samePlace($0.description, error.path) },
      "\(file): the reader says \(error.path): \(error.message); the schema says \(violations)")
  }

  static func samePlace(_ a: String, _ b: String) -> Bool {
    func within(_ inner: String, _ outer: String) -> Bool {
      inner == outer || inner.hasPrefix(outer + ".") || inner.hasPrefix(outer + "[")
        || (outer == "(root)" && !inner.isEmpty)
    }
    return within(a, b) || within(b, a)
  }

  @Test(arguments: validFiles)
  func bothTheReaderAndTheSchemaAccept(file: String) throws {
    let url = Self.validFolder.appendingPathComponent(file)
    #expect(readerError(url) == nil)
    let violations = try schema().violations(of: try json(url))
    #expect(violations.isEmpty, "\(violations)")
  }

  /// What the reader checks that a JSON Schema cannot state: files on disk, the time zone
  /// database, and rules between values (order, the duration, one bound against another). Each
  /// document here follows the schema, and the reader refuses it. docs/SCENARIOS.md lists the
  /// same rules.
  static let readerOnlyRules: [(rule: String, member: String)] = [
    // Files must exist, and stay in the scenario's folder.
    ("a file that does not exist", #""gazetteer": "nowhere.geojson""#),
    ("a path that leads out of the folder", #""gazetteer": "/etc/hostname""#),
    ("a dataset file that does not exist", #""datasets": [{"file": "nowhere.json"}]"#),
    ("a trace file that does not exist", #""trace": {"file": "nowhere.gpx"}"#),
    // The time zone must be in the system's database.
    ("a time zone that is not an IANA zone", #""timeZone": "Mars/Olympus_Mons""#),
    // Timeline events in order, within the duration.
    (
      "timeline times out of order",
      #""timeline": [{"at": 5, "do": "launch"}, {"at": 2, "do": "background"}]"#
    ),
    ("a timeline event after the end", #""timeline": [{"at": 61, "do": "launch"}]"#),
    (
      "touch sample times that decrease",
      #""timeline": [{"at": 1, "do": "touches", "samples": [{"t": 0.5, "phase": "began", "x": 1, "y": 1}, {"t": 0.2, "phase": "ended", "x": 1, "y": 1}]}]"#
    ),
    // Offline windows: each ends after it starts, in order, not overlapping, within the duration.
    (
      "an offline window that ends before it starts",
      #""environment": {"offline": [{"from": 10, "to": 5}]}"#
    ),
    (
      "overlapping offline windows",
      #""environment": {"offline": [{"from": 0, "to": 20}, {"from": 10, "to": 30}]}"#
    ),
    ("an offline window past the end", #""environment": {"offline": [{"from": 10, "to": 61}]}"#),
    // Expectation times within the duration, and windows and bounds in order.
    (
      "an expectation time past the end",
      #""expectations": [{"expect": "state", "path": "label", "equals": "", "at": 61}]"#
    ),
    (
      "a count window past the end",
      #""expectations": [{"expect": "count", "source": "location", "event": "started", "min": 1, "from": 61}]"#
    ),
    (
      "a count window that ends before it starts",
      #""expectations": [{"expect": "count", "source": "location", "event": "started", "min": 1, "from": 30, "to": 20}]"#
    ),
    (
      "a count whose max is below its min",
      #""expectations": [{"expect": "count", "source": "location", "event": "started", "min": 3, "max": 2}]"#
    ),
    (
      "a box whose north-east corner is south of the south-west one",
      #""expectations": [{"expect": "markersMatch", "box": {"southwest": {"latitude": 35.7, "longitude": 139.7}, "northeast": {"latitude": 35.6, "longitude": 139.8}}}]"#
    ),
    // One bound against another inside the device.
    (
      "a coarse jump distance whose max is below its min",
      #""device": {"sensor": {"coarseJumpDistance": {"min": 900, "max": 300}}}"#
    ),
    // A GeoJSON ring must be closed.
    (
      "a ring whose last position is not its first",
      #""environment": {"areas": [{"kind": "tunnel", "geometry": {"type": "Polygon", "coordinates": [[[139, 35], [139.1, 35], [139.1, 35.1], [139, 35.1]]]}}]}"#
    ),
    // A speed written as text whose exponent takes it out of the range of a double.
    (
      "a speed text that overflows",
      #""trace": {"waypoints": [{"latitude": 35, "longitude": 139}, {"latitude": 35.1, "longitude": 139}], "speed": "1e400"}"#
    ),
    (
      "a speed text that underflows to 0",
      #""trace": {"waypoints": [{"latitude": 35, "longitude": 139}, {"latitude": 35.1, "longitude": 139}], "speed": "1e-400"}"#
    ),
  ]

  @Test func theRulesOnlyTheReaderChecksAreListedAndTheSchemaLetsThemThrough() throws {
    let validator = try schema()
    for (rule, member) in Self.readerOnlyRules {
      let text = minimal + ", " + member + "}"
      let violations = validator.violations(of: try JSONValue(parsing: Data(text.utf8)))
      #expect(violations.isEmpty, "\(rule): the schema now states it; move it out of the list")
      #expect(throws: ScenarioError.self, "\(rule): the reader accepts it") {
        try scenario(text)
      }
    }
  }

  // MARK: Patterns the schema spells out

  /// The schema's `start` pattern against the reader's date parser, for every day number from
  /// 0 to 32 of every month number from 0 to 13 of common, leap and century years, and for the
  /// time and offset around their limits.
  @Test func theStartPatternAcceptsExactlyTheDatesTheReaderReads() throws {
    let validator = try schema()
    var texts: [String] = []
    for year in ["0000", "1900", "2000", "2023", "2024", "2100", "2400", "9999"] {
      for month in 0...13 {
        for day in 0...32 {
          func two(_ n: Int) -> String { n < 10 ? "0\(n)" : "\(n)" }
          texts.append("\(year)-\(two(month))-\(two(day))T08:00:00Z")
        }
      }
    }
    texts += [
      "2026-04-01T23:59:59.123456789+23:59", "2026-04-01T24:00:00Z", "2026-04-01T23:60:00Z",
      "2026-04-01T23:59:60Z", "2026-04-01T08:00:00+24:00", "2026-04-01T08:00:00-09:60",
      "2026-04-01T08:00:00+0900", "2026-04-01T08:00:00+09", "2026-04-01t08:00:00z",
      "2026-04-01 08:00:00Z", "2026-04-01T08:00:00.Z", "2026-04-01T08:00:00.1234567890Z",
      "2026-04-01T08:00:00,5Z", "2026-04-01T08:00:00", "2026-04-01T08:00:00Z\n",
      " 2026-04-01T08:00:00Z", "26-04-01T08:00:00Z", "2026-4-01T08:00:00Z",
    ]
    for text in texts {
      let reader = ScenarioReader.date(text) != nil
      let schema = validator.violations(of: .string(text), at: "#/properties/start").isEmpty
      #expect(reader == schema, "\(text.debugDescription): reader \(reader), schema \(schema)")
    }
  }

  @Test func theNamePatternAcceptsExactlyTheNamesTheReaderDoes() throws {
    let validator = try schema()
    for name in [
      "a", "arrival-alarm_train.2", ".", "..", "...", ".a", "a.", "a/b", "a b", "駅", "", "a\n",
      String(repeating: "x", count: 200), String(repeating: "x", count: 201),
    ] {
      let reader = Scenario.isValidName(name)
      let schema = validator.violations(of: .string(name), at: "#/properties/name").isEmpty
      #expect(reader == schema, "\(name.debugDescription): reader \(reader), schema \(schema)")
    }
  }

  @Test func theSpeedPatternAcceptsExactlyTheSpeedsTheReaderDoes() throws {
    let validator = try schema()
    for text in [
      "walk", "run", "bike", "car", "train", "Walk", "walking", "7.5", "7.5m/s", "7.5 m/s",
      " 7.5", "7.5 ", "7.5m/s ", "\t7\n", "+7", "-7", "0", "0.0", "0e5", "00.00", ".5", "5.",
      ".", "e5", "1e", "1e+2", "2E-1", "7,5", "m/s", "", "0x10", "inf", "nan", "1_000", "٣",
    ] {
      let reader = (try? SpeedProfile(parsing: text)) != nil
      let schema = validator.violations(of: .string(text), at: "#/$defs/speedProfile").isEmpty
      #expect(reader == schema, "\(text.debugDescription): reader \(reader), schema \(schema)")
    }
  }
}
