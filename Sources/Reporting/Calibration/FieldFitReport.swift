import Device
import Foundation
import JSON

/// What `geosim calibrate --fit` found: each parameter's fitted value and interval, each
/// statistic observed and simulated, and the fitted profile.
public struct FieldFitReport: Sendable {
  /// A fitted parameter.
  public struct Parameter: Hashable, Sendable {
    /// Which parameter.
    public let parameter: FittedParameter
    /// The base profile's value.
    public let base: Double
    /// The fitted value (the base's when not identified).
    public let fitted: Double
    /// Whether the log identifies the parameter.
    public let identified: Bool
    /// The 95 % interval's ends: the bootstrap over the log's crossings; `nil` when not
    /// identified.
    public let lower: Double?
    /// The upper end.
    public let upper: Double?
    /// Why the parameter is not identified, or held at the grid's end; `nil` otherwise.
    public let note: String?
  }

  /// A statistic of the log and of the simulation.
  public struct Statistic: Hashable, Sendable {
    /// Which statistic.
    public let statistic: FieldStatistic
    /// In the log.
    public let observed: CalibrationEstimate
    /// In the simulation with the fitted profile.
    public let fitted: CalibrationEstimate
    /// In the simulation with the base profile.
    public let base: CalibrationEstimate
  }

  /// The fitted profile's name.
  public let name: String
  /// The base profile's name.
  public let base: String
  /// The environment and app state of the simulated trials.
  public let conditions: FieldConditions
  /// Trials per candidate.
  public let trials: Int
  /// The seed.
  public let seed: UInt64
  /// Regions in the log.
  public let fences: Int
  /// True crossings of their circles.
  public let crossings: Int
  /// Entries and exits the log holds.
  public let events: Int
  /// Logged events that matched no true crossing.
  public let unmatchedEvents: Int
  /// The parameters, in ``FittedParameter`` order.
  public let parameters: [Parameter]
  /// The statistics, in ``FieldStatistic`` order.
  public let statistics: [Statistic]
  /// How many parameter sets were simulated.
  public let candidates: Int
  /// The fitted profile.
  public let profile: DeviceProfile

  /// The report's file names.
  public static let markdownName = "fit.md"
  /// The JSON file's name.
  public static let jsonName = "fit.json"

  /// Writes `fit.md`, `fit.json` and the profile `<name>.json` into `folder`, creating it when
  /// needed; the bytes depend only on the inputs, the options and the seed.
  public func write(to folder: URL) throws {
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    try Data(markdown.utf8).write(to: folder.appendingPathComponent(Self.markdownName))
    try Data((json.jsonText + "\n").utf8).write(to: folder.appendingPathComponent(Self.jsonName))
    try Data(profile.fileText.utf8).write(to: folder.appendingPathComponent("\(name).json"))
  }

  private static func estimateJSON(_ e: CalibrationEstimate) -> JSONValue {
    var o: [String: JSONValue] = [:]
    o["value"] = e.value.map(JSONValue.number) ?? .null
    o["lower"] = e.lower.map(JSONValue.number) ?? .null
    o["upper"] = e.upper.map(JSONValue.number) ?? .null
    o["count"] = .number(Double(e.count))
    o["successes"] = e.successes.map { .number(Double($0)) } ?? .null
    o["method"] = .string(e.method.rawValue)
    return .object(o)
  }

  /// The report as JSON (`geosim-fit/1`, docs/DEVICE.md).
  public var json: JSONValue {
    let log: [String: JSONValue] = [
      "regions": .number(Double(fences)), "crossings": .number(Double(crossings)),
      "events": .number(Double(events)), "unmatchedEvents": .number(Double(unmatchedEvents)),
    ]
    let parameters: [JSONValue] = self.parameters.map { p in
      var o: [String: JSONValue] = [:]
      o["name"] = .string(p.parameter.rawValue)
      o["unit"] = .string(p.parameter.unit)
      o["statistic"] = .string(p.parameter.statistic.rawValue)
      o["base"] = .number(p.base)
      o["fitted"] = .number(p.fitted)
      o["identified"] = .bool(p.identified)
      o["lower"] = p.lower.map(JSONValue.number) ?? .null
      o["upper"] = p.upper.map(JSONValue.number) ?? .null
      o["note"] = p.note.map(JSONValue.string) ?? .null
      return .object(o)
    }
    let statistics: [JSONValue] = self.statistics.map { s in
      var o: [String: JSONValue] = [:]
      o["name"] = .string(s.statistic.rawValue)
      o["unit"] = .string(s.statistic.unit)
      o["observed"] = Self.estimateJSON(s.observed)
      o["fitted"] = Self.estimateJSON(s.fitted)
      o["base"] = Self.estimateJSON(s.base)
      return .object(o)
    }
    var o: [String: JSONValue] = [:]
    o["format"] = .string("geosim-fit/1")
    o["profile"] = .string(name)
    o["base"] = .string(base)
    o["environment"] = .string(conditions.environment.description)
    o["app"] = .string(conditions.app.rawValue)
    o["trials"] = .number(Double(trials))
    o["seed"] = .string(String(seed))
    o["log"] = .object(log)
    o["candidates"] = .number(Double(candidates))
    o["parameters"] = .array(parameters)
    o["statistics"] = .array(statistics)
    return .object(o)
  }

  private static func number(_ x: Double, unit: String) -> String {
    switch unit {
    case "probability": String(format: "%.2f", x)
    default: String(format: "%.0f %@", x, unit)
    }
  }

  /// The report as Markdown: the parameters, then the statistics observed and simulated.
  public var markdown: String {
    var out = """
      # Fit: \(name)

      A field log of \(fences) region(s), \(crossings) true crossing(s) and \(events) logged \
      event(s) (\(unmatchedEvents) matching no crossing), fitted from the `\(base)` profile: \
      \(trials) simulated trials of the log's own track per candidate, trial *i* seeded \
      \(seed) + *i*, environment `\(conditions.environment.description)`, app \
      `\(conditions.app.rawValue)`; \(candidates) candidates simulated. Each parameter is \
      moved until the simulated statistic that identifies it matches the log's; its interval \
      is the 95 % percentile bootstrap over the log's crossings, each resample inverted \
      through the simulated curve.

      | parameter | identified by | base | fitted (95 % interval) | note |
      |---|---|---|---|---|

      """
    for p in parameters {
      let unit = p.parameter.unit
      var fitted = Self.number(p.fitted, unit: unit)
      if let lower = p.lower, let upper = p.upper {
        fitted += " (\(Self.number(lower, unit: unit))–\(Self.number(upper, unit: unit)))"
      }
      out +=
        "| `\(p.parameter.rawValue)` | \(p.parameter.statistic.description) | "
        + "\(Self.number(p.base, unit: unit)) | \(p.identified ? fitted : "not identified") | "
        + "\(p.note ?? "") |\n"
    }
    out += """

      | statistic | log (95 % interval) | simulated, fitted | simulated, base |
      |---|---|---|---|

      """
    for s in statistics {
      let unit = s.statistic.unit
      out +=
        "| \(s.statistic.description) | \(CalibrationReport.describe(s.observed, unit: unit)) | "
        + "\(CalibrationReport.describe(s.fitted, unit: unit)) | "
        + "\(CalibrationReport.describe(s.base, unit: unit)) |\n"
    }
    out += "\nThe profile is written as `\(name).json`; a scenario loads it with "
    out += "`\"device\": {\"profile\": \"\(name).json\"}` (a path relative to the scenario).\n"
    return Markup.escapingHTML(inMarkdown: out)
  }
}
