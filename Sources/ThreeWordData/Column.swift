#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The values of one table, where they lie: in a table file mapped into memory, or in memory of
/// their own (tables built from text, or changed).
///
/// A column read from a file is not copied out of it: the file's pages are shared by every
/// process that maps it, and a process that reads the three-word tables touches only the pages
/// it looks at after the file's checksum has been checked. The memory stays as long as a column
/// of it does.
package struct Column<Element: BitwiseCopyable>: RandomAccessCollection, @unchecked Sendable {
  // The memory is never written once the column exists, so sharing it between threads is safe.
  // (Inlinable, so that its users' loops read the values as they would an array's.)
  @usableFromInline let memory: TableMemory?
  @usableFromInline let base: UnsafePointer<Element>?
  /// The number of values.
  package let count: Int

  /// A column of its own holding `values`.
  package init(_ values: some Collection<Element>) {
    let count = values.count
    guard count > 0 else {
      (memory, base, self.count) = (nil, nil, 0)
      return
    }
    let memory = TableMemory(
      byteCount: count * MemoryLayout<Element>.stride, alignment: MemoryLayout<Element>.alignment)
    let start = memory.mutableBase.bindMemory(to: Element.self, capacity: count)
    let copied: Void? = values.withContiguousStorageIfAvailable {
      start.initialize(from: $0.baseAddress!, count: count)
    }
    if copied == nil {
      var written = 0
      for value in values {
        precondition(written < count, "a collection yielded more values than its count")
        (start + written).initialize(to: value)
        written += 1
      }
      precondition(written == count, "a collection yielded fewer values than its count")
    }
    (self.memory, base, self.count) = (memory, UnsafePointer(start), count)
  }

  /// The `count` values at `offset` bytes into `memory` (aligned for `Element`).
  init(memory: TableMemory, offset: Int, count: Int) {
    precondition(
      offset >= 0 && count >= 0 && offset + count * MemoryLayout<Element>.stride <= memory.count)
    let address = memory.base + offset
    precondition(Int(bitPattern: address) % MemoryLayout<Element>.alignment == 0)
    self.memory = memory
    base = count > 0 ? address.assumingMemoryBound(to: Element.self) : nil
    self.count = count
  }

  @inlinable package var startIndex: Int { 0 }
  @inlinable package var endIndex: Int { count }

  @inlinable package subscript(position: Int) -> Element {
    precondition(UInt(bitPattern: position) < UInt(bitPattern: count), "Index out of range")
    return base.unsafelyUnwrapped[position]
  }

  /// Calls `body` with the values, in place.
  @inlinable package func withUnsafeBufferPointer<R, E: Error>(
    _ body: (UnsafeBufferPointer<Element>) throws(E) -> R
  ) throws(E) -> R {
    try withExtendedLifetime(memory) { () throws(E) -> R in
      try body(UnsafeBufferPointer(start: base, count: count))
    }
  }

  @inlinable package func withContiguousStorageIfAvailable<R>(
    _ body: (UnsafeBufferPointer<Element>) throws -> R
  ) rethrows -> R? {
    try withExtendedLifetime(memory) { try body(UnsafeBufferPointer(start: base, count: count)) }
  }

  /// The values' bytes, as a table file stores them.
  func withUnsafeBytes<R>(_ body: (UnsafeRawBufferPointer) -> R) -> R {
    withUnsafeBufferPointer { body(UnsafeRawBufferPointer($0)) }
  }
}

extension Column: Equatable where Element: Equatable {
  package static func == (a: Column, b: Column) -> Bool {
    a.count == b.count && (a.base == b.base || a.elementsEqual(b))
  }
}

extension Column: ExpressibleByArrayLiteral {
  package init(arrayLiteral values: Element...) { self.init(values) }
}

/// Memory that table columns lie in: a table file mapped read-only, or bytes of its own. It is
/// released with the last column (or table file) that uses it.
///
/// Only the package's own table files are mapped: their build replaces a file by renaming a new
/// one over it, never by writing into it, so a mapped file cannot shrink under a reader.
@usableFromInline final class TableMemory: @unchecked Sendable {
  let base: UnsafeRawPointer
  let count: Int
  private let isMapped: Bool

  /// `byteCount` bytes of its own, uninitialized (at least one, so that the address is real).
  init(byteCount: Int, alignment: Int) {
    base = UnsafeRawPointer(
      UnsafeMutableRawPointer.allocate(byteCount: max(1, byteCount), alignment: max(16, alignment)))
    count = byteCount
    isMapped = false
  }

  /// Memory of its own holding a copy of `bytes`.
  convenience init(copying bytes: UnsafeRawBufferPointer) {
    self.init(byteCount: bytes.count, alignment: 16)
    if let source = bytes.baseAddress {
      mutableBase.copyMemory(from: source, byteCount: bytes.count)
    }
  }

  /// The regular file at `path`, mapped read-only; `nil` with `errno` set when it cannot be.
  init?(mapping path: String) {
    let descriptor = open(path, O_RDONLY | O_CLOEXEC)
    guard descriptor >= 0 else { return nil }
    defer { close(descriptor) }
    var status = stat()
    guard fstat(descriptor, &status) == 0 else { return nil }
    guard status.st_mode & S_IFMT == S_IFREG, status.st_size > 0 else {
      errno = status.st_mode & S_IFMT == S_IFREG ? 0 : EISDIR
      return nil
    }
    let size = Int(status.st_size)
    guard let address = mmap(nil, size, PROT_READ, MAP_PRIVATE, descriptor, 0),
      address != MAP_FAILED
    else { return nil }
    base = UnsafeRawPointer(address)
    count = size
    isMapped = true
  }

  /// The memory of its own, for filling it before any column reads it.
  var mutableBase: UnsafeMutableRawPointer {
    precondition(!isMapped, "a mapped table file is read-only")
    return UnsafeMutableRawPointer(mutating: base)
  }

  /// All of it.
  var bytes: UnsafeRawBufferPointer { UnsafeRawBufferPointer(start: base, count: count) }

  deinit {
    if isMapped {
      munmap(UnsafeMutableRawPointer(mutating: base), count)
    } else {
      UnsafeMutableRawPointer(mutating: base).deallocate()
    }
  }
}
