import Foundation
import GeoSimCLI
import ReferenceAppCatalog
import Testing

/// `GeoSimTool.run(_:input:)`: the tool run in the calling process, as a package embedding it
/// (or a fuzz target) sees it, without `@testable`.
@Suite struct InProcessToolTests {
  let tool = GeoSimTool(name: "geosim", apps: .referenceApps)

  @Test func readsItsInputAsStandardInputLineByLine() {
    let input = Data("0 0 0 1\r\n0 0 1 0\nnot a line\n0 0 0 0".utf8)
    let result = tool.run(["geodesic", "-p", "0"], input: input)
    #expect(result.status == 2)
    #expect(
      result.output
        == "90.00000 90.00000 111319\n0.00000 0.00000 110574\n180.00000 180.00000 0\n",
      "\(result.output)")
    #expect(
      result.error
        == "geosim geodesic: line 3: expected 4 numbers \"lat1 lon1 lat2 lon2\", got 3 fields\n")
  }

  @Test func givesEmptyInputNoLines() {
    let result = tool.run(["geodesic"], input: Data())
    #expect(result.status == 0)
    #expect(result.output.isEmpty && result.error.isEmpty)
  }

  @Test func givesTheWholeInputToAFileNamedDash() {
    let gpx = """
      <gpx version="1.1" creator="t" xmlns="http://www.topografix.com/GPX/1/1"><trk><trkseg>
      <trkpt lat="35.0" lon="139.0"><time>2026-04-01T00:00:00Z</time></trkpt>
      <trkpt lat="35.001" lon="139.0"><time>2026-04-01T00:01:00Z</time></trkpt>
      </trkseg></trk></gpx>
      """
    let result = tool.run(["trace", "convert", "-", "--to", "csv"], input: Data(gpx.utf8))
    #expect(result.status == 0, "\(result.error)")
    #expect(result.output.contains("35.001"), "\(result.output)")
  }

  @Test func reportsBadInputAsTheCommandLineDoes() {
    let result = tool.run(["trace", "inspect", "-", "--format", "csv"], input: Data("x\n".utf8))
    #expect(result.status == 2)
    #expect(result.error.hasPrefix("geosim trace inspect: <stdin>:"), "\(result.error)")
  }
}
