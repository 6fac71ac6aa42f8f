import Foundation
import JSON
import Testing

/// The validator the schema tests rely on refuses what each keyword forbids, so that a bug in it
/// cannot make the schema's agreement with the reader hold vacuously.
@Suite struct JSONSchemaValidatorTests {
  func value(_ text: String) throws -> JSONValue { try JSONValue(parsing: Data(text.utf8)) }

  func validator(_ schema: String) throws -> JSONSchemaValidator {
    try JSONSchemaValidator(value(schema))
  }

  /// Whether the schema accepts each instance, in order.
  func verdicts(_ schema: String, _ instances: [String]) throws -> [Bool] {
    let v = try validator(schema)
    return try instances.map { v.accepts(try value($0)) }
  }

  @Test func aWrongTypeIsRefusedAndIntegersAreWholeNumbers() throws {
    #expect(try verdicts(#"{"type": "string"}"#, [#""a""#, "1", "null"]) == [true, false, false])
    #expect(
      try verdicts(#"{"type": "integer"}"#, ["3", "3.0", "3.5", #""3""#]) == [
        true, true, false, false,
      ])
    #expect(
      try verdicts(#"{"type": ["number", "null"]}"#, ["1.5", "null", "true"]) == [
        true, true, false,
      ])
    #expect(try verdicts(#"{"type": "object"}"#, ["{}", "[]"]) == [true, false])
    #expect(try verdicts(#"{"type": "boolean"}"#, ["false", "0"]) == [true, false])
  }

  @Test func anUnknownKeyIsRefusedUnderAdditionalPropertiesFalseAndNamed() throws {
    let v = try validator(
      #"{"type": "object", "properties": {"a": {"type": "number"}}, "additionalProperties": false}"#
    )
    #expect(v.accepts(try value(#"{"a": 1}"#)))
    #expect(v.accepts(try value("{}")))
    let found = v.violations(of: try value(#"{"a": 1, "b": 2}"#))
    #expect(found.count == 1)
    #expect(found.first?.path == JSONPath(["b"]))
    #expect(found.first?.message == "unknown key 'b'")
    // A property's own schema still applies.
    #expect(!v.accepts(try value(#"{"a": "1"}"#)))
    // Without additionalProperties, other keys are free; with a schema, they must follow it.
    #expect(try verdicts(#"{"properties": {"a": {}}}"#, [#"{"b": 2}"#]) == [true])
    #expect(
      try verdicts(
        #"{"additionalProperties": {"type": "string"}}"#, [#"{"b": "x"}"#, #"{"b": 2}"#])
        == [true, false])
  }

  @Test func aMissingRequiredKeyIsRefused() throws {
    let v = try validator(#"{"required": ["a", "b"]}"#)
    let found = v.violations(of: try value(#"{"a": 1}"#))
    #expect(found.map(\.message) == ["missing required key 'b'"])
    #expect(v.accepts(try value(#"{"a": 1, "b": null}"#)))
    // `required` says nothing about values that are not objects.
    #expect(v.accepts(try value("3")))
  }

  @Test func enumAndConstCompareJSONValues() throws {
    #expect(
      try verdicts(#"{"enum": ["a", 1, null]}"#, [#""a""#, "1.0", "null", #""b""#, "true"]) == [
        true, true, true, false, false,
      ])
    #expect(
      try verdicts(#"{"const": {"x": [1, 2]}}"#, [#"{"x": [1, 2]}"#, #"{"x": [2, 1]}"#]) == [
        true, false,
      ])
  }

  @Test func numericBoundsAreInclusiveOrExclusiveAsNamed() throws {
    let inclusive = #"{"minimum": 0, "maximum": 10}"#
    #expect(
      try verdicts(inclusive, ["0", "10", "-0.001", "10.5", #""99""#]) == [
        true, true, false, false, true,
      ])
    let exclusive = #"{"exclusiveMinimum": 0, "exclusiveMaximum": 10}"#
    #expect(try verdicts(exclusive, ["0", "0.001", "9.999", "10"]) == [false, true, true, false])
  }

  @Test func lengthsCountCharactersAndItemCountsAreBounded() throws {
    #expect(
      try verdicts(#"{"minLength": 1, "maxLength": 2}"#, [#""""#, #""駅""#, #""ab""#, #""abc""#])
        == [false, true, true, false])
    #expect(
      try verdicts(#"{"minItems": 1, "maxItems": 2}"#, ["[]", "[1]", "[1, 2]", "[1, 2, 3]"]) == [
        false, true, true, false,
      ])
  }

  @Test func aPatternIsSearchedAndItsEndAnchorIsTheEndOfTheText() throws {
    #expect(try verdicts(#"{"pattern": "b"}"#, [#""abc""#, #""xyz""#]) == [true, false])
    // ICU's `$` would match before a final line break; ECMA-262's, which editors use, does not.
    #expect(
      try verdicts(#"{"pattern": "^a$"}"#, [#""a""#, #""a\n""#, #""ba""#]) == [true, false, false])
    #expect(try verdicts(#"{"pattern": "^[$]+$"}"#, [#""$$""#, #""a""#]) == [true, false])
  }

  @Test func itemsFollowPrefixItemsThenItems() throws {
    let s = #"{"prefixItems": [{"type": "string"}], "items": {"type": "number"}}"#
    #expect(
      try verdicts(s, [#"["a", 1, 2]"#, #"["a"]"#, "[1, 2]", #"["a", "b"]"#]) == [
        true, true, false, false,
      ])
    let found = try validator(s).violations(of: try value(#"["a", 1, "c"]"#))
    #expect(found.map(\.path) == [JSONPath([.index(2)])])
  }

  @Test func combinatorsCountTheirMatches() throws {
    let one = #"{"oneOf": [{"type": "number"}, {"minimum": 5}]}"#
    // 3 matches the first only; "x" the second only (minimum ignores strings); 7 matches both.
    #expect(try verdicts(one, ["3", #""x""#, "7", "null"]) == [true, true, false, true])
    let exactlyOne = #"{"oneOf": [{"type": "number"}, {"type": "string"}]}"#
    #expect(try verdicts(exactlyOne, ["1", #""a""#, "null"]) == [true, true, false])
    let any = #"{"anyOf": [{"type": "number"}, {"type": "string"}]}"#
    #expect(try verdicts(any, ["1", #""a""#, "true"]) == [true, true, false])
    let all = #"{"allOf": [{"minimum": 1}, {"maximum": 2}]}"#
    #expect(try verdicts(all, ["1.5", "0", "3"]) == [true, false, false])
    #expect(try verdicts(#"{"not": {"type": "null"}}"#, ["1", "null"]) == [true, false])
  }

  @Test func anUnmatchedAlternativePointsIntoTheClosestBranch() throws {
    let v = try validator(
      #"{"oneOf": [{"required": ["a", "b"]}, {"properties": {"c": {"type": "string"}}, "required": ["c"]}]}"#
    )
    let found = v.violations(of: try value(#"{"c": 1}"#))
    #expect(found.count == 1)
    #expect(found.first?.path == .root)
    #expect(found.first?.places == [JSONPath(["c"])])
  }

  @Test func ifThenElseAppliesTheBranchTheConditionPicks() throws {
    let s = #"""
      {"if": {"properties": {"kind": {"const": "a"}}, "required": ["kind"]},
       "then": {"required": ["x"]}, "else": {"required": ["y"]}}
      """#
    #expect(
      try verdicts(
        s,
        [
          #"{"kind": "a", "x": 1}"#, #"{"kind": "a", "y": 1}"#, #"{"kind": "b", "y": 1}"#,
          #"{"x": 1}"#,
        ])
        == [true, false, true, false])
  }

  @Test func referencesResolveInTheDocumentAndKeepTheirSiblings() throws {
    let s = #"""
      {"$defs": {"small": {"type": "number", "maximum": 3}, "a/b": {"const": 1}},
       "properties": {"n": {"$ref": "#/$defs/small", "minimum": 1}, "m": {"$ref": "#/$defs/a~1b"}}}
      """#
    #expect(
      try verdicts(s, [#"{"n": 2}"#, #"{"n": 4}"#, #"{"n": 0}"#, #"{"m": 1}"#, #"{"m": 2}"#])
        == [true, false, false, true, false])
    #expect(try validator(s).accepts(try value("{}")))
  }

  @Test func booleanSchemasAllowEverythingOrNothing() throws {
    let s = #"{"properties": {"free": true, "never": false}}"#
    #expect(
      try verdicts(s, [#"{"free": [1]}"#, #"{"never": null}"#, "{}"]) == [true, false, true])
  }

  @Test func aSchemaWithAKeywordTheValidatorDoesNotKnowIsRefused() throws {
    #expect(throws: JSONSchemaValidator.SchemaProblem.self) {
      try validator(#"{"properties": {"a": {"uniqueItems": true}}}"#)
    }
    #expect(throws: JSONSchemaValidator.SchemaProblem.self) {
      try validator(#"{"patternProperties": {"^x": {}}}"#)
    }
    #expect(throws: JSONSchemaValidator.SchemaProblem.self) {
      try validator(##"{"$ref": "#/$defs/missing"}"##)
    }
    #expect(throws: JSONSchemaValidator.SchemaProblem.self) {
      try validator(#"{"type": "float"}"#)
    }
    #expect(throws: JSONSchemaValidator.SchemaProblem.self) {
      try validator(#"{"required": "a"}"#)
    }
    // Annotations are fine.
    _ = try validator(#"{"description": "d", "title": "t", "$comment": "c", "default": 1}"#)
  }
}
