import SimKernel
import Testing

/// Records what fired, in order, and runs a reaction to each event.
private final class Log: SimulationEventHandler {
  var fired: [Int64] = []
  var onFire: ((FiredEvent, Simulation) throws -> Void)?

  func handle(_ event: FiredEvent, in simulation: Simulation) throws {
    fired.append(event.argument)
    try onFire?(event, simulation)
  }
}

/// An event of the reference model: what the kernel must do, computed by sorting.
private struct Expected {
  var time: Int64
  var priority: Int32
  var order: Int
  var name: Int64
}

@Suite struct EventQueueTests {
  @Test func cancellingAnEventThatHasFiredCancelsNothing() throws {
    let sim = Simulation(seed: 1)
    let log = Log()
    let id = sim.register(log)
    var cancelledItself: Bool?
    log.onFire = { event, sim in cancelledItself = sim.cancel(event.handle) }
    let handle = try sim.schedule(at: .seconds(1), handler: id, code: 0, argument: 1)
    try sim.run()
    #expect(cancelledItself == false)
    #expect(!sim.cancel(handle))
    // Its slot is reused by the next event, which the old handle must not reach.
    let next = try sim.schedule(at: .seconds(2), handler: id, code: 0, argument: 2)
    #expect(!sim.cancel(handle))
    try sim.run()
    #expect(log.fired == [1, 2])
    #expect(!sim.cancel(next))
    #expect(sim.queueInvariantViolation() == nil)
  }

  @Test func aClosureEventThatHasFiredCannotBeCancelled() throws {
    let sim = Simulation(seed: 1)
    var count = 0
    let handle = try sim.schedule(at: .seconds(1)) { count += 1 }
    try sim.run()
    #expect(count == 1)
    #expect(!sim.cancel(handle))
    #expect(sim.queueInvariantViolation() == nil)
  }

  /// A closure event keeps what it captured until it fires or is cancelled, or its simulation
  /// is gone, and not after; a handler event in a slot a closure left holds nothing of it.
  @Test func aClosureEventLetsGoOfWhatItCapturedWhenItIsDone() throws {
    final class Captured {}
    weak var fired: Captured?
    weak var cancelled: Captured?
    weak var pending: Captured?
    var sim: Simulation? = Simulation(seed: 1)
    let log = Log()
    let handler = sim!.register(log)
    do {
      let (a, b, c) = (Captured(), Captured(), Captured())
      (fired, cancelled, pending) = (a, b, c)
      try sim!.schedule(at: .seconds(1)) { withExtendedLifetime(a) {} }
      let handle = try sim!.schedule(at: .seconds(2)) { withExtendedLifetime(b) {} }
      try sim!.schedule(at: .seconds(9)) { withExtendedLifetime(c) {} }
      #expect(sim!.cancel(handle))
    }
    #expect(fired != nil && cancelled == nil && pending != nil)
    // The freed slots are reused by handler events.
    try sim!.schedule(at: .seconds(3), handler: handler, code: 0, argument: 3)
    try sim!.schedule(at: .seconds(4), handler: handler, code: 0, argument: 4)
    try sim!.run(until: .seconds(5))
    #expect(fired == nil && pending != nil)
    #expect(log.fired == [3, 4])
    #expect(sim!.queueInvariantViolation() == nil)
    sim = nil
    #expect(pending == nil)
  }

  /// Thousands of events on few distinct instants and priorities, so that most order is
  /// decided by ties, with cancellations and events scheduled from handlers at the current
  /// instant, against a reference that sorts by (time, priority, scheduling order).
  @Test(arguments: [UInt64(1 << 32), 3_001, 3_100])
  func tiesFireInSchedulingOrderAtScaleAsASortedReferenceSays(sequenceLimit: UInt64) throws {
    let sim = Simulation(seed: 5, sequenceLimit: sequenceLimit)
    var random = sim.random.stream("ties")
    let log = Log()
    let id = sim.register(log)
    let priorities: [Int32] = [Int32.min, -100, 0, 0, 0, 100, Int32.max]
    var expected: [Expected] = []
    var handles: [Int64: EventHandle] = [:]
    var order = 0
    func schedule(at time: Int64, name: Int64) throws {
      let priority = priorities[Int(random.next() % UInt64(priorities.count))]
      handles[name] = try sim.schedule(
        at: SimTime(nanoseconds: time), priority: EventPriority(priority), handler: id, code: 0,
        argument: name)
      expected.append(Expected(time: time, priority: priority, order: order, name: name))
      order += 1
    }
    var names: Int64 = 0
    for _ in 0..<3_000 {
      try schedule(at: Int64(random.next() % 20), name: names)
      names += 1
    }
    var cancelled: Set<Int64> = []
    for name in stride(from: Int64(0), to: 3_000, by: 5) where sim.cancel(handles[name]!) {
      cancelled.insert(name)
    }
    // Every tenth event schedules one more at its own instant (it fires in this instant if
    // its priority and order say so) and one a little later.
    var scheduledBy: [Int64: Int64] = [:]
    log.onFire = { event, sim in
      guard event.argument % 10 == 0, event.argument < 3_000 else { return }
      try schedule(at: sim.now.nanoseconds, name: names)
      try schedule(at: sim.now.nanoseconds + Int64(random.next() % 3), name: names + 1)
      scheduledBy[names] = event.argument
      scheduledBy[names + 1] = event.argument
      names += 2
    }
    try sim.run()
    #expect(sim.queueInvariantViolation() == nil)

    // The reference: events fire in (time, priority, order) order, but one scheduled from a
    // handler cannot fire before the event that scheduled it.
    var reference: [Int64] = []
    var pending = expected.filter { !cancelled.contains($0.name) }
    #expect(scheduledBy.count == expected.count - 3_000)
    var fired: Set<Int64> = []
    while !pending.isEmpty {
      let ready = pending.indices.filter { i in
        scheduledBy[pending[i].name].map { fired.contains($0) } ?? true
      }
      let next = ready.min { a, b in
        let x = pending[a]
        let y = pending[b]
        return (x.time, x.priority, x.order) < (y.time, y.priority, y.order)
      }!
      reference.append(pending[next].name)
      fired.insert(pending[next].name)
      pending.remove(at: next)
    }
    #expect(log.fired == reference)
  }

  /// A queue sinks its entries one way while it is larger than the caches hold and another
  /// once it is smaller (here above and below 4,096 of its 40,000 events); both keep the order
  /// a sort gives.
  @Test func aQueueLargerThanTheCachesFiresInTheOrderASortGives() throws {
    let sim = Simulation(seed: 9, sequenceLimit: 1 << 32, branchlessLimit: 1 << 12)
    var random = sim.random.stream("large")
    let log = Log()
    let id = sim.register(log)
    let priorities: [Int32] = [-100, 0, 0, 100]
    var expected: [Expected] = []
    var handles: [EventHandle] = []
    for name in 0..<Int64(40_000) {
      let time = Int64(random.next() % 5_000)
      let priority = priorities[Int(random.next() % 4)]
      handles.append(
        try sim.schedule(
          at: SimTime(nanoseconds: time), priority: EventPriority(priority), handler: id,
          code: 0, argument: name))
      expected.append(Expected(time: time, priority: priority, order: Int(name), name: name))
    }
    for name in stride(from: 0, to: 40_000, by: 7) { #expect(sim.cancel(handles[name])) }
    try sim.run()
    let reference =
      expected
      .filter { $0.name % 7 != 0 }
      .sorted { ($0.time, $0.priority, $0.order) < ($1.time, $1.priority, $1.order) }
      .map(\.name)
    #expect(log.fired == reference)
    #expect(sim.queueInvariantViolation() == nil)
  }

  /// The sequence numbers run out after 12 events here (after 2³² in a real simulation).
  @Test func renumberingKeepsTheOrderAndDropsCancelledEntries() throws {
    let sim = Simulation(seed: 1, sequenceLimit: 12)
    let log = Log()
    let id = sim.register(log)
    var handles: [EventHandle] = []
    for name in Int64(0)..<10 {
      handles.append(try sim.schedule(at: .seconds(1), handler: id, code: 0, argument: name))
    }
    #expect(sim.cancel(handles[3]))
    try sim.schedule(at: .seconds(1), priority: .system, handler: id, code: 0, argument: 10)
    try sim.schedule(at: .seconds(1), handler: id, code: 0, argument: 11)
    #expect(sim.queueInvariantViolation() == nil)
    // The 13th event renumbers the 11 pending ones first.
    try sim.schedule(at: .seconds(1), handler: id, code: 0, argument: 12)
    #expect(sim.queueInvariantViolation() == nil)
    #expect(!sim.cancel(handles[3]))
    #expect(sim.cancel(handles[5]))
    try sim.run()
    #expect(log.fired == [10, 0, 1, 2, 4, 6, 7, 8, 9, 11, 12])
    #expect(sim.queueInvariantViolation() == nil)
  }

  @Test func theInvariantsHoldThroughARandomMixOfSchedulingFiringAndCancelling() throws {
    let sim = Simulation(seed: 3)
    var random = sim.random.stream("mix")
    let log = Log()
    let id = sim.register(log)
    var handles: [EventHandle] = []
    var closuresFired = 0
    for step in 0..<4_000 {
      switch random.next() % 4 {
      case 0:
        handles.append(
          try sim.schedule(
            after: SimDuration(nanoseconds: Int64(random.next() % 1_000)), handler: id, code: 0))
      case 1:
        handles.append(
          try sim.schedule(after: SimDuration(nanoseconds: Int64(random.next() % 1_000))) {
            closuresFired += 1
          })
      case 2:
        if !handles.isEmpty { sim.cancel(handles[Int(random.next() % UInt64(handles.count))]) }
      default:
        try sim.step()
      }
      if step % 97 == 0 { #expect(sim.queueInvariantViolation() == nil) }
    }
    try sim.run()
    #expect(sim.pendingEventCount == 0)
    #expect(sim.queueInvariantViolation() == nil)
    #expect(closuresFired + log.fired.count == sim.firedEventCount)
  }
}
