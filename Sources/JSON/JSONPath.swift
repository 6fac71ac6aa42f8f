/// Where a value sits inside a JSON document: the object keys and array indices that lead to it
/// from the root.
///
/// The description reads like a member access in code: `timeline[3].at`, or
/// `app.configuration["odd key"]` for a key that is not a plain identifier. The root path is
/// written `(root)`.
///
/// A path can be written as an array literal of keys and indices: `["timeline", 3, "at"]`.
public struct JSONPath: Hashable, Sendable, CustomStringConvertible, ExpressibleByArrayLiteral {
  /// One step of a path.
  public enum Component: Hashable, Sendable, ExpressibleByStringLiteral,
    ExpressibleByIntegerLiteral
  {
    /// An object member, by key.
    case key(String)
    /// An array element, by 0-based index.
    case index(Int)

    /// A key step.
    public init(stringLiteral value: String) { self = .key(value) }

    /// An index step.
    public init(integerLiteral value: Int) { self = .index(value) }
  }

  /// The steps from the root, outermost first.
  public var components: [Component]

  /// The path made of `components`; the root path when empty.
  public init(_ components: [Component] = []) {
    self.components = components
  }

  /// The path made of the literal's keys and indices.
  public init(arrayLiteral elements: Component...) {
    self.components = elements
  }

  /// The path to the document's root value.
  public static var root: JSONPath { JSONPath() }

  /// Whether this is the root path.
  public var isRoot: Bool { components.isEmpty }

  /// This path followed by `component`.
  public func appending(_ component: Component) -> JSONPath {
    // One new array, not a one-element array and then their sum: a scenario's reader makes a
    // path for every value it reads.
    var path = components
    path.append(component)
    return JSONPath(path)
  }

  /// This path followed by the object member `key`.
  public func appending(key: String) -> JSONPath { appending(.key(key)) }

  /// This path followed by the array element at `index`.
  public func appending(index: Int) -> JSONPath { appending(.index(index)) }

  /// This path followed by all of `other`'s steps.
  public func appending(_ other: JSONPath) -> JSONPath {
    JSONPath(components + other.components)
  }

  /// Reads a path written with dots and indices, as users type one on a command line or in a
  /// scenario: `device.promptAnswers.location[0]`, `markers[2].title`. Every step needs a key
  /// before its indices; `nil` for anything else (an empty key, a bad or negative index).
  public init?(dotted text: String) {
    var components: [Component] = []
    for part in text.split(separator: ".", omittingEmptySubsequences: false) {
      var name = Substring(part)
      var indices: [Int] = []
      while name.hasSuffix("]"), let open = name.lastIndex(of: "[") {
        guard let i = Int(name[name.index(after: open)..<name.index(before: name.endIndex)]),
          i >= 0
        else { return nil }
        indices.insert(i, at: 0)
        name = name[..<open]
      }
      guard !name.isEmpty, !name.contains("["), !name.contains("]") else { return nil }
      components.append(.key(String(name)))
      components += indices.map { .index($0) }
    }
    self.init(components)
  }

  /// Appends `component` in place.
  public mutating func append(_ component: Component) {
    components.append(component)
  }

  /// The path without its last step; `nil` for the root.
  public var parent: JSONPath? {
    isRoot ? nil : JSONPath(Array(components.dropLast()))
  }

  /// The path as code-like text: `timeline[3].at`, `app.configuration["odd key"]`, `(root)`.
  public var description: String {
    guard !components.isEmpty else { return "(root)" }
    var out = ""
    for component in components {
      switch component {
      case .index(let i): out += "[\(i)]"
      case .key(let key) where Self.isIdentifier(key):
        if !out.isEmpty { out += "." }
        out += key
      case .key(let key):
        out += "["
        JSONText.writeString(key, to: &out)
        out += "]"
      }
    }
    return out
  }

  /// Whether `key` can be written after a dot: ASCII letters, digits and `_`, not starting with a
  /// digit.
  private static func isIdentifier(_ key: String) -> Bool {
    guard let first = key.utf8.first, !(UInt8(ascii: "0")...UInt8(ascii: "9")).contains(first)
    else { return false }
    return key.utf8.allSatisfy { byte in
      switch byte {
      case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
        UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "_"):
        true
      default: false
      }
    }
  }
}

extension JSONValue {
  /// The value at `path` below this one, or `nil` when a key is missing, an index is out of range
  /// or a step meets a value of the wrong type.
  public subscript(path: JSONPath) -> JSONValue? {
    var value = self
    for component in path.components {
      switch (component, value) {
      case (.key(let key), .object(let members)):
        guard let member = members[key] else { return nil }
        value = member
      case (.index(let i), .array(let elements)):
        guard elements.indices.contains(i) else { return nil }
        value = elements[i]
      default: return nil
      }
    }
    return value
  }
}
