import Foundation
import JSON
import Testing

/// The error `text` gives, or `nil` when it parses.
private func syntaxError(_ text: String) -> JSONSyntaxError? {
  do {
    _ = try JSONDocument(parsing: text)
    return nil
  } catch {
    return error
  }
}

private func location(_ line: Int, _ column: Int) -> JSONSourceLocation {
  JSONSourceLocation(line: line, column: column)
}

@Suite struct JSONDocumentTests {
  private static let scenario = """
    {
      "name": "walk",
      "app": {"configuration": {"odd key": [1, 2.5, {"deep": null}]}},
      "timeline": [
        {"at": 0, "do": "start"},
        {"at": 10,
         "do": "stop"}
      ]
    }
    """

  @Test func nestedValuesKnowWhereTheyStart() throws {
    let document = try JSONDocument(parsing: Self.scenario)
    #expect(document.location(of: .root) == location(1, 1))
    #expect(document.location(of: ["name"]) == location(2, 11))
    #expect(document.keyLocation(of: ["name"]) == location(2, 3))
    #expect(document.location(of: ["app"]) == location(3, 10))
    #expect(document.location(of: ["app", "configuration", "odd key"]) == location(3, 40))
    #expect(document.location(of: ["app", "configuration", "odd key", 1]) == location(3, 44))
    #expect(
      document.location(of: ["app", "configuration", "odd key", 2, "deep"]) == location(3, 58))
    #expect(
      document.keyLocation(of: ["app", "configuration", "odd key", 2, "deep"]) == location(3, 50))
    #expect(document.location(of: ["timeline", 1]) == location(6, 5))
    #expect(document.location(of: ["timeline", 1, "do"]) == location(7, 12))
    #expect(document.keyLocation(of: ["timeline", 1]) == nil)
    #expect(document.keyLocation(of: .root) == nil)
    #expect(document.value(at: ["timeline", 1, "do"]) == .string("stop"))
  }

  /// `value` written with every scalar, array and object on a line of its own (a member's key
  /// first), and where each path's value and key start.
  private static func oneValuePerLine(
    _ value: JSONValue
  ) -> (String, [(JSONPath, value: JSONSourceLocation, key: JSONSourceLocation?)]) {
    var lines: [String] = []
    var places: [(JSONPath, value: JSONSourceLocation, key: JSONSourceLocation?)] = []
    func write(_ value: JSONValue, _ path: JSONPath, _ prefix: String, _ depth: Int) {
      let indent = String(repeating: "  ", count: depth)
      let line = lines.count + 1
      places.append(
        (
          path, location(line, indent.count + prefix.unicodeScalars.count + 1),
          prefix.isEmpty ? nil : location(line, indent.count + 1)
        ))
      switch value {
      case .array(let elements):
        lines.append(indent + prefix + "[")
        for (i, element) in elements.enumerated() {
          write(element, path.appending(index: i), "", depth + 1)
          if i < elements.count - 1 { lines[lines.count - 1] += "," }
        }
        lines.append(indent + "]")
      case .object(let members):
        lines.append(indent + prefix + "{")
        for (n, key) in members.keys.sorted().enumerated() {
          var quoted = ""
          JSONText.writeString(key, to: &quoted)
          write(members[key]!, path.appending(key: key), quoted + ": ", depth + 1)
          if n < members.count - 1 { lines[lines.count - 1] += "," }
        }
        lines.append(indent + "}")
      default:
        lines.append(indent + prefix + value.jsonText)
      }
    }
    write(value, .root, "", 0)
    return (lines.joined(separator: "\n"), places)
  }

  @Test func everyValueOfLargeArraysAndObjectsKnowsWhereItStarts() throws {
    // Arrays of scalars, of arrays and of a mix; objects of few and of many members (the two
    // ways members are found), keys that need escapes.
    var big: [String: JSONValue] = [:]
    for i in 0..<40 { big["k\(i)"] = i % 3 == 0 ? .array([.number(Double(i))]) : .number(1) }
    big["quote \" and é"] = .string("x")
    let value: JSONValue = .object([
      "scalars": .array((0..<50).map { .number(Double($0)) }),
      "positions": .array((0..<30).map { .array([.number(139), .number(Double($0))]) }),
      "mixed": .array([.null, .object(["a": .bool(true)]), .string("s"), .array([]), .number(2)]),
      "small": .object(["b": .number(1), "a": .array([.null])]),
      "big": .object(big),
    ])
    let (text, places) = Self.oneValuePerLine(value)
    let document = try JSONDocument(parsing: text)
    #expect(document.root == value)
    #expect(places.count == 1 + 51 + 91 + 7 + 4 + 56)  // every value, the root first
    for (path, value, key) in places {
      #expect(document.location(of: path) == value, "\(path)")
      #expect(document.keyLocation(of: path) == key, "\(path)")
    }
    #expect(document.location(of: ["positions", 30]) == nil)
    #expect(document.location(of: ["big", "k40"]) == nil)
    #expect(document.location(of: ["small", "c"]) == nil)
  }

  @Test func missingPathsHaveNoLocation() throws {
    let document = try JSONDocument(parsing: Self.scenario)
    #expect(document.location(of: ["nope"]) == nil)
    #expect(document.location(of: ["timeline", 2]) == nil)
    #expect(document.location(of: ["timeline", -1]) == nil)
    #expect(document.location(of: ["name", 0]) == nil)
    #expect(document.location(of: ["timeline", "at"]) == nil)
  }

  @Test func aDocumentMadeFromAValueHasItsValuesButNoPlaces() throws {
    let parsed = try JSONDocument(parsing: Self.scenario)
    let made = JSONDocument(value: parsed.root)
    #expect(made.root == parsed.root)
    #expect(made.value(at: ["timeline", 1]) == parsed.value(at: ["timeline", 1]))
    #expect(parsed.location(of: ["timeline", 1]) != nil)
    #expect(made.location(of: ["timeline", 1]) == nil)
    #expect(made.keyLocation(of: ["timeline"]) == nil)
  }

  @Test func columnsCountUnicodeScalarsAndLinesEndAtAnyLineBreak() throws {
    let document = try JSONDocument(parsing: "{\"é漢😀\": \"x\",\r\n\"b\":\r1,\r\"c\":\n\t2}")
    #expect(document.location(of: ["é漢😀"]) == location(1, 9))
    #expect(document.location(of: ["b"]) == location(3, 1))
    #expect(document.location(of: ["c"]) == location(5, 2))
    let bom = try JSONDocument(parsing: Data([0xEF, 0xBB, 0xBF] + Array("[7]".utf8)))
    #expect(bom.root == .array([.number(7)]))
    #expect(bom.location(of: [0]) == location(1, 2))
  }

  @Test func pathsDescribeThemselvesLikeCode() {
    #expect(JSONPath(["timeline", 3, "at"]).description == "timeline[3].at")
    #expect(
      JSONPath(["app", "configuration", "odd key"]).description == #"app.configuration["odd key"]"#)
    #expect(JSONPath([2, "x"]).description == "[2].x")
    #expect(JSONPath(["3d", "a_b", "q\"uote"]).description == #"["3d"].a_b["q\"uote"]"#)
    #expect(JSONPath.root.description == "(root)")
    let path = JSONPath.root.appending(key: "timeline").appending(index: 0)
    #expect(path == ["timeline", 0])
    #expect(path.appending(["at"]) == ["timeline", 0, "at"])
    #expect(path.parent == ["timeline"])
    #expect(JSONPath.root.parent == nil)
  }

  @Test func unicodeEscapesAndSurrogatePairsDecode() throws {
    let document = try JSONDocument(
      parsing: #"["\u00e9\u6F22", "\uD83D\uDE00", "\"\\\/\b\f\n\r\t", "\u0000", "é"]"#)
    #expect(
      document.root
        == .array([
          .string("é漢"), .string("😀"), .string("\"\\/\u{8}\u{C}\n\r\t"), .string("\u{0}"),
          .string("é"),
        ]))
  }

  @Test func malformedTextIsReportedWhereItBreaksWithWhatWasExpected() {
    let cases: [(String, JSONSourceLocation, String)] = [
      ("", location(1, 1), "expected a value"),
      ("[1,]", location(1, 4), "trailing commas are not allowed"),
      ("{\"a\": 1,\n }", location(2, 2), "trailing commas are not allowed"),
      ("[1 // one\n]", location(1, 4), "comments are not allowed"),
      ("/* c */ 1", location(1, 1), "comments are not allowed"),
      ("[NaN]", location(1, 2), "NaN and Infinity are not JSON numbers"),
      ("-Infinity", location(1, 2), "expected a digit after '-'"),
      ("[01]", location(1, 3), "leading zeros are not allowed"),
      ("[1.]", location(1, 4), "expected a digit after the decimal point"),
      ("1e", location(1, 3), "expected a digit in the exponent"),
      ("1e400", location(1, 1), "expected a number that fits a double"),
      (#"["\uD800"]"#, location(1, 9), "expected a low surrogate escape"),
      (#"["\uD800\u0041"]"#, location(1, 9), "found \\u0041"),
      (#"["\uDC00"]"#, location(1, 3), "expected a high surrogate escape"),
      (#"["\x"]"#, location(1, 3), "expected an escape"),
      (#"["\u12G4"]"#, location(1, 7), "expected 4 hexadecimal digits"),
      ("[\"a\tb\"]", location(1, 4), "control characters must be escaped"),
      ("[\"abc", location(1, 2), "expected '\"' to close the string"),
      (
        "{\"a\": 1, \"a\": 2}", location(1, 10),
        "duplicate key \"a\" in an object (first at line 1, column 2)"
      ),
      ("{a: 1}", location(1, 2), "expected a member name in double quotes"),
      ("{'a': 1}", location(1, 2), "strings take double quotes"),
      ("{\"a\" 1}", location(1, 6), "expected ':' after the member name \"a\""),
      ("[1 2]", location(1, 4), "expected ',' or ']'"),
      ("{\"a\": 1 \"b\": 2}", location(1, 9), "expected ',' or '}'"),
      ("[tru]", location(1, 2), "expected 'true', found 'tru'"),
      ("[1]\n x", location(2, 2), "expected the end of the text after the top-level value"),
      ("[1", location(1, 3), "expected ',' or ']', found the end of the text"),
      ("[\"\u{E9}\" ]x", location(1, 7), "found 'x'"),
    ]
    for (text, expected, fragment) in cases {
      let error = syntaxError(text)
      #expect(error?.location == expected, "\(text.debugDescription): \(String(describing: error))")
      #expect(
        error?.message.contains(fragment) == true,
        "\(text.debugDescription): \(String(describing: error))")
    }
  }

  @Test func invalidUTF8InAStringIsAnError() {
    let data = Data([
      UInt8(ascii: "["), UInt8(ascii: "\""), 0xC3, 0x28, UInt8(ascii: "\""), UInt8(ascii: "]"),
    ])
    #expect(throws: JSONSyntaxError.self) { try JSONDocument(parsing: data) }
    do {
      _ = try JSONDocument(parsing: data)
    } catch {
      #expect(error.location == location(1, 2))
      #expect(error.message.contains("UTF-8"))
    }
  }

  @Test func deepNestingIsAnErrorNotACrash() throws {
    let limit = JSONDocument.maximumDepth
    let fine = String(repeating: "[", count: limit) + String(repeating: "]", count: limit)
    _ = try JSONDocument(parsing: fine)
    let deep = String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000)
    let error = syntaxError(deep)
    #expect(error?.location == location(1, limit + 1))
    #expect(error?.message == "arrays and objects nest more than \(limit) deep")
    let objects = String(repeating: "{\"a\":", count: limit + 1)
    #expect(syntaxError(objects)?.message.contains("nest more than") == true)
  }

  @Test func errorsDescribeThemselvesWithTheirPosition() {
    let error = JSONSyntaxError(message: "expected a value, found ','", line: 3, column: 7)
    #expect(error.description == "invalid JSON: line 3, column 7: expected a value, found ','")
    #expect(JSONSyntaxError(message: "broken").description == "invalid JSON: broken")
    #expect(JSONSyntaxError(message: "broken").location == nil)
  }

  @Test func valuesMatchFoundationsParser() throws {
    let documents = [
      Self.scenario,
      "null", "true", "false", "0", "-0", "123", "-45.25e-3", "1E+2", "9007199254740993",
      "123456789012345678901234567890", "0.1", "1e-320", "2.2250738585072014e-308",
      #""plain""#, #""\u00e9\uD83D\uDE00 \n\t\"""#, "[]", "{}", " [ 1 , [ ] , { } ] ",
      #"{"a": {"b": [true, false, null, -1.5, "x"]}, "c": "漢字", "d": 1.7976931348623157e308}"#,
      #"{"features": [{"type": "Feature", "properties": {"name": "A"}, "geometry": null}]}"#,
    ]
    for text in documents {
      let ours = try JSONDocument(parsing: text).root
      let foundation = try JSONDecoder().decode(FoundationValue.self, from: Data(text.utf8)).value
      #expect(ours == foundation, "\(text)")
      #expect(try JSONValue(parsing: Data(text.utf8)) == ours, "\(text)")
    }
  }

  @Test(arguments: [
    ("[1,\n 2,\n]", location(3, 1), "trailing commas are not allowed"),
    (
      #"{"a": 1, "a": 2}"#, location(1, 10),
      #"duplicate key "a" in an object (first at line 1, column 2)"#
    ),
    ("[035.61]", location(1, 3), "leading zeros are not allowed"),
    ("[1] // one", location(1, 5), "comments are not allowed"),
  ])
  func parsingAValueIsAsStrictAsTheDocumentReader(
    text: String, expected: JSONSourceLocation, fragment: String
  ) {
    #expect {
      try JSONValue(parsing: Data(text.utf8))
    } throws: { error in
      let error = error as! JSONSyntaxError
      return error.location == expected && error.message.contains(fragment)
    }
  }

  @Test func placesNameTheFileLineColumnAndPath() throws {
    let document = try JSONDocument(parsing: "[\n {\"name\": \"a\",\n  \"latitude\": \"north\"}\n]")
    #expect(
      document.place(of: [0, "latitude"], in: "stations.json")
        == "stations.json:3:15: [0].latitude")
    #expect(
      document.place(of: [0, "latitude"], in: "s.json", key: true) == "s.json:3:3: [0].latitude")
    // A member that is missing is placed at the object that lacks it.
    #expect(document.place(of: [0, "longitude"], in: "s.json") == "s.json:2:2: [0].longitude")
    #expect(document.place(of: .root, in: "s.json") == "s.json:1:1: (root)")
    let error = JSONSyntaxError(message: "expected a value", line: 3, column: 7)
    #expect(error.message(in: "s.json") == "s.json:3:7: expected a value")
    #expect(JSONSyntaxError(message: "broken").message(in: "s.json") == "s.json: broken")
  }

  @Test func valuesCanBeLookedUpByPath() {
    let value = JSONValue.object(["a": .array([.number(1), .object(["b": .null])])])
    #expect(value[["a", 1, "b"]] == .null)
    #expect(value[["a", 2]] == nil)
    #expect(value[["a", "b"]] == nil)
    #expect(value[.root] == value)
  }
}

/// Any JSON value as Foundation's decoder reads it: the referee for ``JSONDocument``'s values.
private struct FoundationValue: Decodable {
  let value: JSONValue

  init(from decoder: any Decoder) throws {
    let c = try decoder.singleValueContainer()
    if c.decodeNil() {
      value = .null
    } else if let b = try? c.decode(Bool.self) {
      value = .bool(b)
    } else if let n = try? c.decode(Double.self) {
      value = .number(n)
    } else if let s = try? c.decode(String.self) {
      value = .string(s)
    } else if let a = try? c.decode([FoundationValue].self) {
      value = .array(a.map(\.value))
    } else {
      value = .object(try c.decode([String: FoundationValue].self).mapValues(\.value))
    }
  }
}
