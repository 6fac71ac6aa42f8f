import JSON
import SimKernel

/// One replay, run in this process: the world after the run and its result.
///
/// A trap in the app model ends this process; the `geosim replay` tool runs each scenario in a
/// worker process so that a trap becomes that scenario's crash instead.
public final class ScenarioRun {
  /// The world as the run left it.
  public let world: World
  /// The expectations' results, timeline errors and verdict.
  public let result: ReplayResult

  /// Builds the world for `scenario`, runs it to its end and evaluates its expectations.
  ///
  /// - Parameters:
  ///   - scenario: the scenario to replay.
  ///   - catalog: the apps the scenario may name.
  ///   - resources: the shared read-only data (one ``ReplayResources`` per process).
  ///   - seed: replaces the scenario's seed.
  ///   - eventLimit: the most kernel events the world may fire (``World/run(eventLimit:)``).
  ///   - eventSink: receives every log entry as it is recorded (a worker streams them to a
  ///     file, so that the events before a crash survive it).
  /// - Throws: ``ScenarioError`` for a scenario that cannot be assembled; errors from the
  ///   kernel are rethrown.
  public init(
    _ scenario: Scenario, catalog: AppCatalog, resources: ReplayResources, seed: UInt64? = nil,
    eventLimit: Int = World.defaultEventLimit, eventSink: ((LogEntry) -> Void)? = nil
  ) throws {
    var scenario = scenario
    if let seed { scenario.seed = seed }
    world = try World(scenario: scenario, catalog: catalog, resources: resources)
    if let eventSink {
      // The setup's own entries (starting settings) were recorded before the run.
      world.simulation.log.entries.forEach(eventSink)
      world.simulation.log.sink = eventSink
    }
    try world.run(eventLimit: eventLimit)
    result = world.result()
    // The run is over: the app's waiting tasks are released now, so that anything their code
    // does on its way out happens within this scenario (a trap ends its own replay).
    world.phone.shutDown()
  }

  /// The scenario that ran.
  public var scenario: Scenario { world.scenario }

  /// The event log.
  public var log: EventLog { world.simulation.log }

  /// The event log as JSON Lines.
  public var eventLines: String { log.jsonLines }
}
