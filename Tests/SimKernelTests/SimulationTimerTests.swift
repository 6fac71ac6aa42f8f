import SimKernel
import Testing

/// A component's timer: one pending event at a time, armed and cancelled from its owner's state.
@Suite struct SimulationTimerTests {
  @Test func aTimerFiresOnceWhenArmedAndAgainOnlyWhenRearmed() throws {
    let simulation = Simulation(seed: 1)
    var fired: [Double] = []
    let timer = simulation.makeTimer { fired.append(simulation.now.seconds) }
    try timer.arm(after: .seconds(2))
    #expect(timer.isArmed)
    try simulation.run(until: .seconds(10))
    #expect(fired == [2])
    #expect(!timer.isArmed)
    try timer.arm(at: .seconds(12))
    try simulation.run(until: .seconds(20))
    #expect(fired == [2, 12])
  }

  @Test func rearmingReplacesThePendingEventAndCancellingDropsIt() throws {
    let simulation = Simulation(seed: 1)
    var fired: [Double] = []
    let timer = simulation.makeTimer { fired.append(simulation.now.seconds) }
    try timer.arm(after: .seconds(5))
    try timer.arm(after: .seconds(3))
    #expect(simulation.pendingEventCount == 1)
    try simulation.run(until: .seconds(10))
    #expect(fired == [3])
    try timer.arm(after: .seconds(1))
    timer.cancel()
    #expect(!timer.isArmed && simulation.pendingEventCount == 0)
    try simulation.run(until: .seconds(20))
    #expect(fired == [3])
  }

  @Test func aTimerCanRearmItselfFromItsCallback() throws {
    /// An owner of a timer, as a component would be: the callback holds it unowned.
    final class Repeater {
      var count = 0
      var timer: SimulationTimer?
    }
    let simulation = Simulation(seed: 1)
    let repeater = Repeater()
    repeater.timer = simulation.makeTimer { [unowned repeater] in
      repeater.count += 1
      if repeater.count < 3 { try repeater.timer?.arm(after: .seconds(1)) }
    }
    try repeater.timer?.arm(after: .zero)
    try simulation.run(until: .seconds(10))
    #expect(repeater.count == 3)
  }

  @Test func aNegativeDelayOrAPastInstantIsRefused() throws {
    let simulation = Simulation(seed: 1)
    let timer = simulation.makeTimer {}
    #expect(throws: SimKernelError.self) { try timer.arm(after: .seconds(-1)) }
    try simulation.run(until: .seconds(5))
    #expect(throws: SimKernelError.self) { try timer.arm(at: .seconds(4)) }
    #expect(!timer.isArmed)
  }

  @Test func aTimerGoneBeforeItsEventIsNotCalled() throws {
    let simulation = Simulation(seed: 1)
    var fired = false
    var timer: SimulationTimer? = simulation.makeTimer { fired = true }
    try timer?.arm(after: .seconds(1))
    timer = nil
    try simulation.run(until: .seconds(5))
    #expect(!fired)
  }

  /// A world may let go of its kernel before the component that owns the timer: the timer keeps
  /// the kernel alive until it has unregistered (this trapped when it held it unowned).
  @Test func aTimerMayOutliveEveryOtherReferenceToItsKernel() throws {
    var simulation: Simulation? = Simulation(seed: 1)
    var timer: SimulationTimer? = simulation?.makeTimer {}
    try timer?.arm(after: .seconds(1))
    simulation = nil
    #expect(timer?.isArmed == true)
    timer = nil
  }
}
