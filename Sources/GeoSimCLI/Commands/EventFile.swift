import Foundation
import SimKernel

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A replay's `events.jsonl` as a worker streams it, one line per entry as it is recorded, so
/// that the events before a trap in the app survive it.
final class EventFile {
  private let path: String
  private let handle: FileHandle
  /// The first write that failed; later entries are dropped, and ``close()`` throws it.
  private var lost: (any Error)?

  /// Creates (or empties) the file at `path`.
  init(path: String) throws(OutputFailure) {
    self.path = path
    let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
    guard descriptor >= 0 else {
      throw OutputFailure("cannot write \(path): \(String(cString: strerror(errno)))")
    }
    handle = FileHandle(fileDescriptor: descriptor, closeOnDealloc: true)
  }

  /// Writes `entry`'s line.
  func append(_ entry: LogEntry) {
    guard lost == nil else { return }
    do {
      try handle.write(contentsOf: Data((EventLog.jsonLine(entry) + "\n").utf8))
    } catch {
      lost = error
    }
  }

  /// Ends the file; throws when a line could not be written.
  func close() throws(OutputFailure) {
    if let lost {
      throw OutputFailure("cannot write \(path): \(OutputFolder.reason(lost))")
    }
  }
}
