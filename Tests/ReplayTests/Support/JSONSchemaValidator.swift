import Foundation
import JSON

/// A JSON Schema (draft 2020-12) validator for the keywords the scenario schema uses, written for
/// the tests that hold the schema and the scenario reader to each other.
///
/// It knows `type`, `enum`, `const`, the numeric bounds, `minLength` / `maxLength`, `pattern`,
/// `minItems` / `maxItems`, `prefixItems`, `items`, `required`, `properties`,
/// `additionalProperties`, `allOf`, `anyOf`, `oneOf`, `not`, `if` / `then` / `else`, `$ref` to a
/// place in the same document (`#/$defs/…`) and boolean schemas; `$schema`, `$comment`, `$defs`,
/// `title`, `description`, `default` and `examples` are annotations. Any other keyword makes
/// ``init(_:)`` throw, so that the schema cannot come to rely on a keyword this validator would
/// silently ignore.
struct JSONSchemaValidator {
  /// A schema this validator cannot use: an unknown keyword, a keyword with a value of the wrong
  /// shape, or a `$ref` that does not resolve.
  struct SchemaProblem: Error, CustomStringConvertible {
    /// Where in the schema (a JSON pointer).
    let pointer: String
    /// What is wrong.
    let message: String
    var description: String { "\(pointer): \(message)" }
  }

  /// A place where an instance breaks the schema.
  struct Violation: CustomStringConvertible {
    /// Where in the instance.
    let path: JSONPath
    /// Where in the schema (a JSON pointer through the keywords that led there).
    let keyword: String
    /// What was expected.
    let message: String
    /// For an `anyOf` or `oneOf` that nothing matched, what each alternative found.
    var alternatives: [[Violation]] = []
    var description: String { "\(path): \(message) (\(keyword))" }

    /// Where the violation really is: its own place, or for an unmatched `anyOf` or `oneOf` the
    /// places inside the alternatives that came closest (the fewest violations).
    var places: [JSONPath] {
      guard let fewest = alternatives.map(\.count).min() else { return [path] }
      return alternatives.filter { $0.count == fewest }.flatMap { $0.flatMap(\.places) }
    }
  }

  let root: JSONValue

  static let annotations: Set<String> = [
    "$schema", "$comment", "$defs", "title", "description", "default", "examples",
  ]
  static let assertions: Set<String> = [
    "type", "enum", "const", "minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum",
    "minLength", "maxLength", "pattern", "minItems", "maxItems", "prefixItems", "items",
    "required", "properties", "additionalProperties", "allOf", "anyOf", "oneOf", "not", "if",
    "then", "else", "$ref",
  ]
  static let types: Set<String> = [
    "null", "boolean", "object", "array", "number", "integer", "string",
  ]

  /// A validator for `schema`, after checking every keyword in it.
  init(_ schema: JSONValue) throws {
    root = schema
    try check(schema, at: "#")
  }

  /// Whether `instance` satisfies the schema.
  func accepts(_ instance: JSONValue) -> Bool { violations(of: instance).isEmpty }

  /// Every place where `instance` breaks the schema (none when it satisfies it).
  func violations(of instance: JSONValue) -> [Violation] {
    var found: [Violation] = []
    validate(instance, root, path: .root, pointer: "#", depth: 0, into: &found)
    return found
  }

  /// Every place where `instance` breaks the part of the schema at `pointer` (`#/$defs/name`),
  /// whose references still resolve against the whole schema.
  func violations(of instance: JSONValue, at pointer: String) -> [Violation] {
    guard let part = resolve(pointer) else {
      return [Violation(path: .root, keyword: pointer, message: "no such place in the schema")]
    }
    var found: [Violation] = []
    validate(instance, part, path: .root, pointer: pointer, depth: 0, into: &found)
    return found
  }

  // MARK: Checking the schema

  private func check(_ schema: JSONValue, at pointer: String) throws {
    func problem(_ message: String) -> SchemaProblem {
      SchemaProblem(pointer: pointer, message: message)
    }
    if case .bool = schema { return }
    guard case .object(let keywords) = schema else {
      throw problem("a schema is an object or a boolean, found \(schema.typeName)")
    }
    for (keyword, value) in keywords.sorted(by: { $0.key < $1.key }) {
      let here = pointer + "/" + escape(keyword)
      func bad(_ expected: String) -> SchemaProblem {
        SchemaProblem(pointer: here, message: "expected \(expected), found \(value.typeName)")
      }
      guard Self.annotations.contains(keyword) || Self.assertions.contains(keyword) else {
        throw SchemaProblem(pointer: here, message: "unsupported keyword '\(keyword)'")
      }
      switch keyword {
      case "type":
        let names: [JSONValue]
        switch value {
        case .string: names = [value]
        case .array(let list) where !list.isEmpty: names = list
        default: throw bad("a type name or a list of them")
        }
        for name in names {
          guard case .string(let s) = name, Self.types.contains(s) else {
            throw SchemaProblem(pointer: here, message: "unknown type \(name.jsonText)")
          }
        }
      case "enum":
        guard case .array(let list) = value, !list.isEmpty else { throw bad("a non-empty array") }
      case "minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum":
        guard case .number = value else { throw bad("a number") }
      case "minLength", "maxLength", "minItems", "maxItems":
        guard case .number(let n) = value, n >= 0, n == n.rounded() else {
          throw bad("a non-negative integer")
        }
      case "pattern":
        guard case .string(let p) = value else { throw bad("a string") }
        do { _ = try Self.regularExpression(p) } catch {
          throw SchemaProblem(pointer: here, message: "not a regular expression: \(p)")
        }
      case "required":
        guard case .array(let list) = value,
          list.allSatisfy({ if case .string = $0 { true } else { false } })
        else { throw bad("an array of strings") }
      case "properties", "$defs":
        guard case .object(let members) = value else { throw bad("an object") }
        for (name, sub) in members { try check(sub, at: here + "/" + escape(name)) }
      case "prefixItems", "allOf", "anyOf", "oneOf":
        guard case .array(let list) = value, !list.isEmpty else { throw bad("a non-empty array") }
        for (i, sub) in list.enumerated() { try check(sub, at: here + "/\(i)") }
      case "items", "additionalProperties", "not", "if", "then", "else":
        try check(value, at: here)
      case "$ref":
        guard case .string(let reference) = value else { throw bad("a string") }
        guard resolve(reference) != nil else {
          throw SchemaProblem(pointer: here, message: "'\(reference)' does not resolve")
        }
      case "$schema", "$comment", "title", "description":
        guard case .string = value else { throw bad("a string") }
      default:
        break  // `const`, `default` and `examples` take any value.
      }
    }
  }

  /// The schema a `$ref` names: a JSON pointer into this document (`#`, `#/$defs/name`).
  private func resolve(_ reference: String) -> JSONValue? {
    guard reference.hasPrefix("#") else { return nil }
    let pointer = reference.dropFirst()
    guard !pointer.isEmpty else { return root }
    guard pointer.hasPrefix("/") else { return nil }
    var value = root
    for token in pointer.dropFirst().split(separator: "/", omittingEmptySubsequences: false) {
      let key = token.replacingOccurrences(of: "~1", with: "/")
        .replacingOccurrences(of: "~0", with: "~")
      switch value {
      case .object(let members):
        guard let next = members[key] else { return nil }
        value = next
      case .array(let items):
        guard let i = Int(key), items.indices.contains(i) else { return nil }
        value = items[i]
      default:
        return nil
      }
    }
    return value
  }

  private func escape(_ token: String) -> String {
    token.replacingOccurrences(of: "~", with: "~0").replacingOccurrences(of: "/", with: "~1")
  }

  /// `pattern` as ECMA-262 reads it: ICU's `$` also matches before a final line break, so each
  /// `$` outside a character class becomes "no character follows".
  static func regularExpression(_ pattern: String) throws -> NSRegularExpression {
    var translated = ""
    var escaped = false
    var inClass = false
    for c in pattern {
      if escaped {
        escaped = false
      } else if c == "\\" {
        escaped = true
      } else if c == "[" {
        inClass = true
      } else if c == "]" {
        inClass = false
      } else if c == "$" && !inClass {
        translated += "(?![\\s\\S])"
        continue
      }
      translated.append(c)
    }
    return try NSRegularExpression(pattern: translated)
  }

  // MARK: Validating an instance

  private func validate(
    _ instance: JSONValue, _ schema: JSONValue, path: JSONPath, pointer: String, depth: Int,
    into found: inout [Violation]
  ) {
    func fail(
      _ keyword: String, _ message: String, at place: JSONPath? = nil,
      alternatives: [[Violation]] = []
    ) {
      found.append(
        Violation(
          path: place ?? path, keyword: pointer + "/" + keyword, message: message,
          alternatives: alternatives))
    }
    guard depth < 100 else {
      fail("$ref", "the schema nests more than 100 references deep here")
      return
    }
    switch schema {
    case .bool(true): return
    case .bool(false):
      fail("", "nothing is allowed here")
      return
    default: break
    }
    guard case .object(let keywords) = schema else { return }  // `check` refused other values.
    /// The violations of `value` (the instance, or one of its members at `place`) against the
    /// subschema under `keyword`.
    func sub(
      _ subschema: JSONValue, _ keyword: String, _ value: JSONValue? = nil,
      at place: JSONPath? = nil
    ) -> [Violation] {
      var nested: [Violation] = []
      validate(
        value ?? instance, subschema, path: place ?? path, pointer: pointer + "/" + keyword,
        depth: depth + 1, into: &nested)
      return nested
    }

    if case .string(let reference)? = keywords["$ref"], let target = resolve(reference) {
      validate(
        instance, target, path: path, pointer: reference, depth: depth + 1, into: &found)
    }
    if let type = keywords["type"] {
      let names: [String]
      switch type {
      case .string(let s): names = [s]
      case .array(let list):
        names = list.compactMap { name -> String? in
          guard case .string(let s) = name else { return nil }
          return s
        }
      default: names = []
      }
      if !names.contains(where: { Self.has(instance, type: $0) }) {
        fail("type", "expected \(names.joined(separator: " or ")), found \(instance.typeName)")
      }
    }
    if case .array(let options)? = keywords["enum"], !options.contains(instance) {
      fail("enum", "expected one of \(options.map(\.jsonText)), found \(instance.jsonText)")
    }
    if let value = keywords["const"], value != instance {
      fail("const", "expected \(value.jsonText), found \(instance.jsonText)")
    }
    if case .number(let n) = instance {
      let bounds: [(String, String, (Double, Double) -> Bool)] = [
        ("minimum", "at least", { $0 >= $1 }), ("maximum", "at most", { $0 <= $1 }),
        ("exclusiveMinimum", "more than", { $0 > $1 }),
        ("exclusiveMaximum", "less than", { $0 < $1 }),
      ]
      for (keyword, phrase, holds) in bounds {
        if case .number(let bound)? = keywords[keyword], !holds(n, bound) {
          fail(
            keyword,
            "expected a number \(phrase) \(JSONText.number(bound)), found \(JSONText.number(n))")
        }
      }
    }
    if case .string(let s) = instance {
      let length = s.unicodeScalars.count
      if case .number(let least)? = keywords["minLength"], Double(length) < least {
        fail("minLength", "expected at least \(Int(least)) characters, found \(length)")
      }
      if case .number(let most)? = keywords["maxLength"], Double(length) > most {
        fail("maxLength", "expected at most \(Int(most)) characters, found \(length)")
      }
      if case .string(let pattern)? = keywords["pattern"],
        let expression = try? Self.regularExpression(pattern),
        expression.firstMatch(in: s, range: NSRange(s.startIndex..., in: s)) == nil
      {
        fail("pattern", "expected text matching \(pattern), found \(instance.jsonText)")
      }
    }
    if case .array(let items) = instance {
      if case .number(let least)? = keywords["minItems"], Double(items.count) < least {
        fail("minItems", "expected at least \(Int(least)) items, found \(items.count)")
      }
      if case .number(let most)? = keywords["maxItems"], Double(items.count) > most {
        fail("maxItems", "expected at most \(Int(most)) items, found \(items.count)")
      }
      var prefix = 0
      if case .array(let schemas)? = keywords["prefixItems"] {
        prefix = min(schemas.count, items.count)
        for i in 0..<prefix {
          found += sub(schemas[i], "prefixItems/\(i)", items[i], at: path.appending(index: i))
        }
      }
      if let each = keywords["items"] {
        for i in prefix..<max(prefix, items.count) {
          found += sub(each, "items", items[i], at: path.appending(index: i))
        }
      }
    }
    if case .object(let members) = instance {
      if case .array(let names)? = keywords["required"] {
        for case .string(let name) in names where members[name] == nil {
          fail("required", "missing required key '\(name)'")
        }
      }
      var declared: [String: JSONValue] = [:]
      if case .object(let properties)? = keywords["properties"] { declared = properties }
      for name in members.keys.sorted() {
        let place = path.appending(key: name)
        if let property = declared[name] {
          found += sub(property, "properties/" + escape(name), members[name]!, at: place)
        } else if let additional = keywords["additionalProperties"] {
          if additional == .bool(false) {
            fail("additionalProperties", "unknown key '\(name)'", at: place)
          } else {
            found += sub(additional, "additionalProperties", members[name]!, at: place)
          }
        }
      }
    }
    if case .array(let all)? = keywords["allOf"] {
      for (i, s) in all.enumerated() { found += sub(s, "allOf/\(i)") }
    }
    if case .array(let any)? = keywords["anyOf"] {
      let outcomes = any.enumerated().map { sub($1, "anyOf/\($0)") }
      if !outcomes.contains(where: \.isEmpty) {
        fail(
          "anyOf", "matches none of the alternatives: \(summary(outcomes))",
          alternatives: outcomes)
      }
    }
    if case .array(let one)? = keywords["oneOf"] {
      let outcomes = one.enumerated().map { sub($1, "oneOf/\($0)") }
      let matching = outcomes.filter(\.isEmpty).count
      if matching == 0 {
        fail(
          "oneOf", "matches none of the alternatives: \(summary(outcomes))",
          alternatives: outcomes)
      } else if matching > 1 {
        fail("oneOf", "matches \(matching) of the alternatives, expected exactly one")
      }
    }
    if let not = keywords["not"], sub(not, "not").isEmpty {
      fail("not", "matches a schema it must not match")
    }
    if let condition = keywords["if"] {
      if sub(condition, "if").isEmpty {
        if let then = keywords["then"] { found += sub(then, "then") }
      } else if let otherwise = keywords["else"] {
        found += sub(otherwise, "else")
      }
    }
  }

  private func summary(_ outcomes: [[Violation]]) -> String {
    outcomes.enumerated().map { i, v in
      "(\(i)) " + v.map(\.description).joined(separator: "; ")
    }.joined(separator: " ")
  }

  static func has(_ value: JSONValue, type: String) -> Bool {
    switch (type, value) {
    case ("null", .null), ("boolean", .bool), ("object", .object), ("array", .array),
      ("number", .number), ("string", .string):
      true
    case ("integer", .number(let n)): n == n.rounded()
    default: false
    }
  }
}
