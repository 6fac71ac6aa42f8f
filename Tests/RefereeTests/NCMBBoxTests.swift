import Geo
import Referee
import Testing

private func point(_ latitude: Double, _ longitude: Double) -> Coordinate {
  (try? Coordinate(latitude: latitude, longitude: longitude))!
}

/// The box an NCMB box query means, as docs/REPORTS.md states it.
@Suite struct NCMBBoxTests {
  private func box(_ sw: (Double, Double), _ ne: (Double, Double)) -> NCMBBox {
    NCMBBox(
      southwestLatitude: sw.0, southwestLongitude: sw.1, northeastLatitude: ne.0,
      northeastLongitude: ne.1)
  }

  @Test func cornersInOrderSpanTheBoxAsSent() {
    let b = box((35.6, 139.7), (35.7, 139.8))
    #expect((b.south, b.west, b.north, b.east) == (35.6, 139.7, 35.7, 139.8))
    #expect(!b.isInverted && !b.crossesAntimeridian)
    #expect(b.contains(point(35.65, 139.75)))
    #expect(!b.contains(point(35.65, 139.0)))
  }

  @Test func edgesAndCornersAreInside() {
    let b = box((35.6, 139.7), (35.7, 139.8))
    for (lat, lon) in [(35.6, 139.7), (35.7, 139.8), (35.6, 139.75), (35.65, 139.8)] {
      #expect(b.contains(point(lat, lon)), "(\(lat), \(lon))")
    }
    #expect(!b.contains(point(35.7000001, 139.75)))
  }

  @Test func aWestwardSpanOfATenthOfADegreeIsTheNarrowBoxNotTheWideOne() {
    // "southwest" at 139.8, "northeast" at 139.7: eastward that is 359.9°, so the corners were
    // swapped and the box is the 0.1° one between them.
    let b = box((35.6, 139.8), (35.7, 139.7))
    #expect(b.swappedLongitudes && !b.swappedLatitudes)
    #expect((b.west, b.east) == (139.7, 139.8))
    #expect(b.contains(point(35.65, 139.75)))
    #expect(!b.contains(point(35.65, 139.0)))
    #expect(!b.contains(point(35.65, -179)))
  }

  @Test func cornersTappedNorthEastFirstAreSwappedInBoth() {
    let b = box((35.01, 139.01), (35.0, 139.0))
    #expect(b.swappedLatitudes && b.swappedLongitudes && b.isInverted)
    #expect((b.south, b.west, b.north, b.east) == (35.0, 139.0, 35.01, 139.01))
  }

  @Test func aBoxAcrossTheAntimeridianStaysOne() {
    let b = box((-20, 170), (20, -170))
    #expect(!b.isInverted && b.crossesAntimeridian)
    #expect(b.contains(point(0, 175)) && b.contains(point(0, -175)) && b.contains(point(0, -180)))
    #expect(!b.contains(point(0, 0)) && !b.contains(point(0, 169.9)))
  }

  @Test func aSpanOfExactlyHalfTheGlobeIsTakenAsSent() {
    let b = box((0, 10), (10, -170))
    #expect(!b.swappedLongitudes && b.crossesAntimeridian)
    #expect(b.contains(point(5, 100)) && !b.contains(point(5, 0)))
  }

  @Test func minus180To180IsTheWholeCircleOfLongitude() {
    let b = box((80, -180), (90, 180))
    #expect(!b.isInverted)
    for lon in [-180.0, -90, 0, 90, 179.999] { #expect(b.contains(point(85, lon))) }
  }

  @Test func theAntimeridianIsOneMeridianForPointsAndEdges() {
    // An east edge at 180 holds a point given as −180 (a coordinate's normalized form).
    let b = box((0, 179.99), (20, 180))
    #expect(!b.isInverted)
    #expect(b.contains(point(10, -180)) && b.contains(point(10, 179.995)))
    #expect(!b.contains(point(10, -179.99)))
  }

  @Test func aPointAtAPoleIsJudgedByItsGivenLongitudeAsInMongoDBsFlatBox() {
    let b = box((80, 0), (90, 10))
    #expect(b.contains(point(90, 5)))
    #expect(!b.contains(point(90, 30)))
  }

  @Test func coordinateCornersAgreeWithRawCorners() {
    #expect(
      NCMBBox(southwest: point(35.6, 139.8), northeast: point(35.7, 139.7))
        == box((35.6, 139.8), (35.7, 139.7)))
  }
}

/// NCMB's spherical distance: the central angle against `km / 6371`.
@Suite struct NCMBSphereTests {
  @Test func kilometresAndMilesConvertAsParseDocuments() {
    #expect(NCMBSphere.radians(kilometers: 6371) == 1)
    #expect(NCMBSphere.radians(miles: 3959) == 1)
  }

  @Test func aPointIsWithinWhenItsCentralAngleIs() {
    let centre = point(0, 0)
    // One degree of longitude on the equator: π/180 rad, 111.19 km on the 6,371 km sphere.
    let east = point(0, 1)
    #expect(abs(NCMBSphere.distance(from: centre, to: east) - 6_371_000 * .pi / 180) < 1e-6)
    #expect(NCMBSphere.contains(east, within: NCMBSphere.radians(kilometers: 111.2), of: centre))
    #expect(!NCMBSphere.contains(east, within: NCMBSphere.radians(kilometers: 111.1), of: centre))
  }
}
