import Replay
import Traces

/// How the tool prints the libraries' errors: their own message, plus the option of this tool
/// that changes the behaviour where there is one (the libraries know nothing of options).
enum ToolMessages {
  /// Any error, naming `--allow-outside-paths` where a scenario path leads outside its folder.
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
