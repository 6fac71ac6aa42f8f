/// The arguments of one command, consumed as the command reads them.
///
/// A command takes its flags, options and positionals, then calls ``finish()``: anything left
/// over is an unknown option or an extra argument, reported as a ``UsageError``.
struct Arguments {
  private(set) var remaining: [String]
  /// The command path so far (for example `geosim bench`), used in messages.
  let command: String

  init(_ arguments: [String], command: String) {
    self.remaining = arguments
    self.command = command
  }

  /// Removes `name` (or any of its aliases) if present and says whether it was.
  mutating func flag(_ names: String...) -> Bool {
    guard let index = remaining.firstIndex(where: names.contains) else { return false }
    remaining.remove(at: index)
    return true
  }

  /// Removes `name value` if present and returns the value.
  mutating func option(_ name: String) throws -> String? {
    guard let index = remaining.firstIndex(of: name) else { return nil }
    guard index + 1 < remaining.count else {
      throw UsageError("\(command): option \(name) needs a value")
    }
    let value = remaining[index + 1]
    remaining.removeSubrange(index...index + 1)
    return value
  }

  /// Removes and returns the first argument that is not an option.
  mutating func positional() -> String? {
    guard let index = remaining.firstIndex(where: { !$0.hasPrefix("-") || $0 == "-" }) else {
      return nil
    }
    return remaining.remove(at: index)
  }

  /// Throws if anything is left unconsumed.
  func finish() throws {
    guard let first = remaining.first else { return }
    if first.hasPrefix("-") && first != "-" {
      throw UsageError("\(command): unknown option '\(first)' (see geosim --help)")
    }
    throw UsageError("\(command): unexpected argument '\(first)' (see geosim --help)")
  }
}

/// A mistake in how the tool was called: printed as one line, exit code 2.
struct UsageError: Error {
  let message: String
  init(_ message: String) { self.message = message }
}
