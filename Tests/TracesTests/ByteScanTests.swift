import Foundation
import Testing

@testable import Traces

@Suite struct ByteScanTests {
  @Test(arguments: [
    "0", "-12.5", "3e-2", "+7", "139.7671", "0.1", "1234567890.123456789", "1e300", " 52.5 ",
  ])
  func decimalNumbersParseExactlyLikeTheStandardLibrary(text: String) {
    #expect(ByteScan.double(text) == Double(text.trimmingCharacters(in: .whitespaces)))
  }

  @Test(arguments: ["", "-", ".", "1.2.3", "1e", "abc", "1,5", "nan", "inf"])
  func nonNumbersAreRejected(text: String) {
    #expect(ByteScan.double(text) == nil)
  }

  @Test func randomDecimalsRoundTripThroughTheFastPath() {
    var state: UInt64 = 42
    for _ in 0..<10_000 {
      state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
      let value = Double(Int64(bitPattern: state >> 11) % 36_000_000_000) / 1e8
      let text = "\(value)"
      #expect(ByteScan.double(text) == Double(text))
    }
  }

  @Test(arguments: [
    "2024-03-01T08:00:00Z", "1970-01-01T00:00:00Z", "2000-02-29T23:59:59Z", "1969-12-31T23:59:59Z",
    "2024-03-01T09:30:00+01:30", "2024-03-01T06:00:00-02:00",
  ])
  func isoTimesAgreeWithFoundation(text: String) {
    #expect(ByteScan.isoTime(text) == epoch(text))
  }

  @Test func isoTextRoundsToMillisecondsAndTrimsZeros() {
    #expect(ByteScan.isoText(0) == "1970-01-01T00:00:00Z")
    #expect(ByteScan.isoText(1_709_280_005.5) == "2024-03-01T08:00:05.5Z")
    #expect(ByteScan.isoText(-0.25) == "1969-12-31T23:59:59.75Z")
    #expect(ByteScan.isoTime(ByteScan.isoText(1_709_280_005.123)) == 1_709_280_005.123)
  }
}
