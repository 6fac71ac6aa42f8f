import CSV
import Testing

/// The records of `text`, as (line, fields) pairs.
private func read(
  _ text: String, delimiter: CSVDelimiter? = nil, skipsComments: Bool = false
) throws -> [(Int, [String])] {
  var reader = CSVReader(text, delimiter: delimiter, skipsComments: skipsComments)
  return try reader.records().map { ($0.line, $0.fields) }
}

/// The error `text` gives, or `nil` when it reads.
private func syntaxError(_ text: String) -> CSVSyntaxError? {
  var reader = CSVReader(text)
  do {
    _ = try reader.records()
    return nil
  } catch {
    return error
  }
}

@Suite struct CSVReaderTests {
  @Test func quotedFieldsHoldDelimitersDoubledQuotesAndLineBreaks() throws {
    let records = try read("a,b,c\n\"x, y\",\"say \"\"hi\"\"\",\"one\ntwo\"\nlast,,\n")
    #expect(records.map(\.0) == [1, 2, 4])
    #expect(records[0].1 == ["a", "b", "c"])
    #expect(records[1].1 == ["x, y", "say \"hi\"", "one\ntwo"])
    #expect(records[2].1 == ["last", "", ""])
  }

  @Test func everyLineEndingEndsARecordAndALineBreakInQuotesIsKeptAsWritten() throws {
    let records = try read("a,b\r\n1,\"x\r\ny\"\r2,3\n4,5")
    #expect(records.map(\.0) == [1, 2, 4, 5])
    #expect(records.map(\.1) == [["a", "b"], ["1", "x\r\ny"], ["2", "3"], ["4", "5"]])
  }

  @Test func spacesAroundQuotesAreDroppedAndUnquotedFieldsAreKeptAsWritten() throws {
    let records = try read("a , \"b\" ,c\n x,5'3\",y \n")
    #expect(records.map(\.1) == [["a ", "b", "c"], [" x", "5'3\"", "y "]])
  }

  @Test func blankLinesAndByteOrderMarkAreSkippedAndCommentsWhenAsked() throws {
    let text = "\u{FEFF}# a comment with a \" quote\n\n  \nlat,lon\n  # another\n1,2\n"
    #expect(try read(text, skipsComments: true).map(\.0) == [4, 6])
    #expect(try read("\u{FEFF}\nlat\n\n1\n").map(\.1) == [["lat"], ["1"]])
  }

  @Test(arguments: [
    ("a,b;c;d\n", CSVDelimiter.semicolon), ("a\tb\tc,d\n", .tab), ("a,b;c\n", .comma),
    ("a\n", .comma), ("\"x;y;z\",b\n", .comma), ("# x;y;z\nlat,lon\n", .comma),
  ])
  func theDelimiterIsTheOneTheFirstLineUsesMost(text: String, expected: CSVDelimiter) {
    #expect(CSVReader(text, skipsComments: true).delimiter == expected)
  }

  @Test func aTabDelimiterKeepsEmptyFieldsBetweenTabs() throws {
    #expect(try read("a\t\tb\n", delimiter: .tab).map(\.1) == [["a", "", "b"]])
  }

  @Test func anUnterminatedQuoteNamesTheLineAndColumnWhereItOpens() throws {
    let error = try #require(syntaxError("a,b\n1,2\n3,\"four\n5,6\n"))
    #expect(error.line == 3)
    #expect(error.column == 3)
    #expect(
      error.message(in: "s.csv")
        == "s.csv:3:3: expected '\"' to close the quoted field that starts here")
  }

  @Test func textAfterAClosingQuoteIsAnError() throws {
    let error = try #require(syntaxError("a,b\n\"x\"y,2\n"))
    #expect(
      error.description
        == "line 2, column 4: expected ',' or the end of the line after the closing quote, found 'y' (a quote inside a quoted field is written \"\")"
    )
  }

  @Test func fieldsWrittenByCSVTextReadBackAsThemselves() throws {
    let fields = ["plain", "with, comma", "with \"quotes\"", "two\nlines", "cr\rlf", "", " pad "]
    let line = fields.map { CSVText.field($0) }.joined(separator: ",")
    #expect(try read(line).map(\.1) == [fields])
    #expect(CSVText.field("a;b", delimiter: .semicolon) == "\"a;b\"")
    #expect(CSVText.field("a;b") == "a;b")
  }
}
