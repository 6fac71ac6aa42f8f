import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// An output folder held by one run at a time: a second `replay`, `sweep` or `merge` into a
/// folder another one is writing is refused rather than mixing their files.
///
/// The hold is an advisory lock on `.geosim-lock` in the folder, which the kernel releases when
/// the process ends however it ends (a killed run leaves the empty file, which the next run
/// takes over); the workers do not inherit it.
final class OutputFolder {
  let url: URL
  private var descriptor: Int32

  /// Creates the folder if needed and takes it.
  ///
  /// - Throws: ``BadInput`` when the folder cannot be created or another run holds it.
  init(_ url: URL) throws {
    self.url = url
    do {
      try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    } catch {
      throw BadInput("cannot create the output folder \(url.path): \(Self.reason(error))")
    }
    let lock = url.appendingPathComponent(".geosim-lock").path
    let descriptor = open(lock, O_CREAT | O_RDWR | O_CLOEXEC, 0o644)
    guard descriptor >= 0 else {
      throw BadInput(
        "cannot write in the output folder \(url.path): \(String(cString: strerror(errno)))")
    }
    guard flock(descriptor, LOCK_EX | LOCK_NB) == 0 else {
      close(descriptor)
      throw BadInput(
        "another run is writing to \(url.path); wait for it to end or choose another --out")
    }
    self.descriptor = descriptor
  }

  deinit { release() }

  /// Gives the folder up (at the latest when this value goes away). The lock file goes too: it
  /// is GeoSim's, and a run that finds none makes a new one.
  func release() {
    guard descriptor >= 0 else { return }
    unlink(url.appendingPathComponent(".geosim-lock").path)
    close(descriptor)
    descriptor = -1
  }

  /// A Foundation error's own words, without its domain and code.
  static func reason(_ error: any Error) -> String {
    let underlying = (error as NSError).userInfo[NSUnderlyingErrorKey] as? NSError
    if let underlying, underlying.domain == NSPOSIXErrorDomain {
      return String(cString: strerror(Int32(underlying.code)))
    }
    return error.localizedDescription
  }
}

/// A worker process's tie to the tool that started it: the parent passes its process id in
/// the environment, and a worker whose parent is gone (killed, say) stops at once instead of
/// writing into a folder a new run may own by then.
enum WorkerLifetime {
  /// The environment variable the parent sets.
  static let variable = "GEOSIM_WORKER_PARENT"

  /// The environment a worker is started with.
  static func environment() -> [String: String] {
    var environment = ProcessInfo.processInfo.environment
    environment[variable] = String(getpid())
    // A trap should end the worker at once; symbolicated backtraces take seconds each.
    environment["SWIFT_BACKTRACE"] = "enable=no"
    return environment
  }

  /// Ends this process when the parent named in the environment is no longer its parent;
  /// watches on a thread of its own from then on (host time: it never reaches a world).
  static func followParent() {
    guard let text = ProcessInfo.processInfo.environment[variable], let parent = Int32(text)
    else { return }
    @Sendable func check() {
      if getppid() != parent {
        FileHandle.standardError.write(Data("the tool that started this worker has ended\n".utf8))
        _exit(3)
      }
    }
    check()
    let watcher = Thread {
      while true {
        usleep(100_000)
        check()
      }
    }
    watcher.start()
  }
}
