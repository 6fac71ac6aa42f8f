import Device
import Geo
import SimKernel
import Testing

@Suite struct SensorEnvironmentTests {
  let context = GEOSContext()
  let tokyo = try! Coordinate(latitude: 35.681236, longitude: 139.767125)

  func circle(_ center: Coordinate, _ radius: Double) throws -> Geometry {
    try GeographicShapes.circle(center: center, radiusMeters: radius, context: context)
  }

  func box(_ west: Double, _ south: Double, _ east: Double, _ north: Double) throws -> Geometry {
    .polygon(
      try Polygon(rings: [
        [
          Position(x: west, y: south), Position(x: east, y: south), Position(x: east, y: north),
          Position(x: west, y: north), Position(x: west, y: south),
        ]
      ]))
  }

  func point(_ distance: Double, from center: Coordinate, azimuth: Double = 40) throws
    -> Coordinate
  {
    try Geodesic.wgs84.direct(from: center, azimuth: azimuth, distance: distance).coordinate
  }

  @Test func withoutAreasEverywhereIsOpenSky() throws {
    let environment = try SensorEnvironment(areas: [], context: context)
    #expect(environment.kind(at: tokyo) == .openSky)
  }

  @Test func outageWinsOverIndoorWhichWinsOverUrbanCanyon() throws {
    let nested: [(kind: EnvironmentKind, polygon: Geometry)] = [
      (.urbanCanyon, try circle(tokyo, 1_000)), (.outage, try circle(tokyo, 100)),
      (.indoor, try circle(tokyo, 300)),
    ]
    for areas in [nested, nested.reversed()] {
      let environment = try SensorEnvironment(areas: areas, context: context)
      #expect(environment.kind(at: tokyo) == .outage)
      #expect(environment.kind(at: try point(200, from: tokyo)) == .indoor)
      #expect(environment.kind(at: try point(600, from: tokyo)) == .urbanCanyon)
      #expect(environment.kind(at: try point(1_200, from: tokyo)) == .openSky)
    }
  }

  @Test func aHoleIsOpenSky() throws {
    let ring = { (w: Double, s: Double, e: Double, n: Double) in
      [
        Position(x: w, y: s), Position(x: e, y: s), Position(x: e, y: n), Position(x: w, y: n),
        Position(x: w, y: s),
      ]
    }
    let station = Geometry.polygon(
      try Polygon(rings: [ring(139.0, 35.0, 139.2, 35.2), ring(139.05, 35.05, 139.15, 35.15)]))
    let environment = try SensorEnvironment(areas: [(.indoor, station)], context: context)
    #expect(environment.kind(at: try Coordinate(latitude: 35.1, longitude: 139.1)) == .openSky)
    #expect(environment.kind(at: try Coordinate(latitude: 35.02, longitude: 139.1)) == .indoor)
  }

  @Test func anAreaSplitAtTheAntimeridianCoversBothSides() throws {
    let fiji = try Coordinate(latitude: -16.8, longitude: 179.99)
    let area = try circle(fiji, 5_000)
    guard case .multiPolygon = area else {
      Issue.record("expected the circle to be split at the antimeridian")
      return
    }
    let environment = try SensorEnvironment(areas: [(.urbanCanyon, area)], context: context)
    #expect(environment.kind(at: try point(3_000, from: fiji, azimuth: 90)) == .urbanCanyon)
    #expect(environment.kind(at: try point(3_000, from: fiji, azimuth: 270)) == .urbanCanyon)
    #expect(environment.kind(at: try Coordinate(latitude: -16.8, longitude: 0)) == .openSky)
  }

  @Test func lookupsAgreeWithTestingEveryPolygonDirectly() throws {
    // A city-wide canyon (so whole grid cells are covered), buildings and tunnels scattered over
    // it and beyond, and points thrown at random: the grid must never change an answer.
    var random = RandomStream(seed: 7)
    var areas: [(kind: EnvironmentKind, polygon: Geometry)] = [
      (.urbanCanyon, try box(139.70, 35.65, 139.80, 35.72))
    ]
    for index in 0..<60 {
      let center = try Coordinate(
        latitude: random.uniform(35.60, 35.76), longitude: random.uniform(139.65, 139.85))
      let kind: EnvironmentKind = index % 3 == 0 ? .outage : index % 3 == 1 ? .indoor : .urbanCanyon
      areas.append((kind, try circle(center, random.uniform(50, 1_500))))
    }
    let environment = try SensorEnvironment(areas: areas, context: context)
    let prepared = try areas.map { try PreparedGeometry($0.polygon, context: context) }
    for _ in 0..<4_000 {
      let point = try Coordinate(
        latitude: random.uniform(35.58, 35.78), longitude: random.uniform(139.63, 139.87))
      var expected = EnvironmentKind.openSky
      for (area, polygon) in zip(areas, prepared) where try polygon.covers(Position(point)) {
        expected = max(expected, area.kind)
      }
      #expect(environment.kind(at: point) == expected)
    }
  }

  @Test func anAreaThatIsNotAPolygonIsRejectedNamingIt() throws {
    let line = Geometry.lineString(
      try LineString([Position(x: 139, y: 35), Position(x: 139.1, y: 35.1)]))
    let areas: [(kind: EnvironmentKind, polygon: Geometry)] = [
      (.indoor, try circle(tokyo, 100)), (.outage, line),
    ]
    let error = try #require(throws: DeviceError.self) {
      try SensorEnvironment(areas: areas, context: context)
    }
    #expect(error.code == .invalidArgument)
    #expect(error.message.contains("area 1"))
  }

  @Test func aSelfIntersectingPolygonIsRejected() throws {
    let bowtie = Geometry.polygon(
      try Polygon(rings: [
        [
          Position(x: 0, y: 0), Position(x: 1, y: 1), Position(x: 1, y: 0), Position(x: 0, y: 1),
          Position(x: 0, y: 0),
        ]
      ]))
    let error = try #require(throws: DeviceError.self) {
      try SensorEnvironment(areas: [(.indoor, bowtie)], context: context)
    }
    #expect(error.message.contains("area 0 is not a valid polygon"))
  }

  @Test func anOpenSkyAreaIsRejectedBecauseItWouldMeanNothing() throws {
    #expect(throws: DeviceError.self) {
      try SensorEnvironment(areas: [(.openSky, try box(0, 0, 1, 1))], context: context)
    }
  }
}
