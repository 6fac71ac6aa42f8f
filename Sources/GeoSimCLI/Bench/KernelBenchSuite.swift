import SimKernel

/// `geosim bench kernel`: the event kernel in the hold model (Vaucher & Duval 1975) — a queue
/// of 1,000 pending events where every fired event schedules one more at an exponentially
/// distributed delay, so the queue stays full. Target: ≥ 10 million events/s (≤ 100 ns/event).
///
/// The baseline is the same model with closure events, which allocate per event.
enum KernelBenchSuite {
  static let pending = 1_000

  static func run(_ bench: inout Bench) throws {
    let closureModel = try ClosureHoldModel(pending: pending)
    bench.measure("hold1000.closure-events") { n in
      for _ in 0..<n { _ = try? closureModel.simulation.step() }
    }
    let handlerModel = try HandlerHoldModel(pending: pending)
    bench.measure("hold1000.handler-events", baseline: "hold1000.closure-events") { n in
      for _ in 0..<n { _ = try? handlerModel.simulation.step() }
    }
    blackHole(handlerModel.simulation.firedEventCount + closureModel.simulation.firedEventCount)
  }
}

/// Mean delay between an event and the one it schedules: 1 ms.
private let meanDelayNanoseconds = 1_000_000.0

private final class HandlerHoldModel: SimulationEventHandler {
  let simulation = Simulation(seed: 1)
  var random: RandomStream
  var id = HandlerID?.none

  init(pending: Int) throws {
    random = simulation.random.stream("hold")
    let id = simulation.register(self)
    self.id = id
    for _ in 0..<pending { try scheduleNext(id) }
  }

  func scheduleNext(_ id: HandlerID) throws {
    // Drawing from a local copy keeps the class property's exclusivity check out of the loop.
    var stream = random
    let delay = SimDuration(nanoseconds: Int64(stream.exponential(mean: meanDelayNanoseconds)))
    random = stream
    try simulation.schedule(after: delay, handler: id, code: 0)
  }

  func handle(_ event: FiredEvent, in simulation: Simulation) throws {
    try scheduleNext(id!)
  }

  deinit {
    if let id { simulation.unregister(id) }
  }
}

private final class ClosureHoldModel {
  let simulation = Simulation(seed: 1)
  var random: RandomStream

  init(pending: Int) throws {
    random = simulation.random.stream("hold")
    for _ in 0..<pending { try scheduleNext() }
  }

  func scheduleNext() throws {
    var stream = random
    let delay = SimDuration(nanoseconds: Int64(stream.exponential(mean: meanDelayNanoseconds)))
    random = stream
    try simulation.schedule(after: delay) { [unowned self] in try self.scheduleNext() }
  }
}
