import Device
import Foundation
import Geo
import GeoSimFrameworks
import SimKernel
import Testing

/// What the app's tasks said, kept outside the app so that it outlives the world.
private final class Transcript {
  var lines: [String] = []
}

/// An app whose tasks wait on everything the frameworks make them wait on: a monitor's
/// events, a live-updates stream, a long sleep, and a notification prompt nobody answers.
private final class Waiter {
  init(_ transcript: Transcript) {
    Task {
      let monitor = await CLMonitor("fences")
      do {
        for try await event in await monitor.events {
          transcript.lines.append("event \(event.identifier)")
        }
        transcript.lines.append("events ended")
      } catch {
        transcript.lines.append("events failed")
      }
    }
    Task {
      do {
        for try await _ in CLLocationUpdate.liveUpdates() {}
        transcript.lines.append("updates ended")
      } catch {
        transcript.lines.append("updates failed")
      }
    }
    Task {
      do {
        try await Task.sleep(for: .seconds(3_600))
        transcript.lines.append("slept")
      } catch {
        transcript.lines.append("sleep: \(type(of: error))")
      }
    }
    Task {
      do {
        let granted = try await UNUserNotificationCenter.current().requestAuthorization(
          options: [.alert])
        transcript.lines.append("notifications \(granted)")
      } catch {
        transcript.lines.append("notifications: \(type(of: error))")
      }
    }
  }
}

/// An app whose one task keeps sleeping whatever happens: it never looks at cancellation.
private final class Stubborn {
  init(_ transcript: Transcript) {
    Task {
      var naps = 0
      while true {
        try? await Task.sleep(for: .seconds(10))
        naps += 1
        transcript.lines = ["\(naps) naps"]
      }
    }
  }
}

/// The user allows While Using; the notification prompt stays on screen.
private let locationOnly = UserScript(answers: [.location: [.allowWhileUsing]])

@Suite("When a world is over, the app's waiting tasks finish and the world is freed")
struct WorldEndTests {
  @Test("streams end, sleeps end, unanswered requests get a neutral answer, and the app is freed")
  func waitingTasksFinish() throws {
    let transcript = Transcript()
    weak var app: Waiter?
    weak var phone: Phone?
    do {
      let world = TestWorld(user: locationOnly) {
        let made = Waiter(transcript)
        app = made
        return made
      }
      phone = world.phone
      try world.launchAndRun(until: 60)
      #expect(transcript.lines.isEmpty)
      let kinds = world.phone.runLoop.pendingWork.map(\.kind)
      #expect(kinds.filter { $0 == .waiting }.count == 3)
      #expect(kinds.contains(.sleep))
      let logged = world.simulation.log.entries.count

      world.phone.shutDown()
      // Nothing is cancelled (iOS never cancels a task when it ends a process): a sleep ends
      // as if its time had passed, an unanswered prompt as not granted.
      #expect(
        transcript.lines.sorted() == [
          "events ended", "notifications false", "slept", "updates ended",
        ])
      // What the app did on its way out is not part of the run's record.
      #expect(world.simulation.log.entries.count == logged)
      #expect(world.phone.runLoop.pendingWork.isEmpty)
    }
    // Nothing holds the app or its phone any more.
    #expect(app == nil)
    #expect(phone == nil)
  }

  @Test("a process that ended runs none of its code until the world is over")
  func aTerminatedProcessStaysStill() throws {
    let transcript = Transcript()
    weak var app: Waiter?
    do {
      let world = TestWorld(user: locationOnly) {
        let made = Waiter(transcript)
        app = made
        return made
      }
      try world.launchAndRun(until: 30)
      world.terminate()
      try world.run(until: 4_000)
      // The sleep was due at 3600 s: a process that is gone does not wake for it.
      #expect(transcript.lines.isEmpty)
      #expect(world.phone.runLoop.pendingWork.isEmpty)
      world.phone.shutDown()
      #expect(transcript.lines.count == 4)
    }
    #expect(app == nil)
  }

  @Test("a world that is simply dropped shuts its phone down")
  func droppingTheWorldShutsDown() throws {
    let transcript = Transcript()
    weak var phone: Phone?
    do {
      let world = TestWorld(user: locationOnly) { Waiter(transcript) }
      phone = world.phone
      try world.launchAndRun(until: 60)
    }
    #expect(transcript.lines.count == 4)
    #expect(phone == nil)
  }

  @Test("a task that ignores cancellation is left after a bounded amount of work")
  func aStubbornTaskCannotHoldTheEndForever() throws {
    let transcript = Transcript()
    let world = TestWorld(user: locationOnly) { Stubborn(transcript) }
    try world.launchAndRun(until: 35)
    #expect(transcript.lines == ["3 naps"])
    world.phone.shutDown()
    // Each nap after the end is a sleep that ends at the closing run loop's next turn: it
    // costs some of the bounded work, so the loop went round many times, then was left.
    let naps = try #require(transcript.lines.first.flatMap { Int($0.split(separator: " ")[0]) })
    #expect(naps > 3 + 1_000)
    #expect(naps <= 3 + AppRunLoop.closingBudget)
  }
}
