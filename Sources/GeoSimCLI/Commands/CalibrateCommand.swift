import ArgumentParser
import Device
import Foundation
import JSON
import Replay
import Reporting
import Traces

/// `geosim calibrate [--out dir] [--seed s] [--trials n] [--check]`: the published field tests
/// of region monitoring re-run on the simulated phone, published against simulated.
///
/// `geosim calibrate --fit --track walk.gpx --events log.csv [--name n] [--base p]
/// [--environment e] [--app a] [--trials n] [--seed s] [--out dir]`: the region engine's
/// parameters fitted to a field log recorded on the user's own phone, written as a profile.
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

      With --fit, fits the region engine's parameters (missProbability, entryLatencyMedian, \
      exitLatencyMedian, coarseAccuracy) to a field log recorded on your own phone: the true \
      track (--track, GPX) and what the app logged (--events, CSV or JSON Lines of \
      time,event,region,latitude,longitude,radius rows; docs/DEVICE.md, "Field logs"). Every \
      candidate is simulated on the log's own track, --trials trials each (default 20), and \
      fit.md, fit.json and the profile <name>.json are written into --out (default \
      Reports/fit).
      """)

  @Option(
    help: ArgumentHelp(
      "The folder the report is written to (Reports/calibration, or Reports/fit with --fit).",
      valueName: "dir"))
  var out: String?

  @Flag(help: "Fit a device profile to a field log instead of running the published tests.")
  var fit = false

  @Option(help: ArgumentHelp("With --fit: the true track (GPX).", valueName: "file"))
  var track: String?

  @Option(
    help: ArgumentHelp(
      "With --fit: the app's logged region events (CSV or JSON Lines).", valueName: "file"))
  var events: String?

  @Option(help: ArgumentHelp("With --fit: the fitted profile's name.", valueName: "name"))
  var name = "my-iphone"

  @Option(
    help: ArgumentHelp(
      "With --fit: the built-in profile the fit starts from, or a profile file.",
      valueName: "profile"))
  var base = DeviceProfile.standard.name

  @Option(
    help: ArgumentHelp(
      "With --fit: where the log was recorded: openSky, urbanCanyon or indoor.", valueName: "kind"
    ))
  var environment = "openSky"

  @Option(
    help: ArgumentHelp(
      "With --fit: the app's state: background, foreground or terminated.", valueName: "state"))
  var app = FieldAppState.background.rawValue

  @Option(parsing: .unconditional, help: "The seed of trial 0 (trial i has seed + i).")
  var seed: UInt64 = 0

  @Option(
    parsing: .unconditional,
    help: ArgumentHelp(
      "Run this many trials per design instead of each design's own.", valueName: "n"))
  var trials: Int?

  @Flag(help: "Exit 1 when a row's estimate is outside its band.")
  var check = false

  static let environments: [String: EnvironmentKind] = [
    "openSky": .openSky, "urbanCanyon": .urbanCanyon, "indoor": .indoor,
  ]

  func validate() throws {
    if let trials, trials < 1 {
      throw ValidationError("--trials must be at least 1, got \(trials)")
    }
    if fit {
      guard track != nil, events != nil else {
        throw ValidationError("--fit needs --track (the true track) and --events (the app's log)")
      }
      guard Scenario.isValidName(name) else {
        throw ValidationError(
          "--name must be letters, digits, '.', '_' and '-' (it names the profile file), got '\(name)'"
        )
      }
      guard Self.environments[environment] != nil else {
        throw ValidationError(
          "--environment must be openSky, urbanCanyon or indoor, got '\(environment)'")
      }
      guard FieldAppState(rawValue: app) != nil else {
        throw ValidationError("--app must be background, foreground or terminated, got '\(app)'")
      }
    } else {
      for (option, given) in [("--track", track != nil), ("--events", events != nil)] where given {
        throw ValidationError("\(option) is only for --fit")
      }
    }
  }

  func run(in tool: ToolContext) throws -> Int32 {
    if fit { return try runFit(in: tool) }
    let out = self.out ?? "Reports/calibration"
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

  /// `--fit`: reads the log, fits, writes the report and the profile.
  func runFit(in tool: ToolContext) throws -> Int32 {
    let out = self.out ?? "Reports/fit"
    let baseProfile: DeviceProfile
    if let builtIn = DeviceProfile.named(base) {
      baseProfile = builtIn
    } else if base.hasSuffix(".json") {
      do { baseProfile = try DeviceProfile(contentsOf: base) } catch let error as ScenarioError {
        throw BadInput("--base: \(error)")
      }
    } else {
      let names = DeviceProfile.builtIn.map(\.name).joined(separator: ", ")
      throw BadInput("--base: unknown profile '\(base)' (expected \(names) or a .json file)")
    }
    let log: FieldLog
    do {
      log = try FieldLog.read(track: track!, events: events!)
    } catch let error as FieldLogError {
      throw BadInput("\(error)")
    } catch let error as TraceError {
      throw BadInput("\(error)")
    }
    var conditions = FieldConditions()
    conditions.environment = Self.environments[environment]!
    conditions.app = FieldAppState(rawValue: app)!
    let folder = try OutputFolder(URL(fileURLWithPath: out))
    defer { folder.release() }
    let started = Date()
    let report: FieldFitReport
    do {
      report = try FieldFit(
        log: log, base: baseProfile, name: name, conditions: conditions, trials: trials ?? 20,
        seed: seed
      ).run()
    } catch let error as FieldLogError {
      throw BadInput("\(events!): \(error.message)")
    }
    let elapsed = Date().timeIntervalSince(started)
    do {
      try report.write(to: folder.url)
    } catch {
      throw BadInput("cannot write the fit into \(out): \(OutputFolder.reason(error))")
    }
    var text = ""
    for p in report.parameters {
      text += "\(p.parameter.rawValue): "
      if p.identified {
        text += "\(JSONText.number((p.fitted * 1000).rounded() / 1000))"
        if let lower = p.lower, let upper = p.upper {
          text += " (95 %: \(JSONText.number((lower * 1000).rounded() / 1000))–"
          text += "\(JSONText.number((upper * 1000).rounded() / 1000)))"
        }
        text += " \(p.parameter.unit)"
      } else {
        text += "not identified, kept \(JSONText.number(p.base)) \(p.parameter.unit)"
      }
      text += "\n"
    }
    text +=
      "\(report.crossings) crossings, \(report.candidates) candidates × \(report.trials) trials; "
    text += String(format: "%.1f s; ", elapsed) + "written to \(out) (\(name).json)\n"
    tool.terminal.write(text)
    return 0
  }
}
