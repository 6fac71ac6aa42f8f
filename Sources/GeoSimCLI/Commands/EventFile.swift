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

/// A replay's `events.jsonl` as a worker streams it: each entry's line joins the pending
/// ones, which are written out once they hold ``capacity`` bytes, and at the end.
///
/// The file still holds every event before a trap in the app: once ``writeOnTrap()`` has run,
/// a trapping worker writes the pending lines before it dies, and a worker stopped for its
/// time limit does so too (``writePending()``). The parent reads a crash's last events from
/// the file, as it always has.
///
/// Only the replay's thread adds lines, without taking a lock: it writes each line straight
/// into memory that never moves, after the pending ones, and then publishes the new length, so
/// another thread (the time limit's) or a signal handler writes whole lines only. Writing
/// takes the lock.
final class EventFile {
  /// How many bytes gather before they are written: one `write` for some 300 entries.
  static let capacity = 1 << 16

  private let path: String
  private var isOpen = true
  /// The pending lines' memory, kept by ``pendingEvents`` for the process's life.
  private let storage: UnsafeMutableBufferPointer<UInt8>
  /// The pending lines, written into `storage` (until a line outgrows it). Only the replay's
  /// thread touches it, and never from within an access of its own: its exclusivity is not
  /// checked at run time (the checks and their thread-local lookups were 3 % of a streamed
  /// line's samples).
  @exclusivity(unchecked) private var pending: JSONBuffer
  /// Whether a write failed: later lines are dropped.
  @exclusivity(unchecked) private var failed = false

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
    let storage = pendingEvents.withLock { $0.open(descriptor) }
    self.storage = storage
    pending = JSONBuffer(writingInto: storage)
  }

  deinit {
    if isOpen { _ = pendingEvents.withLock { $0.close() } }
  }

  /// Adds `entry`'s line.
  func append(_ entry: LogEntry) {
    guard !failed else { return }
    EventLog.writeJSONLine(entry, to: &pending)
    guard pending.isWriting(into: storage) else { return writeMoved() }
    pendingCount.store(pending.count, ordering: .releasing)
    if pending.count >= EventFile.capacity { writeOut() }
  }

  /// Writes the pending lines.
  private func writeOut() {
    failed = pendingEvents.withLock { $0.writeOut() } != 0
    pending.removeAll()
  }

  /// Writes the pending lines after a line outgrew their memory: the buffer moved them and
  /// that line to memory of its own, while the memory kept the lines published before it.
  private func writeMoved() {
    let failure = pending.withUnsafeBytes { bytes in
      // The lock's closure runs here, on this thread, while the bytes are valid: their
      // address is handed in as a number, which the lock's state may take.
      let (address, count) = (UInt(bitPattern: bytes.baseAddress), bytes.count)
      return pendingEvents.withLock {
        // The published lines are among these bytes: written once, from here.
        pendingCount.store(0, ordering: .relaxed)
        return $0.write(
          UnsafeRawBufferPointer(start: UnsafeRawPointer(bitPattern: address), count: count))
      }
    }
    failed = failure != 0
    pending = JSONBuffer(writingInto: storage)
  }

  /// Writes what is left and closes the file; throws when a line could not be written.
  func close() throws(OutputFailure) {
    isOpen = false
    let failure = pendingEvents.withLock { $0.close() }
    pending.removeAll()
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

/// The open event file's descriptor and the memory of the lines not written yet, where a
/// signal handler and the time limit's thread can reach them.
private let pendingEvents = Mutex(PendingEvents())

/// How many bytes of ``PendingEvents/storage`` hold whole lines not written yet: set by the
/// thread that adds them (``EventFile/append(_:)``), emptied by whoever writes them.
private let pendingCount = Atomic<Int>(0)

/// What ``pendingEvents`` holds.
private struct PendingEvents: ~Copyable {
  /// The pending lines' room: a piece of ``EventFile/capacity`` and a line's slack (a longer
  /// line moves the pending ones out of it, ``EventFile/writeMoved()``).
  static let room = EventFile.capacity + (1 << 14)

  var descriptor: Int32 = -1
  /// The memory of the pending lines, made by the first file and kept for the process's life:
  /// a thread that still adds lines after the time limit ended the file copies into it.
  var storage: UnsafeMutablePointer<UInt8>?
  /// The `errno` of the first write that failed, or 0; later lines are dropped.
  var failure: Int32 = 0
  /// The address of the signal handlers' own stack (``EventFile/writeOnTrap()``), once
  /// installed: what keeps it reachable.
  var signalStack: UInt = 0

  /// Takes `descriptor` as the open file's; returns the pending lines' memory.
  mutating func open(_ descriptor: Int32) -> UnsafeMutableBufferPointer<UInt8> {
    self.descriptor = descriptor
    failure = 0
    pendingCount.store(0, ordering: .relaxed)
    let memory = storage ?? .allocate(capacity: Self.room)
    storage = memory
    return UnsafeMutableBufferPointer(start: memory, count: Self.room)
  }

  /// Writes the pending lines and empties them; returns ``failure``. (Only system calls and
  /// atomics: a signal handler calls it.)
  mutating func writeOut() -> Int32 {
    let count = pendingCount.load(ordering: .acquiring)
    pendingCount.store(0, ordering: .relaxed)
    guard count > 0, let storage else { return failure }
    return write(UnsafeRawBufferPointer(start: storage, count: count))
  }

  /// Writes `bytes` to the open file unless it is closed or a write failed; returns
  /// ``failure``.
  mutating func write(_ bytes: UnsafeRawBufferPointer) -> Int32 {
    guard descriptor >= 0, failure == 0 else { return failure }
    failure = writeAll(bytes, to: descriptor)
    return failure
  }

  /// Writes what is left, closes the file and returns ``failure``.
  mutating func close() -> Int32 {
    _ = writeOut()
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
