import Foundation
import Testing

@testable import Traces

@Suite struct XMLSafetyTests {
  @Test func billionLaughsIsRefusedAtTheDoctype() throws {
    let error = try #require(throws: TraceError.self) { try readFixture("billion-laughs.gpx") }
    #expect(error.code == .refused)
    #expect(error.line == 2)
    #expect(error.reason.contains("document type declarations are refused"))
  }

  @Test func externalEntityIsRefusedAndNothingIsRead() throws {
    let error = try #require(throws: TraceError.self) { try readFixture("external-entity.gpx") }
    #expect(error.code == .refused)
    #expect(!error.message.contains("root:"))
  }

  @Test func undeclaredEntityIsRefusedWithItsName() throws {
    let error = try #require(throws: TraceError.self) { try readFixture("undeclared-entity.gpx") }
    #expect(error.code == .refused)
    #expect(error.line == 2)
    #expect(error.reason.contains("'&xxe;'"))
  }

  @Test func tenThousandDeepNestingIsRefusedAtTheLimit() throws {
    let depth = 10_000
    let text =
      "<gpx>" + String(repeating: "<a>", count: depth) + String(repeating: "</a>", count: depth)
      + "</gpx>"
    let error = try #require(throws: TraceError.self) {
      try Trace(data: Data(text.utf8), file: "deep.gpx")
    }
    #expect(error.code == .refused)
    #expect(error.reason == "elements nest deeper than the limit of 256")
    #expect(error.column == 5 + 255 * 3 + 1)
  }

  @Test func oversizeDocumentIsRefusedBeforeParsing() throws {
    let text = #"<gpx><wpt lat="1" lon="2"/></gpx>"#
    let error = try #require(throws: TraceError.self) {
      try Trace(data: Data(text.utf8), file: "big.gpx", limits: XMLLimits(maximumBytes: 16))
    }
    #expect(error.code == .refused)
    #expect(error.reason.contains("more than the limit of 16"))
  }

  @Test func predefinedAndNumericReferencesDecodeInTextAndAttributes() throws {
    let text =
      #"<gpx><trk><name>A&lt;B&#x26;C&#65;<!-- c --><![CDATA[<x>]]></name><trkseg><trkpt lat="&#49;" lon="2"/></trkseg></trk></gpx>"#
    let trace = try Trace(data: Data(text.utf8), format: .gpx)
    #expect(trace.tracks[0].name == "A<B&CA<x>")
    #expect(trace.tracks[0].points[0].coordinate.latitude == 1)
  }

  @Test(arguments: [
    ("<gpx", "1:1: expected '>' to close the start tag before the end of the file"),
    ("<gpx lat=1/>", "1:10: expected a quoted attribute value, found '1'"),
    (
      "<gpx><wpt lat=\"1\" lon=\"2\">",
      "expected </wpt> (opened on line 1) before the end of the file"
    ),
    ("text", "1:1: expected '<' to start the root element, found 't'"),
    ("<gpx/><gpx/>", "expected one root element, found a second one"),
    ("<trk/>", "expected <gpx> as the root element, found <trk>"),
    ("<gpx><!ELEMENT a ANY></gpx>", "1:6: expected a comment, CDATA section or element after '<!'"),
    ("<gpx>\n<!DOCTYPE gpx></gpx>", "2:1: document type declarations are refused"),
  ])
  func malformedDocumentsNameWhereAndWhatWasExpected(text: String, fragment: String) throws {
    let error = try #require(throws: TraceError.self) {
      try Trace(data: Data(text.utf8), file: "x.gpx", format: .gpx)
    }
    #expect(error.message.contains(fragment), "\(error.message)")
  }

  @Test func utf16IsRefusedAsNotUTF8() throws {
    let data = Data([0xFF, 0xFE, 0x3C, 0x00])
    let error = try #require(throws: TraceError.self) { try Trace(data: data, format: .gpx) }
    #expect(error.reason.contains("expected UTF-8"))
  }
}
