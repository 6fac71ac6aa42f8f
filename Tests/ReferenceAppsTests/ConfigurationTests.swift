import Device
import Geo
import JSON
import ReferenceApps
import SimKernel
import Testing

/// Each app's configuration is checked before anything runs; errors name the path.
@Suite struct ConfigurationTests {
  func error(_ kind: ReferenceAppKind, _ configuration: JSONValue) throws
    -> ReferenceAppConfigurationError?
  {
    let world = try World()
    do {
      _ = try kind.factory(
        variant: .asPublished, configuration: configuration, services: world.services)
      return nil
    } catch {
      return error
    }
  }

  @Test(arguments: ReferenceAppKind.allCases)
  func everyAppAcceptsTheEmptyConfigurationAndNull(_ kind: ReferenceAppKind) throws {
    #expect(try error(kind, .object([:])) == nil)
    #expect(try error(kind, .null) == nil)
  }

  @Test(arguments: ReferenceAppKind.allCases)
  func anUnknownKeyIsNamed(_ kind: ReferenceAppKind) throws {
    let e = try #require(try error(kind, .object(["colour": .string("red")])))
    #expect(e.path == "colour")
    #expect(e.message.contains("unknown key"))
  }

  @Test(arguments: ReferenceAppKind.allCases)
  func aConfigurationThatIsNotAnObjectIsRejectedAtTheRoot(_ kind: ReferenceAppKind) throws {
    let e = try #require(try error(kind, .array([])))
    #expect(e.path == "")
    #expect(e.description == "expected a JSON object, got an array")
  }

  @Test func aWrongTypeInsideANestedObjectNamesTheWholePath() throws {
    let e = try #require(
      try error(
        .arrivalAlarm,
        .object([
          "destination": .object(["latitude": .string("35.68"), "longitude": .number(139.7)])
        ])))
    #expect(e.path == "destination.latitude")
    #expect(e.message == "expected a finite number, got a string")
  }

  @Test func anUnknownKeyInsideANestedObjectNamesTheWholePath() throws {
    let e = try #require(
      try error(
        .stationFinder,
        .object([
          "region": .object([
            "latitude": .number(35), "longitude": .number(139), "latitudeDelta": .number(0.1),
            "longitudeDelta": .number(0.1), "zoom": .number(3),
          ])
        ])))
    #expect(e.path == "region.zoom")
  }

  @Test func outOfRangeAndMissingValuesAreErrors() throws {
    let region = try #require(
      try error(
        .pinDrop,
        .object([
          "region": .object([
            "latitude": .number(95), "longitude": .number(139), "latitudeDelta": .number(0.1),
            "longitudeDelta": .number(0.1),
          ])
        ])))
    #expect(region.path == "region.latitude")
    let size = try #require(
      try error(.threeWordLocator, .object(["mapSize": .object(["width": .number(100)])])))
    #expect(size.path == "mapSize.height")
    let radius = try #require(try error(.arrivalAlarm, .object(["radius": .number(-1)])))
    #expect(radius.path == "radius")
  }

  @Test func aChoiceMustBeOneOfItsValues() throws {
    let e = try #require(try error(.pinDrop, .object(["gesture": .string("swipe")])))
    #expect(e.path == "gesture")
    #expect(e.message == #"expected one of "tap", "longPress", got "swipe""#)
    let units = try #require(try error(.weatherWidget, .object(["units": .bool(true)])))
    #expect(units.path == "units")
  }

  @Test func theWeatherWidgetRefusesTheGlobalDomainAsItsSuite() throws {
    let e = try #require(
      try error(.weatherWidget, .object(["suiteName": .string("NSGlobalDomain")])))
    #expect(e.path == "suiteName")
    #expect(e.message == "NSGlobalDomain is not a suite an app can write")
    #expect(try error(.weatherWidget, .object(["suiteName": .string("group.weather")])) == nil)
  }

  @Test func theMapRegionIsConfigurable() throws {
    let world = try World()
    let center = try Coordinate(latitude: 34.7025, longitude: 135.4959)
    try world.launch(
      .stationFinder, .corrected,
      configuration: .object([
        "region": .object([
          "latitude": .number(center.latitude), "longitude": .number(center.longitude),
          "latitudeDelta": .number(0.02), "longitudeDelta": .number(0.02),
        ]),
        "mapSize": .object(["width": .number(300), "height": .number(300)]),
      ]))
    let map = try #require(world.screen.mapView)
    #expect(abs(map.centerCoordinate.latitude - center.latitude) < 1e-9)
    #expect(map.size == Size(width: 300, height: 300))
  }
}

/// The phone owns the app; the app, its map and its managers must not keep each other alive.
@Suite struct LifetimeTests {
  @Test(arguments: ReferenceAppKind.allCases)
  func aTerminatedAppIsFreed(_ kind: ReferenceAppKind) throws {
    let world = try World()
    try world.launch(kind, .asPublished)
    try world.run(until: 10)
    weak let app = world.phone.runningApp
    weak let map = world.phone.screen?.mapView
    #expect(app != nil)
    world.phone.terminateApp()
    try world.run(until: 20)
    #expect(app == nil)
    #expect(map == nil)
  }
}
