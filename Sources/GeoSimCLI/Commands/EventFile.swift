import Foundation
import JSON
import Reporting
import SimKernel
import Synchronization

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A replay's `events.jsonl` as a worker streams it: each entry's line is made in a buffer that
/// is written out once it holds ``capacity`` bytes, and at the end.
///
/// The file still holds every event before a trap in the app: once ``writeOnTrap()`` has run,
/// a trapping worker writes what the buffer holds before it dies, and a worker stopped for its
/// time limit does so too (``writePending()``). The parent reads a crash's last events from
/// the file, as it always has.
final class EventFile {
  /// How many bytes gather before they are written: one `write` for some 300 entries.
  static let capacity = 1 << 16

  private let path: String
  private var isOpen = true

  /// Creates the file at `path`, in place of any file there. One event file is open at a time.
  init(path: String) throws(OutputFailure) {
    self.path = path
    // An old regular file is deleted, not emptied: ext4 writes a file emptied and written
    // again out to the disk when it is closed (`auto_da_alloc`), which cost a day's 19 MB of
    // events some 10 ms more. Anything else (a device, a link) is opened as it is.
    var old = stat()
    if lstat(path, &old) == 0, old.st_mode & S_IFMT == S_IFREG { unlink(path) }
    let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
    guard descriptor >= 0 else {
      throw OutputFailure("cannot write \(path): \(String(cString: strerror(errno)))")
    }
    pendingEvents.withLock { $0.open(descriptor) }
  }

  deinit {
    if isOpen { _ = pendingEvents.withLock { $0.close() } }
  }

  /// Adds `entry`'s line.
  func append(_ entry: LogEntry) {
    pendingEvents.withLock { pending in
      guard pending.failure == 0 else { return }
      EventLog.writeJSONLine(entry, to: &pending.bytes)
      if pending.bytes.count >= EventFile.capacity { pending.writeOut() }
    }
  }

  /// Writes what is left and closes the file; throws when a line could not be written.
  func close() throws(OutputFailure) {
    isOpen = false
    let failure = pendingEvents.withLock { $0.close() }
    if failure != 0 {
      throw OutputFailure("cannot write \(path): \(String(cString: strerror(failure)))")
    }
  }

  /// Writes what the open event file holds and has not written yet, and ends the file: for a
  /// worker about to end from another thread (its time limit), so that the file ends with a
  /// whole line whatever the replay's thread does next. Nothing is written to it after this.
  static func writePending() {
    _ = pendingEvents.withLock { $0.close() }
  }

  /// Makes a trap in this process (a Swift runtime failure, a bad access, an abort) first
  /// write what the open event file holds, then end the process as the trap would have.
  /// For worker processes, whose parent reads a crash's last events from the file.
  static func writeOnTrap() {
    // Touch the shared state now: a signal handler must not be the first to reach it.
    pendingEvents.withLock { _ in }
    // A stack overflow's handler needs a stack of its own, kept for the process's life: held
    // by the shared state, so that it is never taken for a leak.
    let size = 1 << 16
    var stack = stack_t()
    let memory = UnsafeMutableRawPointer.allocate(byteCount: size, alignment: 16)
    pendingEvents.withLock { $0.signalStack = UInt(bitPattern: memory) }
    stack.ss_sp = memory
    stack.ss_size = size
    sigaltstack(&stack, nil)
    for signal in [SIGILL, SIGTRAP, SIGABRT, SIGSEGV, SIGBUS, SIGFPE] {
      var action = sigaction()
      #if canImport(Glibc)
        action.__sigaction_handler.sa_handler = writePendingOnSignal
        action.sa_flags = Int32(bitPattern: UInt32(SA_RESETHAND) | UInt32(SA_ONSTACK))
      #else
        action.__sigaction_u.__sa_handler = writePendingOnSignal
        action.sa_flags = SA_RESETHAND | SA_ONSTACK
      #endif
      sigemptyset(&action.sa_mask)
      sigaction(signal, &action, nil)
    }
  }
}

/// The handler ``EventFile/writeOnTrap()`` installs: it writes the buffered lines, then raises
/// the signal again with its default action restored, which ends the process with that signal
/// as the trap would have. (Only system calls: no allocation, and no waiting for a lock that
/// another thread may hold.)
private func writePendingOnSignal(_ signal: Int32) {
  _ = pendingEvents.withLockIfAvailable { $0.writeOut() }
  raise(signal)
}

/// The open event file's descriptor and the bytes it has not written yet, where a signal
/// handler and the time limit's thread can reach them.
private let pendingEvents = Mutex(PendingEvents())

/// What ``pendingEvents`` holds.
private struct PendingEvents: ~Copyable {
  var descriptor: Int32 = -1
  /// The lines not written yet; its storage is kept from piece to piece (a line longer than
  /// the slack grows it once).
  var bytes = JSONBuffer(capacity: EventFile.capacity + (1 << 14))
  /// The `errno` of the first write that failed, or 0; later lines are dropped.
  var failure: Int32 = 0
  /// The address of the signal handlers' own stack (``EventFile/writeOnTrap()``), once
  /// installed: what keeps it reachable.
  var signalStack: UInt = 0

  mutating func open(_ descriptor: Int32) {
    self.descriptor = descriptor
    bytes.removeAll()
    failure = 0
  }

  /// Writes the buffer out and empties it.
  mutating func writeOut() {
    defer { bytes.removeAll() }
    guard descriptor >= 0, failure == 0 else { return }
    let descriptor = descriptor
    failure = bytes.withUnsafeBytes { writeAll(UnsafeRawBufferPointer($0), to: descriptor) }
  }

  /// Writes what is left, closes the file and returns ``failure``.
  mutating func close() -> Int32 {
    writeOut()
    if descriptor >= 0 { closeDescriptor(descriptor) }
    descriptor = -1
    return failure
  }
}

private func closeDescriptor(_ descriptor: Int32) {
  #if canImport(Glibc)
    _ = Glibc.close(descriptor)
  #else
    _ = Darwin.close(descriptor)
  #endif
}
