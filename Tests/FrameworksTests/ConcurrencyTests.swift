import Device
import Foundation
import Geo
import GeoSimFrameworks
import SimKernel
import Testing

@Suite("iOS concurrency in virtual time")
struct ConcurrencyTests {
  /// A walk east along 35.68° N at 1 m/s from 1 km west of the circle's centre.
  static func walk(_ time: SimTime) -> Coordinate? {
    let metresPerDegree = 111_320 * cos(35.68 * .pi / 180)
    let x = -1_000 + time.seconds
    return try? Coordinate(latitude: 35.68, longitude: 139.76 + x / metresPerDegree)
  }

  /// A world whose user allows Always and walks through `VisitCounter`'s circle; `counter`
  /// is the app instance of the latest launch.
  final class VisitWorld {
    let world: TestWorld
    private(set) var counter: VisitCounter?

    init(seed: UInt64 = 1) {
      var made: VisitCounter?
      world = TestWorld(
        seed: seed,
        user: UserScript(answers: [
          .location: [.allowWhileUsing], .alwaysUpgrade: [.changeToAlways],
        ]),
        truth: ConcurrencyTests.walk
      ) {
        let counter = VisitCounter(
          center: CLLocationCoordinate2D(latitude: 35.68, longitude: 139.76), radius: 100)
        made = counter
        return counter
      }
      self.made = { made }
    }

    private var made: () -> VisitCounter? = { nil }

    /// Launches and runs to `seconds`; returns the app's notes.
    @discardableResult
    func run(until seconds: Double) throws -> [String] {
      try world.launchAndRun(until: seconds)
      counter = made()
      return counter?.notes ?? []
    }
  }

  @Test("a main-queue block asking for permission runs, and the app's work follows in time")
  func mainQueueBlockRuns() throws {
    let visit = VisitWorld()
    let notes = try visit.run(until: 1_800)
    #expect(notes.first == "authorization notDetermined")
    #expect(notes.dropFirst().first == "asking")
    #expect(notes.contains("authorization authorizedAlways"))
    #expect(notes.contains("entered place"))
    #expect(notes.contains("30 s after entering"))
    #expect(notes.contains("left place"))
    #expect(notes.contains("5 s after leaving"))
    #expect(notes.filter { $0.hasPrefix("sampled at ") }.count >= 10)
    // The fix's timestamp is a date in the world's calendar, 2026-04-01 and later.
    let fix = try #require(visit.counter?.lastFix)
    #expect(fix.timestamp.timeIntervalSince1970 > 1_775_001_600)
    #expect(fix.timestamp.timeIntervalSince1970 <= 1_775_001_600 + 1_800)
  }

  @Test("the same world twice gives the same notes")
  func deterministic() throws {
    #expect(try VisitWorld().run(until: 1_800) == VisitWorld().run(until: 1_800))
  }

  @Test("work still queued when the run ends is listed, with where it was queued")
  func pendingWorkIsListed() throws {
    let visit = VisitWorld()
    try visit.run(until: 1_800)
    let world = visit.world
    let pending = world.phone.runLoop.pendingWork
    #expect(pending.count == 1)
    #expect(pending.first?.kind == .timer)
    #expect(
      pending.first?.label.hasPrefix("Timer.scheduledTimer at FrameworksTests/Visits.swift:")
        == true)
    world.phone.makeCurrent { visit.counter?.stopSampling() }
    #expect(world.phone.runLoop.pendingWork.isEmpty)
  }

  @Test("a terminated app's queued work ends with its process, and the log says how much")
  func terminationDropsWork() throws {
    let world = TestWorld(truth: Self.walk) {
      let made = VisitCounter(
        center: CLLocationCoordinate2D(latitude: 35.68, longitude: 139.76), radius: 100)
      return made
    }
    try world.phone.makeCurrent {
      try world.phone.launchApp()
      // The main-queue block is queued but has not run: the launch is at this instant.
      world.phone.terminateApp()
    }
    try world.run(until: 10)
    #expect(world.logNames.contains("app.workDropped"))
    #expect(world.phone.runLoop.pendingWork.isEmpty)
  }

  @Test("a timer that comes due while the app is suspended is one piece of work, run on resume")
  func aTimerDueWhileSuspendedWaitsAsOnePiece() throws {
    var fired: [Double] = []
    let world = TestWorld { NSObject() }
    try world.phone.makeCurrent {
      try world.phone.launchApp()
      // This file imports Foundation too, so the layer's queue is named in full: unqualified,
      // `DispatchQueue` here is Dispatch's own, whose main queue never runs in a world.
      GeoSimFrameworks.DispatchQueue.main.asyncAfter(
        deadline: GeoSimFrameworks.DispatchTime.now() + 60
      ) {
        fired.append(world.simulation.now.seconds)
      }
      world.phone.sendAppToBackground()
    }
    try world.run(until: 50)
    #expect(world.phone.runLoop.pendingWork.map(\.kind) == [.timer])
    // Suspended 5 s after going to the background; the block is due at 60 s.
    try world.run(until: 100)
    #expect(fired.isEmpty)
    #expect(world.phone.runLoop.pendingWork.map(\.kind) == [.queued])
    try world.phone.makeCurrent { world.phone.bringAppToForeground() }
    try world.run(until: 101)
    #expect(fired == [100])
    #expect(world.phone.runLoop.pendingWork.isEmpty)
  }

  /// What ran, in order (a timer's block is `@Sendable`; a world runs on one thread).
  final class Ran: @unchecked Sendable {
    var names: [String] = []
  }

  @Test("work queued in a suspension runs on resume in order; a timer invalidated once due, never")
  func queuedWorkKeepsItsOrderAcrossASuspension() throws {
    let ran = Ran()
    var timer: GeoSimFrameworks.Timer?
    let world = TestWorld { NSObject() }
    try world.phone.makeCurrent {
      try world.phone.launchApp()
      GeoSimFrameworks.DispatchQueue.main.asyncAfter(
        deadline: GeoSimFrameworks.DispatchTime.now() + 60
      ) { ran.names.append("due at 60 s") }
      timer = GeoSimFrameworks.Timer.scheduledTimer(withTimeInterval: 70, repeats: false) { _ in
        ran.names.append("invalidated timer")
      }
      world.phone.sendAppToBackground()
    }
    try world.run(until: 80)
    try world.phone.makeCurrent {
      GeoSimFrameworks.DispatchQueue.main.async { ran.names.append("queued at 80 s") }
      timer?.invalidate()
    }
    #expect(ran.names.isEmpty)
    #expect(world.phone.runLoop.pendingWork.map(\.kind) == [.queued, .queued])
    try world.phone.makeCurrent { world.phone.bringAppToForeground() }
    try world.run(until: 81)
    #expect(ran.names == ["due at 60 s", "queued at 80 s"])
    #expect(world.phone.runLoop.pendingWork.isEmpty)
  }

  @Test("two worlds on two threads never see each other's phone")
  func twoWorldsOnTwoThreads() async throws {
    @Sendable func notes(seed: UInt64) throws -> [String] {
      try VisitWorld(seed: seed).run(until: 600)
    }
    let alone = try notes(seed: 7)
    async let a = _Concurrency.Task.detached { try (0..<5).map { _ in try notes(seed: 7) } }.value
    async let b = _Concurrency.Task.detached { try (0..<5).map { _ in try notes(seed: 7) } }.value
    let (first, second) = try await (a, b)
    #expect(first.allSatisfy { $0 == alone })
    #expect(second.allSatisfy { $0 == alone })
  }
}

@Suite("Swift concurrency of the app: main actor, tasks, sleeps")
struct MainActorTests {
  @Test("@MainActor code, async let, task groups and cancellation run in virtual time")
  func refresherRunsInVirtualTime() throws {
    var app: RefresherApp?
    let world = TestWorld {
      let made = RefresherApp()
      app = made
      return made
    }
    try world.launchAndRun(until: 200)
    let refresher = try #require(app?.refresher)
    let log = world.phone.makeCurrent { MainActor.assumeIsolated { refresher.log } }
    // Round 1 finishes 2.5 s in (the slower of weather and stations, then the group's 0.5 s);
    // it sleeps 60 s; round 2 at 62.5 + 2.5; round 3 at 125 + 2.5; the timer at 150 s
    // cancels the third sleep.
    #expect(
      log == [
        "round 1: weather+stations abc", "round 2: weather+stations abc",
        "round 3: weather+stations abc", "cancelled in round 3",
      ])
    #expect(world.phone.runLoop.pendingWork.isEmpty)
  }
}
