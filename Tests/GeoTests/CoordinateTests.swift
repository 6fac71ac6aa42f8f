import Foundation
import Testing

@testable import Geo

@Suite struct CoordinateTests {
  @Test(arguments: [Double.nan, .infinity, -.infinity, 90.000_001, -91])
  func invalidLatitudeThrows(latitude: Double) {
    #expect(throws: GeoError.self) { try Coordinate(latitude: latitude, longitude: 0) }
  }

  @Test(arguments: [Double.nan, .infinity, -.infinity])
  func nonFiniteLongitudeThrows(longitude: Double) {
    #expect(throws: GeoError.self) { try Coordinate(latitude: 0, longitude: longitude) }
  }

  @Test(arguments: [
    (180.0, -180.0), (190, -170), (-180, -180), (-190, 170), (540, -180), (359.5, -0.5),
    (-720.25, -0.25), (179.999, 179.999),
  ])
  func longitudeIsNormalizedIntoHalfOpenRange(input: Double, expected: Double) throws {
    let c = try Coordinate(latitude: 10, longitude: input)
    #expect(abs(c.longitude - expected) < 1e-12)
    #expect(c.longitude >= -180 && c.longitude < 180)
  }

  /// Exactly, however large: 1e17 is 277777777777777 turns and 280°, which is −80°; shifting by
  /// 180° before reducing read it as 9350837 m away from the origin instead of 8905559 m.
  @Test(arguments: [(1e17, -80.0), (-1e17, 80), (1e16, -80), (3.6e300, -144), (-3.6e300, 144)])
  func hugeLongitudesAreReducedExactly(input: Double, expected: Double) throws {
    #expect(try Coordinate(latitude: 0, longitude: input).longitude == expected)
  }

  @Test func polesAreValid() throws {
    #expect(try Coordinate(latitude: 90, longitude: 0).latitude == 90)
    #expect(try Coordinate(latitude: -90, longitude: 0).latitude == -90)
  }

  @Test func codableRoundTripAndValidation() throws {
    let c = try Coordinate(latitude: 35.681, longitude: 139.767)
    let data = try JSONEncoder().encode(c)
    #expect(try JSONDecoder().decode(Coordinate.self, from: data) == c)
    let bad = Data(#"{"latitude": 95, "longitude": 0}"#.utf8)
    #expect(throws: DecodingError.self) { try JSONDecoder().decode(Coordinate.self, from: bad) }
  }
}
