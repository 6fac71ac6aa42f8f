import Foundation
import JSON

extension CalibrationReport {
  /// The file names the report is written as.
  public static let markdownName = "calibration.md"
  /// The JSON file's name.
  public static let jsonName = "calibration.json"
  /// The chart's name.
  public static let svgName = "calibration.svg"

  /// Writes `calibration.md`, `calibration.json` and `calibration.svg` into `folder`, creating
  /// it when needed. The bytes depend only on the suite and the seed.
  public func write(to folder: URL) throws {
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    try Data(markdown.utf8).write(to: folder.appendingPathComponent(Self.markdownName))
    try Data(json.jsonText.appending("\n").utf8).write(
      to: folder.appendingPathComponent(Self.jsonName))
    try Data(svg.utf8).write(to: folder.appendingPathComponent(Self.svgName))
  }

  // MARK: Markdown

  /// The table, published against simulated, with each design's assumptions.
  public var markdown: String {
    var out = """
      # Calibration: published field tests on the simulated phone

      Each row re-runs a published field test's design and estimates its figure from the \
      trials; trial *i* runs in a world seeded \(seed) + *i*. Intervals are 95 %: Wilson's \
      score interval for shares, the order-statistic interval for medians, the percentile \
      bootstrap (\(CalibrationEstimate.bootstrapResamples) resamples, seeded) for means. \
      *Inside* says whether the estimate lies in the band docs/DEVICE.md states.

      | check | source | design (trials) | published | simulated (95 % interval) | band | inside |
      |---|---|---|---|---|---|---|

      """
    for row in rows {
      let cells = [
        "`\(row.check.id)`", "[\(row.design.source)](\(row.design.reference))",
        "\(row.design.summary) (\(row.trials))", row.check.published,
        "\(row.check.measure.description): \(Self.describe(row.estimate, unit: row.check.measure.unit))",
        Self.describe(band: row.check.band, unit: row.check.measure.unit),
        row.isInsideBand ? "yes" : "**no**",
      ]
      out += "| " + cells.map(Markup.tableCell).joined(separator: " | ") + " |\n"
    }
    out += "\n## Designs and assumptions\n"
    var seen: Set<String> = []
    for row in rows where seen.insert(row.design.id).inserted {
      out += "\n### \(row.design.source)\n\n\(row.design.summary).\n\n"
      out += "Device profile: `\(row.design.profile.name)` (\(row.design.profile.summary)).\n\n"
      for assumption in row.design.assumptions { out += "- \(assumption)\n" }
    }
    out += "\n## Bands\n\n"
    for row in rows {
      out +=
        "- `\(row.check.id)`: \(Self.describe(band: row.check.band, unit: row.check.measure.unit)) — \(row.check.bandReason)\n"
    }
    return Markup.escapingHTML(inMarkdown: out)
  }

  /// A value in its unit: a share as a percentage, seconds and metres whole.
  static func format(_ x: Double, unit: String) -> String {
    switch unit {
    case "share": String(format: "%.0f %%", x * 100)
    case "s": String(format: "%.0f s", x)
    default: String(format: "%.0f m", x)
    }
  }

  /// An estimate as the table prints it: the value and its interval in `unit` (`share`, `s`
  /// or `m`), what it rests on and the interval's method.
  public static func describe(_ estimate: CalibrationEstimate, unit: String) -> String {
    guard let value = estimate.value, let lower = estimate.lower, let upper = estimate.upper
    else { return "no estimate (\(estimate.count) values)" }
    let counted =
      estimate.successes.map { "\($0) of \(estimate.count)" } ?? "\(estimate.count) values"
    return
      "\(format(value, unit: unit)) (\(format(lower, unit: unit))–\(format(upper, unit: unit))), \(counted), \(estimate.method.rawValue)"
  }

  /// A band as the table prints it, in `unit`.
  public static func describe(band: ClosedRange<Double>, unit: String) -> String {
    "\(format(band.lowerBound, unit: unit))–\(format(band.upperBound, unit: unit))"
  }

  // MARK: JSON

  /// Every row with its design, estimate and band (keys sorted; numbers rounded to 4
  /// decimals).
  public var json: JSONValue {
    func number(_ x: Double?) -> JSONValue {
      x.map { .number(($0 * 10_000).rounded() / 10_000) } ?? .null
    }
    let rows = self.rows.map { row -> JSONValue in
      .object([
        "id": .string(row.check.id), "design": .string(row.design.id),
        "source": .string(row.design.source), "reference": .string(row.design.reference),
        "summary": .string(row.design.summary), "profile": .string(row.design.profile.name),
        "trials": .number(Double(row.trials)),
        "published": .string(row.check.published),
        "publishedValue": number(row.check.publishedValue),
        "measure": .string(row.check.measure.description),
        "unit": .string(row.check.measure.unit),
        "estimate": .object([
          "value": number(row.estimate.value), "lower": number(row.estimate.lower),
          "upper": number(row.estimate.upper), "count": .number(Double(row.estimate.count)),
          "successes": row.estimate.successes.map { .number(Double($0)) } ?? .null,
          "method": .string(row.estimate.method.rawValue),
        ]),
        "band": .array([number(row.check.band.lowerBound), number(row.check.band.upperBound)]),
        "bandReason": .string(row.check.bandReason), "inside": .bool(row.isInsideBand),
      ])
    }
    var designs: [JSONValue] = []
    var seen: Set<String> = []
    for row in self.rows where seen.insert(row.design.id).inserted {
      designs.append(
        .object([
          "id": .string(row.design.id),
          "assumptions": .array(row.design.assumptions.map(JSONValue.string)),
        ]))
    }
    return .object([
      "seed": .number(Double(seed)), "confidence": .number(CalibrationEstimate.confidence),
      "rows": .array(rows), "designs": .array(designs),
      "allInsideBands": .bool(allInsideBands),
    ])
  }

  // MARK: SVG

  /// One panel a row: the band shaded, the published figure as a blue tick, the estimate as a
  /// dot with its interval (green inside the band, red outside), each on its own axis.
  public var svg: String {
    let width = 960.0
    let labelWidth = 330.0
    let plotLeft = labelWidth + 20
    let plotWidth = width - plotLeft - 30
    let rowHeight = 64.0
    let top = 90.0
    var document = SVGDocument(
      width: width, height: top + rowHeight * Double(rows.count) + 30,
      title: "Published field tests against the simulated phone")
    document.text(
      16, 24, "Published field tests against the simulated phone (95 % intervals, seed \(seed))",
      size: 15, weight: "bold")
    document.legend(
      [
        ("#d9f0d3", "band"), ("#1f77b4", "published"), ("#2ca02c", "simulated, inside"),
        ("#d62728", "simulated, outside"),
      ], x: width - 190, y: 6)
    for (index, row) in rows.enumerated() {
      let y = top + rowHeight * Double(index)
      let unit = row.check.measure.unit
      document.text(16, y + 20, row.check.id, size: 12, weight: "bold")
      document.text(16, y + 36, row.check.measure.description, size: 11, fill: "#555555")
      var values = [row.check.band.lowerBound, row.check.band.upperBound]
      values += [
        row.estimate.value, row.estimate.lower, row.estimate.upper, row.check.publishedValue,
      ]
      .compactMap { $0 }
      var low = values.min() ?? 0
      var high = values.max() ?? 1
      if unit == "share" {
        low = 0
        high = 1
      } else {
        let pad = max(1, (high - low) * 0.1)
        low -= pad
        high += pad
      }
      func x(_ v: Double) -> Double { plotLeft + (v - low) / (high - low) * plotWidth }
      let axisY = y + 40
      document.rect(
        x(row.check.band.lowerBound), y + 12,
        x(row.check.band.upperBound) - x(row.check.band.lowerBound),
        34, fill: "#d9f0d3",
        title: "band \(Self.describe(band: row.check.band, unit: unit))")
      document.line(plotLeft, axisY, plotLeft + plotWidth, axisY, stroke: "#999999")
      for tick in niceTicks(low, high, count: 6) {
        document.line(x(tick), axisY, x(tick), axisY + 4, stroke: "#999999")
        document.text(
          x(tick), axisY + 16, Self.format(tick, unit: unit), size: 10, anchor: "middle")
      }
      if let published = row.check.publishedValue {
        document.line(x(published), y + 10, x(published), y + 48, stroke: "#1f77b4", width: 3)
      }
      if let value = row.estimate.value, let lower = row.estimate.lower,
        let upper = row.estimate.upper
      {
        let color = row.isInsideBand ? "#2ca02c" : "#d62728"
        document.line(x(lower), y + 29, x(upper), y + 29, stroke: color, width: 2)
        document.line(x(lower), y + 24, x(lower), y + 34, stroke: color, width: 2)
        document.line(x(upper), y + 24, x(upper), y + 34, stroke: color, width: 2)
        document.circle(
          x(value), y + 29, r: 5, fill: color,
          title: "simulated \(Self.describe(row.estimate, unit: unit))")
      } else {
        document.text(plotLeft + plotWidth / 2, y + 32, "no estimate", size: 11, anchor: "middle")
      }
    }
    return document.text
  }
}
