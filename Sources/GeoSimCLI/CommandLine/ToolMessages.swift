import Replay
import Traces

/// How the tool prints the libraries' errors: their own message, plus what of this tool changes
/// the behaviour where there is something (the libraries know nothing of options or tools).
enum ToolMessages {
  /// Any error, naming `--allow-outside-paths` where a scenario path leads outside its folder,
  /// and how to replay one's own app where a scenario names an app the tool does not have.
  static func describe(_ error: any Error, tool: ToolContext) -> String {
    guard let error = error as? ScenarioError else { return "\(error)" }
    switch error.code {
    case .pathOutsideFolder:
      return "\(error) (allow them with --allow-outside-paths)"
    case .unknownApp:
      return
        "\(error); \(tool.name) replays only the apps it was built with: to replay your own, "
        + "build a tool of your own with GeoSimCLI (docs/TESTING-YOUR-APP.md, \"A command-line "
        + "tool for your app\")"
    default:
      return "\(error)"
    }
  }

  /// Any error, as ``describe(_:tool:)`` says it, outside a tool's run.
  static func describe(_ error: any Error) -> String {
    guard let error = error as? ScenarioError, error.code == .pathOutsideFolder else {
      return "\(error)"
    }
    return "\(error) (allow them with --allow-outside-paths)"
  }

  /// A trace error, naming `--format` where the format could not be detected.
  static func describe(_ error: TraceError) -> String {
    error.code == .unknownFormat ? error.message + " with --format" : error.message
  }
}
