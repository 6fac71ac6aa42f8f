import Foundation
import JSON

/// A parameter grid over a scenario document: each parameter sets one or more places in the
/// document (`app.configuration.radius`, `trace.speed`, `seed`,
/// `device.promptAnswers.location[0]`) to each of its values, and the grid is every combination,
/// in a fixed order, so that a point is reproducible from its index and a sweep can be split
/// into shards.
public struct SweepGrid: Sendable, Hashable {
  /// One varied parameter.
  public struct Parameter: Sendable, Hashable {
    /// The parameter's name in reports: its paths as given, joined by commas
    /// (`app.configuration.radius,expectations[0].region.radius`), so that a label names
    /// every place the parameter sets.
    public var name: String
    /// The places in the document it sets.
    public var paths: [JSONPath]
    /// Its values, in order.
    public var values: [JSONValue]

    /// A parameter.
    public init(name: String, paths: [JSONPath], values: [JSONValue]) {
      self.name = name
      self.paths = paths
      self.values = values
    }
  }

  /// The parameters; the last varies fastest.
  public var parameters: [Parameter]

  /// A grid.
  public init(parameters: [Parameter]) {
    self.parameters = parameters
  }

  /// The most points a grid may have.
  public static let maximumPoints = 1_000_000

  /// The number of points (`Int.max` when the product overflows; ``validate()`` refuses it).
  public var count: Int {
    var total = 1
    for parameter in parameters {
      let (product, overflow) = total.multipliedReportingOverflow(by: parameter.values.count)
      if overflow { return .max }
      total = product
    }
    return total
  }

  /// Throws ``SweepError`` for a grid that cannot be swept: no parameters, a parameter without
  /// values, a place in the document set by two parameters, or more than ``maximumPoints``.
  public func validate() throws {
    guard !parameters.isEmpty else { throw SweepError("expected at least one parameter") }
    var seen: Set<JSONPath> = []
    for parameter in parameters {
      guard !parameter.values.isEmpty else {
        throw SweepError("\(parameter.name): expected at least one value")
      }
      for path in parameter.paths where !seen.insert(path).inserted {
        throw SweepError("\(path) is varied twice; give each place one --vary")
      }
    }
    guard count <= Self.maximumPoints else {
      throw SweepError(
        "the grid has more than \(Self.maximumPoints) points; split it into several sweeps")
    }
  }

  /// The values of point `index` (0 ..< ``count``), one per parameter.
  public func values(at index: Int) -> [JSONValue] {
    var rest = index
    var values: [JSONValue] = []
    for parameter in parameters.reversed() {
      values.append(parameter.values[rest % parameter.values.count])
      rest /= parameter.values.count
    }
    return values.reversed()
  }

  /// The points of shard `shard` of `shards` (1-based): every index `k` with
  /// `k % shards == shard - 1`.
  public func indices(shard: Int, of shards: Int) -> [Int] {
    Array(stride(from: shard - 1, to: count, by: shards))
  }

  /// `document` with point `index`'s values set.
  ///
  /// - Throws: ``SweepError`` when a path does not lead into the document (a missing array
  ///   element, or a key under something that is not an object). Missing object keys are
  ///   created.
  public func document(_ document: JSONValue, at index: Int) throws -> JSONValue {
    var result = document
    for (parameter, value) in zip(parameters, values(at: index)) {
      for path in parameter.paths {
        result = try Self.setting(value, at: path.components[...], in: result, whole: path)
      }
    }
    return result
  }

  private static func setting(
    _ value: JSONValue, at path: ArraySlice<JSONPath.Component>, in node: JSONValue,
    whole: JSONPath
  ) throws -> JSONValue {
    guard let first = path.first else { return value }
    switch (first, node) {
    case (.key(let key), .object(var members)):
      members[key] = try setting(
        value, at: path.dropFirst(), in: members[key] ?? .object([:]), whole: whole)
      return .object(members)
    case (.index(let i), .array(var elements)) where elements.indices.contains(i):
      elements[i] = try setting(value, at: path.dropFirst(), in: elements[i], whole: whole)
      return .array(elements)
    default:
      throw SweepError("\(whole) does not lead into the scenario (at \(first))")
    }
  }

  /// The grid as JSON (for the workers and for merging shards).
  public var json: JSONValue {
    .array(
      parameters.map { p in
        .object([
          "name": .string(p.name),
          "paths": .array(
            p.paths.map { path in
              .array(
                path.components.map { component -> JSONValue in
                  switch component {
                  case .key(let key): .string(key)
                  case .index(let index): .number(Double(index))
                  }
                })
            }),
          "values": .array(p.values),
        ])
      })
  }

  /// Reads a grid back from ``json``.
  public init(json: JSONValue) throws {
    guard case .array(let list) = json else { throw SweepError("a grid is an array") }
    parameters = try list.map { item in
      guard case .object(let o) = item, case .string(let name)? = o["name"],
        case .array(let paths)? = o["paths"], case .array(let values)? = o["values"]
      else { throw SweepError("a grid parameter needs name, paths and values") }
      return Parameter(
        name: name,
        paths: try paths.map { path in
          guard case .array(let components) = path, !components.isEmpty else {
            throw SweepError("a path is a non-empty array of keys and indices")
          }
          return JSONPath(
            try components.map { component -> JSONPath.Component in
              switch component {
              case .string(let key): return .key(key)
              case .number(let n) where n >= 0 && n == n.rounded() && n < 1e9: return .index(Int(n))
              default: throw SweepError("a path component is a key or an index")
              }
            })
        }, values: values)
    }
  }

  /// Parses `--vary PATH[,PATH…]=V1,V2,…`: values are JSON where they parse as JSON (numbers,
  /// `true`, `"quoted"`, objects and arrays, whose commas do not separate values), otherwise
  /// strings; `A..B` is the integers from A to B.
  public static func parameter(_ text: String) throws -> Parameter {
    guard let equals = text.firstIndex(of: "=") else {
      throw SweepError("'\(text)': expected PATH=VALUE,VALUE,…")
    }
    let paths = try text[..<equals].split(separator: ",").map { try path(String($0)) }
    guard !paths.isEmpty else { throw SweepError("'\(text)': expected a path") }
    var values: [JSONValue] = []
    for item in splitValues(String(text[text.index(after: equals)...])) {
      let bounds = item.components(separatedBy: "..")
      if bounds.count == 2, let lo = Int(bounds[0]), let hi = Int(bounds[1]) {
        guard lo <= hi, hi - lo < 100_000 else {
          throw SweepError("'\(item)': expected a range A..B with A ≤ B, at most 100000 values")
        }
        values += (lo...hi).map { .number(Double($0)) }
      } else if let json = try? JSONDocument(parsing: item).root {
        values.append(json)
      } else {
        values.append(.string(item))
      }
    }
    guard !values.isEmpty else { throw SweepError("'\(text)': expected at least one value") }
    return Parameter(
      name: paths.map(\.description).joined(separator: ","), paths: paths, values: values)
  }

  /// Splits a value list at the commas outside brackets, braces and quotes, so that JSON objects
  /// and arrays can be values.
  static func splitValues(_ text: String) -> [String] {
    var parts: [String] = []
    var current = ""
    var depth = 0
    var quoted = false
    var escaped = false
    for ch in text {
      if quoted {
        if escaped {
          escaped = false
        } else if ch == "\\" {
          escaped = true
        } else if ch == "\"" {
          quoted = false
        }
      } else if ch == "\"" {
        quoted = true
      } else if ch == "[" || ch == "{" {
        depth += 1
      } else if ch == "]" || ch == "}" {
        depth -= 1
      } else if ch == "," && depth == 0 {
        parts.append(current)
        current = ""
        continue
      }
      current.append(ch)
    }
    parts.append(current)
    return parts.filter { !$0.isEmpty }
  }

  /// Parses a dotted path with indices: `device.promptAnswers.location[0]`.
  public static func path(_ text: String) throws -> JSONPath {
    guard let path = JSONPath(dotted: text) else {
      throw SweepError("'\(text)': expected a path of keys and [INDEX]es joined by dots")
    }
    return path
  }
}

/// A sweep that cannot be set up as given.
public struct SweepError: Error, Sendable, CustomStringConvertible {
  /// What was wrong.
  public let message: String

  /// An error.
  public init(_ message: String) { self.message = message }

  /// The message.
  public var description: String { message }
}

extension SweepGrid {
  /// A point's name in messages: `point 3 (app.configuration.radius=200, seed=4)`.
  public func pointName(_ index: Int) -> String {
    let values = zip(parameters, values(at: index)).map { parameter, value in
      if case .string(let text) = value { return "\(parameter.name)=\(text)" }
      return "\(parameter.name)=\(value.jsonText)"
    }
    return "point \(index) (\(values.joined(separator: ", ")))"
  }

  /// The scenario at point `index` of the grid over `document` (the base scenario's JSON, read
  /// from `base`, whose relative paths start at `folder`).
  ///
  /// With `resources`, files the points share are parsed once per process
  /// (``Scenario/init(document:file:folder:allowPathsOutsideFolder:profile:resources:)``).
  ///
  /// - Throws: ``ScenarioError`` naming the base and the point, or ``SweepError`` for a path
  ///   the document does not have.
  public func scenario(
    _ document: JSONValue, at index: Int, base: String, folder: URL,
    allowPathsOutsideFolder: Bool = false, resources: ReplayResources? = nil
  ) throws -> Scenario {
    // Read as it is, not written out and parsed again: an error names the point and the
    // path, not a place in text nobody sees.
    let varied = try self.document(document, at: index)
    return try Scenario(
      document: JSONDocument(value: varied), file: "\(base) [\(pointName(index))]",
      folder: folder, allowPathsOutsideFolder: allowPathsOutsideFolder, resources: resources)
  }
}
