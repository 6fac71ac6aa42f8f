import Device
import Foundation
import Geo
import GeoSimFrameworks
import SimKernel
import Testing

/// A day, in seconds: at home until 1800; a 2-minute drive 3 km east to work; at work until
/// 5400; a drive on to a shop; 5 minutes there; a drive on to a café, where the device stays.
private func day(_ t: SimTime) -> Coordinate? {
  let s = t.seconds
  let home = try! Coordinate(latitude: 35.681236, longitude: 139.767125)
  func east(_ metres: Double) -> Coordinate? {
    try? Geodesic.wgs84.direct(from: home, azimuth: 90, distance: metres).coordinate
  }
  switch s {
  case ..<1_800: return east(0)
  case ..<1_920: return east(25 * (s - 1_800))
  case ..<5_400: return east(3_000)
  case ..<5_520: return east(3_000 + 25 * (s - 5_400))
  case ..<5_820: return east(6_000)
  case ..<5_940: return east(6_000 + 25 * (s - 5_820))
  default: return east(9_000)
  }
}

@Suite("Significant location changes and visits through CLLocationManager")
struct BackgroundLocationTests {
  /// A world running a ``PlaceDiary`` on a phone with Always permission, following `day`.
  static func world() -> TestWorld {
    let start = Date(timeIntervalSince1970: 1_775_001_600)
    let world = TestWorld(truth: day) { PlaceDiary(start: start) }
    world.phone.setLocationSetting(.always)
    return world
  }

  static func diary(_ world: TestWorld) throws -> PlaceDiary {
    try #require(world.host?.app as? PlaceDiary)
  }

  static func changeTimes(_ diary: PlaceDiary, _ world: TestWorld) -> [Int] {
    diary.changes.map { Int($0.timestamp.timeIntervalSince(world.simulation.epoch)) }
  }

  @Test(
    "the delegate hears the coarse position every 500 m, at most every 5 minutes, and the visits")
  func aDay() throws {
    let world = Self.world()
    try world.launchAndRun(until: 8_000)
    let diary = try Self.diary(world)
    #expect(Self.changeTimes(diary, world) == [0, 1_860, 2_160, 5_460, 5_760, 6_060])
    #expect(diary.changes.allSatisfy { $0.horizontalAccuracy == 100 })
    #expect(
      diary.notes.filter { !$0.hasPrefix("moved") } == [
        "stayed ?–1800", "arrived at 1920", "stayed 1920–5400", "arrived at 5940",
      ])
    let home = try #require(diary.visits.first)
    #expect(home.arrivalDate == Date.distantPast)
    let arrival = diary.visits[1]
    #expect(arrival.departureDate == Date.distantFuture)
    #expect(arrival.horizontalAccuracy == 100)
    let work = try #require(day(.seconds(3_000)))
    let reported = CLLocation(
      latitude: arrival.coordinate.latitude, longitude: arrival.coordinate.longitude)
    #expect(
      reported.distance(from: CLLocation(latitude: work.latitude, longitude: work.longitude)) < 0.01
    )
    #expect(world.entries("visit", "didVisit").count == 4)
    #expect(world.entries("location", "significantChange").count == 5)
  }

  @Test("a terminated app is relaunched for a change, starts both again, and hears what follows")
  func relaunch() throws {
    let world = Self.world()
    try world.launchAndRun(until: 3_000)
    world.terminate()
    try world.run(until: 8_000)
    let diary = try Self.diary(world)
    let launches = world.entries("app", "state").compactMap { entry in
      entry.fields.first { $0.name == "reason" && $0.value != .null }?.value
    }
    #expect(launches == [.string("user"), .string("location")])
    // Relaunched by the change at 5460 s, which its manager hears once it starts the service.
    #expect(Self.changeTimes(diary, world) == [5_460, 5_760, 6_060])
    #expect(
      diary.notes.filter { !$0.hasPrefix("moved") } == ["stayed 1920–5400", "arrived at 5940"])
    #expect(CLLocationManager.significantLocationChangeMonitoringAvailable())
  }
}
