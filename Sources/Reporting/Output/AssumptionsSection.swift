import Replay

/// The "Assumptions this run depended on" section of a scenario's report (docs/REPORTS.md):
/// each unconfirmed default the replay depended on, its value and tag, what it means, how often
/// and when first, and the scenario keys that change it.
enum AssumptionsSection {
  /// The section's heading, one level under the scenario's.
  static let heading = "### Assumptions this run depended on"

  /// The section as Markdown, or the empty string when the replay depended on none; `runs` is
  /// the number of runs of a scenario replayed several times.
  static func markdown(_ uses: [ReplayResult.AssumptionUse], runs: Int? = nil) -> String {
    guard !uses.isEmpty else { return "" }
    var md = heading + "\n\n"
    md +=
      "The replay exercised these defaults, which no source confirms yet (docs/DEVICE.md), "
      + "so its verdict may depend on them; set the scenario keys named to see whether it "
      + "does.\n\n"
    md += "| parameter | value | tag | what it means | exercised | first | scenario keys |\n"
    md += "|---|---|---|---|---|---|---|\n"
    for use in uses {
      let keys =
        use.scenarioKeys.isEmpty
        ? "none yet" : use.scenarioKeys.map { "`\($0)`" }.joined(separator: ", ")
      md +=
        "| `\(use.assumption.parameter)` | \(Markup.tableCell(use.value)) | \(use.tag) | "
        + "\(Markup.tableCell(use.assumption.summary)) | \(use.exercisedText(of: runs)) | \(use.firstText) | "
        + "\(keys) |\n"
    }
    return md + "\n"
  }

  /// One JUnit property (name, value) per use, for a test suite's `<properties>`.
  static func junitProperties(_ uses: [ReplayResult.AssumptionUse], runs: Int?)
    -> [(String, String)]
  {
    uses.map { use in
      (
        "assumption.\(use.assumption.rawValue)",
        "\(use.assumption.parameter) = \(use.value) \(use.tag); exercised "
          + "\(use.exercisedText(of: runs)), first at \(use.firstText)"
      )
    }
  }

}
