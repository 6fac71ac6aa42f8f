import Geo
import Testing

@Suite struct VoronoiTests {
  let context = GEOSContext()

  @Test func twoSitesSplitTheBoundaryAtTheirBisectorInSiteOrder() throws {
    let box = Geometry.polygon(
      try Polygon(rings: [
        [
          Position(x: 0, y: 0), Position(x: 4, y: 0), Position(x: 4, y: 2), Position(x: 0, y: 2),
          Position(x: 0, y: 0),
        ]
      ]))
    let cells = try context.voronoiCells(
      of: [Position(x: 3, y: 1), Position(x: 1, y: 1)], clippedTo: box)
    #expect(cells.count == 2)
    #expect(try context.area(cells[0]) == 4 && context.area(cells[1]) == 4)
    #expect(try context.covers(cells[0], .point(Position(x: 3.9, y: 1.9))))
    #expect(try context.covers(cells[1], .point(Position(x: 0.1, y: 0.1))))
  }

  @Test func oneSiteOrDuplicateSitesAreRejected() {
    #expect(throws: GeoError.self) { try context.voronoiCells(of: [Position(x: 0, y: 0)]) }
    #expect(throws: GeoError.self) {
      try context.voronoiCells(of: [Position(x: 0, y: 0), Position(x: 0, y: 0)])
    }
  }
}
