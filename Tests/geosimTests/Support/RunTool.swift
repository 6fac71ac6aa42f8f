@testable import geosim

/// Runs the tool in-process and captures both output streams; its standard input gives the
/// lines of `input`, then ends.
func run(_ arguments: [String], input: [String] = []) -> (code: Int32, out: String, err: String) {
  var lines = input[...]
  var out = ""
  var err = ""
  let code = GeoSimTool.main(
    arguments,
    terminal: Terminal(
      readLine: { lines.popFirst() }, write: { out += $0 }, writeError: { err += $0 }))
  return (code, out, err)
}
