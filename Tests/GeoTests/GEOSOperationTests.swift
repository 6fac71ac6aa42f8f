import SimKernel
import Testing

@testable import Geo

@Suite struct GEOSOperationTests {
  let geos = GEOSContext()

  func square(_ minX: Double, _ minY: Double, _ size: Double) throws -> Geometry {
    .polygon(
      try Polygon(rings: [
        [
          Position(x: minX, y: minY), Position(x: minX + size, y: minY),
          Position(x: minX + size, y: minY + size), Position(x: minX, y: minY + size),
          Position(x: minX, y: minY),
        ]
      ]))
  }

  @Test func containsExcludesTheBoundaryButCoversIncludesIt() throws {
    let box = try square(0, 0, 10)
    let edge = Geometry.point(Position(x: 10, y: 5))
    #expect(try !geos.contains(box, edge))
    #expect(try geos.covers(box, edge))
    #expect(try geos.intersects(box, edge))
    #expect(try geos.within(.point(Position(x: 5, y: 5)), box))
  }

  @Test func holesAreOutside() throws {
    let withHole = try geos.geometry(
      fromWKT: "POLYGON ((0 0, 10 0, 10 10, 0 10, 0 0), (2 2, 2 4, 4 4, 4 2, 2 2))")
    #expect(try !geos.contains(withHole, .point(Position(x: 3, y: 3))))
    #expect(try geos.contains(withHole, .point(Position(x: 5, y: 5))))
    #expect(try geos.area(withHole) == 96)
  }

  @Test func distanceWithinAgreesWithDistance() throws {
    let a = try square(0, 0, 1)
    let b = Geometry.point(Position(x: 4, y: 5))
    #expect(try geos.distance(a, b) == 5)
    #expect(try geos.isWithinDistance(a, b, distance: 5))
    #expect(try !geos.isWithinDistance(a, b, distance: 4.999))
    #expect(throws: GeoError.self) { try geos.isWithinDistance(a, b, distance: -1) }
    #expect(throws: GeoError.self) { try geos.distance(a, .multiPoint([])) }
  }

  @Test func setOperationsHaveTheExpectedAreas() throws {
    let a = try square(0, 0, 2)
    let b = try square(1, 1, 2)
    #expect(try geos.area(geos.intersection(a, b)) == 1)
    #expect(try geos.area(geos.union(a, b)) == 7)
    #expect(try geos.area(geos.difference(a, b)) == 3)
    #expect(try geos.area(geos.unaryUnion(.geometryCollection([a, b]))) == 7)
    #expect(try geos.intersection(a, square(5, 5, 1)).isEmpty)
  }

  @Test func bufferOfAPointApproximatesACircle() throws {
    let disc = try geos.buffer(.point(Position(x: 0, y: 0)), distance: 10, quadrantSegments: 32)
    let area = try geos.area(disc)
    #expect(abs(area - Double.pi * 100) / (Double.pi * 100) < 0.002)
    #expect(throws: GeoError.self) { try geos.buffer(disc, distance: .nan) }
    #expect(throws: GeoError.self) { try geos.buffer(disc, distance: 1, quadrantSegments: 0) }
  }

  @Test func lengthCentroidAndEnvelope() throws {
    let line = Geometry.lineString(
      try LineString([Position(x: 0, y: 0), Position(x: 3, y: 4), Position(x: 3, y: 10)]))
    #expect(try geos.length(line) == 11)
    #expect(try geos.centroid(square(0, 0, 2)) == Position(x: 1, y: 1))
    #expect(try geos.centroid(.geometryCollection([])) == nil)
    #expect(line.envelope == (try Envelope(minX: 0, minY: 0, maxX: 3, maxY: 10)))
    #expect(Geometry.multiPoint([]).envelope == nil)
  }

  @Test func validityReasonNamesTheProblem() throws {
    let bowtie = try geos.geometry(fromWKT: "POLYGON ((0 0, 10 10, 10 0, 0 10, 0 0))")
    #expect(try !geos.isValid(bowtie))
    #expect(try geos.validityReason(bowtie).contains("Self-intersection"))
    #expect(try geos.isValid(square(0, 0, 1)))
  }

  @Test func linearReferencingProjectsAndInterpolates() throws {
    let line = try LineString([Position(x: 0, y: 0), Position(x: 10, y: 0), Position(x: 10, y: 10)])
    #expect(try geos.project(Position(x: 4, y: 3), onto: line) == 4)
    #expect(try geos.project(Position(x: 12, y: 7), onto: line) == 17)
    #expect(try geos.interpolate(line, distance: 15) == Position(x: 10, y: 5))
    #expect(try geos.interpolate(line, distance: 99) == Position(x: 10, y: 10))
    #expect(try geos.interpolate(line, distance: -1) == Position(x: 10, y: 9))
    #expect(try geos.interpolate(line, distance: -99) == Position(x: 0, y: 0))
    #expect(throws: GeoError.self) { try geos.project(Position(x: 0, y: 0), onto: LineString([])) }
    #expect(throws: GeoError.self) { try geos.interpolate(line, distance: .infinity) }
  }

  @Test func preparedAndUnpreparedPredicatesAgreeOnSeededPoints() throws {
    let polygon = try geos.geometry(
      fromWKT:
        "POLYGON ((0 0, 20 0, 20 5, 10 5, 10 15, 20 15, 20 20, 0 20, 0 0), (2 2, 2 4, 4 4, 4 2, 2 2))"
    )
    let prepared = try PreparedGeometry(polygon, context: geos)
    var random = SplitMix64(seed: 42)
    for _ in 0..<2_000 {
      // Snap a share of the points onto the grid so boundary cases are exercised.
      var p = Position(x: random.double(in: -2...22), y: random.double(in: -2...22))
      if random.next() % 4 == 0 { p = Position(x: p.x.rounded(), y: p.y.rounded()) }
      let point = Geometry.point(p)
      #expect(try prepared.contains(p) == geos.contains(polygon, point))
      #expect(try prepared.covers(p) == geos.covers(polygon, point))
      #expect(try prepared.intersects(point) == geos.intersects(polygon, point))
      #expect(
        try prepared.isWithinDistance(point, distance: 1)
          == geos.isWithinDistance(polygon, point, distance: 1))
    }
    let inner = try square(5, 16, 1)
    #expect(try prepared.contains(inner) == geos.contains(polygon, inner))
    #expect(try prepared.covers(inner))
    #expect(try !prepared.within(inner))
    #expect(throws: GeoError.self) { try prepared.contains(Position(x: .nan, y: 0)) }
  }
}

@Suite struct STRtreeTests {
  let geos = GEOSContext()

  @Test func envelopeQueriesEqualBruteForce() throws {
    var random = SplitMix64(seed: 3)
    let items = try (0..<5_000).map { i -> (envelope: Envelope, element: Int) in
      let x = random.double(in: 0...1000)
      let y = random.double(in: 0...1000)
      let w = i % 3 == 0 ? 0 : random.double(in: 0...20)
      return (try Envelope(minX: x, minY: y, maxX: x + w, maxY: y + w), i)
    }
    let tree = try STRtree(items, context: geos)
    #expect(tree.count == 5_000)
    for _ in 0..<300 {
      let x = random.double(in: -50...1000)
      let y = random.double(in: -50...1000)
      let query = try Envelope(minX: x, minY: y, maxX: x + 60, maxY: y + 40)
      let expected = items.filter { $0.envelope.intersects(query) }.map(\.element)
      #expect(try tree.query(query) == expected)
    }
  }

  @Test func nearestEqualsBruteForce() throws {
    var random = SplitMix64(seed: 11)
    let points = (0..<3_000).map { _ in
      Position(x: random.double(in: 0...100), y: random.double(in: 0...100))
    }
    let tree = try STRtree(
      points.enumerated().map {
        (try Envelope(minX: $1.x, minY: $1.y, maxX: $1.x, maxY: $1.y), $0)
      }, context: geos)
    for _ in 0..<300 {
      let q = Position(x: random.double(in: -10...110), y: random.double(in: -10...110))
      func d(_ i: Int) -> Double {
        ((points[i].x - q.x) * (points[i].x - q.x) + (points[i].y - q.y) * (points[i].y - q.y))
          .squareRoot()
      }
      let best = points.indices.min { d($0) < d($1) }!
      let found = try #require(try tree.nearest(to: q))
      #expect(d(found) == d(best))
    }
  }

  @Test func emptyTreeAndBadArguments() throws {
    let empty = try STRtree([(envelope: Envelope, element: Int)](), context: geos)
    #expect(try empty.nearest(to: Position(x: 0, y: 0)) == nil)
    #expect(try empty.query(Envelope(minX: 0, minY: 0, maxX: 1, maxY: 1)).isEmpty)
    #expect(throws: GeoError.self) {
      try STRtree([(envelope: Envelope, element: Int)](), nodeCapacity: 1, context: geos)
    }
    #expect(throws: GeoError.self) { try Envelope(minX: 1, minY: 0, maxX: 0, maxY: 1) }
  }
}
