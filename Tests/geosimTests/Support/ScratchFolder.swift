import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The folder this test process writes its files under, removed when the process exits.
private let scratchRootPath =
  FileManager.default.temporaryDirectory.appendingPathComponent(
    "geosim-tests-\(getpid())-\(UUID().uuidString)"
  ).path

private let scratchRoot: URL = {
  atexit { try? FileManager.default.removeItem(atPath: scratchRootPath) }
  return URL(fileURLWithPath: scratchRootPath, isDirectory: true)
}()

/// A fresh, empty folder named after `purpose`, inside the process's scratch folder (so that
/// no test leaves files behind, whatever it checks).
func scratchFolder(_ purpose: String) throws -> URL {
  let url = scratchRoot.appendingPathComponent("\(purpose)-\(UUID().uuidString)")
  try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
  return url
}
