import Device
import Geo
import Testing

@Suite struct CircularRegionTests {
  @Test func containsUsesGeodesicDistanceAndDefaultsToNotifyingBothWays() throws {
    let tokyo = try Coordinate(latitude: 35.681236, longitude: 139.767125)
    let region = CircularRegion(center: tokyo, radius: 100, identifier: "tokyo")
    #expect(region.notifyOnEntry && region.notifyOnExit)
    let inside = try Geodesic.wgs84.direct(from: tokyo, azimuth: 30, distance: 99.9).coordinate
    let outside = try Geodesic.wgs84.direct(from: tokyo, azimuth: 30, distance: 100.1).coordinate
    #expect(region.contains(inside))
    #expect(!region.contains(outside))
  }
}
