/// One language's words as flat tables: sorted by code point, each word's UTF-8 and Unicode
/// scalars one after another, and an open-addressing hash table from a word to its number.
///
/// Built from a word file (one word per line) by ``init(utf8:name:)``, or read back from a
/// table file as it was built (its columns used where they lie in the file); the three-word
/// service's word list looks words up in it.
package struct WordTable: Equatable, Sendable {
  /// Word numbers take this many bits of a key (`hash << idBits | id`).
  package static let idBits: UInt64 = 20
  /// The 64-bit FNV-1a hash's offset basis and prime.
  package static let fnvBasis: UInt64 = 0xCBF2_9CE4_8422_2325
  package static let fnvPrime: UInt64 = 0x0000_0100_0000_01B3

  /// The words' UTF-8, one after another: word `i` is `utf8[utf8Start[i] ..< utf8Start[i + 1]]`.
  package var utf8: Column<UInt8>
  package var utf8Start: Column<Int32>
  /// Every word's Unicode scalar values, one word after another: word `i` is
  /// `scalarValues[scalarStart[i] ..< scalarStart[i + 1]]`.
  package var scalarValues: Column<UInt32>
  package var scalarStart: Column<Int32>
  /// Word numbers by the 64-bit FNV-1a hash of the word's UTF-8 (`hashes[id]`), in an
  /// open-addressing table with linear probing (−1 marks a free slot; at most half are used).
  package var hashes: Column<UInt64>
  package var slots: Column<Int32>

  /// The number of words.
  package var count: Int { utf8Start.count - 1 }

  /// Tables as they were built (read back from a table file, whose reader checks their shape).
  package init(
    utf8: Column<UInt8>, utf8Start: Column<Int32>, scalarValues: Column<UInt32>,
    scalarStart: Column<Int32>, hashes: Column<UInt64>, slots: Column<Int32>
  ) {
    self.utf8 = utf8
    self.utf8Start = utf8Start
    self.scalarValues = scalarValues
    self.scalarStart = scalarStart
    self.hashes = hashes
    self.slots = slots
  }

  /// Reads one word per line of valid UTF-8; blank lines are ignored. Throws, naming `name`
  /// and the line, when the words are not sorted, repeat, hold a space or a dot, or are too
  /// few or too many for the index.
  ///
  /// Reads into scratch buffers sized for the worst case (every line a word, every byte a
  /// scalar), then copies them into columns of the right size.
  package init(utf8 bytes: UnsafeBufferPointer<UInt8>, name: String) throws(ThreeWordDataError) {
    var lines = 1
    for byte in bytes where byte == 0x0A { lines += 1 }
    var capacity = 16
    while capacity < 2 * lines { capacity <<= 1 }
    let text = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: bytes.count)
    let textStart = UnsafeMutableBufferPointer<Int32>.allocate(capacity: lines + 1)
    let values = UnsafeMutableBufferPointer<UInt32>.allocate(capacity: bytes.count)
    let valueStart = UnsafeMutableBufferPointer<Int32>.allocate(capacity: lines + 1)
    let hashes = UnsafeMutableBufferPointer<UInt64>.allocate(capacity: lines)
    let slots = UnsafeMutableBufferPointer<Int32>.allocate(capacity: capacity)
    defer {
      text.deallocate()
      textStart.deallocate()
      values.deallocate()
      valueStart.deallocate()
      hashes.deallocate()
      slots.deallocate()
    }
    slots.initialize(repeating: -1)
    textStart[0] = 0
    valueStart[0] = 0
    let mask = capacity - 1
    var count = 0
    var textCount = 0
    var valueCount = 0
    var lineNumber = 0
    var start = 0
    while start <= bytes.count {
      var end = start
      while end < bytes.count, bytes[end] != 0x0A { end += 1 }
      lineNumber += 1
      defer { start = end + 1 }
      guard end > start else { continue }
      let word = UnsafeBufferPointer(rebasing: bytes[start..<end])
      // The scalars (the caller hands valid UTF-8).
      let first = valueCount
      var printable = true
      var i = 0
      while i < word.count {
        let lead = UInt32(word[i])
        var value: UInt32
        var length: Int
        if lead < 0x80 {
          (value, length) = (lead, 1)
        } else if lead < 0xE0 {
          (value, length) = (lead & 0x1F, 2)
        } else if lead < 0xF0 {
          (value, length) = (lead & 0x0F, 3)
        } else {
          (value, length) = (lead & 0x07, 4)
        }
        for k in 1..<length { value = value << 6 | UInt32(word[i + k] & 0x3F) }
        if value <= 0x20 || value == 0x2E { printable = false }
        values[valueCount] = value
        valueCount += 1
        i += length
      }
      func problem(_ what: String) -> ThreeWordDataError {
        ThreeWordDataError(
          .invalidData, "\(name):\(lineNumber): '\(String(decoding: word, as: UTF8.self))' \(what)")
      }
      if count > 0 {
        guard Self.precedes(values, Int(valueStart[count - 1])..<first, first..<valueCount) else {
          throw problem("is out of order or repeated")
        }
      }
      guard printable else { throw problem("holds a space or a dot") }
      hashes[count] = Self.utf8Hash(word)
      _ = UnsafeMutableBufferPointer(rebasing: text[textCount...]).initialize(
        fromContentsOf: word)
      textCount += word.count
      count += 1
      textStart[count] = Int32(textCount)
      valueStart[count] = Int32(valueCount)
    }
    guard count >= 4, count < 1 << Self.idBits else {
      throw ThreeWordDataError(
        .invalidData, "\(name): \(count) words; expected 4…\(1 << Self.idBits - 1)")
    }
    // The table is filled in the order of the words' home slots. Any order leaves every word
    // found by probing from its home slot; this one walks the table once instead of at
    // random, and a list of 100,000 words is larger than the caches.
    var homes = (0..<count).map {
      UInt64(Self.slot(of: hashes[$0], mask: mask)) << Self.idBits | UInt64($0)
    }
    Self.radixSort(
      &homes, lowestBit: Int(Self.idBits),
      passes: (mask.bitWidth - mask.leadingZeroBitCount + 10) / 11)
    var collision: Int?
    var group = 0
    for (k, key) in homes.enumerated() {
      let id = Int(key & (1 << Self.idBits - 1))
      if k > 0, key >> Self.idBits != homes[k - 1] >> Self.idBits { group = k }
      // Equal hashes have equal homes: a word is compared with those before it in its group,
      // which came earlier in the file (the sort is stable).
      for other in homes[group..<k] where hashes[Int(other & (1 << Self.idBits - 1))] == hashes[id]
      {
        collision = min(collision ?? id, id)
      }
      var slot = Int(key >> Self.idBits)
      while slots[slot] >= 0 { slot = (slot + 1) & mask }
      slots[slot] = Int32(id)
    }
    if let id = collision {
      let word = String(
        decoding: UnsafeBufferPointer(rebasing: text[Int(textStart[id])..<Int(textStart[id + 1])]),
        as: UTF8.self)
      throw ThreeWordDataError(
        .invalidData,
        "\(name):\(Self.lineNumber(ofWord: id, in: bytes)): '\(word)' collides with another word")
    }
    self.utf8 = Column(text[..<textCount])
    utf8Start = Column(textStart[...count])
    scalarValues = Column(values[..<valueCount])
    scalarStart = Column(valueStart[...count])
    self.hashes = Column(hashes[..<count])
    self.slots = Column(slots)
  }

  /// The line of word `id` (blank lines hold no word).
  private static func lineNumber(ofWord id: Int, in bytes: UnsafeBufferPointer<UInt8>) -> Int {
    var words = 0
    var line = 1
    var blank = true
    for byte in bytes {
      if byte == 0x0A {
        if !blank {
          if words == id { return line }
          words += 1
        }
        line += 1
        blank = true
      } else {
        blank = false
      }
    }
    return line
  }

  /// Whether `values[a]` comes before `values[b]` in code-point order.
  @inline(__always)
  private static func precedes(
    _ values: UnsafeMutableBufferPointer<UInt32>, _ a: Range<Int>, _ b: Range<Int>
  ) -> Bool {
    let common = min(a.count, b.count)
    for k in 0..<common where values[a.lowerBound + k] != values[b.lowerBound + k] {
      return values[a.lowerBound + k] < values[b.lowerBound + k]
    }
    return a.count < b.count
  }

  /// The 64-bit FNV-1a hash of a word's UTF-8.
  @inline(__always)
  package static func utf8Hash(_ utf8: UnsafeBufferPointer<UInt8>) -> UInt64 {
    var h = fnvBasis
    for byte in utf8 { h = (h ^ UInt64(byte)) &* fnvPrime }
    return h
  }

  /// The home slot of a hash in a table of `mask + 1` slots.
  @inline(__always)
  package static func slot(of hash: UInt64, mask: Int) -> Int {
    Int(truncatingIfNeeded: hash ^ hash >> 29) & mask
  }

  /// Sorts `keys` stably by their bits from `lowestBit` up, in `passes` counting passes of 11
  /// bits each (the bits above are ignored).
  package static func radixSort(_ keys: inout [UInt64], lowestBit: Int, passes: Int) {
    let digitBits = 11
    var other = [UInt64](repeating: 0, count: keys.count)
    var counts = [Int](repeating: 0, count: 1 << digitBits)
    for pass in 0..<passes {
      let shift = UInt64(lowestBit + digitBits * pass)
      let mask: UInt64 = 1 << UInt64(digitBits) - 1
      keys.withUnsafeBufferPointer { from in
        other.withUnsafeMutableBufferPointer { to in
          counts.withUnsafeMutableBufferPointer { count in
            for k in count.indices { count[k] = 0 }
            for key in from { count[Int(key >> shift & mask)] += 1 }
            var sum = 0
            for k in count.indices { (count[k], sum) = (sum, sum + count[k]) }
            for key in from {
              let digit = Int(key >> shift & mask)
              to[count[digit]] = key
              count[digit] += 1
            }
          }
        }
      }
      swap(&keys, &other)
    }
  }
}
