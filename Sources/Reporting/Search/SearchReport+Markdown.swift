import Foundation

extension SearchReport {
  /// The report as Markdown: a table of the services (requests, error rate, latency median /
  /// p90 / max, mean recall and precision, anomalies) and a table of the requests; with
  /// three-word requests, a note on what their round-trip check does not catch.
  ///
  /// Durations are in milliseconds; figures are rounded as in ``json``.
  public func markdown() -> String {
    var out = "## Search performance: \(scenario)\n\n"
    if requests.isEmpty {
      out += "The app made no geo searches.\n"
      return out
    }
    out += "| service | requests | errors | error rate | total ms (median / p90 / max) "
    out += "| network ms | service ms | mean recall | mean precision | anomalies |\n"
    out += "|---|---:|---:|---:|---|---|---|---:|---:|---|\n"
    for s in summaries {
      let anomalies = s.anomalies.keys.sorted().map { "\($0.rawValue) \(s.anomalies[$0]!)" }
      out += "| \(s.service) | \(s.requests) | \(s.errors) | \(Self.percent(s.errorRate)) "
      out += "| \(Self.stats(s.total)) | \(Self.stats(s.network)) | \(Self.stats(s.serviceTime)) "
      out += "| \(Self.ratio(s.meanRecall)) | \(Self.ratio(s.meanPrecision)) "
      out += "| \(Markup.tableCell(anomalies.joined(separator: ", "))) |\n"
    }
    out += "\n| # | sent s | service | kind | request | outcome | total ms | results "
    out += "| recall | precision | anomalies |\n"
    out += "|---:|---:|---|---|---|---|---:|---:|---:|---:|---|\n"
    for (i, r) in requests.enumerated() {
      var outcome = r.failure ?? r.status.map(String.init) ?? "no answer"
      if let code = r.errorCode { outcome += " \(code)" }
      var results = "\(r.results.count)"
      if let truth = r.ncmb?.truth { results += " of \(truth.count) true" }
      if let check = r.threeWords, check.failed { results += " (wrong square)" }
      out += "| \(i + 1) | \(Self.fixed(r.sentAt.seconds, 3)) | \(r.service) | \(r.kind.rawValue) "
      out += "| `\(Markup.tableCell(r.request))` | \(Markup.tableCell(outcome)) "
      out += "| \(r.latency.map { Self.fixed($0.totalSeconds * 1000, 0) } ?? "–") | \(results) "
      out += "| \(Self.ratio(r.ncmb?.recall)) | \(Self.ratio(r.ncmb?.precision)) "
      out += "| \(r.anomalies.map(\.rawValue).joined(separator: ", ")) |\n"
    }
    if requests.contains(where: { $0.threeWords != nil }) {
      out += "\nThree-word answers are checked by decoding them again with the same service "
      out += "(a round trip): that catches an answer altered on its way, not a grid or word "
      out += "mapping that is wrong the same way in both directions.\n"
    }
    return out
  }

  private static func stats(_ s: LatencyStatistics?) -> String {
    guard let s else { return "–" }
    return [s.median, s.p90, s.max].map { fixed($0 * 1000, 0) }.joined(separator: " / ")
  }

  private static func ratio(_ value: Double?) -> String {
    value.map { fixed($0, 3) } ?? "–"
  }

  private static func percent(_ value: Double) -> String { fixed(value * 100, 1) + " %" }

  /// `value` with `digits` decimals, independent of the locale.
  private static let posix = Locale(identifier: "en_US_POSIX")

  private static func fixed(_ value: Double, _ digits: Int) -> String {
    Markup.fixed(value, decimals: digits)
      ?? String(format: "%.\(digits)f", locale: posix, value)
  }

}
