#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Why an input file could not be read, in words a user acts on: no such file, a folder where a
/// file was expected, more bytes than allowed, or the system's own reason (`Permission denied`).
public struct FileReadError: Error, Sendable, CustomStringConvertible {
  /// The file as it was named.
  public let path: String
  /// What went wrong, without the path.
  public let reason: String

  /// `path: reason`.
  public var description: String { "\(path): \(reason)" }
}

/// The bytes of the file at `path`, read to its end.
///
/// Regular files, pipes, FIFOs and devices (`/dev/stdin`) are read alike, by `read(2)` to the
/// end of the data; nothing is memory-mapped, so a file truncated while it is read cannot kill
/// the reader.
///
/// - Parameter maximumBytes: the most the file may hold; a longer one is refused without
///   reading it all.
/// - Throws: ``FileReadError`` naming the path and why.
public func readFileContents(atPath path: String, maximumBytes: Int = .max) throws(FileReadError)
  -> [UInt8]
{
  var info = stat()
  guard stat(path, &info) == 0 else {
    let code = errno
    throw FileReadError(
      path: path,
      reason: code == ENOENT ? "no such file" : "cannot be read: \(String(cString: strerror(code)))"
    )
  }
  if (info.st_mode & S_IFMT) == S_IFDIR {
    throw FileReadError(path: path, reason: "is a folder, expected a file")
  }
  if (info.st_mode & S_IFMT) == S_IFREG, Int(info.st_size) > maximumBytes {
    throw FileReadError(
      path: path,
      reason: "the file is \(info.st_size) bytes, more than the limit of \(maximumBytes)")
  }
  let descriptor = open(path, O_RDONLY | O_CLOEXEC)
  guard descriptor >= 0 else {
    throw FileReadError(path: path, reason: "cannot be read: \(String(cString: strerror(errno)))")
  }
  defer { close(descriptor) }
  var bytes: [UInt8] = []
  if (info.st_mode & S_IFMT) == S_IFREG, info.st_size > 0 {
    // A regular file is read straight into an array of its size; whatever it has grown by
    // since `stat` is read below, as a pipe is.
    let size = Int(info.st_size)
    var failure: Int32?
    bytes = [UInt8](unsafeUninitializedCapacity: size) { buffer, count in
      while count < size {
        let got = read(descriptor, buffer.baseAddress! + count, size - count)
        if got == 0 { break }
        if got < 0 {
          if errno == EINTR { continue }
          failure = errno
          break
        }
        count += got
      }
    }
    if let failure {
      throw FileReadError(
        path: path, reason: "cannot be read: \(String(cString: strerror(failure)))")
    }
    guard bytes.count == size else { return bytes }
  }
  var chunk = [UInt8](repeating: 0, count: 1 << 16)
  while true {
    let count = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
    if count == 0 { break }
    if count < 0 {
      if errno == EINTR { continue }
      throw FileReadError(path: path, reason: "cannot be read: \(String(cString: strerror(errno)))")
    }
    guard bytes.count + count <= maximumBytes else {
      throw FileReadError(
        path: path, reason: "more than the limit of \(maximumBytes) bytes")
    }
    bytes.append(contentsOf: chunk[..<count])
  }
  return bytes
}
