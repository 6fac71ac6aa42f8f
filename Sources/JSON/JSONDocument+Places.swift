extension JSONDocument {
  /// Where the value at `path` starts or, when there is none (a missing member, an index past
  /// the end), where the nearest value that encloses it starts.
  public func nearestLocation(of path: JSONPath) -> JSONSourceLocation {
    var path = path
    while true {
      if let location = location(of: path) { return location }
      guard let parent = path.parent else { return JSONSourceLocation(line: 1, column: 1) }
      path = parent
    }
  }

  /// The place of the value at `path` in this document read from `file`, as the start of an
  /// error message: `file:line:column: path`.
  ///
  /// The position is the value's (see ``nearestLocation(of:)``), or with `key` the position of
  /// the member's key, for a key that should not be there. Readers of files write errors as
  /// `"\(document.place(of: path, in: file)): expected a number, found a string"`, which gives
  /// `stations.json:3:17: [2].latitude: expected a number, found a string`.
  public func place(of path: JSONPath, in file: String, key: Bool = false) -> String {
    let location = (key ? keyLocation(of: path) : nil) ?? nearestLocation(of: path)
    return "\(file):\(location.line):\(location.column): \(path)"
  }
}

extension JSONSyntaxError {
  /// The error as a message about `file`: `file:line:column: what was expected`, or
  /// `file: what was expected` when the position is not known.
  public func message(in file: String) -> String {
    guard let location else { return "\(file): \(message)" }
    return "\(file):\(location.line):\(location.column): \(message)"
  }
}
