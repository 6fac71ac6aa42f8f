/// The `geosim` command-line tool: a table of subcommands over injected arguments and streams,
/// so that every command is testable without a process.
enum GeoSimTool {
  static let version = "0.1.0"

  /// A subcommand.
  struct Command: Sendable {
    let name: String
    let summary: String
    let run: @Sendable (inout Arguments, Terminal) throws -> Int32
  }

  static let commands: [Command] = [
    Command(
      name: "geodesic", summary: "WGS84 geodesic problems, like GeographicLib's GeodSolve",
      run: GeodesicCommand.run),
    Command(
      name: "trace", summary: "inspect, convert and synthesize movement traces",
      run: TraceCommand.run),
    Command(
      name: "query", summary: "run an NCMB geo query (near, box or REST) on a station dataset",
      run: QueryCommand.run),
    Command(
      name: "replay", summary: "replay scenarios and judge their expectations",
      run: ReplayCommand.replay),
    Command(
      name: "validate", summary: "check scenarios without running them",
      run: ReplayCommand.validate),
    Command(
      name: "sweep", summary: "replay a scenario over a parameter grid and aggregate",
      run: SweepCommand.run),
    Command(
      name: "merge", summary: "merge the shards of a sweep",
      run: SweepCommand.merge),
    Command(
      name: "sweep-worker", summary: "(internal) run sweep points for geosim sweep",
      run: SweepCommand.worker),
    Command(
      name: "replay-worker", summary: "(internal) run scenarios for geosim replay",
      run: ReplayCommand.worker),
    Command(
      name: "bench", summary: "run a benchmark suite and print its table (or --json)",
      run: BenchCommand.run),
  ]

  static var usage: String {
    var text = """
      geosim \(version): a discrete-event simulator and test harness for location apps

      usage: geosim <command> [options]
             geosim --help | --version

      commands:

      """
    for command in commands {
      text += "  " + command.name.padding(toLength: 10, withPad: " ", startingAt: 0)
      text += command.summary + "\n"
    }
    text += """

      geosim geodesic [--direct] [-p PREC]
        reads lines "lat1 lon1 lat2 lon2" (decimal degrees) and prints "azi1 azi2 s12";
        with --direct reads "lat1 lon1 azi1 s12" and prints "lat2 lon2 azi2". Angles in degrees
        (azimuths clockwise from north), distances in metres; PREC (default 3) is the number of
        decimals of metres, angles get PREC + 5. A malformed line is reported on standard error
        with its line number, the other lines are still answered, and the exit code is 2.

      \(ReplayCommand.usage)
      \(SweepCommand.usage)
      \(TraceCommand.usage)
      \(QueryCommand.usage)
      geosim bench <suite> [--json]
        suites: \(BenchCommand.suiteNames.joined(separator: ", ")). Build with -c release.

      """
    return text
  }

  /// Runs the tool on `arguments` (without the program name) and returns the exit code.
  static func main(_ arguments: [String], terminal: Terminal) -> Int32 {
    var args = Arguments(arguments, command: "geosim")
    do {
      if args.flag("--help", "-h") || arguments.first == "help" {
        terminal.write(usage)
        return 0
      }
      if args.flag("--version") {
        try args.finish()
        terminal.write("geosim \(version)\n")
        return 0
      }
      guard let name = args.positional() else {
        throw UsageError("geosim: missing command (see geosim --help)")
      }
      guard let command = commands.first(where: { $0.name == name }) else {
        throw UsageError("geosim: unknown command '\(name)' (see geosim --help)")
      }
      var commandArgs = Arguments(args.remaining, command: "geosim \(name)")
      return try command.run(&commandArgs, terminal)
    } catch let error as UsageError {
      terminal.writeError(error.message + "\n")
      return 2
    } catch {
      terminal.writeError("geosim: \(ToolMessages.describe(error))\n")
      return 1
    }
  }
}
