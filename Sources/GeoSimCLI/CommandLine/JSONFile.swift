import Errors
import Foundation
import JSON

/// A JSON file a command reads (a scenario to vary, a sweep's grid, a worker's result or a
/// shard's report), read strictly by `JSONDocument` so that every problem names the file, the
/// line and column and the JSON path.
struct JSONFile {
  /// A file that cannot be read or parsed, or a value in it that is not what was expected.
  struct Problem: Error, CustomStringConvertible {
    /// `file:line:column: path: what was expected`, or `file: cannot be read: why`.
    let description: String
  }

  /// The file's path as given.
  let path: String
  /// The parsed document.
  let document: JSONDocument

  /// Reads and parses the file at `path`.
  init(_ path: String) throws(Problem) {
    let data: Data
    do {
      data = Data(try readFileContents(atPath: path))
    } catch {
      throw Problem(description: "\(error)")
    }
    try self.init(data: data, name: path)
  }

  /// Parses `data`, naming it `name` in problems (standard input's scenario).
  init(data: Data, name: String) throws(Problem) {
    path = name
    do {
      document = try JSONDocument(parsing: data)
    } catch {
      throw Problem(description: error.message(in: name))
    }
  }

  /// The document's value.
  var root: JSONValue { document.root }

  /// A problem with the value at `at`: `file:line:column: path: what`.
  func problem(_ at: JSONPath, _ what: String) -> Problem {
    Problem(description: "\(document.place(of: at, in: path)): \(what)")
  }
}
