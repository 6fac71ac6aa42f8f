import SimKernel
import Testing

/// Records the order in which its events fire.
private final class Recorder: SimulationEventHandler {
  var fired: [(time: SimTime, code: Int32, argument: Int64)] = []
  var onFire: ((FiredEvent, Simulation) throws -> Void)?

  func handle(_ event: FiredEvent, in simulation: Simulation) throws {
    fired.append((simulation.now, event.code, event.argument))
    try onFire?(event, simulation)
  }
}

private struct Boom: Error {}

@Suite struct SimulationTests {
  @Test func eventsFireInTimeThenPriorityThenSchedulingOrder() throws {
    let sim = Simulation(seed: 1)
    var order: [String] = []
    try sim.schedule(at: .seconds(2)) { order.append("t2") }
    try sim.schedule(at: .seconds(1), priority: .late) { order.append("t1 late") }
    try sim.schedule(at: .seconds(1)) { order.append("t1 first") }
    try sim.schedule(at: .seconds(1)) { order.append("t1 second") }
    try sim.schedule(at: .seconds(1), priority: .system) { order.append("t1 system") }
    try sim.run()
    #expect(order == ["t1 system", "t1 first", "t1 second", "t1 late", "t2"])
    #expect(sim.now == .seconds(2))
  }

  @Test func handlersReceiveTheirCodeAndArgumentAtTheScheduledInstant() throws {
    let sim = Simulation(seed: 1)
    let recorder = Recorder()
    let id = sim.register(recorder)
    try sim.schedule(at: .seconds(3), handler: id, code: 7, argument: 42)
    try sim.schedule(after: .milliseconds(500), handler: id, code: 1)
    try sim.run()
    #expect(recorder.fired.map(\.time) == [.seconds(0.5), .seconds(3)])
    #expect(recorder.fired.map(\.code) == [1, 7])
    #expect(recorder.fired.map(\.argument) == [0, 42])
  }

  @Test func anUnregisteredHandlersEventsAreDropped() throws {
    let sim = Simulation(seed: 1)
    let recorder = Recorder()
    let id = sim.register(recorder)
    try sim.schedule(at: .seconds(1), handler: id, code: 1)
    try sim.schedule(at: .seconds(2), handler: id, code: 2)
    try sim.run(until: .seconds(1.5))
    sim.unregister(id)
    try sim.run()
    #expect(recorder.fired.map(\.code) == [1])
    #expect(sim.now == .seconds(2))
  }

  @Test func eventsScheduledForNowFromAHandlerRunInTheSameInstantAfterIt() throws {
    let sim = Simulation(seed: 1)
    var order: [String] = []
    try sim.schedule(at: .seconds(1)) {
      order.append("a")
      try sim.schedule(after: .zero) { order.append("c") }
    }
    try sim.schedule(at: .seconds(1)) { order.append("b") }
    try sim.run()
    #expect(order == ["a", "b", "c"])
    #expect(sim.now == .seconds(1))
  }

  @Test func schedulingInThePastOrWithANegativeDelayThrows() throws {
    let sim = Simulation(seed: 1)
    try sim.run(until: .seconds(10))
    #expect(throws: SimKernelError.self) { try sim.schedule(at: .seconds(9)) {} }
    #expect(throws: SimKernelError.self) { try sim.schedule(after: .seconds(-1)) {} }
    let id = sim.register(Recorder())
    #expect(throws: SimKernelError.self) {
      try sim.schedule(at: .seconds(5), handler: id, code: 0)
    }
    #expect(sim.pendingEventCount == 0)
  }

  @Test func runUntilFiresEventsAtTheBoundaryAndStopsTimeThere() throws {
    let sim = Simulation(seed: 1)
    var fired: [Double] = []
    for t in [1.0, 2.0, 3.0] { try sim.schedule(at: .seconds(t)) { fired.append(t) } }
    try sim.run(until: .seconds(2))
    #expect(fired == [1, 2])
    #expect(sim.now == .seconds(2))
    #expect(sim.pendingEventCount == 1)
    #expect {
      try sim.run(until: .seconds(1.5))
    } throws: { ($0 as? SimKernelError)?.code == .runningBackwards }
  }

  @Test func cancelledEventsNeverFireAndStaleHandlesCancelNothing() throws {
    let sim = Simulation(seed: 1)
    var fired: [String] = []
    let a = try sim.schedule(at: .seconds(1)) { fired.append("a") }
    #expect(sim.cancel(a))
    #expect(!sim.cancel(a))
    // The freed slot is reused; the old handle must not reach the new event.
    let b = try sim.schedule(at: .seconds(1)) { fired.append("b") }
    #expect(!sim.cancel(a))
    try sim.run()
    #expect(fired == ["b"])
    #expect(!sim.cancel(b))
  }

  @Test func runToQuiescenceStopsAtTheSafetyLimit() throws {
    /// Reschedules itself forever; holds the simulation weakly, as the queue holds it.
    final class Ticker {
      weak var sim: Simulation?
      func tick() throws {
        try sim?.schedule(after: .seconds(1)) { [weak self] in try self?.tick() }
      }
    }
    let sim = Simulation(seed: 1)
    let ticker = Ticker()
    ticker.sim = sim
    try ticker.tick()
    #expect {
      try sim.run(limit: 1_000)
    } throws: { ($0 as? SimKernelError)?.code == .eventLimitReached }
    #expect(sim.firedEventCount == 1_000)
    #expect(throws: SimKernelError.self) { try sim.run(limit: 0) }
  }

  @Test func handlerErrorsPropagateAndLeaveTheRestPending() throws {
    let sim = Simulation(seed: 1)
    try sim.schedule(at: .seconds(1)) { throw Boom() }
    try sim.schedule(at: .seconds(2)) {}
    #expect(throws: Boom.self) { try sim.run() }
    #expect(sim.now == .seconds(1))
    #expect(sim.pendingEventCount == 1)
  }

  @Test func stepReportsWhetherAnythingFired() throws {
    let sim = Simulation(seed: 1)
    #expect(try !sim.step())
    try sim.schedule(at: .seconds(4)) {}
    #expect(try sim.step())
    #expect(sim.now == .seconds(4))
  }

  @Test func datesFollowTheEpoch() {
    let sim = Simulation(epoch: .init(timeIntervalSince1970: 1_700_000_000), seed: 1)
    #expect(sim.date(of: .seconds(90)).timeIntervalSince1970 == 1_700_000_090)
  }

  @Test func aLargeRandomScheduleFiresInNonDecreasingTimeOrder() throws {
    let sim = Simulation(seed: 9)
    var random = sim.random.stream("test")
    let recorder = Recorder()
    let id = sim.register(recorder)
    var cancelled: Set<Int64> = []
    var handles: [EventHandle] = []
    for i in 0..<5_000 {
      let t = SimTime(nanoseconds: Int64(random.uniform(0, 1e9)))
      handles.append(try sim.schedule(at: t, handler: id, code: 0, argument: Int64(i)))
    }
    for i in stride(from: 0, to: 5_000, by: 7) where sim.cancel(handles[i]) {
      cancelled.insert(Int64(i))
    }
    try sim.run()
    #expect(recorder.fired.count == 5_000 - cancelled.count)
    #expect(zip(recorder.fired, recorder.fired.dropFirst()).allSatisfy { $0.time <= $1.time })
    #expect(recorder.fired.allSatisfy { !cancelled.contains($0.argument) })
  }
}

@Suite struct SimTimeTests {
  @Test func durationsPrintExactSeconds() {
    #expect(SimDuration.seconds(1.25).description == "1.250000000s")
    #expect(SimDuration(nanoseconds: -5).description == "-0.000000005s")
    #expect(SimTime.seconds(60).description == "t=60.000000000s")
  }

  @Test func arithmeticIsExactInNanoseconds() {
    let t = SimTime.seconds(1) + .milliseconds(1) - SimDuration.seconds(0.5)
    #expect(t.nanoseconds == 501_000_000)
    #expect(SimTime.seconds(3) - SimTime.seconds(1) == .seconds(2))
    #expect(SimDuration.minutes(1) == .seconds(60))
    #expect(SimDuration.hours(1) * 0.5 == .minutes(30))
  }
}
