import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Where a command reads its input and writes its output; tests substitute their own.
struct Terminal {
  /// Returns the next line of standard input without its newline, or `nil` at the end.
  var readLine: () -> String?
  /// Writes to standard output.
  var write: (String) -> Void
  /// Writes to standard error.
  var writeError: (String) -> Void
  /// Whether standard error is a terminal (progress is shown only there).
  var errorIsTerminal = false
  /// Reads all of standard input (for `-` in place of a file).
  var readAll: () -> Data = { Data() }
  /// The width help is wrapped to; `nil` for the terminal's own.
  var columns: Int? = 80

  /// The process's own standard streams.
  static var standard: Terminal {
    Terminal(
      readLine: { Swift.readLine(strippingNewline: true) },
      write: { print($0, terminator: "") },
      writeError: { FileHandle.standardError.write(Data($0.utf8)) },
      errorIsTerminal: isatty(2) == 1,
      readAll: { FileHandle.standardInput.readDataToEndOfFile() },
      columns: nil)
  }
}
