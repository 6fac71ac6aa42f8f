import JSON
import Testing

/// The byte writers of large files give exactly the bytes of the text writers.
@Suite struct JSONTextTests {
  @Test(arguments: [
    "", "home", "home \"A\"", "back\\slash", "line\nbreak\r\ttab", "\u{0}\u{1}\u{1F}\u{7F}",
    "東京駅", "café 🚉", "\"\u{8}\"",
  ])
  func stringsAsBytesAreTheStringsAsText(_ s: String) {
    var text = ""
    JSONText.writeString(s, to: &text)
    var bytes: [UInt8] = [0x2A]
    JSONText.writeString(s, to: &bytes)
    #expect(bytes == [0x2A] + Array(text.utf8))
  }

  @Test(arguments: [
    0, -0.0, 1, -1, 0.1, 35.681236, 139.76712500000001, 1.500000001, -12.5, 1e-7, 5e-324,
    999_999_999_999_999, 1e15, -1e15, 1e21, 1.7976931348623157e308, 86_399.999999999,
  ])
  func numbersAsBytesAreTheNumbersAsText(_ n: Double) {
    var bytes: [UInt8] = []
    JSONText.writeNumber(n, to: &bytes)
    #expect(String(decoding: bytes, as: UTF8.self) == JSONText.number(n))
  }

  @Test(arguments: [0, 7, -7, 10, 1_500_000_001, Int64.max, Int64.min])
  func integersAsBytesAreTheirDecimalDigits(_ i: Int64) {
    var bytes: [UInt8] = [0x2A]
    JSONText.writeInteger(i, to: &bytes)
    #expect(bytes == [0x2A] + Array(String(i).utf8))
  }
}
