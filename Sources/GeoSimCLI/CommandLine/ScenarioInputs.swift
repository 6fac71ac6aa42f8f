import Foundation
import Replay
import Reporting

/// The scenarios a command was given: files as named, folders searched recursively for
/// `*.scenario.json` (in path order), and `-` for one scenario read from standard input, whose
/// relative paths start at the current folder.
struct ScenarioInputs {
  /// The scenario files in order; `-` stands for standard input.
  let files: [String]
  /// Standard input's bytes, when `-` is one of the files.
  let standardInput: Data?

  /// How a scenario read from standard input is named in messages and reports.
  static let standardInputLabel = "<stdin>"

  /// Finds the scenarios `paths` name, reading standard input if one of them is `-`.
  init(_ paths: [String], tool: ToolContext) throws {
    guard !paths.isEmpty else { throw UsageError("expected scenario files or folders") }
    var files: [String] = []
    for path in paths {
      if path == "-" {
        guard !files.contains("-") else {
          throw UsageError("standard input (-) can be named only once")
        }
        files.append(path)
        continue
      }
      var isDirectory: ObjCBool = false
      guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
        throw BadInput("no such file or folder: \(path)")
      }
      guard isDirectory.boolValue else {
        files.append(path)
        continue
      }
      let found =
        FileManager.default.enumerator(atPath: path)?.compactMap { $0 as? String }
        .filter { $0.hasSuffix(".scenario.json") }.sorted() ?? []
      guard !found.isEmpty else { throw BadInput("no *.scenario.json files in \(path)") }
      // Joined as text, so that a relative folder gives relative files: reports name a
      // scenario the way the user did, whatever the checkout's location.
      let prefix = path.hasSuffix("/") ? path : path + "/"
      files += found.map { prefix + $0 }
    }
    self.init(files: files, standardInput: files.contains("-") ? tool.terminal.readAll() : nil)
  }

  /// Inputs already found (a worker's, from its parent).
  init(files: [String], standardInput: Data?) {
    self.files = files
    self.standardInput = standardInput
  }

  /// The file as messages and reports name it.
  func label(_ file: String) -> String { file == "-" ? Self.standardInputLabel : file }

  /// The file a label stands for.
  func file(labelled label: String) -> String { label == Self.standardInputLabel ? "-" : label }

  /// Reads one of the scenarios.
  func scenario(_ file: String, allowOutside: Bool) throws -> Scenario {
    guard file == "-" else {
      return try Scenario(contentsOf: file, allowPathsOutsideFolder: allowOutside)
    }
    return try Scenario(
      data: standardInput ?? Data(), file: Self.standardInputLabel,
      folder: URL(fileURLWithPath: FileManager.default.currentDirectoryPath, isDirectory: true),
      allowPathsOutsideFolder: allowOutside)
  }

  /// Writes standard input's scenario into `out` for the worker processes, which cannot read
  /// this process's standard input; `nil` when no scenario comes from there.
  func saveStandardInput(in out: URL) throws -> URL? {
    guard let standardInput else { return nil }
    let copy = out.appendingPathComponent(".standard-input.scenario.json")
    try ReportWriter.write(standardInput, to: copy)
    return copy
  }

  /// Refuses an output folder that holds one of the scenarios: a replay clears and rewrites
  /// its output folder's report files and scenario folders.
  func refuseOutputFolder(_ out: URL) throws {
    let folder = out.standardizedFileURL.resolvingSymlinksInPath().path
    for file in files where file != "-" {
      let path = URL(fileURLWithPath: file).standardizedFileURL.resolvingSymlinksInPath().path
      if path.hasPrefix(folder.hasSuffix("/") ? folder : folder + "/") {
        throw UsageError(
          "the output folder \(out.path) holds the scenario \(file); a replay rewrites its "
            + "output folder, so choose another --out")
      }
    }
  }
}
