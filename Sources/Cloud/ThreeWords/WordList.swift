import Synchronization

/// A language's words: sorted by code point, split into four classes by position (word `i` is
/// in class `i % 4`), with an index for near-miss look-ups.
///
/// The near-miss index holds, for every word, a hash of the word and of each of its one-letter
/// deletions (the "symmetric delete" method): two words share a key when one is the other with
/// a letter deleted, inserted or replaced, or two neighbouring letters swapped.
///
/// Everything is built from the file's bytes in a few flat arrays (no array per word), so that
/// reading a list of 100,000 words takes milliseconds; the near-miss index, which takes longer,
/// is built when ``nearMisses(of:)`` is first asked (by autosuggest), once, on any thread.
struct WordList: Sendable {
  private static let idBits: UInt64 = 20
  private static let fnvBasis: UInt64 = 0xCBF2_9CE4_8422_2325
  private static let fnvPrime: UInt64 = 0x0000_0100_0000_01B3

  /// The words' UTF-8, one after another: word `i` is `utf8[utf8Start[i] ..< utf8Start[i + 1]]`.
  private let utf8: [UInt8]
  private let utf8Start: [Int32]
  /// Every word's Unicode scalar values, one word after another: word `i` is
  /// `scalarValues[scalarStart[i] ..< scalarStart[i + 1]]`.
  private let scalarValues: [UInt32]
  private let scalarStart: [Int32]
  /// Word numbers by the 64-bit FNV-1a hash of the word's UTF-8 (`wordHashes[id]`), in an
  /// open-addressing table with linear probing (−1 marks a free slot; at most half are used).
  /// A hit is confirmed by comparing the bytes.
  private let wordHashes: [UInt64]
  private let slots: [Int32]
  /// Sorted `hash << idBits | id` entries, made on first use; shared by the copies of the list.
  private let nearMissKeys = NearMissKeys()

  private final class NearMissKeys: Sendable {
    private let keys = Mutex<[UInt64]?>(nil)

    /// The keys, made by `make` if no caller has made them yet (others wait meanwhile).
    func get(_ make: () -> [UInt64]) -> [UInt64] {
      keys.withLock { keys in
        if let keys { return keys }
        let made = make()
        keys = made
        return made
      }
    }
  }

  /// Parses one word per line; blank lines are ignored. Throws when the words are not sorted,
  /// repeat, or are too many for the index.
  init(text: String, name: String) throws(CloudError) {
    var text = text
    let parsed = text.withUTF8 { bytes in
      Result { () throws(CloudError) in try Parsed(utf8: bytes, name: name) }
    }
    let list = try parsed.get()
    let count = list.utf8Start.count - 1
    guard count >= 4, count < 1 << Self.idBits else {
      throw CloudError(
        .invalidData, "\(name): \(count) words; expected 4…\(1 << Self.idBits - 1)")
    }
    utf8 = list.utf8
    utf8Start = list.utf8Start
    scalarValues = list.scalarValues
    scalarStart = list.scalarStart
    wordHashes = list.hashes
    slots = list.slots
  }

  /// The words of a file as the initialiser reads them, before the near-miss index.
  private struct Parsed {
    var utf8: [UInt8] = []
    var utf8Start: [Int32] = [0]
    var scalarValues: [UInt32] = []
    var scalarStart: [Int32] = [0]
    var hashes: [UInt64] = []
    var slots: [Int32] = []

    /// Reads the words into scratch buffers sized for the worst case (every line a word, every
    /// byte a scalar), then copies them into arrays of the right size.
    init(utf8 bytes: UnsafeBufferPointer<UInt8>, name: String) throws(CloudError) {
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
        // The scalars (the bytes are valid UTF-8, as the file was read as a `String`).
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
        func problem(_ what: String) -> CloudError {
          CloudError(
            .invalidData,
            "\(name):\(lineNumber): '\(String(decoding: word, as: UTF8.self))' \(what)")
        }
        if count > 0 {
          guard
            Self.precedes(
              values, Int(valueStart[count - 1])..<first, first..<valueCount)
          else {
            throw problem("is out of order or repeated")
          }
        }
        guard printable else { throw problem("holds a space or a dot") }
        hashes[count] = WordList.utf8Hash(word)
        _ = UnsafeMutableBufferPointer(rebasing: text[textCount...]).initialize(
          fromContentsOf: word)
        textCount += word.count
        count += 1
        textStart[count] = Int32(textCount)
        valueStart[count] = Int32(valueCount)
      }
      // The table is filled in the order of the words' home slots. Any order leaves every word
      // found by probing from its home slot; this one walks the table once instead of at
      // random, and a list of 100,000 words is larger than the caches.
      guard count < 1 << WordList.idBits else {
        throw CloudError(
          .invalidData, "\(name): \(count) words; expected 4…\(1 << WordList.idBits - 1)")
      }
      var homes = (0..<count).map {
        UInt64(WordList.slot(of: hashes[$0], mask: mask)) << WordList.idBits | UInt64($0)
      }
      WordList.radixSort(
        &homes, lowestBit: Int(WordList.idBits),
        passes: (mask.bitWidth - mask.leadingZeroBitCount + 10) / 11)
      var collision: Int?
      var group = 0
      for (k, key) in homes.enumerated() {
        let id = Int(key & (1 << WordList.idBits - 1))
        if k > 0, key >> WordList.idBits != homes[k - 1] >> WordList.idBits { group = k }
        // Equal hashes have equal homes: a word is compared with those before it in its group,
        // which came earlier in the file (the sort is stable).
        for other in homes[group..<k]
        where hashes[Int(other & (1 << WordList.idBits - 1))] == hashes[id] {
          collision = min(collision ?? id, id)
        }
        var slot = Int(key >> WordList.idBits)
        while slots[slot] >= 0 { slot = (slot + 1) & mask }
        slots[slot] = Int32(id)
      }
      if let id = collision {
        let word = String(
          decoding: UnsafeBufferPointer(
            rebasing: text[Int(textStart[id])..<Int(textStart[id + 1])]), as: UTF8.self)
        throw CloudError(
          .invalidData,
          "\(name):\(Self.lineNumber(ofWord: id, in: bytes)): '\(word)' collides with another word")
      }
      self.utf8 = Array(text[..<textCount])
      utf8Start = Array(textStart[...count])
      scalarValues = Array(values[..<valueCount])
      scalarStart = Array(valueStart[...count])
      self.hashes = Array(hashes[..<count])
      self.slots = Array(slots)
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
  }

  /// Every word's near-miss keys, sorted: each word's deletion hashes in word order, then a
  /// stable radix sort on the hash bits (so equal hashes stay in word order, as a full sort of
  /// the keys would leave them).
  private static func nearMissKeys(_ values: [UInt32], _ starts: [Int32]) -> [UInt64] {
    var keys: [UInt64] = []
    keys.reserveCapacity(values.count + 2 * (starts.count - 1))
    values.withUnsafeBufferPointer { all in
      for id in 0..<starts.count - 1 {
        let word = UnsafeBufferPointer(
          rebasing: all[Int(starts[id])..<Int(starts[id + 1])])
        forEachDeletion(of: word) { hash in keys.append(hash << idBits | UInt64(id)) }
      }
    }
    radixSortHashBits(&keys)
    return keys
  }

  /// Sorts `hash << idBits | id` keys made in increasing `id` order by their hash bits, stably,
  /// which sorts them completely: four counting passes of 11 bits.
  static func radixSortHashBits(_ keys: inout [UInt64]) {
    radixSort(&keys, lowestBit: Int(idBits), passes: 4)
  }

  /// Sorts `keys` stably by their bits from `lowestBit` up, in `passes` counting passes of 11
  /// bits each (the bits above are ignored).
  static func radixSort(_ keys: inout [UInt64], lowestBit: Int, passes: Int) {
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

  /// The number of words.
  var count: Int { utf8Start.count - 1 }

  /// Word `id`.
  func word(_ id: Int) -> String {
    utf8.withUnsafeBufferPointer { utf8 in
      String(
        decoding: UnsafeBufferPointer(rebasing: utf8[Int(utf8Start[id])..<Int(utf8Start[id + 1])]),
        as: UTF8.self)
    }
  }

  /// Words `a`, `b` and `c` joined by dots, spelt in one go.
  func address(_ a: Int, _ b: Int, _ c: Int) -> String {
    utf8.withUnsafeBufferPointer { utf8 in
      let parts = [a, b, c].map { id in
        UnsafeBufferPointer(rebasing: utf8[Int(utf8Start[id])..<Int(utf8Start[id + 1])])
      }
      return String(
        unsafeUninitializedCapacity: parts[0].count + parts[1].count + parts[2].count + 2
      ) {
        out in
        var n = 0
        for (k, part) in parts.enumerated() {
          if k > 0 {
            out[n] = UInt8(ascii: ".")
            n += 1
          }
          _ = UnsafeMutableBufferPointer(rebasing: out[n...]).initialize(fromContentsOf: part)
          n += part.count
        }
        return n
      }
    }
  }

  /// The number of words in class `k` (0…3).
  func classSize(_ k: Int) -> Int { (count - k + 3) / 4 }

  /// The Unicode scalar values of word `id`.
  func scalars(of id: Int) -> ArraySlice<UInt32> {
    scalarValues[Int(scalarStart[id])..<Int(scalarStart[id + 1])]
  }

  /// The word's number, or `nil` when it is not in the list.
  func id(of word: String) -> Int? {
    var word = word
    return word.withUTF8 { utf8 -> Int? in
      let hash = Self.utf8Hash(utf8)
      let mask = slots.count - 1
      var slot = Self.slot(of: hash, mask: mask)
      while slots[slot] >= 0 {
        let id = Int(slots[slot])
        if wordHashes[id] == hash {
          return self.utf8[Int(utf8Start[id])..<Int(utf8Start[id + 1])].elementsEqual(utf8)
            ? id : nil
        }
        slot = (slot + 1) & mask
      }
      return nil
    }
  }

  private static func utf8Hash(_ utf8: UnsafeBufferPointer<UInt8>) -> UInt64 {
    var h = fnvBasis
    for byte in utf8 { h = (h ^ UInt64(byte)) &* fnvPrime }
    return h
  }

  private static func slot(of hash: UInt64, mask: Int) -> Int {
    Int(truncatingIfNeeded: hash ^ hash >> 29) & mask
  }

  /// The numbers of the words whose text starts with `prefix`, in order.
  func ids(withPrefix prefix: [UInt32]) -> Range<Int> {
    func lowerBound(_ isBefore: (ArraySlice<UInt32>) -> Bool) -> Int {
      var low = 0
      var high = count
      while low < high {
        let mid = (low + high) >> 1
        if isBefore(scalars(of: mid)) { low = mid + 1 } else { high = mid }
      }
      return low
    }
    let start = lowerBound { $0.lexicographicallyPrecedes(prefix) }
    let end = lowerBound { $0.lexicographicallyPrecedes(prefix) || $0.starts(with: prefix) }
    return start..<end
  }

  /// Words within one edit (deletion, insertion, substitution or adjacent swap) of `text`,
  /// and some at two, each with its edit distance; `text` itself is included when it is a word.
  func nearMisses(of text: [UInt32]) -> [(id: Int, distance: Int)] {
    var found: Set<Int> = []
    let nearMissKeys = self.nearMissKeys.get { Self.nearMissKeys(scalarValues, scalarStart) }
    text.withUnsafeBufferPointer { text in
      Self.forEachDeletion(of: text) { hash in
        let target = hash << Self.idBits
        var low = 0
        var high = nearMissKeys.count
        while low < high {
          let mid = (low + high) >> 1
          if nearMissKeys[mid] < target { low = mid + 1 } else { high = mid }
        }
        while low < nearMissKeys.count, nearMissKeys[low] >> Self.idBits == hash {
          found.insert(Int(nearMissKeys[low] & (1 << Self.idBits - 1)))
          low += 1
        }
      }
    }
    return found.sorted().compactMap { id in
      let d = Self.editDistance(text, scalars(of: id))
      return d <= 2 ? (id, d) : nil
    }
  }

  /// Calls `body` with the hash of `s` and of `s` less each letter (a run of equal letters
  /// once), computed without building the shorter strings.
  private static func forEachDeletion(
    of s: UnsafeBufferPointer<UInt32>, _ body: (UInt64) -> Void
  ) {
    var whole = fnvBasis
    for v in s { whole = (whole ^ UInt64(v)) &* fnvPrime }
    body(whole >> idBits)
    var prefix = fnvBasis  // the hash of s[..<i]
    for i in s.indices {
      if i == 0 || s[i] != s[i - 1] {
        var h = prefix
        for j in (i + 1)..<s.count { h = (h ^ UInt64(s[j])) &* fnvPrime }
        body(h >> idBits)
      }
      prefix = (prefix ^ UInt64(s[i])) &* fnvPrime
    }
  }

  /// Optimal-string-alignment distance (Levenshtein plus adjacent transpositions).
  static func editDistance(_ a: [UInt32], _ b: ArraySlice<UInt32>) -> Int {
    let b = Array(b)
    if a.isEmpty { return b.count }
    if b.isEmpty { return a.count }
    var twoBack = [Int](repeating: 0, count: b.count + 1)
    var previous = Array(0...b.count)
    var current = [Int](repeating: 0, count: b.count + 1)
    for i in 1...a.count {
      current[0] = i
      for j in 1...b.count {
        let cost = a[i - 1] == b[j - 1] ? 0 : 1
        var d = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
        if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
          d = min(d, twoBack[j - 2] + 1)
        }
        current[j] = d
      }
      (twoBack, previous, current) = (previous, current, twoBack)
    }
    return previous[b.count]
  }
}
