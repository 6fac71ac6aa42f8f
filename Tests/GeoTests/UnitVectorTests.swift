import Foundation
import Geo
import Testing

/// The unit vector of a coordinate, shared by the spatial index, the region engine and the
/// referee.
@Suite struct UnitVectorTests {
  @Test func theAxesPointAtNullIslandNinetyEastAndTheNorthPole() throws {
    let cases: [(Double, Double, UnitVector)] = [
      (0, 0, UnitVector(x: 1, y: 0, z: 0)), (0, 90, UnitVector(x: 0, y: 1, z: 0)),
      (90, 0, UnitVector(x: 0, y: 0, z: 1)), (-90, 0, UnitVector(x: 0, y: 0, z: -1)),
    ]
    for (lat, lon, expected) in cases {
      let v = unitVector(try Coordinate(latitude: lat, longitude: lon))
      #expect(abs(v.x - expected.x) < 1e-15 && abs(v.y - expected.y) < 1e-15)
      #expect(abs(v.z - expected.z) < 1e-15)
    }
  }

  @Test func chordsGiveTheGreatCircleDistance() throws {
    let a = try Coordinate(latitude: 35.681236, longitude: 139.767125)
    let b = try Coordinate(latitude: -33.8688, longitude: 151.2093)
    let (u, v) = (unitVector(a), unitVector(b))
    let chord = ((u.x - v.x) * (u.x - v.x) + (u.y - v.y) * (u.y - v.y) + (u.z - v.z) * (u.z - v.z))
      .squareRoot()
    let arc = 2 * asin(chord / 2) * Ellipsoid.wgs84MeanRadius
    let expected = greatCircleDistance(from: a, to: b, radius: Ellipsoid.wgs84MeanRadius)
    #expect(abs(arc - expected) < 1e-6)
  }
}
