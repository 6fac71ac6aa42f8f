import Foundation
import SimKernel
import Testing

@testable import Geo

@Suite struct WebMercatorTests {
  private let w = MapPoint.worldSize

  @Test func coordinatesSurviveARoundTripThroughMapPointsToWithinANanodegree() throws {
    var random = SplitMix64(seed: 3857)
    for _ in 0..<10_000 {
      let c = try Coordinate(
        latitude: random.uniform(-85, 85), longitude: random.uniform(-180, 180))
      let back = try WebMercator.coordinate(of: MapPoint(c))
      #expect(abs(back.latitude - c.latitude) < 1e-9)
      #expect(
        abs(back.longitude - c.longitude) < 1e-9
          || abs(abs(back.longitude - c.longitude) - 360) < 1e-9)
    }
  }

  @Test func coordinatesSurviveARoundTripThroughMetresToWithinANanodegree() throws {
    var random = SplitMix64(seed: 900_913)
    for _ in 0..<10_000 {
      let c = try Coordinate(
        latitude: random.uniform(-85, 85), longitude: random.uniform(-180, 180))
      let back = try WebMercator.coordinate(of: WebMercator.position(of: c))
      #expect(abs(back.latitude - c.latitude) < 1e-9)
      #expect(
        abs(back.longitude - c.longitude) < 1e-9
          || abs(abs(back.longitude - c.longitude) - 360) < 1e-9)
    }
  }

  @Test func nullIslandIsTheCentreOfTheMap() throws {
    let origin = try Coordinate(latitude: 0, longitude: 0)
    #expect(MapPoint(origin) == MapPoint(x: w / 2, y: w / 2))
    #expect(WebMercator.position(of: origin) == Position(x: 0, y: 0))
    #expect(try WebMercator.coordinate(of: MapPoint(x: w / 2, y: w / 2)) == origin)
  }

  @Test func knownProjectedValues() throws {
    // EPSG:3857 bounds are ±20,037,508.342789244 m, reached at ±180° and the latitude limit.
    let halfWorld = 20_037_508.342_789_244
    let corner = try Coordinate(latitude: WebMercator.maximumLatitude, longitude: -180)
    let p = WebMercator.position(of: corner)
    #expect(abs(p.x + halfWorld) < 1e-6 && abs(p.y - halfWorld) < 1e-6)
    // y = R asinh(tan 45°) = R asinh(1) at 45°N.
    let fortyFive = WebMercator.position(of: try Coordinate(latitude: 45, longitude: 90))
    #expect(abs(fortyFive.y - 5_621_521.486_192_066) < 1e-6)
    #expect(abs(fortyFive.x - halfWorld / 2) < 1e-6)
    // Map points: x runs east from the antimeridian, y south from the top.
    let greenwich = MapPoint(try Coordinate(latitude: 51.4779, longitude: -0.0015))
    #expect(greenwich.x < w / 2 && greenwich.y < w / 2)
    let quarter = MapPoint(try Coordinate(latitude: -45, longitude: -90))
    #expect(abs(quarter.x - w / 4) < 1e-9)
    #expect(abs(quarter.y - (0.5 + 5_621_521.486_192_066 / (2 * halfWorld)) * w) < 1e-6)
  }

  @Test func latitudesBeyondTheMercatorLimitAreClampedOntoTheMapEdges() throws {
    #expect(MapPoint(try Coordinate(latitude: 90, longitude: 10)).y == 0)
    #expect(MapPoint(try Coordinate(latitude: -90, longitude: 10)).y == w)
    #expect(MapPoint(try Coordinate(latitude: 86, longitude: 10)).y == 0)
    let top = try WebMercator.coordinate(of: MapPoint(x: 0, y: 0))
    #expect(abs(top.latitude - 85.051_128_78) < 1e-8 && top.longitude == -180)
    let pole = WebMercator.position(of: try Coordinate(latitude: -90, longitude: 0))
    #expect(abs(pole.y + 20_037_508.342_789_244) < 1e-6)
  }

  @Test func metersPerMapPointMatchesTheEquatorialCircumference() {
    #expect(abs(WebMercator.metersPerMapPoint(atLatitude: 0) - 40_075_016.686 / w) < 1e-9)
    #expect(abs(WebMercator.metersPerMapPoint(atLatitude: 0) - 0.1493) < 1e-4)
    #expect(abs(WebMercator.metersPerMapPoint(atLatitude: 60) - 40_075_016.686 / w / 2) < 1e-9)
    #expect(abs(WebMercator.mapPointsPerMeter(atLatitude: 0) - w / 40_075_016.686) < 1e-9)
  }

  @Test(arguments: [(1.25, -90.0), (-0.25, 90), (3.5, 0), (1, -180), (-1, -180)])
  func mapPointXWrapsAroundTheWorld(worlds: Double, longitude: Double) throws {
    let c = try WebMercator.coordinate(of: MapPoint(x: worlds * w, y: w / 2))
    #expect(abs(c.longitude - longitude) < 1e-9 && c.latitude == 0)
  }

  @Test(arguments: [(0.0, -1.0), (0, 268_435_456.5), (0, .nan), (.nan, 0), (.infinity, 0)])
  func mapPointsOffTheMapThrow(x: Double, y: Double) {
    let error = #expect(throws: GeoError.self) {
      try WebMercator.coordinate(of: MapPoint(x: x, y: y))
    }
    #expect(error?.code == .invalidArgument)
  }

  @Test func nonFinitePositionsThrow() {
    #expect(throws: GeoError.self) { try WebMercator.coordinate(of: Position(x: .nan, y: 0)) }
    #expect(throws: GeoError.self) { try WebMercator.coordinate(of: Position(x: 0, y: .infinity)) }
  }
}
