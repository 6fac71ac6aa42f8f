import ArgumentParser
import Foundation
import Reporting

/// `geosim calibrate [--out dir] [--seed s] [--trials n] [--check]`: the published field tests
/// of region monitoring re-run on the simulated phone, published against simulated.
struct CalibrateCommand: ToolCommand {
  static let configuration = CommandConfiguration(
    commandName: "calibrate",
    abstract: "Re-run the published region-monitoring field tests and compare.",
    discussion: """
      Runs each published field test's design (Radius Networks 2015, Shevchenko & Reips 2024, \
      openradar 17064346, the Qiita field test, Apple's "3 to 5 minutes") on the simulated \
      phone, trial i seeded with seed + i, and writes calibration.md, calibration.json and \
      calibration.svg: each published figure against the simulated estimate with its 95 % \
      interval and the band docs/DEVICE.md states. With --check, exits 1 when a row is \
      outside its band. Build with -c release.
      """)

  @Option(help: ArgumentHelp("The folder the report is written to.", valueName: "dir"))
  var out = "Reports/calibration"

  @Option(parsing: .unconditional, help: "The seed of trial 0 (trial i has seed + i).")
  var seed: UInt64 = 0

  @Option(
    parsing: .unconditional,
    help: ArgumentHelp(
      "Run this many trials per design instead of each design's own.", valueName: "n"))
  var trials: Int?

  @Flag(help: "Exit 1 when a row's estimate is outside its band.")
  var check = false

  func validate() throws {
    if let trials, trials < 1 {
      throw ValidationError("--trials must be at least 1, got \(trials)")
    }
  }

  func run(in tool: ToolContext) throws -> Int32 {
    let folder = try OutputFolder(URL(fileURLWithPath: out))
    defer { folder.release() }
    let started = Date()
    let report = try CalibrationSuite.published.run(trials: trials, seed: seed)
    let elapsed = Date().timeIntervalSince(started)
    do {
      try report.write(to: folder.url)
    } catch {
      throw BadInput("cannot write the report into \(out): \(OutputFolder.reason(error))")
    }
    var text = ""
    for row in report.rows {
      let unit = row.check.measure.unit
      text += "\(row.isInsideBand ? "inside " : "OUTSIDE") \(row.check.id): "
      text += "\(CalibrationReport.describe(row.estimate, unit: unit)); band "
      text += "\(CalibrationReport.describe(band: row.check.band, unit: unit))\n"
    }
    let outside = report.rows.filter { !$0.isInsideBand }.count
    text += "\(report.rows.count - outside) of \(report.rows.count) rows inside their bands; "
    text += String(format: "%.1f s; ", elapsed) + "written to \(out)\n"
    tool.terminal.write(text)
    return check && outside > 0 ? 1 : 0
  }
}
