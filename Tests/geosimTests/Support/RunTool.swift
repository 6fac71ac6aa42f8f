import Foundation
import ReferenceAppCatalog

@testable import GeoSimCLI

/// Runs the `geosim` tool in-process and captures both output streams; its standard input
/// gives the lines of `input` (or all of `input` joined by newlines, for `-`), then ends.
func run(_ arguments: [String], input: [String] = []) -> (code: Int32, out: String, err: String) {
  var lines = input[...]
  var out = ""
  var err = ""
  var terminal = Terminal(
    readLine: { lines.popFirst() }, write: { out += $0 }, writeError: { err += $0 })
  terminal.readAll = { Data(input.joined(separator: "\n").utf8) }
  let code = GeoSimTool(name: "geosim", apps: .referenceApps).run(arguments, terminal: terminal)
  return (code, out, err)
}
