import ArgumentParser
import Foundation
import Replay

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A `geosim` command-line tool for a catalog of apps: every command `geosim` has — `replay`,
/// `validate`, `sweep`, `merge`, `trace`, `query`, `geodesic`, `bench`, `calibrate` — with the same worker
/// processes, reports and exit codes, replaying scenarios that name the catalog's apps.
///
/// A package that tests its own app declares an executable target whose `main.swift` is
///
/// ```swift
/// import GeoSimCLI
/// import MyAppSimulation  // where `AppCatalog.myApp` registers the app
///
/// GeoSimTool(name: "myapp-sim", apps: .myApp).main()
/// ```
///
/// and runs `swift run myapp-sim replay Scenarios`. `geosim` itself is this tool with the five
/// reference apps. Exit codes: 0 success (every verdict PASS or XFAIL), 1 a failed scenario
/// or command, 2 bad input or usage.
public struct GeoSimTool: Sendable {
  /// The tool's name, as users type it: in help, messages, completion scripts and the man page.
  public let name: String
  /// The apps the tool's scenarios can name.
  public let apps: AppCatalog

  /// A tool called `name` that replays `apps`.
  public init(name: String, apps: AppCatalog) {
    self.name = name
    self.apps = apps
  }

  /// GeoSim's version, printed by `--version` (the package's one version constant; the
  /// CHANGELOG names each release).
  public static let version = "0.1.0"

  /// Runs the tool on the process's arguments and exits with its exit code.
  public func main() -> Never {
    let terminal = Terminal.standard
    let code = run(Array(CommandLine.arguments.dropFirst()), terminal: terminal)
    // Output that never arrived (a full disk, a closed pipe) is a failed command, not a success.
    if let failure = terminal.outputFailure() {
      terminal.writeError("\(name): cannot write to standard output: \(failure)\n")
      exit(code == 0 ? 1 : code)
    }
    exit(code)
  }

  /// Runs the tool in this process on `arguments` (without the program name), reading `input`
  /// as its standard input, and returns the exit code and what it wrote to standard output and
  /// standard error.
  ///
  /// Commands that start worker processes (`replay`, `sweep`) start this process's own
  /// executable, so they work only where that executable is the tool; every other command
  /// runs here alone (the fuzz targets under `Fuzz/` run the readers this way).
  public func run(_ arguments: [String], input: Data) -> (
    status: Int32, output: String, error: String
  ) {
    let bytes = [UInt8](input)
    var lines = bytes.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false)[...]
    // As `readLine` reads: the last line ends at the end of the input, with or without `\n`.
    if lines.last?.isEmpty == true { lines = lines.dropLast() }
    var output = ""
    var error = ""
    let terminal = Terminal(
      readLine: {
        guard let line = lines.popFirst() else { return nil }
        return String(
          decoding: line.last == UInt8(ascii: "\r") ? line.dropLast() : line, as: UTF8.self)
      },
      write: { output += $0 }, writeError: { error += $0 }, readAll: { input })
    let status = run(arguments, terminal: terminal)
    return (status, output, error)
  }

  /// Runs the tool on `arguments` (without the program name) and returns the exit code.
  func run(_ arguments: [String], terminal: Terminal) -> Int32 {
    ToolIdentity.$current.withValue(ToolIdentity(name: name)) {
      let context = ToolContext(name: name, apps: apps, terminal: terminal)
      let parsed: any ParsableCommand
      do {
        // The worker commands are this tool's own business: parsed apart, so that no help,
        // completion script or man page lists them.
        if let first = arguments.first,
          let worker = Self.workerCommands.first(where: { $0._commandName == first })
        {
          parsed = try worker.parseAsRoot(Array(arguments.dropFirst()))
        } else {
          parsed = try RootCommand.parseAsRoot(arguments)
        }
      } catch {
        return report(error, terminal)
      }
      guard let command = parsed as? any ToolCommand else {
        // A command group without its subcommand is a usage mistake; `help` is the parser's.
        if parsed is TraceCommand {
          terminal.writeError(
            "\(name) trace: expected a subcommand\n\n"
              + RootCommand.fullMessage(
                for: CleanExit.helpRequest(TraceCommand.self), columns: terminal.columns) + "\n")
          return 2
        }
        var other = parsed
        do {
          try other.run()
          return 0
        } catch {
          return report(error, terminal)
        }
      }
      do {
        return try command.run(in: context)
      } catch let error as UsageError {
        // As the argument parser says its own: the mistake, then where help is.
        let help = ([name] + type(of: command).path + ["--help"]).joined(separator: " ")
        terminal.writeError("Error: \(error.message)\n  See '\(help)' for more information.\n")
        return 2
      } catch let error as BadInput {
        let prefix = ([name] + type(of: command).path).joined(separator: " ")
        terminal.writeError("\(prefix): \(error.message)\n")
        return 2
      } catch {
        terminal.writeError("\(name): \(ToolMessages.describe(error))\n")
        return 1
      }
    }
  }

  /// The commands the tool starts itself in worker processes.
  static let workerCommands: [any ToolCommand.Type] = [
    ReplayWorkerCommand.self, SweepWorkerCommand.self,
  ]

  /// Prints what the argument parser has to say (help, a version, a completion script: exit 0;
  /// a usage mistake: exit 2).
  private func report(_ error: any Error, _ terminal: Terminal) -> Int32 {
    let message = RootCommand.fullMessage(for: error, columns: terminal.columns)
    if RootCommand.exitCode(for: error) == .success {
      terminal.write(message.hasSuffix("\n") || message.isEmpty ? message : message + "\n")
      return 0
    }
    terminal.writeError(message + "\n")
    return 2
  }
}

/// The tool's name while a command line is parsed (the parser reads its configuration from
/// static properties, so the name of the tool being run reaches it as a task-local value).
struct ToolIdentity: Sendable {
  let name: String

  @TaskLocal static var current = ToolIdentity(name: "geosim")
}

/// What a command runs with: the tool's name and apps, and the streams it reads and writes.
struct ToolContext {
  let name: String
  let apps: AppCatalog
  let terminal: Terminal

  /// The same tool with output thrown away (for benchmarks).
  var quiet: ToolContext {
    ToolContext(
      name: name, apps: apps,
      terminal: Terminal(readLine: { nil }, write: { _ in }, writeError: { _ in }))
  }

  /// This tool's own executable, which the worker processes run.
  func executablePath() throws -> String {
    #if os(Linux)
      if let path = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe") {
        return path
      }
    #endif
    if let path = Bundle.main.executablePath { return path }
    throw UsageError("cannot find its own executable to start workers")
  }
}

/// A command of the tool: parsed by the argument parser, run with the tool's context.
protocol ToolCommand: ParsableCommand {
  /// The command's words after the tool's name (`["trace", "convert"]`).
  static var path: [String] { get }
  /// Runs the command and returns its exit code.
  func run(in tool: ToolContext) throws -> Int32
}

extension ToolCommand {
  static var path: [String] { [_commandName] }
}

/// A mistake in how a command was called that only shows once it runs (a folder without
/// scenarios, options that exclude each other): one line and exit code 2.
struct UsageError: Error {
  let message: String
  init(_ message: String) { self.message = message }
}

/// Input a command cannot use (a missing file, a value in a file that is not what was
/// expected): one line after the command's name, exit code 2.
struct BadInput: Error {
  let message: String
  init(_ message: String) { self.message = message }
}

/// The tool's root: the commands, `--version` and `help`.
struct RootCommand: ToolCommand {
  static let path: [String] = []

  static var configuration: CommandConfiguration {
    let name = ToolIdentity.current.name
    return CommandConfiguration(
      commandName: name,
      abstract: "A discrete-event simulator and test harness for location apps.",
      discussion: """
        Exit codes: 0 success (every replayed scenario PASS or XFAIL), 1 a failed scenario or \
        command, 2 bad input or usage.
        """,
      version: "\(name) \(GeoSimTool.version)",
      subcommands: [
        ReplayCommand.self, ValidateCommand.self, SweepCommand.self, MergeCommand.self,
        TraceCommand.self, QueryCommand.self, GeodesicCommand.self, BenchCommand.self,
        CalibrateCommand.self,
      ])
  }

  func run(in tool: ToolContext) throws -> Int32 {
    throw UsageError("missing command")
  }
}
