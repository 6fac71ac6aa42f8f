import Foundation
import JSON
import Testing

/// The byte buffer that writers of large files use gives exactly the bytes of the text writers.
@Suite struct JSONTextTests {
  @Test(arguments: [
    "", "home", "home \"A\"", "back\\slash", "line\nbreak\r\ttab", "\u{0}\u{1}\u{1F}\u{7F}",
    "東京駅", "café 🚉", "\"\u{8}\"",
  ])
  func stringsAsBytesAreTheStringsAsText(_ s: String) {
    var text = ""
    JSONText.writeString(s, to: &text)
    var buffer = JSONBuffer()
    buffer.append("*")
    buffer.writeString(s)
    #expect(buffer.bytes == [0x2A] + Array(text.utf8))
  }

  /// Strings of every length up to three words, with a character to escape at each place in
  /// them and none at all, among one- to four-byte characters: the bytes looked at a word at a
  /// time find every escape, wherever it falls.
  @Test func everyEscapeIsFoundWhereverItIs() {
    let fillers = ["a", "é", "東", "🚉", "~\u{7F}"]
    for filler in fillers {
      for length in 0...24 {
        let plain = String(repeating: filler, count: length)
        var strings = [plain]
        for escaped in ["\"", "\\", "\n", "\u{0}", "\u{1F}"] {
          for place in 0...plain.unicodeScalars.count {
            var scalars = Array(plain.unicodeScalars)
            scalars.insert(escaped.unicodeScalars.first!, at: place)
            strings.append(String(String.UnicodeScalarView(scalars)))
          }
        }
        for s in strings {
          var text = ""
          JSONText.writeString(s, to: &text)
          var buffer = JSONBuffer()
          buffer.writeString(s)
          #expect(buffer.bytes == Array(text.utf8), "\(s.debugDescription)")
        }
      }
    }
  }

  /// Strings dense with escapes, as a log line is with quotes: every one is found, the bytes
  /// between them copied as they are, and the word that holds one written from it on again.
  @Test func escapesCloseTogetherAreEachFound() {
    let pieces = ["a", "\"", "\\", "\n", "\u{1}", "é", "東", "🚉", "bc", "\u{7F}"]
    // A fixed sequence of picks (a linear congruential generator): the same strings each run.
    var state: UInt64 = 20
    for length in 0...48 {
      for _ in 0..<8 {
        var s = ""
        for _ in 0..<length {
          state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
          s += pieces[Int(state >> 33) % pieces.count]
        }
        var text = ""
        JSONText.writeString(s, to: &text)
        var buffer = JSONBuffer()
        buffer.writeString(s)
        #expect(buffer.bytes == Array(text.utf8), "\(s.debugDescription)")
      }
    }
  }

  /// Control characters escaped as six bytes each make the buffer grow in the middle of the
  /// string, after any text already in it.
  @Test(arguments: [0, 10, 63, 200])
  func controlCharactersGrowTheBufferAsTheyAreWritten(_ before: Int) {
    for s in [
      String(repeating: "\u{1}", count: 100), String(repeating: "a\u{1F}\"é", count: 50),
      "\"" + String(repeating: "\u{2}", count: 300) + "\n",
    ] {
      var text = String(repeating: "x", count: before)
      JSONText.writeString(s, to: &text)
      var buffer = JSONBuffer(capacity: 64)
      buffer.append(utf8: String(repeating: "x", count: before))
      buffer.writeString(s)
      #expect(buffer.bytes == Array(text.utf8))
    }
  }

  @Test(arguments: [
    0, -0.0, 1, -1, 0.1, 35.681236, 139.76712500000001, 1.500000001, -12.5, 1e-7, 5e-324,
    999_999_999_999_999, 1e15, -1e15, 1e21, 1.7976931348623157e308, 86_399.999999999,
  ])
  func numbersAsBytesAreTheNumbersAsText(_ n: Double) {
    var buffer = JSONBuffer()
    buffer.writeNumber(n)
    #expect(String(decoding: buffer.bytes, as: UTF8.self) == JSONText.number(n))
  }

  /// The shortest digits found in integers are the standard library's, over a seeded spread of
  /// bit patterns from 2⁻¹⁰ to 2⁵⁰ and the neighbours of every power of two there (where the
  /// next double down is closer than the next one up).
  @Test func shortestDigitsAreTheStandardLibrarysOverASpreadOfDoubles() {
    var x: UInt64 = 77
    func next() -> UInt64 {
      x = x &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
      return x
    }
    var values: [Double] = []
    for _ in 0..<50_000 {
      let exponent = 1_013 + next() % 60
      values.append(Double(bitPattern: exponent << 52 | next() >> 12))
    }
    for exponent in UInt64(1_013)...1_072 {
      var v = Double(bitPattern: exponent << 52).nextDown.nextDown
      for _ in 0..<5 {
        values.append(v)
        v = v.nextUp
      }
    }
    for v in values + values.map(-) {
      var buffer = JSONBuffer()
      buffer.writeNumber(v)
      #expect(String(decoding: buffer.bytes, as: UTF8.self) == JSONText.number(v), "\(v)")
    }
  }

  /// Decimals of few digits, whose shortest form cuts many digits from 17 (coordinates,
  /// accuracies, durations), are the standard library's too: every count of places from 1 to
  /// 15, with random digits and with trailing fives and nines, from 10⁻³ to 10¹⁵.
  @Test func shortDecimalsAreTheStandardLibrarys() {
    var x: UInt64 = 5
    func next() -> UInt64 {
      x = x &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
      return x >> 11
    }
    var values: [Double] = []
    for places in 1...15 {
      let unit = pow(10, Double(places))
      for digits in 1...15 {
        let limit = UInt64(pow(10, Double(digits)))
        for _ in 0..<40 {
          let n = next() % limit
          for m in [n, n / 10 * 10 + 5, n / 10 * 10 + 9] {
            let v = Double(m) / unit
            if v >= 1e-3 && v < 1e15 { values.append(v) }
          }
        }
      }
    }
    for v in values {
      var buffer = JSONBuffer()
      buffer.writeNumber(v)
      #expect(String(decoding: buffer.bytes, as: UTF8.self) == JSONText.number(v), "\(v)")
    }
  }

  @Test(arguments: [0, 7, -7, 9, 10, 99, 100, 1_500_000_001, Int64.max, Int64.min])
  func integersAsBytesAreTheirDecimalDigits(_ i: Int64) {
    var buffer = JSONBuffer()
    buffer.append("*")
    buffer.writeInteger(i)
    #expect(buffer.bytes == [0x2A] + Array(String(i).utf8))
  }

  @Test func integersOfEveryLengthAreTheirDecimalDigits() {
    var values: [Int64] = [0, 1, 9, Int64.max, Int64.min, Int64.min + 1]
    var power: Int64 = 10
    for _ in 1...18 {
      values += [power - 1, power, power + 1]
      if power <= Int64.max / 10 { power *= 10 }
    }
    for i in values + values.map { $0 == .min ? .max : -$0 } {
      var buffer = JSONBuffer()
      buffer.writeInteger(i)
      #expect(String(decoding: buffer.bytes, as: UTF8.self) == String(i))
    }
  }

  /// Times in nanoseconds written in seconds from their digits: around the bounds of the
  /// digit path (10⁻³ s and 10⁶ s), with trailing zeros, negative, and a spread of others.
  @Test func decimalsFromIntegersAreTheNumbersOfTheirDoubles() {
    var values: [Int64] = [
      0, 1, -1, 999_999, 1_000_000, 1_000_001, -1_000_000, 1_500_000_000, 1_500_000_001,
      86_399_999_999_999, 999_999_999_999_999, 1_000_000_000_000_000, -999_999_999_999_999,
      Int64.max, Int64.min, 300_000_000, 12_345_678_900, 100_000_000_000_000,
    ]
    // A fixed spread of others (a linear congruential walk), of every length.
    var x: UInt64 = 12_345
    for _ in 0..<20_000 {
      x = x &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
      values.append(Int64(bitPattern: x) >> Int64(x % 60))
    }
    for scale in [1, 3, 9] {
      var unit = 1.0
      for _ in 0..<scale { unit *= 10 }
      for v in values {
        var buffer = JSONBuffer()
        buffer.writeDecimal(v, scale: scale)
        let expected = JSONText.number(Double(v) / unit)
        #expect(
          String(decoding: buffer.bytes, as: UTF8.self) == expected, "\(v) at scale \(scale)")
      }
    }
  }

  @Test func aBufferGrowsPastItsCapacityKeepingItsBytes() {
    var buffer = JSONBuffer(capacity: 1)
    var expected: [UInt8] = []
    for i in 0..<1_000 {
      buffer.writeInteger(Int64(i))
      buffer.append(",")
      expected += Array("\(i),".utf8)
    }
    let (count, bytes) = (buffer.count, buffer.bytes)
    #expect(count == expected.count)
    #expect(bytes == expected)
    buffer.removeLast(1)
    let shortened = buffer.bytes
    #expect(shortened == expected.dropLast())
    buffer.removeAll()
    let emptied = buffer.isEmpty
    #expect(emptied)
  }

  @Test func aBufferHandsItsBytesOverAsData() {
    var buffer = JSONBuffer(capacity: 8)
    buffer.writeString("東京駅 \"A\"")
    buffer.writeNumber(35.681236)
    let bytes = buffer.bytes
    let data = buffer.data()
    #expect(Array(data) == bytes)
    #expect(String(decoding: data, as: UTF8.self) == #""東京駅 \"A\""35.681236"#)
  }

  /// A buffer lent memory writes into it, and moves to memory of its own when the text
  /// outgrows it: the lent memory keeps what it held, and the buffer holds all of the text.
  @Test func aBufferWritesIntoLentMemoryUntilItOutgrowsIt() {
    let memory = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: 16)
    defer { memory.deallocate() }
    memory.initialize(repeating: 0)
    var buffer = JSONBuffer(writingInto: memory)
    buffer.writeString("Tokyo")
    let (written, inMemory) = (buffer.bytes, buffer.isWriting(into: memory))
    #expect(inMemory)
    #expect(Array(memory.prefix(written.count)) == Array(#""Tokyo""#.utf8))
    buffer.append(",")
    buffer.writeNumber(35.681236)
    let (all, stillInMemory) = (buffer.bytes, buffer.isWriting(into: memory))
    #expect(!stillInMemory)
    #expect(all == Array(#""Tokyo",35.681236"#.utf8))
    #expect(Array(memory.prefix(8)) == Array(#""Tokyo","#.utf8))
    // A buffer still in its lent memory hands over a copy of its bytes.
    var lent = JSONBuffer(writingInto: memory)
    lent.append("{}")
    #expect(Array(lent.data()) == Array("{}".utf8))
    #expect(memory[0] == UInt8(ascii: "{"))
  }
}
