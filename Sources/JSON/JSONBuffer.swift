import Foundation

/// A growable buffer of UTF-8 bytes that JSON text is written into piece by piece: what the
/// writers of large files (the event log) use.
///
/// Its pieces are the bytes of ``JSONText``'s text writers: ``writeString(_:)`` gives the bytes
/// of `JSONText.writeString(_:to:)` and ``writeNumber(_:)`` those of `JSONText.number(_:)`.
/// Unlike a `[UInt8]`, appending checks one capacity and touches no reference count: a line of
/// the event log is some thirty small pieces.
public struct JSONBuffer: ~Copyable {
  @usableFromInline var base: UnsafeMutablePointer<UInt8>
  @usableFromInline var length = 0
  /// The number of bytes written.
  public var count: Int { length }
  @usableFromInline var capacity: Int
  /// Whether `base` is the buffer's to free: not while it writes into memory it was lent.
  @usableFromInline var ownsMemory = true

  /// An empty buffer with room for `capacity` bytes before it grows.
  public init(capacity: Int = 1 << 12) {
    self.capacity = max(capacity, 64)
    base = .allocate(capacity: self.capacity)
  }

  /// An empty buffer that writes into `memory`, which stays its owner's to keep alive and to
  /// free. Text that outgrows it is moved to memory of the buffer's own, and `memory` keeps
  /// the bytes it held: a reader of `memory` sees the text written before, never freed
  /// memory. ``isWriting(into:)`` tells whether that happened.
  ///
  /// - Precondition: `memory` is not empty.
  public init(writingInto memory: UnsafeMutableBufferPointer<UInt8>) {
    guard let start = memory.baseAddress, !memory.isEmpty else {
      preconditionFailure("a buffer needs memory to write into")
    }
    base = start
    capacity = memory.count
    ownsMemory = false
  }

  deinit { if ownsMemory { base.deallocate() } }

  /// Whether the text is still in `memory`, the memory the buffer was made to write into
  /// (``init(writingInto:)``): it has not outgrown it.
  public func isWriting(into memory: UnsafeMutableBufferPointer<UInt8>) -> Bool {
    base == memory.baseAddress
  }

  /// Whether nothing has been written.
  public var isEmpty: Bool { length == 0 }

  /// The bytes written, as an array.
  public var bytes: [UInt8] { withUnsafeBytes { Array($0) } }

  /// The bytes written, as `Data` that takes over the buffer's storage (no copy).
  public consuming func data() -> Data {
    let (start, count, owned) = (base, length, ownsMemory)
    discard self
    // Lent memory stays its owner's: the bytes are copied out of it.
    guard owned else { return Data(bytes: start, count: count) }
    return Data(
      bytesNoCopy: start, count: count, deallocator: .custom { bytes, _ in bytes.deallocate() })
  }

  /// Calls `body` with the bytes written; they are valid only inside it.
  public func withUnsafeBytes<R, E: Error>(
    _ body: (UnsafeBufferPointer<UInt8>) throws(E) -> R
  ) throws(E) -> R {
    try body(UnsafeBufferPointer(start: base, count: length))
  }

  /// Forgets what was written, keeping the storage.
  public mutating func removeAll() { length = 0 }

  /// Forgets the last `k` bytes written.
  public mutating func removeLast(_ k: Int) {
    precondition(k >= 0 && k <= length, "cannot remove \(k) of \(length) bytes")
    length -= k
  }

  /// Makes room for `n` more bytes.
  @inlinable @inline(__always)
  mutating func reserve(_ n: Int) {
    if n > capacity &- length { grow(toHold: length + n) }
  }

  @usableFromInline @inline(never)
  mutating func grow(toHold needed: Int) {
    capacity = max(needed, 2 * capacity)
    let bigger = UnsafeMutablePointer<UInt8>.allocate(capacity: capacity)
    bigger.initialize(from: base, count: length)
    if ownsMemory { base.deallocate() }
    base = bigger
    ownsMemory = true
  }

  /// Appends `text` as it is (no quoting): keys, punctuation, literals.
  @inlinable @inline(__always)
  public mutating func append(_ text: StaticString) {
    let n = text.utf8CodeUnitCount
    reserve(n)
    (base + length).initialize(from: text.utf8Start, count: n)
    length &+= n
  }

  /// Appends one byte.
  @inlinable @inline(__always)
  public mutating func append(_ byte: UInt8) {
    reserve(1)
    base[length] = byte
    length &+= 1
  }

  /// Appends `bytes` as they are.
  public mutating func append(contentsOf bytes: UnsafeBufferPointer<UInt8>) {
    guard let start = bytes.baseAddress, !bytes.isEmpty else { return }
    reserve(bytes.count)
    (base + length).initialize(from: start, count: bytes.count)
    length &+= bytes.count
  }

  /// Appends the UTF-8 of `text` as it is (no quoting): text made at run time, such as the
  /// parts of a page around a JSON document.
  public mutating func append(utf8 text: String) {
    var text = text
    text.withUTF8 { append(contentsOf: $0) }
  }

  /// Appends the decimal digits of `i`, with a minus sign when negative: the bytes of
  /// `String(i)`.
  @inlinable
  public mutating func writeInteger(_ i: Int64) {
    reserve(20)
    if i < 0 {
      base[length] = UInt8(ascii: "-")
      length &+= 1
    }
    let digits = Self.digitCount(i.magnitude)
    Self.writeDigits(i.magnitude, count: digits, endingAt: base + (length &+ digits))
    length &+= digits
  }

  /// The number of decimal digits of `n` (1 for 0).
  @inlinable @inline(__always)
  static func digitCount(_ n: UInt64) -> Int {
    // The bit length times log₁₀ 2 (1233 / 4096), rounded down, is the digit count or one
    // less: one comparison with a power of ten decides. Setting the low bit makes zero count
    // as one digit and moves no other number across a power of ten (those above 1 are even).
    let m = n | 1
    let guess = ((UInt64.bitWidth - m.leadingZeroBitCount) &* 1_233) >> 12
    return m < powerOfTen(guess) ? guess : guess &+ 1
  }

  /// Writes the decimal digits of `n`, which has at most `count` of them, padded with leading
  /// zeros to `count`, just before `end`.
  ///
  /// The digits go in groups of eight, each from its own remainder, so that the divisions of
  /// one group do not wait for another's: a number of 17 digits is three short chains, not
  /// one of nine.
  @inlinable @inline(__always)
  static func writeDigits(_ n: UInt64, count: Int, endingAt end: UnsafeMutablePointer<UInt8>) {
    var rest = n
    var at = end
    var left = count
    while left > 8 {
      let (higher, eight) = rest.quotientAndRemainder(dividingBy: 100_000_000)
      writeEightDigits(UInt32(truncatingIfNeeded: eight), endingAt: at)
      rest = higher
      at -= 8
      left &-= 8
    }
    var short = UInt32(truncatingIfNeeded: rest)
    while left >= 2 {
      let pair = short % 100
      short /= 100
      at -= 2
      writePair(pair, at: at)
      left &-= 2
    }
    if left == 1 {
      (at - 1).pointee = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: short % 10)
    }
  }

  /// Writes the eight digits of `n` (below 10⁸, leading zeros included) just before `end`: two
  /// halves of four, and each half two pairs, all four pairs found at once.
  @inlinable @inline(__always)
  static func writeEightDigits(_ n: UInt32, endingAt end: UnsafeMutablePointer<UInt8>) {
    let (high, low) = n.quotientAndRemainder(dividingBy: 10_000)
    writePair(high / 100, at: end - 8)
    writePair(high % 100, at: end - 6)
    writePair(low / 100, at: end - 4)
    writePair(low % 100, at: end - 2)
  }

  /// Writes the two digits of `pair` (below 100) at `at`.
  @inlinable @inline(__always)
  static func writePair(_ pair: UInt32, at: UnsafeMutablePointer<UInt8>) {
    // "00", "01", … "99": a literal, so reading it needs no set-up.
    let pairs: StaticString = """
      00010203040506070809101112131415161718192021222324\
      25262728293031323334353637383940414243444546474849\
      50515253545556575859606162636465666768697071727374\
      75767778798081828384858687888990919293949596979899
      """
    let index = Int(pair &* 2)
    at[0] = pairs.utf8Start[index]
    at[1] = pairs.utf8Start[index &+ 1]
  }

  /// Appends `JSONText.number(n)`: the shortest digits that read back exactly as `n`, an
  /// integral value below 10¹⁵ without a fraction. `n` must be finite.
  public mutating func writeNumber(_ n: Double) {
    // Integral: a conversion and back, not `rounded()` (a call into the C library).
    if abs(n) < 1e15, Double(Int64(n)) == n { return writeInteger(Int64(n)) }
    guard let (digits, places) = Self.shortestDecimal(abs(n)) else {
      return append(utf8: n.description)
    }
    if n < 0 { append(UInt8(ascii: "-")) }
    writeFraction(digits, places: places)
  }

  /// Appends `digits / 10^places` (`places` from 1 to 19): the whole part (0 when there is
  /// none), a point, and exactly `places` digits after it.
  private mutating func writeFraction(_ digits: UInt64, places: Int) {
    let count = Self.digitCount(digits)
    // At least one digit before the point: "0.0…" pads a number below one.
    let total = max(count, places &+ 1)
    reserve(total &+ 1)
    let start = base + length
    // Every digit one byte to the right of where it belongs, then the whole part moved back
    // over the gap it leaves for the point: no division by 10^places.
    Self.writeDigits(digits, count: total, endingAt: start + (total &+ 1))
    let wholeDigits = total &- places
    // A few bytes (at most 15): moved one by one, not through a call.
    var i = 0
    while i < wholeDigits {
      start[i] = start[i &+ 1]
      i &+= 1
    }
    start[wholeDigits] = UInt8(ascii: ".")
    length &+= total &+ 1
  }

  /// 10^`k`, for `k` from 0 to 19: read from a table the binary holds (a switch over the
  /// constants was compiled to a jump through a table, which the processor mispredicted once
  /// numbers of different lengths mixed).
  @usableFromInline @inline(__always)
  static func powerOfTen(_ k: Int) -> UInt64 { powersOfTen[k] }

  /// The shortest decimal that reads back as `x`, as its digits and the number of them after
  /// the point, for a non-integral 10⁻³ ≤ `x` < 10¹⁵, where `description` writes no exponent;
  /// `nil` for any other `x`, or when an integer reads back as `x`.
  ///
  /// `x` is *m*·2⁻*q* exactly, and every decimal within half a unit in the last place of it
  /// reads back as `x` (the bounds too when *m* is even, as reading rounds halves to even).
  /// Scaled by 2^(*q*+2) those bounds are integers; scaled by 10^*k* as well, the decimals of
  /// *k* places between them are the integers between the scaled bounds. 17 significant digits
  /// always fit, so the bounds are scaled once, to that many places (three 128-bit products),
  /// and then cut while a decimal still fits: the least integer above a bound at *k* − *n*
  /// places is that above its 10^*n*-th at *k* places, and the greatest below likewise, so a
  /// cut of *n* digits is one division by 10^*n* (one digit at a time first, then, for a short
  /// decimal, eight, four, two and one). Of the decimals of the fewest places the nearest to
  /// `x` is chosen, as `description` does.
  static func shortestDecimal(_ x: Double) -> (digits: UInt64, places: Int)? {
    guard x >= 1e-3, x < 1e15 else { return nil }
    let bounds = Bounds(x)
    // The places of 17 significant digits (`x` below 10¹⁵ is converted as a signed integer:
    // one instruction, where an unsigned conversion takes two and a choice).
    let whole =
      x >= 1 ? digitCount(UInt64(Int64(x))) : x >= 0.1 ? 0 : x >= 0.01 ? -1 : -2
    return bounds.shortest(startingAt: 17 - whole)
  }

  /// The decimals that read back as a double, scaled by 2^`shift`.
  private struct Bounds {
    // Below 2⁵⁵: each product with a power of ten is one 64-bit multiplication.
    let center: UInt64
    let low: UInt64
    let high: UInt64
    let inclusive: Bool
    let shift: Int
    let mask: UInt128

    init(_ x: Double) {
      let m = UInt64(x.significandBitPattern) | 1 << 52
      // From 5 (x below 2⁵⁰) to 64 (x at least 2⁻¹⁰).
      shift = 1075 + 2 - Int(x.exponentBitPattern)
      center = 4 * m
      // At a power of two the next double down is half as far as the next one up.
      low = x.significandBitPattern == 0 ? center - 1 : center - 2
      high = center + 2
      inclusive = m & 1 == 0
      mask = (1 &<< UInt128(shift)) &- 1
    }

    /// 1 for `true`, 0 for `false`: a condition added without a branch (whether a bound is
    /// inclusive, or a decimal rounds up, is the data's: a guessed branch was wrong half the
    /// time, and a wrong guess cost more than the rest of the work).
    @inline(__always)
    private func bit(_ condition: Bool) -> UInt64 { condition ? 1 : 0 }

    /// `a` × `b`, in full.
    @inline(__always)
    private static func product(_ a: UInt64, _ b: UInt64) -> UInt128 {
      let (high, low) = a.multipliedFullWidth(by: b)
      return UInt128(high) << 64 | UInt128(low)
    }

    /// The decimal of the fewest places (at least one) within the bounds, nearest to the double
    /// (the even one of two as near), times 10^places; `nil` when an integer is within them.
    /// `places` must fit: at most 19, and 17 significant digits.
    func shortest(startingAt places: Int) -> (digits: UInt64, places: Int)? {
      let scale = JSONBuffer.powerOfTen(places)
      // The least and the greatest decimal of `places` places within the bounds, times
      // 10^places (below 10¹⁸: 17 significant digits).
      let l = Self.product(low, scale)
      // (Shifts by less than 128 that leave less than 10¹⁸: neither needs a check.)
      var least = UInt64(truncatingIfNeeded: l &>> shift)
      least &+= bit(!inclusive) | bit(l & mask != 0)
      let h = Self.product(high, scale)
      var greatest = UInt64(truncatingIfNeeded: h &>> shift)
      greatest &-= bit(!inclusive) & bit(h & mask == 0)
      // The double itself at `places` places, as an integer and a fraction of 2^shift.
      let exact = Self.product(center, scale)
      var kept = UInt64(truncatingIfNeeded: exact &>> shift)
      let fraction = exact & mask
      // Cut digits while a decimal of one place fewer fits, cutting the double's as well: the
      // first digit cut, and whether anything after it is not zero, decide its rounding.
      var cut = 0
      var firstCut: UInt64 = 0
      var restIsZero = fraction == 0
      // Cuts `count` digits at once (10^count is `unit`, 10^(count − 1) `top`) if a decimal of
      // that many places fewer fits: the least integer above a bound's 10^count-th is that
      // above its tenth cut `count` times, the greatest below likewise. The digits cut go into
      // the rounding as one cut at a time would have left them.
      @inline(__always)
      func cutDigits(_ count: Int, unit: UInt64, top: UInt64) -> Bool {
        guard cut &+ count <= places else { return false }
        let (fewerLeast, fewerGreatest) = ((least &+ (unit &- 1)) / unit, greatest / unit)
        guard fewerLeast <= fewerGreatest else { return false }
        (least, greatest) = (fewerLeast, fewerGreatest)
        let (higher, digits) = kept.quotientAndRemainder(dividingBy: unit)
        restIsZero = restIsZero && firstCut == 0 && digits % top == 0
        firstCut = digits / top
        kept = higher
        cut &+= count
        return true
      }
      // A double of full precision keeps all or all but one or two of its 17 digits: a digit at
      // a time finds that in as few steps as can be. A decimal of few digits (a coordinate to
      // the metre, a rounded accuracy) loses many: after two, eight, four, two and one at a
      // time find how many in at most eight steps, not fifteen.
      if cutDigits(1, unit: 10, top: 1), cutDigits(1, unit: 10, top: 1) {
        while cutDigits(8, unit: 100_000_000, top: 10_000_000) {}
        _ = cutDigits(4, unit: 10_000, top: 1_000)
        _ = cutDigits(2, unit: 100, top: 10)
        _ = cutDigits(1, unit: 10, top: 1)
      }
      guard cut < places else { return nil }
      // Rounded half to even (a cut of nothing by the fraction of 2^shift, else by the first digit
      // cut and the rest).
      let half = (mask &>> 1) &+ 1
      let odd = kept & 1
      let up =
        cut == 0
        ? bit(fraction > half) | (bit(fraction == half) & odd)
        : bit(firstCut > 5) | (bit(firstCut == 5) & (bit(!restIsZero) | odd))
      return (min(max(kept &+ up, least), greatest), places - cut)
    }
  }

  /// Appends `JSONText.number(Double(units) / 10^scale)` (`scale` from 1 to 9), written from
  /// the integer's digits: an exact decimal of at most 15 significant digits is the shortest
  /// that reads back as its double. (A time in nanoseconds, written in seconds.)
  public mutating func writeDecimal(_ units: Int64, scale: Int) {
    precondition(scale >= 1 && scale <= 9, "a scale of 1 to 9 digits, not \(scale)")
    let unit = Self.powerOfTen(scale)
    // 10⁻³ ≤ |value| < 10⁶: written without an exponent, and 15 digits or fewer.
    var digits = units.magnitude
    guard digits >= unit / 1_000, digits < unit * 1_000_000 else {
      return writeNumber(Double(units) / Double(unit))
    }
    // Whole units (a time on the second) are an integer: no zeros to strip one by one.
    if digits % unit == 0 {
      if units < 0 { append(UInt8(ascii: "-")) }
      return writeInteger(Int64(digits / unit))
    }
    var places = scale
    while places > 0, digits % 10 == 0 {
      digits /= 10
      places -= 1
    }
    if units < 0 { append(UInt8(ascii: "-")) }
    if places == 0 { return writeInteger(Int64(digits)) }
    writeFraction(digits, places: places)
  }

  /// Appends `s` as a quoted JSON string, escaping quotes, backslashes and control characters:
  /// the bytes of `JSONText.writeString(_:to:)`.
  public mutating func writeString(_ s: String) {
    var s = s
    s.withUTF8 { writeString(utf8: $0) }
  }

  /// Appends the UTF-8 text `utf8` as a quoted JSON string, as ``writeString(_:)`` writes the
  /// same text: for text already made as bytes (a log line). `utf8` must be valid UTF-8 and
  /// must not point into this buffer.
  public mutating func writeString(utf8: UnsafeBufferPointer<UInt8>) {
    reserve(utf8.count &+ 2)
    base[length] = UInt8(ascii: "\"")
    length &+= 1
    if !Self.needsEscapes(utf8) {
      append(contentsOf: utf8)
      return append(UInt8(ascii: "\""))
    }
    // Only ASCII needs escapes, so the bytes of other scalars are copied as they are. Each byte
    // takes at most two bytes, but for a control character without a short escape ("\u00XX"),
    // which makes room for its six.
    reserve(utf8.count &* 2 &+ 1)
    var out = base + length
    guard let input = utf8.baseAddress else { return }
    let count = utf8.count
    var i = 0
    while i < count {
      // Eight bytes at a time while eight are left: the bytes before the first one to escape
      // are copied together (all eight are stored, the room being there, and those from it on
      // written over).
      if count &- i >= 8 {
        let word = UnsafeRawPointer(input + i).loadUnaligned(as: UInt64.self)
        let flags = Self.escapedBytes(word)
        UnsafeMutableRawPointer(out).storeBytes(of: word, as: UInt64.self)
        let plain = flags == 0 ? 8 : flags.trailingZeroBitCount / 8
        out += plain
        i &+= plain
        guard plain < 8 else { continue }
      }
      let byte = input[i]
      defer { i &+= 1 }
      switch byte {
      case 0x22, 0x5C:
        out[0] = UInt8(ascii: "\\")
        out[1] = byte
        out += 2
      case 0x0A, 0x0D, 0x09:
        out[0] = UInt8(ascii: "\\")
        out[1] =
          byte == 0x0A ? UInt8(ascii: "n") : byte == 0x0D ? UInt8(ascii: "r") : UInt8(ascii: "t")
        out += 2
      case ..<0x20:
        length = out - base
        // Its six, at most two for each byte after it, and the closing quote.
        reserve(6 &+ 2 &* (utf8.count &- i))
        out = base + length
        let hex: StaticString = "0123456789abcdef"
        out.initialize(from: StaticString("\\u00").utf8Start, count: 4)
        out[4] = hex.utf8Start[Int(byte >> 4)]
        out[5] = hex.utf8Start[Int(byte & 15)]
        out += 6
      default:
        out.pointee = byte
        out += 1
      }
    }
    out.pointee = UInt8(ascii: "\"")
    length = out + 1 - base
  }

  /// Whether any of `bytes` is one a JSON string escapes: a control character, a quote or a
  /// backslash. Eight bytes are tested at a time (most strings need no escape).
  static func needsEscapes(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
    guard let start = bytes.baseAddress else { return false }
    let count = bytes.count
    guard count >= 8 else {
      return bytes.contains { $0 < 0x20 || $0 == 0x22 || $0 == 0x5C }
    }
    let raw = UnsafeRawPointer(start)
    var offset = 0
    while offset < count &- 8 {
      if hasEscapedByte(raw.loadUnaligned(fromByteOffset: offset, as: UInt64.self)) { return true }
      offset &+= 8
    }
    // The last eight bytes, which may overlap the last word tested.
    return hasEscapedByte(raw.loadUnaligned(fromByteOffset: count &- 8, as: UInt64.self))
  }

  /// Whether any byte of `word` is below 0x20, a quote (0x22) or a backslash (0x5C).
  @inline(__always)
  static func hasEscapedByte(_ word: UInt64) -> Bool { escapedBytes(word) != 0 }

  /// The top bits of `word`'s bytes that are below 0x20, a quote or a backslash, bytes in
  /// memory order from the least significant: only the lowest bit set is sure to be such a
  /// byte (a byte above it may be set by its borrow), and one is set when there is any.
  @inline(__always)
  static func escapedBytes(_ word: UInt64) -> UInt64 {
    // For each byte b, (b − n) has its top bit set without b having it only when b < n (and
    // b < 0x80): the bytes below 0x20, and the bytes equal to a character once XORed with it
    // (equal is below 1). A borrow reaches the next byte only from a byte that is counted.
    let ones: UInt64 = 0x0101_0101_0101_0101
    let tops: UInt64 = 0x8080_8080_8080_8080
    let quotes = word ^ (ones &* 0x22)
    let backslashes = word ^ (ones &* 0x5C)
    let below = (word &- ones &* 0x20) & ~word
    let quote = (quotes &- ones) & ~quotes
    let backslash = (backslashes &- ones) & ~backslashes
    return (below | quote | backslash) & tops
  }
}

/// 10⁰ to 10¹⁹ (`JSONBuffer.powerOfTen(_:)`): a constant array, laid out in the binary rather
/// than made at run time.
@usableFromInline let powersOfTen: [UInt64] = [
  1, 10, 100, 1_000, 10_000, 100_000, 1_000_000, 10_000_000, 100_000_000, 1_000_000_000,
  10_000_000_000, 100_000_000_000, 1_000_000_000_000, 10_000_000_000_000,
  100_000_000_000_000, 1_000_000_000_000_000, 10_000_000_000_000_000,
  100_000_000_000_000_000, 1_000_000_000_000_000_000, 10_000_000_000_000_000_000,
]
