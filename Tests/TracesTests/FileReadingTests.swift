import Foundation
import Testing

@testable import Traces

/// Reading a trace file from disk.
@Suite struct FileReadingTests {
  /// A file of `points` GPX track points in a fresh folder; the caller removes the folder.
  static func gpxFile(points: Int) throws -> (folder: URL, path: String) {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
      "geosim-trace-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    var text = #"<gpx version="1.1"><trk><trkseg>"# + "\n"
    for i in 0..<points {
      text += #"<trkpt lat="35.\#(i % 1_000)" lon="139.5"><time>2024-01-01T00:00:00Z</time>"#
      text += "</trkpt>\n"
    }
    text += "</trkseg></trk></gpx>\n"
    let path = folder.appendingPathComponent("walk.gpx").path
    try Data(text.utf8).write(to: URL(fileURLWithPath: path))
    return (folder, path)
  }

  @Test func aFileTruncatedWhileItIsReadIsReadAsItWasInsteadOfKillingTheReader() throws {
    let (folder, path) = try Self.gpxFile(points: 20_000)
    defer { try? FileManager.default.removeItem(at: folder) }
    let trace = try Trace.read(
      contentsOf: path, format: nil, limits: XMLLimits(),
      afterLoading: {
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
        try handle.truncate(atOffset: 0)
        try handle.close()
      })
    #expect(trace.pointCount == 20_000)
    #expect(trace.name == "walk")
  }

  @Test func aFileLargerThanTheLimitIsRefusedBeforeItIsRead() throws {
    let (folder, path) = try Self.gpxFile(points: 10)
    defer { try? FileManager.default.removeItem(at: folder) }
    let error = try #require(throws: TraceError.self) {
      try Trace.read(contentsOf: path, limits: XMLLimits(maximumBytes: 100))
    }
    #expect(error.code == .refused)
    #expect(error.message.hasPrefix(path + ": the file is "))
    #expect(error.message.hasSuffix(" bytes, more than the limit of 100"))
  }
}
