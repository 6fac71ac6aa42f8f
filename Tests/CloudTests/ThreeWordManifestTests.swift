import Cloud
import Foundation
import Testing

@Suite struct ThreeWordManifestTests {
  /// The message `ThreeWordLanguages(directory:)` gives for a `languages.json` holding `text`.
  private func message(_ text: String) throws -> (String, String?) {
    let directory = FileManager.default.temporaryDirectory
      .appendingPathComponent("geosim-manifest-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    let manifest = directory.appendingPathComponent("languages.json")
    try Data(text.utf8).write(to: manifest)
    do {
      _ = try ThreeWordLanguages(directory: directory)
      return (manifest.path, nil)
    } catch {
      #expect(error.code == .invalidData)
      return (manifest.path, error.message)
    }
  }

  @Test func aManifestWithATrailingCommaNamesTheFileLineAndColumn() throws {
    let (path, message) = try message("{\"languages\": [\n],\n}")
    #expect(
      message
        == "\(path):3:1: expected a member name after ',' (trailing commas are not allowed), "
        + "found '}'")
  }

  @Test func aManifestEntryOfTheWrongTypeNamesItsPath() throws {
    let text = """
      {"languages": [
        {"code": "en", "name": "English", "nativeName": "English", "words": "en.txt",
         "coverage": {"south": -90, "west": -180, "north": "90", "east": 180}}
      ]}
      """
    let (path, message) = try message(text)
    #expect(
      message
        == "\(path):3:54: languages[0].coverage.north: expected a number of degrees, found a string"
    )
  }
}
