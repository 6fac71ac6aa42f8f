import Device
import Geo
import GeoSimFrameworks
import SimKernel
import Testing

/// Walks east from (35.68, 139.76) at 1.4 m/s, stands still from `stop` to `resume` seconds,
/// then walks on.
func walk(stop: Double, resume: Double) -> (SimTime) -> Coordinate? {
  let start = try! Coordinate(latitude: 35.68, longitude: 139.76)
  return { time in
    let t = time.seconds
    let walked = 1.4 * (min(t, stop) + max(0, t - resume))
    return try? Geodesic.wgs84.direct(from: start, azimuth: 90, distance: walked).coordinate
  }
}

/// `CLLocationUpdate.liveUpdates(_:)`, `CLServiceSession` and `CLBackgroundActivitySession`
/// through the import swap: an iOS 18 run tracker, unchanged.
@Suite struct LiveUpdatesTests {
  func world(inBackgroundToo: Bool, truth: @escaping (SimTime) -> Coordinate?) -> (
    TestWorld, () -> RunTrackerApp?
  ) {
    var app: RunTrackerApp?
    // No stale cached first fix when updates resume, so that fixes can be counted.
    var parameters = TestWorld.certain
    parameters.staleFirstFixProbability = 0
    let world = TestWorld(
      parameters: parameters, user: UserScript(answers: [.location: [.allowWhileUsing]]),
      truth: truth
    ) {
      let made = RunTrackerApp(inBackgroundToo: inBackgroundToo)
      app = made
      return made
    }
    return (world, { app })
  }

  func count(_ world: TestWorld, _ app: RunTrackerApp?) throws -> (
    locations: Int, stationary: Int, denied: Int, requests: Int
  ) {
    let tracker = try #require(app?.tracker)
    return world.onMainActor {
      (
        tracker.locations.count, tracker.stationaryUpdates, tracker.deniedUpdates,
        tracker.requestsInProgress
      )
    }
  }

  @Test func theSessionPromptsAndTheLoopGetsFixesThatPauseWhileTheRunnerStands() throws {
    let (world, app) = world(inBackgroundToo: false, truth: walk(stop: 60, resume: 300))
    try world.launchAndRun(until: 5)
    #expect(world.events("prompt") == ["shown", "answered"])
    #expect(try count(world, app()).requests == 1, "the diagnostics saw the prompt")
    try world.run(until: 400)
    let counts = try count(world, app())
    #expect(counts.stationary == 1)
    // Fixes from 3 s (after the answer) to 181 s (still for 120 s), and again from 302 s.
    #expect(counts.locations == (181 - 3 + 1) + (400 - 302 + 1))
    #expect(world.events("location").contains("liveUpdatesStationary"))
    #expect(world.events("location").contains("liveUpdatesResumed"))
    // The loop still waits for its next update when the run ends: listed, not hidden.
    let pending = world.phone.runLoop.pendingWork.map(\.label)
    #expect(pending.contains { $0.hasPrefix("CLLocationUpdate.liveUpdates(.fitness) at") })
  }

  @Test func aBackgroundActivitySessionKeepsTheLoopRunningInTheBackground() throws {
    let (world, app) = world(inBackgroundToo: true, truth: walk(stop: 1000, resume: 1000))
    try world.launchAndRun(until: 10.5)
    world.inApp { world.phone.sendAppToBackground() }
    try world.run(until: 60)
    #expect(world.phone.appState == .background)
    #expect(world.phone.showsBackgroundLocationIndicator)
    #expect(try count(world, app()).locations == 58)
  }

  @Test func withoutOneTheLoopStopsWhenTheAppIsSuspended() throws {
    let (world, app) = world(inBackgroundToo: false, truth: walk(stop: 1000, resume: 1000))
    try world.launchAndRun(until: 10.5)
    world.inApp { world.phone.sendAppToBackground() }
    try world.run(until: 60)
    #expect(world.phone.appState == .suspended)
    #expect(try count(world, app()).locations == 8)
  }

  @Test func permissionWithdrawnMidStreamArrivesAsAnUpdateNotAnError() throws {
    let (world, app) = world(inBackgroundToo: false, truth: walk(stop: 1000, resume: 1000))
    try world.launchAndRun(until: 10.5)
    world.inApp { world.phone.setLocationSetting(.never) }
    try world.run(until: 20)
    let counts = try count(world, app())
    #expect(counts.denied == 1)
    #expect(counts.locations == 8)
  }

  @Test func stoppingCancelsTheLoopAndEndsTheSessions() throws {
    let (world, app) = world(inBackgroundToo: true, truth: walk(stop: 1000, resume: 1000))
    try world.launchAndRun(until: 10.5)
    let tracker = try #require(app()?.tracker)
    world.onMainActor { tracker.stop() }
    try world.run(until: 20)
    #expect(world.phone.runLoop.pendingWork.isEmpty)
    let location = world.events("location")
    #expect(location.contains("liveUpdatesStopped"))
    #expect(location.contains("backgroundActivitySessionInvalidated"))
    #expect(
      location.filter { $0 == "serviceSessionInvalidated" }.count == 2, "explicit and implicit")
  }
}
