import Foundation
import Geo
import JSON
import SimKernel

extension GeofenceReport {
  /// The report as JSON (schema in docs/REPORTS.md, "Geofence accuracy").
  ///
  /// Times are seconds of virtual time rounded to the millisecond, distances metres rounded to
  /// the centimetre, coordinates degrees rounded to 10⁻⁷ (about a centimetre), rates to 10⁻⁴,
  /// so that the same replay gives the same bytes through `JSONValue.jsonText`.
  public var json: JSONValue {
    .object([
      "fences": .array(
        fences.indices.map { i in
          let fence = fences[i]
          return .object([
            "kind": .string(fence.kind.rawValue),
            "identifier": .string(fence.identifier),
            "registration": .number(Double(fence.registration)),
            "center": Self.json(fence.center),
            "radius": Self.metres(fence.radius),
            "notifyOnEntry": .bool(fence.notifyOnEntry),
            "notifyOnExit": .bool(fence.notifyOnExit),
            "activeFrom": Self.seconds(fence.activeFrom),
            "activeUntil": fence.activeUntil.map(Self.seconds) ?? .null,
            "endedBy": fence.endedBy.map { .string($0.rawValue) } ?? .null,
            "insideAtStart": .bool(truth[i].insideAtStart),
            "timeInside": .number(Self.round(truth[i].timeInside, 1e3)),
            "summary": Self.json(fenceSummaries[i]),
          ])
        }),
      "crossings": .array(
        crossings.map { crossing in
          .object([
            "fence": .number(Double(crossing.fence)),
            "direction": .string(crossing.direction.rawValue),
            "time": Self.seconds(crossing.time),
            "position": Self.json(crossing.coordinate),
            "observation": crossing.observation.map { .number(Double($0)) } ?? .null,
            "cause": crossing.cause.map { .string($0.rawValue) } ?? .null,
          ])
        }),
      "observations": .array(
        observations.map { observation in
          .object([
            "fence": .number(Double(observation.fence)),
            "event": .string(observation.event),
            "direction": .string(observation.direction.rawValue),
            "time": Self.seconds(observation.time),
            "truePosition": Self.json(observation.truePosition),
            "believedPosition": observation.believedPosition.map(Self.json) ?? .null,
            "outcome": .string(observation.outcome.rawValue),
            "crossing": observation.crossing.map { .number(Double($0)) } ?? .null,
            "latency": observation.latency.map { .number(Self.round($0, 1e3)) } ?? .null,
            "distancePastBoundary": observation.distancePastBoundary.map(Self.metres) ?? .null,
            "distanceFromBoundary": Self.metres(observation.distanceFromBoundary),
          ])
        }),
      "summary": Self.json(summary),
      "alarms": .array(
        alarms.map { alarm in
          .object([
            "fences": .array(alarm.fences.map { .number(Double($0)) }),
            "summary": Self.json(alarm.summary),
          ])
        }),
    ])
  }

  /// The report as Markdown: a per-fence summary table, the overall line, and the event list
  /// (true crossings and observations merged by time).
  public func markdown() -> String {
    var out = "## Geofence accuracy\n\n"
    if fences.isEmpty {
      out += "No fence was registered.\n"
      return out
    }
    out += "| fence | radius | active | true | detected | missed | false | duplicates "
    out += "| sensitivity | precision | latency median / p90 / max |\n"
    out += "|---|---|---|---|---|---|---|---|---|---|---|\n"
    for (i, fence) in fences.enumerated() {
      out += "| \(name(i)) | \(Self.text(fence.radius, 1e2)) m "
      out += "| \(Self.text(fence.activeFrom.seconds, 1e3))–"
      out += fence.activeUntil.map { "\(Self.text($0.seconds, 1e3)) s" } ?? "end"
      if let reason = fence.endedBy { out += " (\(reason.rawValue))" }
      out += " " + Self.row(fenceSummaries[i]) + "\n"
    }
    out += "| **all fences** | | " + Self.row(summary) + "\n\n"
    out += "Per fence, each registration counts its own crossings. Per alarm (what the user "
    out += "experiences), the fences at one place that were active together are one alarm: a "
    out += "crossing of the place counts once, detected by the first fence to answer it.\n\n"
    out += "| alarm | fences | true | detected | missed | false | duplicates "
    out += "| sensitivity | precision | latency median / p90 / max |\n"
    out += "|---|---|---|---|---|---|---|---|---|---|\n"
    for (i, alarm) in alarms.enumerated() {
      out += "| \(i + 1) | \(alarm.fences.map(name).joined(separator: ", ")) "
      out += Self.row(alarm.summary) + "\n"
    }
    out += "\n"
    out += "Latency and the distance along the true track are measured from the crossing an "
    out += "observation answers: negative when it came before the crossing (an early "
    out += "detection). The distance to the boundary is the device's, when observed: positive "
    out += "outside the circle, negative inside.\n\n"
    out += "| time (s) | fence | what | outcome | latency (s) | along track from crossing (m) "
    out += "| distance to boundary (m) |\n"
    out += "|---|---|---|---|---|---|---|\n"
    var lines: [(SimTime, Int, String)] = []
    for crossing in crossings {
      let outcome =
        crossing.observation != nil
        ? "detected" : "missed: \(crossing.cause?.label ?? "no cause logged")"
      lines.append(
        (
          crossing.time, 0,
          "| \(Self.text(crossing.time.seconds, 1e3)) | \(name(crossing.fence)) "
            + "| true \(crossing.direction.rawValue) | \(outcome) | | | |"
        ))
    }
    for observation in observations {
      let latency = observation.latency.map { Self.text($0, 1e3) } ?? ""
      let past = observation.distancePastBoundary.map { Self.text($0, 1e2) } ?? ""
      lines.append(
        (
          observation.time, 1,
          "| \(Self.text(observation.time.seconds, 1e3)) | \(name(observation.fence)) "
            + "| \(observation.event) (\(observation.direction.rawValue)) "
            + "| \(Self.label(observation)) | \(latency) | \(past) "
            + "| \(Self.text(observation.distanceFromBoundary, 1e2)) |"
        ))
    }
    for line in lines.sorted(by: { ($0.0, $0.1) < ($1.0, $1.1) }) { out += line.2 + "\n" }
    return out
  }

  /// An observation's outcome in words: an early detection says so.
  private static func label(_ observation: Observation) -> String {
    switch observation.outcome {
    case .detected: (observation.latency ?? 0) < 0 ? "early detection" : "detected"
    case .duplicate: "duplicate"
    case .falseTrigger: "false trigger"
    }
  }

  private func name(_ index: Int) -> String {
    let fence = fences[index]
    let suffix = fence.registration > 1 ? " #\(fence.registration)" : ""
    return "\(fence.kind.rawValue) `\(fence.identifier)`\(suffix)"
  }

  private static func row(_ s: Summary) -> String {
    let rate = { (v: Double?) in v.map { "\(text($0 * 100, 10)) %" } ?? "–" }
    let latency = [s.latencyMedian, s.latencyP90, s.latencyMax].map {
      $0.map { "\(text($0, 10)) s" } ?? "–"
    }
    return
      "| \(s.trueCrossings) | \(s.detected) | \(s.missed) | \(s.falseTriggers) | \(s.duplicates) "
      + "| \(rate(s.sensitivity)) | \(rate(s.precision)) | \(latency.joined(separator: " / ")) |"
  }

  private static func json(_ s: Summary) -> JSONValue {
    let optional = { (v: Double?, scale: Double) in
      v.map { JSONValue.number(round($0, scale)) } ?? .null
    }
    return .object([
      "trueCrossings": .number(Double(s.trueCrossings)),
      "detected": .number(Double(s.detected)),
      "missed": .number(Double(s.missed)),
      "falseTriggers": .number(Double(s.falseTriggers)),
      "duplicates": .number(Double(s.duplicates)),
      "sensitivity": optional(s.sensitivity, 1e4),
      "precision": optional(s.precision, 1e4),
      "latencyMedian": optional(s.latencyMedian, 1e3),
      "latencyP90": optional(s.latencyP90, 1e3),
      "latencyMax": optional(s.latencyMax, 1e3),
    ])
  }

  private static func json(_ c: Coordinate) -> JSONValue {
    .object([
      "latitude": .number(round(c.latitude, 1e7)), "longitude": .number(round(c.longitude, 1e7)),
    ])
  }

  private static func seconds(_ t: SimTime) -> JSONValue { .number(round(t.seconds, 1e3)) }

  private static func metres(_ d: Double) -> JSONValue { .number(round(d, 1e2)) }

  static func round(_ value: Double, _ scale: Double) -> Double {
    let r = (value * scale).rounded() / scale
    return r == 0 ? 0 : r
  }

  /// `value` rounded to `1 / scale`, as text.
  static func text(_ value: Double, _ scale: Double) -> String {
    JSONText.number(round(value, scale))
  }
}
