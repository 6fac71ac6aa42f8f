import Cloud
import Device
import Foundation
import Geo
import JSON
import Referee
import SimKernel

extension World {
  /// Evaluates the scenario's expectations after ``run(eventLimit:)``.
  public func result() -> ReplayResult {
    var result = ReplayResult(scenario: scenario)
    result.timelineErrors = timelineErrors.map(\.description)
    result.traceIssues = traceIssues
    result.eventCount = simulation.log.entries.count
    result.pendingWork = phone.runLoopIfUsed?.pendingWork ?? []
    result.assumptions = ReplayResult.AssumptionUse.uses(
      in: simulation.log, device: scenario.device)
    if let budgetStop {
      // A world that did not reach its end shows nothing about its expectations.
      result.timeout = budgetStop
      return result
    }
    result.expectations = scenario.expectations.map(evaluate)
    return result
  }

  private func evaluate(_ expectation: Expectation) -> ExpectationResult {
    func outcome(_ passed: Bool, _ message: String, at time: Double? = nil) -> ExpectationResult {
      ExpectationResult(
        name: expectation.name, kind: expectation.rule.kind, passed: passed, message: message,
        time: time)
    }
    switch expectation.rule {
    case .notificationAfterEntry(let prefix, let region, let within):
      let delivered = simulation.log.events(NotificationEvent.self).first { _, event in
        if case .delivered(let request, _, _, _) = event {
          return request.identifier.hasPrefix(prefix)
        }
        return false
      }?.entry
      let regionText =
        "the region \(Self.text(region.center)) r = \(JSONText.number(region.radius)) m"
      let truth: (time: SimTime, coordinate: Coordinate)?
      do {
        truth = try firstTrueEntry(into: region)
      } catch {
        return outcome(
          false, "the true entry into \(regionText) could not be computed: \(error)")
      }
      guard let entry = truth else {
        if let delivered {
          return outcome(
            false,
            "expected no notification, as the true trace never enters \(regionText); "
              + "one (\"\(prefix)…\") was delivered at \(Self.seconds(delivered.time))",
            at: delivered.time.seconds)
        }
        return outcome(
          false,
          "the true trace never enters \(regionText), so no notification can be judged")
      }
      let entered = "the true entry into \(regionText) at \(Self.seconds(entry.time))"
      guard let delivered else {
        return outcome(
          false,
          "expected a notification \"\(prefix)…\" within \(JSONText.number(within)) s of "
            + "\(entered); none was delivered",
          at: entry.time.seconds)
      }
      let delay = (delivered.time - entry.time).seconds
      let passed = abs(delay) <= within
      return outcome(
        passed,
        "expected a notification \"\(prefix)…\" within \(JSONText.number(within)) s of "
          + "\(entered); it was delivered at \(Self.seconds(delivered.time)), "
          + "\(Self.signed(delay)) s after",
        at: delivered.time.seconds)

    case .noRequestNear(let coordinate, let tolerance):
      for (entry, event) in simulation.log.events(NetworkEvent.self) {
        guard case .request(_, let service, let request) = event else { continue }
        for found in RequestCoordinates.extract(from: request) {
          let distance = Geodesic.wgs84.inverse(from: coordinate, to: found).distance
          if distance <= tolerance {
            return outcome(
              false,
              "expected no request within \(JSONText.number(tolerance)) m of "
                + "\(Self.text(coordinate)); a request to \(service) at "
                + "\(Self.seconds(entry.time)) carried \(Self.text(found))",
              at: entry.time.seconds)
          }
        }
      }
      return outcome(
        true,
        "no request came within \(JSONText.number(tolerance)) m of \(Self.text(coordinate))")

    case .state(let path, let expected, let at):
      let time = at ?? scenario.duration
      let state = snapshots[time] ?? .null
      let actual = StatePath.value(at: path, in: state)
      let when = at.map { "at \(JSONText.number($0)) s" } ?? "at the end"
      guard let actual else {
        return outcome(
          false,
          "expected \(path) to be \(expected.jsonText) \(when); the screen has no \(path) "
            + "(state: \(state.jsonText))", at: time)
      }
      return outcome(
        actual == expected,
        "expected \(path) to be \(expected.jsonText) \(when); it was \(actual.jsonText)",
        at: time)

    case .markersMatch(let query, let path, let at):
      let time = at ?? scenario.duration
      let state = snapshots[time] ?? .null
      let truth = StationTruth.names(of: query, in: stations).sorted()
      let when = at.map { "at \(JSONText.number($0)) s" } ?? "at the end"
      guard case .array(let markers)? = StatePath.value(at: path, in: state) else {
        return outcome(
          false, "expected \(path) \(truth) \(when); the screen shows no \(path) list",
          at: time)
      }
      let titles = markers.compactMap { marker -> String? in
        if case .object(let o) = marker, case .string(let title)? = o["title"] { return title }
        return nil
      }.sorted()
      let missing = truth.filter { !titles.contains($0) }
      let extra = titles.filter { !truth.contains($0) }
      let passed = titles == truth
      var message =
        "expected the \(truth.count) station(s) \(query.text) truly returns \(when); "
        + "\(path) shows \(titles.count)"
      if !missing.isEmpty { message += "; missing \(missing)" }
      if !extra.isEmpty { message += "; unexpected \(extra)" }
      if passed, titles.count != Set(titles).count { message += "; some twice" }
      return outcome(passed, message, at: time)

    case .noCrash:
      return outcome(true, "the app did not crash")

    case .count(let source, let event, let fields, let min, let max, let from, let to):
      let matching = simulation.log.entries(source: source, event: event).filter { entry in
        let t = entry.time.seconds
        if let from, t < from { return false }
        if let to, t > to { return false }
        return fields.allSatisfy { name, value in entry[name]?.json == value }
      }
      let n = matching.count
      let passed = (min.map { n >= $0 } ?? true) && (max.map { n <= $0 } ?? true)
      var bounds: String
      switch (min, max) {
      case (let lo?, let hi?) where lo == hi: bounds = "exactly \(lo)"
      case (let lo?, let hi?): bounds = "between \(lo) and \(hi)"
      case (let lo?, nil): bounds = "at least \(lo)"
      case (nil, let hi?): bounds = "at most \(hi)"
      case (nil, nil): bounds = "any number of"
      }
      let filter = fields.isEmpty ? "" : " with \(JSONValue.object(fields).jsonText)"
      var message = "expected \(bounds) \(source).\(event)\(filter); there were \(n)"
      if let first = matching.first { message += ", the first at \(Self.seconds(first.time))" }
      let decisive: Double? =
        if let max, n > max { matching[max].time.seconds } else { matching.first?.time.seconds }
      return outcome(passed, message, at: decisive)
    }
  }

  /// A time for messages, to the millisecond.
  static func seconds(_ time: SimTime) -> String {
    "\(JSONText.number((time.seconds * 1_000).rounded() / 1_000)) s"
  }

  static func signed(_ seconds: Double) -> String {
    let rounded = (seconds * 10).rounded() / 10
    return JSONText.number(rounded)
  }

  static func text(_ c: Coordinate) -> String {
    "(\(JSONText.number(c.latitude)), \(JSONText.number(c.longitude)))"
  }
}

/// Reads a value out of an app's observable state by a dotted path: `label`,
/// `markers[0].title`, `markers.count` (the length of an array or object).
enum StatePath {
  static func value(at path: String, in state: JSONValue) -> JSONValue? {
    guard let path = JSONPath(dotted: path) else { return nil }
    var current = state
    for component in path.components {
      switch (component, current) {
      case (.key(let key), .object(let o)) where o[key] != nil: current = o[key]!
      case (.key("count"), .object(let o)): current = .number(Double(o.count))
      case (.key("count"), .array(let a)): current = .number(Double(a.count))
      case (.key("count"), .string(let s)): current = .number(Double(s.count))
      case (.index(let i), .array(let a)) where a.indices.contains(i): current = a[i]
      default: return nil
      }
    }
    return current
  }
}

/// The stations a query truly returns, by the referee's NCMB semantics rather than the
/// datastore's code: the central angle on the 6,371 km sphere within `km / 6371`
/// (``NCMBSphere``), and containment in the box the two corners mean (``NCMBBox``: latitudes
/// from the smaller to the larger, longitudes the short way round, edges included).
enum StationTruth {
  static func names(of query: Expectation.StationQuery, in stations: [StationRecord]) -> [String] {
    switch query {
    case .near(let center, let kilometers):
      let angle = NCMBSphere.radians(kilometers: kilometers)
      return stations.filter { NCMBSphere.contains($0.point.coordinate, within: angle, of: center) }
        .map(\.name)
    case .box(let sw, let ne):
      let box = NCMBBox(southwest: sw, northeast: ne)
      return stations.filter { box.contains($0.point.coordinate) }.map(\.name)
    }
  }
}

extension Expectation.StationQuery {
  var text: String {
    switch self {
    case .near(let c, let km):
      "a near query within \(JSONText.number(km)) km of \(World.text(c))"
    case .box(let sw, let ne):
      "a box query from \(World.text(sw)) to \(World.text(ne))"
    }
  }
}

/// Coordinates carried by a network request: query parameters (`lat`/`lon`,
/// `coordinates=lat,lng`, `focus=lat,lng`) and `latitude`/`longitude` pairs anywhere in its
/// JSON body (an NCMB where-clause).
enum RequestCoordinates {
  static func extract(from request: HTTPRequest) -> [Coordinate] {
    var found: [Coordinate] = []
    do {
      func parameter(_ name: String) -> String? {
        request.queryValue(name).map { $0.removingPercentEncoding ?? $0 }
      }
      if let lat = parameter("lat").flatMap(Double.init),
        let lon = (parameter("lon") ?? parameter("lng")).flatMap(Double.init),
        let c = try? Coordinate(latitude: lat, longitude: lon)
      {
        found.append(c)
      }
      for name in ["coordinates", "focus"] {
        if let text = parameter(name) {
          let parts = text.split(separator: ",").compactMap { Double($0) }
          if parts.count == 2, let c = try? Coordinate(latitude: parts[0], longitude: parts[1]) {
            found.append(c)
          }
        }
      }
    }
    if let body = request.body { collect(body, into: &found) }
    return found
  }

  private static func collect(_ value: JSONValue, into found: inout [Coordinate]) {
    switch value {
    case .object(let o):
      if case .number(let lat)? = o["latitude"], case .number(let lon)? = o["longitude"],
        let c = try? Coordinate(latitude: lat, longitude: lon)
      {
        found.append(c)
      }
      for key in o.keys.sorted() { collect(o[key]!, into: &found) }
    case .array(let a): for v in a { collect(v, into: &found) }
    default: break
    }
  }
}
