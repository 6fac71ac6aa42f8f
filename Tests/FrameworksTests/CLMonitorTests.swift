import Device
import Foundation
import Geo
import GeoSimFrameworks
import SimKernel
import Testing

/// The destination of the arrival alarm: Tokyo Station.
private let destination = CLLocationCoordinate2D(latitude: 35.681236, longitude: 139.767125)

/// A trip east at `speed` m/s from 2 km west of the destination, stopping there.
private func eastbound(speed: Double) -> (SimTime) -> Coordinate? {
  { t in
    let end = try! Coordinate(latitude: destination.latitude, longitude: destination.longitude)
    let distance = min(speed * t.seconds - 2_000, 0)
    return try? Geodesic.wgs84.direct(from: end, azimuth: 90, distance: distance).coordinate
  }
}

private let atDestination: (SimTime) -> Coordinate? = { _ in
  try? Coordinate(latitude: destination.latitude, longitude: destination.longitude)
}

private let user = UserScript(answers: [.location: [.allowWhileUsing], .notifications: [.allow]])

@Suite("CLMonitor, through the import swap")
struct CLMonitorTests {
  @Test("an app iterating monitor.events hears the first state, then the arrival, and notifies")
  func arrivalPostsANotification() throws {
    var app: ArrivalMonitor?
    let world = TestWorld(user: user, truth: eastbound(speed: 5)) {
      let made = ArrivalMonitor(destination: destination)
      app = made
      return made
    }
    try world.launchAndRun(until: 900)
    let notes = try #require(app).notes
    #expect(notes.first == "watching [\"destination\"]")
    #expect(Array(notes.dropFirst()) == ["destination unsatisfied", "destination satisfied"])
    #expect(world.entries("notifications", "delivered").count == 1)
    let delivered = world.entries("monitor", "eventDelivered").map { $0["state"] }
    #expect(delivered == [.string("unsatisfied"), .string("satisfied")])
    // The loop waits for the next event when the run ends: listed, not hidden.
    let waits = world.phone.runLoop.pendingWork.filter { $0.kind == .waiting }
    #expect(waits.map(\.label) == ["CLMonitor(\"arrivals\").events"])
  }

  @Test("a condition added while inside, assumed unsatisfied, is corrected by an event")
  func assumingIsCorrected() throws {
    var app: ArrivalMonitor?
    let world = TestWorld(user: user, truth: atDestination) {
      let made = ArrivalMonitor(destination: destination, assuming: .unsatisfied)
      app = made
      return made
    }
    try world.launchAndRun(until: 300)
    #expect(try #require(app).notes.dropFirst().first == "destination satisfied")
    #expect(world.entries("notifications", "delivered").count == 1)
  }

  @Test("a condition added while inside, assumed satisfied, gets no event")
  func assumingTheTruthIsQuiet() throws {
    var app: ArrivalMonitor?
    let world = TestWorld(user: user, truth: atDestination) {
      let made = ArrivalMonitor(destination: destination, assuming: .satisfied)
      app = made
      return made
    }
    try world.launchAndRun(until: 300)
    #expect(try #require(app).notes == ["watching [\"destination\"]"])
    #expect(world.entries("notifications", "delivered").isEmpty)
  }

  @Test("a terminated app is relaunched for the arrival and its new monitor receives it")
  func relaunchDeliversThePendingEvent() throws {
    var launches = 0
    var app: ArrivalMonitor?
    let world = TestWorld(user: user, truth: eastbound(speed: 5)) {
      launches += 1
      let made = ArrivalMonitor(destination: launches == 1 ? destination : nil)
      app = made
      return made
    }
    try world.launchAndRun(until: 60)
    world.terminate()
    try world.run(until: 900)
    #expect(launches == 2)
    let relaunched = try #require(app)
    #expect(relaunched.notes == ["watching [\"destination\"]", "destination satisfied"])
    #expect(world.entries("monitor", "eventPending").count == 1)
    #expect(world.entries("notifications", "delivered").count == 1)
    let states = world.entries("app", "state").compactMap { $0["reason"] }
    #expect(states.contains(.string("location")))
  }

  @Test("a UIKit app terminated before the arrival is launched for it with .location")
  func uikitRelaunchForTheEvent() throws {
    let world = TestWorld(
      user: user, truth: eastbound(speed: 5), delegate: { ArrivalAppDelegate() })
    try world.launchAndRun(until: 60)
    world.terminate()
    try world.run(until: 900)
    let (forLocation, notes) = world.onMainActor {
      let delegate = world.applicationHost?.delegate as? ArrivalAppDelegate
      return (delegate?.launchedForLocation, delegate?.alarm?.notes)
    }
    #expect(forLocation == true)
    #expect(notes == ["watching [\"destination\"]", "destination satisfied"])
    #expect(world.entries("notifications", "delivered").count == 1)
  }

  @Test("identifiers, record(for:) and remove(_:) read and change the phone's conditions")
  func recordsAndRemoval() throws {
    final class Bookkeeper {
      var notes: [String] = []
      init() {
        Task {
          let monitor = await CLMonitor("places")
          let home = CLMonitor.CircularGeographicCondition(center: destination, radius: 150)
          await monitor.add(home, identifier: "home", assuming: .satisfied)
          await monitor.add(home, identifier: "work")
          await monitor.remove("work")
          let identifiers = await monitor.identifiers
          self.notes.append("\(identifiers)")
          if let record = await monitor.record(for: "home"),
            let circle = record.condition as? CLMonitor.CircularGeographicCondition
          {
            self.notes.append("home \(record.lastEvent.state) \(circle.radius)")
          }
          self.notes.append("work \(await monitor.record(for: "work") == nil ? "gone" : "kept")")
        }
      }
    }
    var app: Bookkeeper?
    let world = TestWorld(user: user, truth: atDestination) {
      let made = Bookkeeper()
      app = made
      return made
    }
    try world.launchAndRun(until: 10)
    #expect(try #require(app).notes == ["[\"home\"]", "home satisfied 150.0", "work gone"])
    #expect(
      world.events("monitor").filter { $0.hasPrefix("condition") } == [
        "conditionAdded", "conditionAdded", "conditionRemoved",
      ])
  }

  @Test("a beacon condition is not simulated: its event says conditionUnsupported")
  func beaconsAreUnsupported() throws {
    final class BeaconApp {
      var notes: [String] = []
      init() {
        Task {
          let monitor = await CLMonitor("beacons")
          let uuid = UUID(uuidString: "E2C56DB5-DFFB-48D2-B060-D0F5A71096E0")!
          await monitor.add(CLMonitor.BeaconIdentityCondition(uuid: uuid), identifier: "shop")
          for try await event in await monitor.events {
            self.notes.append("\(event.identifier) \(event.state) \(event.conditionUnsupported)")
          }
        }
      }
    }
    var app: BeaconApp?
    let world = TestWorld(user: user) {
      let made = BeaconApp()
      app = made
      return made
    }
    try world.launchAndRun(until: 10)
    #expect(try #require(app).notes == ["shop unmonitored true"])
  }

  @Test("cancelling the task that iterates the events ends its loop [?]")
  func cancellingEndsTheLoop() throws {
    final class Watcher {
      var notes: [String] = []
      var task: Task<Void, Never>?
      init() {
        task = Task {
          let monitor = await CLMonitor("watch")
          do {
            for try await event in await monitor.events { self.notes.append(event.identifier) }
            self.notes.append("ended")
          } catch {
            self.notes.append("failed")
          }
        }
      }
    }
    var app: Watcher?
    let world = TestWorld(user: user) {
      let made = Watcher()
      app = made
      return made
    }
    try world.launchAndRun(until: 10)
    let watcher = try #require(app)
    #expect(world.phone.runLoop.pendingWork.map(\.label) == ["CLMonitor(\"watch\").events"])
    world.inApp { watcher.task?.cancel() }
    try world.run(until: 20)
    #expect(watcher.notes == ["ended"])
    #expect(world.phone.runLoop.pendingWork.isEmpty)
  }
}
