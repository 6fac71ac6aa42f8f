import Synchronization
import ThreeWordData

/// A language's words: sorted by code point, split into four classes by position (word `i` is
/// in class `i % 4`), with an index for near-miss look-ups.
///
/// The near-miss index holds, for every word, a hash of the word and of each of its one-letter
/// deletions (the "symmetric delete" method): two words share a key when one is the other with
/// a letter deleted, inserted or replaced, or two neighbouring letters swapped.
///
/// The words are a `WordTable`: a few flat columns (no array per word), built from the file's
/// bytes in milliseconds or used where they lie in the package's mapped tables; the near-miss index, which
/// takes longer, is built when ``nearMisses(of:)`` is first asked (by autosuggest), once, on
/// any thread.
struct WordList: Sendable {
  private static let idBits = WordTable.idBits
  private static let fnvBasis = WordTable.fnvBasis
  private static let fnvPrime = WordTable.fnvPrime

  /// The words, their scalars and the hash table from a word to its number.
  private let table: WordTable
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
      Result { () throws(ThreeWordDataError) in try WordTable(utf8: bytes, name: name) }
    }
    do {
      table = try parsed.get()
    } catch {
      throw CloudError(.invalidData, error.message)
    }
  }

  /// The list of a table read back from the package's three-word tables.
  init(table: WordTable) {
    self.table = table
  }

  /// Every word's near-miss keys, sorted: each word's deletion hashes in word order, then a
  /// stable radix sort on the hash bits (so equal hashes stay in word order, as a full sort of
  /// the keys would leave them).
  private static func nearMissKeys(_ values: Column<UInt32>, _ starts: Column<Int32>) -> [UInt64] {
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
    WordTable.radixSort(&keys, lowestBit: lowestBit, passes: passes)
  }

  /// The number of words.
  var count: Int { table.count }

  /// Word `id`.
  func word(_ id: Int) -> String {
    String(
      decoding: table.utf8[Int(table.utf8Start[id])..<Int(table.utf8Start[id + 1])],
      as: UTF8.self)
  }

  /// Words `a`, `b` and `c` joined by dots, spelt in one go.
  func address(_ a: Int, _ b: Int, _ c: Int) -> String {
    let utf8Start = table.utf8Start
    return table.utf8.withUnsafeBufferPointer { utf8 in
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
  func scalars(of id: Int) -> Slice<Column<UInt32>> {
    table.scalarValues[Int(table.scalarStart[id])..<Int(table.scalarStart[id + 1])]
  }

  /// The word's number, or `nil` when it is not in the list.
  func id(of word: String) -> Int? {
    var word = word
    return word.withUTF8 { utf8 -> Int? in
      let hash = WordTable.utf8Hash(utf8)
      let slots = table.slots
      let mask = slots.count - 1
      var slot = WordTable.slot(of: hash, mask: mask)
      while slots[slot] >= 0 {
        let id = Int(slots[slot])
        if table.hashes[id] == hash {
          return table.utf8[Int(table.utf8Start[id])..<Int(table.utf8Start[id + 1])]
            .elementsEqual(utf8) ? id : nil
        }
        slot = (slot + 1) & mask
      }
      return nil
    }
  }

  /// The numbers of the words whose text starts with `prefix`, in order.
  func ids(withPrefix prefix: [UInt32]) -> Range<Int> {
    func lowerBound(_ isBefore: (Slice<Column<UInt32>>) -> Bool) -> Int {
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
    let nearMissKeys = self.nearMissKeys.get {
      Self.nearMissKeys(table.scalarValues, table.scalarStart)
    }
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
  static func editDistance(_ a: [UInt32], _ b: some Collection<UInt32>) -> Int {
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
