import Foundation
import Testing

@testable import Reporting

/// Report files are replaced whole, through a temporary file beside them that never stays.
@Suite struct ReportWriterTests {
  private func folder() throws -> URL {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent(
      "geosim-report-writer-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    return url
  }

  @Test func aFileIsReplacedWholeAndNothingElseStays() throws {
    let folder = try folder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let file = folder.appendingPathComponent("deep/er/report.md")
    try ReportWriter.write("first, and longer than the second\n", to: file)
    try ReportWriter.write("second\n", to: file)
    try ReportWriter.write(Data(), to: folder.appendingPathComponent("empty.json"))
    #expect(try String(contentsOf: file, encoding: .utf8) == "second\n")
    // Its size, not its bytes: Foundation's reading of an empty file leaks its buffer, which
    // make sanitize would report.
    let empty = folder.appendingPathComponent("empty.json").path
    #expect(try FileManager.default.attributesOfItem(atPath: empty)[.size] as? Int == 0)
    #expect(
      try FileManager.default.contentsOfDirectory(atPath: file.deletingLastPathComponent().path)
        == ["report.md"])
  }

  private func inode(_ url: URL) throws -> Int {
    try #require(FileManager.default.attributesOfItem(atPath: url.path)[.systemFileNumber] as? Int)
  }

  /// A hand-off file is written over in place: the same file, holding the new text and
  /// nothing of a longer old one.
  @Test func aFileWrittenInPlaceKeepsItsInodeAndOnlyTheNewText() throws {
    let folder = try folder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let file = folder.appendingPathComponent("runs/1.json")
    try ReportWriter.writeInPlace(String(repeating: "old ", count: 3_000) + "\n", to: file)
    let before = try inode(file)
    try ReportWriter.writeInPlace("new\n", to: file)
    #expect(try String(contentsOf: file, encoding: .utf8) == "new\n")
    #expect(try inode(file) == before)
    try ReportWriter.writeInPlace("newer, and longer\n", to: file)
    #expect(try String(contentsOf: file, encoding: .utf8) == "newer, and longer\n")
    // A file that is a device takes the text as it is: there is no length to cut.
    try ReportWriter.writeInPlace("new\n", to: URL(fileURLWithPath: "/dev/null"))
  }

  @Test func aFileThatHoldsTheseBytesAlreadyIsLeftAsItIs() throws {
    let folder = try folder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let file = folder.appendingPathComponent("report.md")
    try ReportWriter.write("same\n", to: file)
    let first = try inode(file)
    try ReportWriter.write("same\n", to: file)
    #expect(try inode(file) == first, "not made again")
    // The same length with other bytes, and other lengths, are written.
    for text in ["sane\n", "same\n\n", "sam\n"] {
      try ReportWriter.write(text, to: file)
      #expect(try String(contentsOf: file, encoding: .utf8) == text)
    }
    // A link to a file holding the bytes is replaced by a file, as any other link is.
    let target = folder.appendingPathComponent("target.md")
    try ReportWriter.write("linked\n", to: target)
    let link = folder.appendingPathComponent("link.md")
    try FileManager.default.createSymbolicLink(at: link, withDestinationURL: target)
    try ReportWriter.write("linked\n", to: link)
    #expect(
      try FileManager.default.attributesOfItem(atPath: link.path)[.type] as? FileAttributeType
        == .typeRegular)
    #expect(
      try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted() == [
        "link.md", "report.md", "target.md",
      ])
  }

  @Test func aFileThatCannotBeReplacedNamesItselfAndLeavesNoTemporaryFile() throws {
    let folder = try folder()
    defer { try? FileManager.default.removeItem(at: folder) }
    // A folder where the file would go: the rename over it fails.
    let taken = folder.appendingPathComponent("report.json")
    try FileManager.default.createDirectory(
      at: taken.appendingPathComponent("inside"), withIntermediateDirectories: true)
    #expect {
      try ReportWriter.write("{}\n", to: taken)
    } throws: { error in
      "\(error)" == "cannot write \(taken.path): Is a directory"
    }
    #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["report.json"])
  }

  @Test func aFileUnderAFileNamesTheFile() throws {
    let folder = try folder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let plain = folder.appendingPathComponent("plain")
    try ReportWriter.write("x", to: plain)
    let below = plain.appendingPathComponent("report.md")
    #expect {
      try ReportWriter.write("y", to: below)
    } throws: { error in
      "\(error)".hasPrefix("cannot write \(below.path): ")
    }
  }
}
