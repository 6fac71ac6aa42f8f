/// A language's words: sorted by code point, split into four classes by position (word `i` is
/// in class `i % 4`), with an index for near-miss look-ups.
///
/// The near-miss index holds, for every word, a hash of the word and of each of its one-letter
/// deletions (the "symmetric delete" method): two words share a key when one is the other with
/// a letter deleted, inserted or replaced, or two neighbouring letters swapped.
struct WordList: Sendable {
  private static let idBits: UInt64 = 20

  let words: [String]
  let scalars: [[UInt32]]
  /// Word numbers by the 64-bit FNV-1a hash of the word's UTF-8, which hashes faster than a
  /// `String` key (no Unicode normalisation); a hit is confirmed by comparing the bytes.
  private let ids: [UInt64: Int32]
  /// Sorted `hash << idBits | id` entries.
  private let nearMissKeys: [UInt64]

  /// Parses one word per line; blank lines are ignored. Throws when the words are not sorted,
  /// repeat, or are too many for the index.
  init(text: String, name: String) throws(CloudError) {
    var words: [String] = []
    var scalars: [[UInt32]] = []
    var ids: [UInt64: Int32] = [:]
    var lineNumber = 0
    for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
      lineNumber += 1
      let word = String(line)
      if word.isEmpty { continue }
      let s = word.unicodeScalars.map(\.value)
      if let last = scalars.last, !last.lexicographicallyPrecedes(s) {
        throw CloudError(
          .invalidData, "\(name):\(lineNumber): '\(word)' is out of order or repeated")
      }
      guard s.allSatisfy({ $0 > 0x20 && $0 != 0x2E }) else {
        throw CloudError(.invalidData, "\(name):\(lineNumber): '\(word)' holds a space or a dot")
      }
      let key = Self.utf8Hash(word)
      guard ids[key] == nil else {
        throw CloudError(
          .invalidData, "\(name):\(lineNumber): '\(word)' collides with another word")
      }
      ids[key] = Int32(words.count)
      words.append(word)
      scalars.append(s)
    }
    guard words.count >= 4, words.count < 1 << Self.idBits else {
      throw CloudError(
        .invalidData, "\(name): \(words.count) words; expected 4…\(1 << Self.idBits - 1)")
    }
    self.words = words
    self.scalars = scalars
    self.ids = ids
    var keys: [UInt64] = []
    keys.reserveCapacity(words.count * 9)
    for (id, s) in scalars.enumerated() {
      Self.forEachDeletion(of: s) { hash in keys.append(hash << Self.idBits | UInt64(id)) }
    }
    keys.sort()
    nearMissKeys = keys
  }

  /// The number of words in class `k` (0…3).
  func classSize(_ k: Int) -> Int { (words.count - k + 3) / 4 }

  /// The word's number, or `nil` when it is not in the list.
  func id(of word: String) -> Int? {
    guard let id = ids[Self.utf8Hash(word)].map(Int.init),
      words[id].utf8.elementsEqual(word.utf8)
    else { return nil }
    return id
  }

  private static func utf8Hash(_ word: String) -> UInt64 {
    var h: UInt64 = 0xCBF2_9CE4_8422_2325
    for byte in word.utf8 { h = (h ^ UInt64(byte)) &* 0x0000_0100_0000_01B3 }
    return h
  }

  /// The numbers of the words whose text starts with `prefix`, in order.
  func ids(withPrefix prefix: [UInt32]) -> Range<Int> {
    func lowerBound(_ isBefore: ([UInt32]) -> Bool) -> Int {
      var low = 0
      var high = scalars.count
      while low < high {
        let mid = (low + high) >> 1
        if isBefore(scalars[mid]) { low = mid + 1 } else { high = mid }
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
    return found.sorted().compactMap { id in
      let d = Self.editDistance(text, scalars[id])
      return d <= 2 ? (id, d) : nil
    }
  }

  private static func hash(_ s: some Sequence<UInt32>) -> UInt64 {
    var h: UInt64 = 0xCBF2_9CE4_8422_2325
    for v in s {
      h = (h ^ UInt64(v)) &* 0x0000_0100_0000_01B3
    }
    return h >> idBits
  }

  private static func forEachDeletion(of s: [UInt32], _ body: (UInt64) -> Void) {
    body(hash(s))
    var previous: UInt32?
    for i in s.indices where s[i] != previous {
      previous = s[i]
      var t = s
      t.remove(at: i)
      body(hash(t))
    }
  }

  /// Optimal-string-alignment distance (Levenshtein plus adjacent transpositions).
  static func editDistance(_ a: [UInt32], _ b: [UInt32]) -> Int {
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
