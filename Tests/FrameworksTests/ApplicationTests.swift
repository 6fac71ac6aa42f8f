import Device
import Foundation
import Geo
import SimKernel
import Testing

@testable import GeoSimFrameworks

@Suite("a UIKit app delegate runs as the phone's app")
struct ApplicationTests {
  static let answers = UserScript(answers: [
    .location: [.allowWhileUsing], .alwaysUpgrade: [.changeToAlways],
  ])
  static let home = try! Coordinate(latitude: 35.681236, longitude: 139.767125)

  /// 2 km west of home until `arrival` seconds, at home from then on.
  static func arriving(at arrival: Double) -> (SimTime) -> Coordinate? {
    { time in
      time.seconds < arrival
        ? try? Geodesic.wgs84.direct(from: home, azimuth: 270, distance: 2_000).coordinate
        : home
    }
  }

  func world(truth: @escaping (SimTime) -> Coordinate? = { _ in ApplicationTests.home })
    -> TestWorld
  {
    TestWorld(user: Self.answers, truth: truth, delegate: { AppDelegate() })
  }

  /// The running app's delegate.
  func delegate(of world: TestWorld) throws -> AppDelegate {
    try #require(world.applicationHost?.delegate as? AppDelegate)
  }

  func notes(_ delegate: AppDelegate, in world: TestWorld) -> [String] {
    world.onMainActor { delegate.notes }
  }

  @Test("the user's launch: launch callbacks while inactive, no options, then active")
  func userLaunch() throws {
    let world = world()
    try world.launchAndRun(until: 1)
    let delegate = try delegate(of: world)
    #expect(
      notes(delegate, in: world) == [
        "willFinishLaunching inactive", "didFinishLaunching inactive", "didBecomeActive active",
      ])
    #expect(world.onMainActor { delegate.launchedWithOptions } == false)
    #expect(world.onMainActor { UIApplication.shared.delegate === delegate })
    #expect(world.onMainActor { UIApplication.shared.applicationState } == .active)
  }

  @Test("leaving and returning: resign, background; foreground, active — in that order")
  func backgroundAndForeground() throws {
    let world = world()
    try world.launchAndRun(until: 10)
    world.phone.sendAppToBackground()
    #expect(world.onMainActor { UIApplication.shared.applicationState } == .background)
    try world.run(until: 60)
    #expect(world.phone.appState == .suspended)
    world.phone.bringAppToForeground()
    let delegate = try delegate(of: world)
    #expect(
      notes(delegate, in: world).dropFirst(3) == [
        "willResignActive active", "didEnterBackground background",
        "willEnterForeground inactive", "didBecomeActive active",
      ])
    #expect(world.onMainActor { UIApplication.shared.applicationState } == .active)
  }

  @Test("terminated in the foreground it hears resign, background, terminate; suspended, nothing")
  func termination() throws {
    let world = world()
    try world.launchAndRun(until: 10)
    let first = try delegate(of: world)
    world.phone.terminateApp()
    #expect(
      notes(first, in: world).dropFirst(3) == [
        "willResignActive active", "didEnterBackground background", "willTerminate background",
      ])
    #expect(world.applicationHost == nil)

    try world.phone.makeCurrent { try world.phone.launchApp() }
    let second = try delegate(of: world)
    #expect(second !== first)
    world.phone.sendAppToBackground()
    try world.run(until: 60)
    world.phone.terminateApp()
    #expect(notes(second, in: world).last == "didEnterBackground background")
  }

  @Test("a region relaunch: launch options hold .location as true, then background, then the event")
  func regionRelaunch() throws {
    let world = world(truth: Self.arriving(at: 600))
    try world.launchAndRun(until: 60)
    let first = try delegate(of: world)
    #expect(world.onMainActor { first.locationManager.monitoredRegions.count } == 1)
    world.phone.terminateApp()
    try world.run(until: 3_600)
    let relaunched = try delegate(of: world)
    #expect(relaunched !== first)
    #expect(world.onMainActor { relaunched.launchedForLocation })
    #expect(
      notes(relaunched, in: world) == [
        "willFinishLaunching background", "didFinishLaunching background",
        "didEnterBackground background", "didEnterRegion home background",
      ])
    let reasons = world.simulation.log.entries(source: "app", event: "state").compactMap {
      $0["reason"]
    }
    #expect(reasons.filter { $0 != .null } == [.string("user"), .string("location")])
  }

  @Test("a suspended app woken for a region event hears didEnterBackground before the event")
  func regionWake() throws {
    let world = world(truth: Self.arriving(at: 600))
    try world.launchAndRun(until: 60)
    world.phone.sendAppToBackground()
    try world.run(until: 120)
    #expect(world.phone.appState == .suspended)
    try world.run(until: 3_600)
    let delegate = try delegate(of: world)
    #expect(
      notes(delegate, in: world).suffix(3) == [
        "didEnterBackground background", "didEnterBackground background",
        "didEnterRegion home background",
      ])
  }

  @Test("the map the app creates is on screen: the timeline's touches move it")
  func mapOnScreen() throws {
    let world = world()
    try world.launchAndRun(until: 30)
    let delegate = try delegate(of: world)
    let screenMap = try #require(world.phone.screen?.mapView)
    #expect(screenMap === world.onMainActor { UncheckedBox(delegate.mapView.map) }.value)
    let before = world.onMainActor { delegate.mapView.centerCoordinate.longitude }
    try screenMap.replay(
      Touches.drag(
        along: [Point(x: 100, y: 400), Point(x: 300, y: 400)], time: world.simulation.now,
        duration: .seconds(0.5)))
    try world.run(until: 31)
    let after = world.onMainActor { delegate.mapView.centerCoordinate.longitude }
    #expect(after < before - 1e-4)
  }

  @Test("the first fix centres the map on a region 1 km across and drops a pin the screen reports")
  func firstFix() throws {
    let world = world()
    try world.launchAndRun(until: 30)
    let delegate = try delegate(of: world)
    let region = world.onMainActor { delegate.mapView.region }
    #expect(abs(region.center.latitude - Self.home.latitude) < 1e-9)
    // 1 km across fills the 390-point width; the taller side shows more.
    let expected = MKCoordinateRegion(
      center: region.center, latitudinalMeters: 1_000, longitudinalMeters: 1_000)
    #expect(abs(region.span.longitudeDelta - expected.span.longitudeDelta) < 1e-9)
    #expect(region.span.latitudeDelta > expected.span.latitudeDelta)
    let state = try #require(world.phone.screen?.observableState)
    guard case .object(let screen) = state else {
      Issue.record("the screen's state is not an object: \(state)")
      return
    }
    #expect(screen["applicationState"] == .string("active"))
    #expect(screen["userLocationShown"] == .bool(true))
    guard case .array(let markers)? = screen["markers"], case .object(let pin)? = markers.first
    else {
      Issue.record("no markers on screen: \(state)")
      return
    }
    #expect(markers.count == 1)
    #expect(pin["title"] == .string("First fix"))
    #expect(pin["latitude"] == .number(Self.home.latitude))
    // The user's dot stands at the phone's last fix.
    let dot = world.onMainActor { delegate.mapView.userLocation.coordinate }
    #expect(abs(dot.latitude - Self.home.latitude) < 1e-9)
  }
}

/// Carries a value out of main-actor code for a check; the test and the app share one thread.
struct UncheckedBox<T>: @unchecked Sendable {
  let value: T
  init(_ value: T) { self.value = value }
}
