import Foundation
import Testing

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
}
