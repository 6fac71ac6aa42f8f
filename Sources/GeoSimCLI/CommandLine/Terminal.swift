import Foundation
import Synchronization

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

  /// Why standard output lost something written to it, if it did.
  var outputFailure: () -> String? = { nil }

  /// The process's own standard streams.
  static var standard: Terminal {
    let output = StandardOutput()
    return Terminal(
      readLine: { Swift.readLine(strippingNewline: true) },
      write: output.write,
      writeError: { FileHandle.standardError.write(Data($0.utf8)) },
      errorIsTerminal: isatty(2) == 1,
      readAll: { FileHandle.standardInput.readDataToEndOfFile() },
      columns: nil, outputFailure: output.failure)
  }
}

/// Standard output, written unbuffered, remembering the first write that failed.
private final class StandardOutput: Sendable {
  private let firstFailure = Mutex<String?>(nil)

  func write(_ text: String) {
    do {
      try FileHandle.standardOutput.write(contentsOf: Data(text.utf8))
    } catch {
      firstFailure.withLock { $0 = $0 ?? OutputFolder.reason(error) }
    }
  }

  func failure() -> String? { firstFailure.withLock { $0 } }
}
