import Geo
import JSON

/// Something that must hold after a replay, checked against the event log, the app's screen
/// and the true trace.
public struct Expectation: Sendable {
  /// A name for reports: the scenario's, or the rule in words when it gives none
  /// (``Rule/summary``), numbered when two would read the same.
  public var name: String
  /// What must hold.
  public var rule: Rule
  /// In a scenario replayed several times, the share of runs the rule must hold in; `nil`
  /// for every run.
  public var rate: Rate?

  /// An expectation.
  public init(name: String, _ rule: Rule, rate: Rate? = nil) {
    self.name = name
    self.rule = rule
    self.rate = rate
  }

  /// How often an expectation must hold over a scenario's runs (`"rate": {"atLeast": 0.9}`).
  ///
  /// It holds when the share of runs in which the rule held is at least ``atLeast``; the
  /// report gives that share with its 95 % Wilson interval (docs/REPORTS.md).
  public struct Rate: Sendable, Hashable {
    /// The least share of runs, above 0 and at most 1.
    public var atLeast: Double

    /// A rate.
    public init(atLeast: Double) {
      self.atLeast = atLeast
    }
  }

  /// A circle on the ground.
  public struct Circle: Sendable, Hashable {
    /// The centre.
    public var center: Coordinate
    /// The radius in metres.
    public var radius: Double

    /// A circle.
    public init(center: Coordinate, radius: Double) {
      self.center = center
      self.radius = radius
    }
  }

  /// An NCMB-style query whose true result set markers must equal.
  public enum StationQuery: Sendable, Hashable {
    /// Stations within `kilometers` of `center`.
    case near(Coordinate, kilometers: Double)
    /// Stations inside the box (south-west and north-east corners).
    case box(southwest: Coordinate, northeast: Coordinate)
  }

  /// The kind of an expectation: its rule without the rule's values. The raw value is the
  /// kind's name in scenario files (`"expect"`) and in reports (`"kind"`).
  public enum Kind: String, Sendable, Hashable, CaseIterable {
    /// ``Rule/notificationAfterEntry(identifierPrefix:region:within:)``.
    case notificationAfterEntry
    /// ``Rule/noRequestNear(_:tolerance:)``.
    case noRequestNear
    /// ``Rule/state(path:equals:at:)``.
    case state
    /// ``Rule/markersMatch(_:path:at:)``.
    case markersMatch
    /// ``Rule/noCrash``.
    case noCrash
    /// ``Rule/count(source:event:fields:min:max:from:to:)``.
    case count
  }

  /// The kinds of expectations.
  public enum Rule: Sendable {
    /// A notification whose identifier starts with `identifierPrefix` is delivered within
    /// `within` seconds after the true trace first enters `region`.
    case notificationAfterEntry(identifierPrefix: String, region: Circle, within: Double)
    /// No request to a cloud service carries a coordinate within `tolerance` metres of
    /// `coordinate` (the (0, 0) of never-set stored values).
    case noRequestNear(Coordinate, tolerance: Double)
    /// The app's observable state at `path` (for example `label` or `markers.count`) equals
    /// `value` at second `at` (the end of the run when `nil`).
    case state(path: String, equals: JSONValue, at: Double?)
    /// The titles of the markers listed at `path` in the app's observable state (`markers` by
    /// default; an app that also marks its taps may list its station markers apart), at `at`
    /// (the end when `nil`), are exactly the names of the dataset's stations that `query`
    /// truly returns.
    case markersMatch(StationQuery, path: String, at: Double?)
    /// The app never crashes (its process never traps and no callback throws).
    case noCrash
    /// The number of log entries from `source` with `event` whose fields equal `fields`, in
    /// the window (`from`, `to` seconds), lies within `min`...`max`.
    case count(
      source: String, event: String, fields: [String: JSONValue], min: Int?, max: Int?,
      from: Double?, to: Double?)
  }
}

extension Expectation.Rule {
  /// The rule's kind.
  public var kind: Expectation.Kind {
    switch self {
    case .notificationAfterEntry: .notificationAfterEntry
    case .noRequestNear: .noRequestNear
    case .state: .state
    case .markersMatch: .markersMatch
    case .noCrash: .noCrash
    case .count: .count
    }
  }
}

extension Expectation {
  /// `expectations` with every name told apart: a name a previous expectation already has gets
  /// its occurrence number (`… (2)`).
  static func distinctlyNamed(_ expectations: [Expectation]) -> [Expectation] {
    var seen: [String: Int] = [:]
    return expectations.map { expectation in
      var e = expectation
      let n = (seen[e.name] ?? 0) + 1
      seen[e.name] = n
      if n > 1 { e.name += " (\(n))" }
      return e
    }
  }
}

extension Expectation.Rule {
  /// The rule in words, the name of an expectation the scenario does not name
  /// ("exactly 1 notifications.delivered", "the app does not crash").
  public var summary: String {
    func number(_ value: Double) -> String { JSONText.number(value) }
    func when(_ at: Double?) -> String { at.map { "at \(number($0)) s" } ?? "at the end" }
    switch self {
    case .notificationAfterEntry(let prefix, let region, let within):
      return
        "a notification \"\(prefix)…\" within \(number(within)) s of entering "
        + "(\(number(region.center.latitude)), \(number(region.center.longitude))) "
        + "r = \(number(region.radius)) m"
    case .noRequestNear(let coordinate, let tolerance):
      return
        "no request within \(number(tolerance)) m of "
        + "(\(number(coordinate.latitude)), \(number(coordinate.longitude)))"
    case .state(let path, let value, let at):
      return "\(path) is \(value.jsonText) \(when(at))"
    case .markersMatch(let query, let path, let at):
      let described =
        switch query {
        case .near(let c, let km):
          "stations within \(number(km)) km of (\(number(c.latitude)), \(number(c.longitude)))"
        case .box(let sw, let ne):
          "stations in the box (\(number(sw.latitude)), \(number(sw.longitude)))–"
            + "(\(number(ne.latitude)), \(number(ne.longitude)))"
        }
      return "\(path) show the \(described) \(when(at))"
    case .noCrash:
      return "the app does not crash"
    case .count(let source, let event, let fields, let min, let max, let from, let to):
      let amount =
        switch (min, max) {
        case (let lo?, let hi?) where lo == hi: "exactly \(lo)"
        case (let lo?, let hi?): "\(lo) to \(hi)"
        case (let lo?, nil): "at least \(lo)"
        case (nil, let hi?): "at most \(hi)"
        case (nil, nil): "any number of"
        }
      var text = "\(amount) \(source).\(event)"
      if !fields.isEmpty {
        text +=
          " with "
          + fields.keys.sorted().map { "\($0) = \(fields[$0]!.jsonText)" }.joined(separator: ", ")
      }
      switch (from, to) {
      case (let a?, let b?): text += " between \(number(a)) s and \(number(b)) s"
      case (let a?, nil): text += " after \(number(a)) s"
      case (nil, let b?): text += " before \(number(b)) s"
      case (nil, nil): break
      }
      return text
    }
  }
}
