import Foundation
import PackagePlugin

/// Builds the three-word service's tables from its data folders at package build time: the
/// target's `Resources/languages` and `Resources/places` in, `three-words.tables` and
/// `country-borders.tables` (resources of the target) out, so that a process copies the tables instead of parsing the text.
@main struct ThreeWordTablesPlugin: BuildToolPlugin {
  func createBuildCommands(context: PluginContext, target: Target) throws -> [Command] {
    guard let module = target.sourceModule else { return [] }
    func folder(_ name: String) throws -> URL {
      guard let file = module.sourceFiles.first(where: { $0.url.lastPathComponent == name }) else {
        throw PluginError("\(target.name) has no resource folder \(name)")
      }
      return file.url
    }
    let languages = try folder("languages")
    let places = try folder("places")
    let tables = context.pluginWorkDirectoryURL.appendingPathComponent("three-words.tables")
    let borders = context.pluginWorkDirectoryURL.appendingPathComponent("country-borders.tables")
    // Every file of both folders, so that a change to any of them builds the tables again.
    let inputs = try [languages, places].flatMap { folder in
      try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted().map {
        folder.appendingPathComponent($0)
      }
    }
    return [
      .buildCommand(
        displayName: "Building the three-word tables",
        executable: try context.tool(named: "ThreeWordTablesBuilder").url,
        arguments: [languages.path, places.path, tables.path, borders.path],
        inputFiles: inputs, outputFiles: [tables, borders])
    ]
  }
}

struct PluginError: Error, CustomStringConvertible {
  let description: String
  init(_ description: String) { self.description = description }
}
