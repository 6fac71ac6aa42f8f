import Errors

/// A scenario that cannot be replayed as written: the file, the place in it (a JSON path and,
/// where known, the line and column) and what was expected.
public struct ScenarioError: Error, Sendable, Hashable, CustomStringConvertible {
  /// The kind of a scenario error. New kinds may be added.
  public struct Code: Hashable, Sendable, CustomStringConvertible {
    let name: String
    /// A value that is missing, of the wrong type, out of range or inconsistent.
    public static let invalidScenario = Code(name: "invalidScenario")
    /// A file path that leads outside the scenario's folder while such paths are not allowed
    /// (`Scenario(contentsOf:allowPathsOutsideFolder:)`).
    public static let pathOutsideFolder = Code(name: "pathOutsideFolder")
    /// A scenario naming an app the catalog it is replayed with does not have.
    public static let unknownApp = Code(name: "unknownApp")
    /// A scenario's `report.json` that cannot be read back (damaged, or not one GeoSim wrote).
    public static let invalidReport = Code(name: "invalidReport")
    /// The code's name.
    public var description: String { name }
  }

  /// What kind of error this is.
  public let code: Code
  /// The scenario file (or `<scenario>` for one built in code).
  public let file: String
  /// The JSON path of the offending value (`timeline[3].at`); empty for the whole document.
  public let path: String
  /// The 1-based line, where known.
  public let line: Int?
  /// The 1-based column, where known.
  public let column: Int?
  /// What was expected, and what was found.
  public let message: String

  /// An error at `path` in `file`.
  public init(
    file: String, path: String, line: Int? = nil, column: Int? = nil,
    code: Code = .invalidScenario, _ message: String
  ) {
    self.code = code
    self.file = file
    self.path = path
    self.line = line
    self.column = column
    self.message = message
  }

  /// `file:line:column: path: message`, leaving out what is unknown.
  public var description: String {
    let place = filePlace(file, line: line, column: column)
    return path.isEmpty ? "\(place): \(message)" : "\(place): \(path): \(message)"
  }
}
