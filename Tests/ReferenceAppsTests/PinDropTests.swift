import Device
import Geo
import JSON
import ReferenceApps
import SimKernel
import Testing

/// Article 002: a tap or a long press puts one pin and reverse-geocodes it into a Japanese
/// address string.
@Suite struct PinDropTests {
  let marunouchi = try! Coordinate(latitude: 35.68, longitude: 139.76)
  let marunouchi2 = try! Coordinate(latitude: 35.68, longitude: 139.77)

  func launch(_ variant: ReferenceAppVariant, _ configuration: JSONValue = .object([:])) throws
    -> World
  {
    let world = try World()
    try world.launch(.pinDrop, variant, configuration: configuration)
    return world
  }

  func longPress(_ world: World, at coordinate: Coordinate, time: Double) throws {
    let map = world.screen.mapView!
    try map.replay(
      Touches.longPress(at: map.convert(coordinate), time: .seconds(time), duration: .seconds(0.8)))
  }

  @Test(arguments: ReferenceAppKind.pinDrop.variants)
  func aTapPutsOnePinAndLooksNoAddressUpAsTheArticlesTapListing(_ variant: ReferenceAppVariant)
    throws
  {
    let world = try launch(variant, .object(["gesture": .string("tap")]))
    try world.tapMap(at: marunouchi, time: 1)
    try world.run(until: 3)
    #expect(world.state["pin"]?["title"] == .string("ポイント"))
    try world.tapMap(at: marunouchi2, time: 4)
    try world.run(until: 6)
    #expect(world.state["annotations"]?.array?.count == 1)
    #expect(pinLongitude(world).map { abs($0 - 139.77) < 1e-9 } == true)
    // The tap listing has no geocoder: nothing is looked up and no address is shown.
    #expect(world.simulation.log.entries(source: "geocoder", event: "request").isEmpty)
    #expect(world.state["address"] == .string(""))
  }

  func pinLongitude(_ world: World) -> Double? {
    guard case .number(let longitude) = world.state["pin"]?["longitude"] else { return nil }
    return longitude
  }

  func doubleTap(_ world: World, at coordinate: Coordinate, time: Double) throws {
    let map = world.screen.mapView!
    try map.replay(Touches.doubleTap(at: map.convert(coordinate), time: .seconds(time)))
  }

  @Test func asPublishedADoubleTapToZoomAlsoMovesThePin() throws {
    let world = try launch(.asPublished, .object(["gesture": .string("tap")]))
    try world.tapMap(at: marunouchi, time: 1)
    try doubleTap(world, at: marunouchi2, time: 3)
    try world.run(until: 6)
    #expect(pinLongitude(world).map { abs($0 - 139.77) < 1e-9 } == true)
    #expect(world.state["annotations"]?.array?.count == 1)
  }

  @Test func correctedADoubleTapZoomsAndLeavesThePin() throws {
    let world = try launch(.corrected, .object(["gesture": .string("tap")]))
    try world.tapMap(at: marunouchi, time: 1)
    try doubleTap(world, at: marunouchi2, time: 3)
    try world.run(until: 6)
    #expect(pinLongitude(world).map { abs($0 - 139.76) < 1e-9 } == true)
    #expect(world.appEvents("pin").count == 1)
  }

  @Test func asPublishedALongPressActsAtEveryStateAndCancelsItsOwnLookup() throws {
    let world = try launch(.asPublished)
    try longPress(world, at: marunouchi, time: 1)
    try world.run(until: 4)
    // began at 1.5 s, ended at 1.8 s: two pins in turn, two lookups, the first cancelled.
    #expect(world.appEvents("gesture").map { $0["state"] } == [.string("began"), .string("ended")])
    #expect(world.simulation.log.entries(source: "geocoder", event: "request").count == 2)
    let failure = try #require(
      world.simulation.log.entries(source: "geocoder", event: "failure").first)
    #expect(failure["error"] == .string("geocodeCanceled"))
    #expect(world.state["address"] == .string("東京都千代田区丸の内１丁目"))
    #expect(world.state["annotations"]?.array?.count == 1)
  }

  @Test func correctedALongPressActsOnceWhenItBegins() throws {
    let world = try launch(.corrected)
    try longPress(world, at: marunouchi, time: 1)
    try world.run(until: 4)
    #expect(world.appEvents("gesture").map { $0["state"] } == [.string("began")])
    #expect(world.simulation.log.entries(source: "geocoder", event: "request").count == 1)
    #expect(world.simulation.log.entries(source: "geocoder", event: "failure").isEmpty)
    #expect(world.state["address"] == .string("東京都千代田区丸の内１丁目"))
  }

  @Test(arguments: ReferenceAppKind.pinDrop.variants)
  func withTheBlueDotOnButLocationNeverAskedForNoDotShowsAndPinsReplaceEachOther(
    _ variant: ReferenceAppVariant
  ) throws {
    // The article asks for no location permission, so the map cannot locate the user.
    let world = try launch(variant, .object(["showsUserLocation": .bool(true)]))
    try longPress(world, at: marunouchi, time: 1)
    try longPress(world, at: marunouchi2, time: 3)
    try world.run(until: 6)
    #expect(world.state["userLocationShown"] == .bool(false))
    #expect(world.state["annotations"]?.array?.count == 1)
    #expect(!world.appEvents("pin").contains { $0["removed"] == .string("userLocation") })
  }

  @Test func asPublishedAFailedLookupLeavesThePreviousAddress() throws {
    let world = try launch(.asPublished)
    try longPress(world, at: marunouchi, time: 1)
    // Out at sea, south of the gazetteer's areas.
    try longPress(world, at: try Coordinate(latitude: 35.64, longitude: 139.77), time: 3)
    try world.run(until: 5)
    #expect(world.state["address"] == .string("東京都千代田区丸の内１丁目"))
  }

  @Test func correctedAFailedLookupShowsNoAddress() throws {
    let world = try launch(.corrected)
    try longPress(world, at: marunouchi, time: 1)
    try longPress(world, at: try Coordinate(latitude: 35.64, longitude: 139.77), time: 3)
    try world.run(until: 5)
    #expect(world.state["address"] == .string(""))
  }
}
