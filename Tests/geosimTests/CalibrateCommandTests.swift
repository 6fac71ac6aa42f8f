import Foundation
import Testing

private let example = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
  .deletingLastPathComponent().deletingLastPathComponent()
  .appendingPathComponent("docs/examples/field-log")

/// `geosim calibrate`: a reduced suite written into the output folder, `--check` judging the
/// bands, and its usage mistakes.
@Suite struct CalibrateCommandTests {
  @Test func writesTheTableTheJSONAndTheChart() throws {
    let folder = try scratchFolder("calibrate")
    let result = run(["calibrate", "--trials", "2", "--out", folder.path])
    #expect(result.code == 0, "\(result.err)")
    #expect(result.out.contains("radius-within-30s") && result.out.contains("rows inside"))
    let names = try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
    #expect(names == ["calibration.json", "calibration.md", "calibration.svg"])
  }

  @Test func checkExitsOneExactlyWhenARowIsOutsideItsBand() throws {
    let folder = try scratchFolder("calibrate-check")
    let result = run(["calibrate", "--trials", "2", "--check", "--out", folder.path])
    let outside = result.out.split(separator: "\n").contains { $0.hasPrefix("OUTSIDE") }
    #expect(result.code == (outside ? 1 : 0), "\(result.out)")
  }

  @Test func refusesFewerThanOneTrial() {
    let result = run(["calibrate", "--trials", "0"])
    #expect(result.code == 2)
    #expect(result.err.contains("--trials must be at least 1"), "\(result.err)")
  }

  // MARK: --fit

  @Test func fitWritesTheReportAndTheProfileOfTheDocumentedExample() throws {
    let folder = try scratchFolder("calibrate-fit")
    let result = run([
      "calibrate", "--fit", "--track", example.appendingPathComponent("walk.gpx").path,
      "--events", example.appendingPathComponent("events.csv").path, "--name", "my-iphone",
      "--trials", "1", "--out", folder.path,
    ])
    #expect(result.code == 0, "\(result.err)")
    #expect(result.out.contains("missProbability: ") && result.out.contains("(my-iphone.json)"))
    let names = try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
    #expect(names == ["fit.json", "fit.md", "my-iphone.json"])
    let profile = try String(
      contentsOf: folder.appendingPathComponent("my-iphone.json"), encoding: .utf8)
    #expect(profile.hasPrefix("{\n  \"profile\": \"my-iphone\","))
  }

  @Test func fitNeedsATrackAndAnEventLog() {
    let result = run(["calibrate", "--fit", "--events", "log.csv"])
    #expect(result.code == 2)
    #expect(result.err.contains("--fit needs --track"), "\(result.err)")
  }

  @Test func aBadEventLogIsBadInputNamingTheFileAndTheLine() throws {
    let folder = try scratchFolder("calibrate-fit-bad")
    let events = folder.appendingPathComponent("log.csv")
    try Data("time,event,region\n2026-03-31T23:33:20Z,enter,home\n".utf8).write(to: events)
    let result = run([
      "calibrate", "--fit", "--track", example.appendingPathComponent("walk.gpx").path,
      "--events", events.path, "--out", folder.appendingPathComponent("out").path,
    ])
    #expect(result.code == 2)
    #expect(
      result.err.contains("\(events.path):2: an enter of 'home', which is not registered"),
      "\(result.err)")
  }

  @Test func anUnknownBaseProfileListsTheBuiltInOnes() {
    let result = run([
      "calibrate", "--fit", "--track", "t.gpx", "--events", "e.csv", "--base", "factory",
    ])
    #expect(result.code == 2)
    #expect(result.err.contains("functional, urban, suburban, rural, transit"), "\(result.err)")
  }
}
