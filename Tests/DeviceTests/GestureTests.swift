import Device
import Foundation
import Geo
import SimKernel
import Testing

/// Records each target call: the virtual time, the state and the location.
final class GestureLog {
  var calls: [(time: SimTime, state: GestureRecognizer.State, point: Point)] = []
  let simulation: Simulation
  init(_ simulation: Simulation) { self.simulation = simulation }
  func record(_ r: GestureRecognizer) {
    calls.append((simulation.now, r.state, r.location(in: r.view)))
  }
  var states: [GestureRecognizer.State] { calls.map(\.state) }
}

let mapCentre = Point(x: 195, y: 422)

@Suite struct LongPressTests {
  func press(for seconds: Double) throws -> (GestureLog, LongPressGestureRecognizer) {
    let (phone, map) = try makeMap()
    let log = GestureLog(phone.simulation)
    let press = LongPressGestureRecognizer(log.record)
    map.addGestureRecognizer(press)
    try map.replay(
      Touches.longPress(at: mapCentre, time: .seconds(1), duration: .seconds(seconds)))
    try phone.simulation.run()
    return (log, press)
  }

  @Test func holdingFor0_51SecondsBeginsExactlyHalfASecondAfterTouchDown() throws {
    let (log, press) = try press(for: 0.51)
    #expect(log.states == [.began, .ended])
    #expect(log.calls.map(\.time) == [.seconds(1.5), .seconds(1.51)])
    #expect(log.calls[0].point == mapCentre)
    #expect(press.state == .possible, "reset once the finger lifted")
    #expect(
      GestureRecognizer.State.began.rawValue == 1 && GestureRecognizer.State.failed.rawValue == 5)
  }

  @Test func liftingAt0_49SecondsFailsWithoutCallingTheTarget() throws {
    let (log, _) = try press(for: 0.49)
    #expect(log.calls.isEmpty)
  }

  func drift(_ distance: Double) throws -> (GestureLog, Phone, MapView, Coordinate) {
    let (phone, map) = try makeMap()
    let log = GestureLog(phone.simulation)
    map.addGestureRecognizer(LongPressGestureRecognizer(log.record))
    let before = map.centerCoordinate
    let path = [mapCentre, Point(x: mapCentre.x + distance, y: mapCentre.y)]
    try map.replay(
      Touches.drag(along: path, time: .zero, duration: .seconds(0.2), hold: .seconds(0.6)))
    try phone.simulation.run()
    return (log, phone, map, before)
  }

  @Test func movingNinePointsBeforeHalfASecondStillBeginsAndTheMapStays() throws {
    let (log, _, map, before) = try drift(9)
    #expect(log.states.first == .began && log.states.last == .ended)
    #expect(log.calls.first?.time == .seconds(0.5))
    #expect(map.centerCoordinate == before)
  }

  @Test func movingElevenPointsBeforeHalfASecondFailsTheLongPressAndPansTheMap() throws {
    let (log, phone, map, before) = try drift(11)
    #expect(log.calls.isEmpty)
    #expect(map.centerCoordinate.longitude < before.longitude, "finger right, map west")
    let failed = phone.simulation.log.entries(source: "gesture", event: "failed")
    #expect(failed.contains { $0["recognizer"] == .string("longPress") })
  }

  @Test func afterItBeginsMovementIsChangedNotFailure() throws {
    let (phone, map) = try makeMap()
    let log = GestureLog(phone.simulation)
    map.addGestureRecognizer(LongPressGestureRecognizer(log.record))
    let before = map.centerCoordinate
    try map.replay(
      Touches.drag(
        along: [mapCentre, Point(x: 295, y: 422)], time: .seconds(0.6), duration: .seconds(0.3)
      )
      .enumerated().map { i, s in
        var s = s
        if i == 0 { s.time = .zero }
        return s
      })
    try phone.simulation.run()
    #expect(
      log.states.first == .began && log.states.contains(.changed) && log.states.last == .ended)
    #expect(log.calls.last?.point == Point(x: 295, y: 422))
    #expect(map.centerCoordinate == before, "the began long press excludes the map's pan")
  }
}

@Suite struct TapTests {
  func taps(_ samples: [TouchSample], waitForDoubleTap: Bool) throws -> (GestureLog, MapView) {
    let (phone, map) = try makeMap()
    let log = GestureLog(phone.simulation)
    let tap = TapGestureRecognizer(log.record)
    if waitForDoubleTap { tap.require(toFail: map.doubleTapGestureRecognizer) }
    map.addGestureRecognizer(tap)
    try map.replay(samples)
    try phone.simulation.run()
    return (log, map)
  }

  @Test func aSingleTapThatDoesNotWaitFiresAtOnceAndAlsoOnADoubleTapWhichZooms() throws {
    let (single, _) = try taps(Touches.tap(at: mapCentre, time: .zero), waitForDoubleTap: false)
    #expect(single.calls.map(\.time) == [.seconds(0.1)])
    #expect(single.states == [.recognized])

    let (double, map) = try taps(
      Touches.doubleTap(at: mapCentre, time: .zero), waitForDoubleTap: false)
    #expect(double.calls.map(\.time) == [.seconds(0.1)], "once, on the first tap")
    let expected = 0.065 / 360 * MapPoint.worldSize / 390 / 2
    #expect(abs(map.camera.mapPointsPerPoint - expected) < 1e-9, "the double tap zoomed in")
  }

  @Test func aSingleTapThatRequiresTheDoubleTapToFailWaitsForItAndSkipsDoubleTaps() throws {
    let (single, _) = try taps(Touches.tap(at: mapCentre, time: .zero), waitForDoubleTap: true)
    #expect(single.calls.map(\.time) == [.seconds(0.45)], "0.1 s tap + 0.35 s wait")
    #expect(single.calls.first?.point == mapCentre)

    let (double, map) = try taps(
      Touches.doubleTap(at: mapCentre, time: .zero), waitForDoubleTap: true)
    #expect(double.calls.isEmpty)
    #expect(map.camera.zoomLevel > 13)
  }

  @Test func twoTapsFurtherApartThanTheIntervalAreTwoSingleTaps() throws {
    let samples =
      try Touches.tap(at: mapCentre, time: .zero) + Touches.tap(at: mapCentre, time: .seconds(1))
    let (log, map) = try taps(samples, waitForDoubleTap: true)
    #expect(log.calls.map(\.time) == [.seconds(0.45), .seconds(1.45)])
    let unzoomed: Double = 0.065 / 360 * MapPoint.worldSize / 390
    #expect(abs(map.camera.mapPointsPerPoint - unzoomed) < 1e-9, "no double-tap zoom")
  }

  @Test func aPanThenATapLandsOnTheMovedMap() throws {
    let (phone, map) = try makeMap()
    var coordinates: [Coordinate] = []
    map.addGestureRecognizer(
      TapGestureRecognizer { [unowned map] r in
        coordinates.append(try! map.convert(r.location(in: map)))
      })
    let grabbed = try map.convert(mapCentre)
    let left = Point(x: 95, y: 422)
    try map.replay(Touches.drag(along: [mapCentre, left], time: .zero, duration: .seconds(0.3)))
    try map.replay(Touches.tap(at: left, time: .seconds(1)))
    try phone.simulation.run()
    #expect(coordinates.count == 1)
    #expect(abs(coordinates[0].latitude - grabbed.latitude) < 1e-9)
    #expect(abs(coordinates[0].longitude - grabbed.longitude) < 1e-9)
    #expect(map.centerCoordinate.longitude > grabbed.longitude, "the map moved east under the view")
  }
}

@Suite struct PinchTests {
  @Test func spreadingTwoFingersToTwiceTheirDistanceZoomsInTwofold() throws {
    let (phone, map) = try makeMap()
    let before = map.camera.mapPointsPerPoint
    try map.replay(
      Touches.pinch(center: mapCentre, scale: 2, time: .zero, duration: .seconds(0.3)))
    try phone.simulation.run()
    #expect(abs(map.camera.mapPointsPerPoint - before / 2) < 1e-9)
    #expect(abs(map.centerCoordinate.latitude - tokyoStation.latitude) < 1e-9)
  }
}

@Suite struct TouchStreamValidationTests {
  func rejects(_ samples: [TouchSample], _ message: String) throws {
    let (phone, map) = try makeMap()
    let error = #expect(throws: DeviceError.self) { try map.replay(samples) }
    #expect(error?.message.contains(message) == true, "\(error?.message ?? "")")
    #expect(phone.simulation.pendingEventCount == 0, "nothing of a bad stream is scheduled")
  }

  @Test func touchesOutOfOrderInTimeAreRejectedNamingTheTouch() throws {
    try rejects(
      [
        TouchSample(phase: .began, point: mapCentre, time: .seconds(1)),
        TouchSample(phase: .ended, point: mapCentre, time: .seconds(0.5)),
      ], "touch 1 (ended of finger 0")
  }

  @Test func aTouchDownOutsideTheViewIsRejected() throws {
    try rejects(
      [TouchSample(phase: .began, point: Point(x: 400, y: 10), time: .zero)], "outside the view")
  }

  @Test func movingAFingerThatIsNotDownIsRejected() throws {
    try rejects(
      [TouchSample(finger: 2, phase: .moved, point: mapCentre, time: .zero)],
      "finger 2 moves without touching down first")
  }

  @Test func negativeDurationsAreRejected() throws {
    #expect(throws: DeviceError.self) {
      try Touches.longPress(at: mapCentre, time: .zero, duration: .seconds(-0.5))
    }
    #expect(throws: DeviceError.self) {
      try Touches.drag(along: [mapCentre], time: .zero, duration: .seconds(-1))
    }
  }
}
