#if _endian(big)
  #error("table files are written and read little-endian, in the host's byte order")
#endif

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A file of named tables: fixed-width numbers or bytes, stored as they lie in memory, so that
/// a table read back is used where it lies (a ``Column``), without being copied.
///
/// The layout (little-endian): the 8-byte ``magic``, the format version (`UInt32`) and the
/// number of tables (`UInt32`); then each table as its name's length (`UInt32`), its name
/// (UTF-8), padding to a multiple of 8 bytes, its length in bytes (`UInt64`) and its bytes,
/// padded to a multiple of 8; and last a checksum (`UInt64`) of everything before it.
package struct TableFile {
  /// The first bytes of every table file.
  package static let magic: [UInt8] = Array("GSIMTBL\n".utf8)

  /// The tables by name: where their bytes lie in ``memory``.
  private var tables: [String: Range<Int>] = [:]
  private var order: [String] = []
  /// The names of the tables, in the order they were written.
  package var names: [String] { order }
  /// The file as written so far (a file being built).
  private var bytes: [UInt8] = []
  /// The file as read, its checksum included (a file read back).
  private var memory: TableMemory?

  /// An empty file of the given version, to ``append(_:_:)`` tables to.
  package init(version: UInt32) {
    bytes = Self.magic
    Self.write(version, to: &bytes)
    Self.write(UInt32(0), to: &bytes)
  }

  /// Adds a table of fixed-width values.
  package mutating func append<T: FixedWidthInteger>(_ name: String, _ values: [T]) {
    values.withUnsafeBytes { append(name, bytes: $0) }
  }

  /// Adds a column: numbers, doubles or flags (a byte each), as they lie in memory.
  package mutating func append<T: BitwiseCopyable>(_ name: String, _ values: Column<T>) {
    values.withUnsafeBytes { append(name, bytes: $0) }
  }

  private mutating func append(_ name: String, bytes table: UnsafeRawBufferPointer) {
    precondition(tables[name] == nil, "table \(name) written twice")
    Self.write(UInt32(name.utf8.count), to: &bytes)
    bytes.append(contentsOf: name.utf8)
    Self.pad(&bytes)
    Self.write(UInt64(table.count), to: &bytes)
    tables[name] = bytes.count..<bytes.count + table.count
    order.append(name)
    bytes.append(contentsOf: table)
    Self.pad(&bytes)
    bytes.withUnsafeMutableBytes {
      $0.storeBytes(of: UInt32(order.count).littleEndian, toByteOffset: 12, as: UInt32.self)
    }
  }

  /// The file's bytes with their checksum, ready to be written.
  package func encoded() -> [UInt8] {
    var file = bytes
    let sum = file.withUnsafeBytes { Self.checksum($0) }
    Self.write(sum, to: &file)
    return file
  }

  /// Reads a file written by ``encoded()`` from its bytes (copied); `name` names it in errors.
  ///
  /// - Throws: ``ThreeWordDataError`` naming the file when it is not a table file of
  ///   `version`, is cut short, or does not match its checksum.
  package init(
    decoding file: [UInt8], version: UInt32, name: String
  ) throws(ThreeWordDataError) {
    let memory = file.withUnsafeBytes { TableMemory(copying: $0) }
    try self.init(memory: memory, version: version, name: name)
  }

  /// Reads the table file at `path`, mapped into memory rather than copied: its tables are
  /// used where they lie. `name` names it in errors.
  ///
  /// - Throws: ``ThreeWordDataError`` naming the file when it cannot be read, is not a table
  ///   file of `version`, is cut short, or does not match its checksum.
  package init(contentsOfFile path: String, version: UInt32, name: String)
    throws(ThreeWordDataError)
  {
    guard let memory = TableMemory(mapping: path) else {
      let reason = errno == 0 ? "is empty" : "cannot be read: \(String(cString: strerror(errno)))"
      throw ThreeWordDataError(.invalidData, "\(name): \(reason)")
    }
    try self.init(memory: memory, version: version, name: name)
  }

  private init(memory: TableMemory, version: UInt32, name: String) throws(ThreeWordDataError) {
    func damaged(_ what: String) -> ThreeWordDataError {
      ThreeWordDataError(.invalidData, "\(name): \(what)")
    }
    let file = memory.bytes
    guard file.count >= 24, file.count % 8 == 0, file.starts(with: Self.magic) else {
      throw damaged("not a table file (expected it to start with \"GSIMTBL\")")
    }
    let found = file.loadUnaligned(fromByteOffset: 8, as: UInt32.self)
    guard found == version else {
      throw damaged("table format \(found), expected \(version); build the package again")
    }
    let body = file.count - 8
    let stored = file.loadUnaligned(fromByteOffset: body, as: UInt64.self)
    let computed = Self.checksum(UnsafeRawBufferPointer(rebasing: file[..<body]))
    guard stored == computed else { throw damaged("damaged (its checksum does not match)") }
    self.memory = memory
    let count = file.loadUnaligned(fromByteOffset: 12, as: UInt32.self)
    var offset = 16
    for _ in 0..<count {
      guard offset + 4 <= body else { throw damaged("cut short in its table list") }
      let nameLength = Int(file.loadUnaligned(fromByteOffset: offset, as: UInt32.self))
      let nameEnd = offset + 4 + nameLength
      let lengthAt = (nameEnd + 7) & ~7
      guard nameLength <= body, lengthAt + 8 <= body else {
        throw damaged("cut short in its table list")
      }
      let tableName = String(decoding: file[(offset + 4)..<nameEnd], as: UTF8.self)
      let length = file.loadUnaligned(fromByteOffset: lengthAt, as: UInt64.self)
      let start = lengthAt + 8
      guard length <= UInt64(body - start) else {
        throw damaged("cut short in table \(tableName)")
      }
      guard tables[tableName] == nil else { throw damaged("holds table \(tableName) twice") }
      tables[tableName] = start..<start + Int(length)
      order.append(tableName)
      offset = (start + Int(length) + 7) & ~7
    }
    guard offset == body else { throw damaged("has bytes after its last table") }
  }

  /// Table `name` as fixed-width values, where they lie in the file.
  ///
  /// - Throws: ``ThreeWordDataError`` when there is no such table or its length is not a
  ///   whole number of values.
  package func table<T: FixedWidthInteger & BitwiseCopyable>(
    _ name: String, of type: T.Type = T.self, in file: String
  ) throws(ThreeWordDataError) -> Column<T> {
    try values(name, in: file)
  }

  /// Table `name` as doubles.
  package func doubles(_ name: String, in file: String) throws(ThreeWordDataError) -> Column<Double>
  {
    try values(name, in: file)
  }

  /// Table `name` as flags.
  ///
  /// - Throws: ``ThreeWordDataError`` when a byte is neither 0 nor 1.
  package func flags(_ name: String, in file: String) throws(ThreeWordDataError) -> Column<Bool> {
    let raw: Column<UInt8> = try table(name, in: file)
    guard raw.allSatisfy({ $0 <= 1 }) else {
      throw ThreeWordDataError(.invalidData, "\(file): table \(name): expected 0 or 1 bytes")
    }
    // A byte of 0 or 1 is a `Bool`: the flags are read where they lie, as the bytes are.
    return try values(name, in: file)
  }

  private func values<T: BitwiseCopyable>(
    _ name: String, in file: String
  ) throws(ThreeWordDataError) -> Column<T> {
    guard let memory, let range = tables[name] else {
      throw ThreeWordDataError(.invalidData, "\(file): no table \(name)")
    }
    let stride = MemoryLayout<T>.stride
    guard range.count % stride == 0 else {
      throw ThreeWordDataError(
        .invalidData, "\(file): table \(name) holds \(range.count) bytes, not whole values")
    }
    return Column(memory: memory, offset: range.lowerBound, count: range.count / stride)
  }

  private static func write<T: FixedWidthInteger>(_ value: T, to bytes: inout [UInt8]) {
    withUnsafeBytes(of: value.littleEndian) { bytes.append(contentsOf: $0) }
  }

  private static func pad(_ bytes: inout [UInt8]) {
    while bytes.count % 8 != 0 { bytes.append(0) }
  }

  /// A checksum of 8-byte words (a multiple of 8 bytes): four interleaved multiply-rotate
  /// lanes, so that it runs at memory speed, folded into one.
  package static func checksum(_ bytes: UnsafeRawBufferPointer) -> UInt64 {
    let prime: UInt64 = 0x9E37_79B9_7F4A_7C15
    var lanes: (UInt64, UInt64, UInt64, UInt64) = (1, 2, 3, 4)
    let words = bytes.count / 8
    var i = 0
    func mix(_ lane: UInt64, _ word: UInt64) -> UInt64 {
      let h = (lane ^ word) &* prime
      return h ^ h >> 29
    }
    while i + 4 <= words {
      lanes.0 = mix(lanes.0, bytes.loadUnaligned(fromByteOffset: 8 * i, as: UInt64.self))
      lanes.1 = mix(lanes.1, bytes.loadUnaligned(fromByteOffset: 8 * i + 8, as: UInt64.self))
      lanes.2 = mix(lanes.2, bytes.loadUnaligned(fromByteOffset: 8 * i + 16, as: UInt64.self))
      lanes.3 = mix(lanes.3, bytes.loadUnaligned(fromByteOffset: 8 * i + 24, as: UInt64.self))
      i += 4
    }
    while i < words {
      lanes.0 = mix(lanes.0, bytes.loadUnaligned(fromByteOffset: 8 * i, as: UInt64.self))
      i += 1
    }
    return mix(mix(mix(mix(UInt64(words), lanes.0), lanes.1), lanes.2), lanes.3)
  }
}
