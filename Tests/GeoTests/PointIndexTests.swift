import Foundation
import SimKernel
import Synchronization
import Testing

@testable import Geo

private let earth = DistanceMetric.sphere(radius: 6_371_008.8)
private let tokyoStation = try! Coordinate(latitude: 35.681236, longitude: 139.767125)

/// Indexed points with the brute-force answers the index must reproduce.
///
/// The brute force is written for speed in unoptimized builds: flat arrays and plain loops.
private struct Dataset {
  let coordinates: [Coordinate]
  let index: PointIndex<Int>
  private let latitudes: [Double]
  private let longitudes: [Double]
  /// Unit vectors, three values per point, computed here independently of the index.
  private let vectors: [Double]

  init(_ coordinates: [Coordinate]) {
    self.coordinates = coordinates
    latitudes = coordinates.map(\.latitude)
    longitudes = coordinates.map(\.longitude)
    var vectors: [Double] = []
    vectors.reserveCapacity(3 * coordinates.count)
    for c in coordinates {
      let v = Dataset.vector(c)
      vectors.append(v.x)
      vectors.append(v.y)
      vectors.append(v.z)
    }
    self.vectors = vectors
    index = PointIndex(coordinates.enumerated().map { (coordinate: $1, element: $0) })
  }

  static func vector(_ c: Coordinate) -> (x: Double, y: Double, z: Double) {
    let phi = c.latitude * .pi / 180
    let lambda = c.longitude * .pi / 180
    return (cos(phi) * cos(lambda), cos(phi) * sin(lambda), sin(phi))
  }

  /// The chord from the query to every point, by insertion index.
  func chords(from query: Coordinate) -> [Double] {
    let q = Dataset.vector(query)
    var chords = [Double](repeating: 0, count: coordinates.count)
    chords.withUnsafeMutableBufferPointer { chords in
      vectors.withUnsafeBufferPointer { v in
        for i in 0..<chords.count {
          let dx = v[3 * i] - q.x
          let dy = v[3 * i + 1] - q.y
          let dz = v[3 * i + 2] - q.z
          chords[i] = (dx * dx + dy * dy + dz * dz).squareRoot()
        }
      }
    }
    return chords
  }

  /// The `k` nearest points under the sphere metric `earth`, by brute force. The sphere
  /// metric grows with the chord, so points are ranked by chord and every point within 1e-9
  /// (6 mm) of the k-th chord is measured exactly; rounding cannot hide one.
  func referenceNearest(to query: Coordinate, k: Int, chords: [Double]) -> [Neighbor<Int>] {
    guard !coordinates.isEmpty else { return [] }
    // The k smallest chords, ascending, kept in a plain buffer.
    var smallest = [Double](repeating: .infinity, count: k)
    smallest.withUnsafeMutableBufferPointer { smallest in
      chords.withUnsafeBufferPointer { chords in
        for i in 0..<chords.count where chords[i] < smallest[k - 1] {
          var position = k - 1
          while position > 0 && smallest[position - 1] > chords[i] {
            smallest[position] = smallest[position - 1]
            position -= 1
          }
          smallest[position] = chords[i]
        }
      }
    }
    let cutoff = smallest[min(k, coordinates.count) - 1] + 1e-9
    return nearest(k, from: query, among: indices(of: chords, atMost: cutoff))
  }

  /// Every point within `radius` metres under `earth`, nearest first, by brute force over
  /// the points whose chord could qualify.
  func referenceWithin(radius: Double, of query: Coordinate, chords: [Double]) -> [Neighbor<Int>] {
    let angle = radius / earth.lowerBoundRadius
    let cutoff = angle >= .pi ? 3 : 2 * sin(angle / 2) + 1e-9
    return within(radius, of: query, among: indices(of: chords, atMost: cutoff))
  }

  /// The `k` nearest points under `metric`, measuring every point.
  func exhaustiveNearest(
    to query: Coordinate, k: Int, metric: DistanceMetric = earth
  ) -> [Neighbor<Int>] {
    nearest(k, from: query, among: Array(coordinates.indices), metric: metric)
  }

  /// Every point within `radius` metres under `metric`, measuring every point.
  func exhaustiveWithin(
    radius: Double, of query: Coordinate, metric: DistanceMetric = earth
  ) -> [Neighbor<Int>] {
    within(radius, of: query, among: Array(coordinates.indices), metric: metric)
  }

  /// The insertion indices of the points inside a box, by a linear scan.
  func referenceElements(in bounds: CoordinateBounds) -> [Int] {
    let (south, west, north, east) = (bounds.south, bounds.west, bounds.north, bounds.east)
    var result: [Int] = []
    latitudes.withUnsafeBufferPointer { latitudes in
      longitudes.withUnsafeBufferPointer { longitudes in
        for i in 0..<latitudes.count where latitudes[i] >= south && latitudes[i] <= north {
          let longitude = longitudes[i]
          let inside =
            west <= east
            ? (longitude >= west && longitude <= east) || (east == 180 && longitude == -180)
            : longitude >= west || longitude <= east
          if inside { result.append(i) }
        }
      }
    }
    return result
  }

  private func indices(of chords: [Double], atMost cutoff: Double) -> [Int] {
    var result: [Int] = []
    chords.withUnsafeBufferPointer { chords in
      for i in 0..<chords.count where chords[i] <= cutoff { result.append(i) }
    }
    return result
  }

  /// The `k` candidates nearest under `metric`, ties going to the earlier insertion.
  private func nearest(
    _ k: Int, from query: Coordinate, among candidates: [Int], metric: DistanceMetric = earth
  ) -> [Neighbor<Int>] {
    var best: [Neighbor<Int>] = []
    for i in candidates {
      let d = metric.distance(query, coordinates[i])
      guard best.count < k || d < best[best.count - 1].distance else { continue }
      var position = best.count
      while position > 0 && best[position - 1].distance > d { position -= 1 }
      best.insert(Neighbor(element: i, coordinate: coordinates[i], distance: d), at: position)
      if best.count > k { best.removeLast() }
    }
    return best
  }

  /// The candidates within `radius` under `metric`, by distance then insertion index.
  private func within(
    _ radius: Double, of query: Coordinate, among candidates: [Int],
    metric: DistanceMetric = earth
  ) -> [Neighbor<Int>] {
    var result: [Neighbor<Int>] = []
    for i in candidates {
      let d = metric.distance(query, coordinates[i])
      if d <= radius {
        result.append(Neighbor(element: i, coordinate: coordinates[i], distance: d))
      }
    }
    return result.sorted { ($0.distance, $0.element) < ($1.distance, $1.element) }
  }
}

/// 20,000 points over the whole sphere, with some exactly at the poles, on the antimeridian,
/// near it on both sides, and repeated.
private func worldwidePoints(seed: UInt64, count: Int = 20_000) throws -> [Coordinate] {
  var random = SplitMix64(seed: seed)
  var points: [Coordinate] = []
  while points.count < count {
    switch random.below(100) {
    case 0: points.append(try Coordinate(latitude: 90, longitude: random.uniform(-180, 180)))
    case 1: points.append(try Coordinate(latitude: -90, longitude: random.uniform(-180, 180)))
    case 2: points.append(try Coordinate(latitude: random.uniform(-90, 90), longitude: 180))
    case 3:
      points.append(
        try Coordinate(latitude: random.uniform(-90, 90), longitude: random.uniform(179.9, 180.1)))
    case 4..<7 where !points.isEmpty: points.append(points[random.below(points.count)])
    default: points.append(random.coordinate())
    }
  }
  return points
}

/// 20,000 points within 5 km of Tokyo Station, half of them on a 0.0005° grid so that many
/// distances tie exactly, and some repeated.
private func tokyoPoints(seed: UInt64, count: Int = 20_000) throws -> [Coordinate] {
  var random = SplitMix64(seed: seed)
  var points: [Coordinate] = []
  while points.count < count {
    if random.below(50) == 0 && !points.isEmpty {
      points.append(points[random.below(points.count)])
      continue
    }
    var c = try tokyoOffset(&random, within: 4_900)
    if random.below(2) == 0 {
      c = try Coordinate(
        latitude: (c.latitude / 0.0005).rounded() * 0.0005,
        longitude: (c.longitude / 0.0005).rounded() * 0.0005)
    }
    points.append(c)
  }
  return points
}

/// A coordinate up to `radius` metres from Tokyo Station, uniform over the disc.
private func tokyoOffset(_ random: inout SplitMix64, within radius: Double) throws -> Coordinate {
  let distance = radius * random.unit().squareRoot()
  let bearing = random.uniform(0, 2 * .pi)
  let metresPerDegree = 111_320.0
  return try Coordinate(
    latitude: tokyoStation.latitude + distance * cos(bearing) / metresPerDegree,
    longitude: tokyoStation.longitude + distance * sin(bearing)
      / (metresPerDegree * cos(tokyoStation.latitude * .pi / 180)))
}

/// Queries anywhere, near and exactly at indexed points, near and at the poles and the
/// antimeridian.
private func worldwideQueries(
  seed: UInt64, count: Int = 2_000, near points: [Coordinate]
) throws -> [Coordinate] {
  var random = SplitMix64(seed: seed)
  return try (0..<count).map { _ in
    let p = points[random.below(points.count)]
    switch random.below(10) {
    case 0..<4: return random.coordinate()
    case 4, 5:
      return try Coordinate(
        latitude: max(-90, min(90, p.latitude + random.uniform(-0.01, 0.01))),
        longitude: p.longitude + random.uniform(-0.01, 0.01))
    case 6: return p
    case 7:
      return try Coordinate(
        latitude: random.uniform(89, 90) * (random.below(2) == 0 ? 1 : -1),
        longitude: random.uniform(-180, 180))
    case 8:
      return try Coordinate(
        latitude: random.uniform(-90, 90), longitude: random.uniform(179.9, 180.1))
    default:
      let special = [(90.0, 0.0), (-90, 45), (0, -180), (0, 180), (45, -180)]
      let (latitude, longitude) = special[random.below(special.count)]
      return try Coordinate(latitude: latitude, longitude: longitude)
    }
  }
}

/// Queries around Tokyo Station, some on the grid and some exactly at indexed points.
private func tokyoQueries(
  seed: UInt64, count: Int = 2_000, near points: [Coordinate]
) throws -> [Coordinate] {
  var random = SplitMix64(seed: seed)
  return try (0..<count).map { _ in
    switch random.below(4) {
    case 0: return points[random.below(points.count)]
    case 1:
      let c = try tokyoOffset(&random, within: 6_000)
      return try Coordinate(
        latitude: (c.latitude / 0.0005).rounded() * 0.0005,
        longitude: (c.longitude / 0.0005).rounded() * 0.0005)
    default: return try tokyoOffset(&random, within: 8_000)
    }
  }
}

/// Random boxes of every size, many crossing the antimeridian or touching a pole.
private func boxes(seed: UInt64, count: Int = 2_000, around centre: Coordinate?) throws
  -> [CoordinateBounds]
{
  var random = SplitMix64(seed: seed)
  return try (0..<count).map { _ in
    let latitude: Double
    let longitude: Double
    let height: Double
    let width: Double
    if let centre {
      latitude = centre.latitude + random.uniform(-0.05, 0.05)
      longitude = centre.longitude + random.uniform(-0.05, 0.05)
      height = random.uniform(0.0001, 0.03)
      width = random.uniform(0.0001, 0.03)
    } else {
      switch random.below(6) {
      case 0:
        latitude = random.uniform(-90, 90)
        longitude = random.uniform(175, 185)
      case 1:
        latitude = random.uniform(70, 90) * (random.below(2) == 0 ? 1 : -1)
        longitude = random.uniform(-180, 180)
      default:
        latitude = random.uniform(-90, 90)
        longitude = random.uniform(-180, 180)
      }
      height = exp(random.uniform(log(0.01), log(60)))
      width =
        random.below(20) == 0 ? random.uniform(180, 360) : exp(random.uniform(log(0.01), log(90)))
    }
    let south = max(-90, latitude - height / 2)
    let north = min(90, latitude + height / 2)
    if width >= 360 {
      return try CoordinateBounds(south: south, west: -180, north: north, east: 180)
    }
    let west = Coordinate.normalizedLongitude(longitude - width / 2)
    var east = Coordinate.normalizedLongitude(longitude + width / 2)
    if east == -180 && random.below(2) == 0 { east = 180 }
    return try CoordinateBounds(south: south, west: west, north: north, east: east)
  }
}

/// A metric wrapping the sphere metric that counts how often it is evaluated.
private final class CountingMetric: Sendable {
  let evaluations = Mutex(0)

  var metric: DistanceMetric {
    try! DistanceMetric(lowerBoundRadius: earth.lowerBoundRadius) { [self] a, b in
      evaluations.withLock { $0 += 1 }
      return earth.distance(a, b)
    }
  }
}

@Suite struct PointIndexTests {
  // MARK: Agreement with brute force

  @Test(arguments: ["worldwide", "Tokyo"])
  func nearestEqualsBruteForceForKOneFiveAndTwenty(dataset name: String) throws {
    let (data, queries) = try scenario(name)
    for query in queries {
      let chords = data.chords(from: query)
      let expected = data.referenceNearest(to: query, k: 20, chords: chords)
      for k in [1, 5, 20] {
        let actual = try data.index.nearest(to: query, k: k, metric: earth)
        #expect(actual == Array(expected.prefix(k)), "k = \(k) near \(query)")
      }
    }
  }

  @Test(arguments: ["worldwide", "Tokyo"])
  func withinEqualsBruteForce(dataset name: String) throws {
    let (data, queries) = try scenario(name)
    var random = SplitMix64(seed: 7)
    var total = 0
    for query in queries {
      let radius =
        name == "Tokyo"
        ? exp(random.uniform(log(1), log(2_000))) : exp(random.uniform(log(1_000), log(1_500_000)))
      let expected = data.referenceWithin(
        radius: radius, of: query, chords: data.chords(from: query))
      let actual = try data.index.within(radius: radius, of: query, metric: earth)
      #expect(actual == expected, "radius \(radius) around \(query)")
      total += expected.count
    }
    #expect(total > 10 * queries.count)
  }

  @Test(arguments: ["worldwide", "Tokyo"])
  func elementsInBoundsEqualALinearScan(dataset name: String) throws {
    let (data, _) = try scenario(name)
    var total = 0
    for bounds in try boxes(seed: 11, around: name == "Tokyo" ? tokyoStation : nil) {
      let expected = data.referenceElements(in: bounds)
      #expect(data.index.elements(in: bounds) == expected, "\(bounds)")
      total += expected.count
    }
    #expect(total > 20_000)
  }

  @Test func referenceAgreesWithMeasuringEveryPoint() throws {
    let (data, queries) = try scenario("worldwide")
    for query in queries.prefix(100) {
      let chords = data.chords(from: query)
      #expect(
        data.referenceNearest(to: query, k: 20, chords: chords)
          == data.exhaustiveNearest(to: query, k: 20))
      #expect(
        data.referenceWithin(radius: 800_000, of: query, chords: chords)
          == data.exhaustiveWithin(radius: 800_000, of: query))
    }
  }

  @Test func nearestIsExactForAMetricThatAngleDoesNotOrder() throws {
    // Stretched by up to 30 % towards the poles: still ≥ the sphere, but the nearest by chord is
    // no longer the nearest by this metric, so only the bound keeps the search exact.
    let radius = earth.lowerBoundRadius
    let stretched = try DistanceMetric(lowerBoundRadius: radius) { a, b in
      let meanLatitude = (a.latitude + b.latitude) / 2 * .pi / 180
      let s = sin(meanLatitude)
      return earth.distance(a, b) * (1 + 0.3 * s * s)
    }
    let data = Dataset(try worldwidePoints(seed: 21, count: 4_000))
    for query in try worldwideQueries(seed: 22, count: 150, near: data.coordinates) {
      #expect(
        try data.index.nearest(to: query, k: 5, metric: stretched)
          == data.exhaustiveNearest(to: query, k: 5, metric: stretched))
      #expect(
        try data.index.within(radius: 300_000, of: query, metric: stretched)
          == data.exhaustiveWithin(radius: 300_000, of: query, metric: stretched))
    }
  }

  @Test func aMetricWithoutALowerBoundIsStillExact() throws {
    let unbounded = try DistanceMetric(lowerBoundRadius: 0, distance: earth.distance)
    let data = Dataset(try worldwidePoints(seed: 31, count: 500))
    for query in try worldwideQueries(seed: 32, count: 20, near: data.coordinates) {
      #expect(
        try data.index.nearest(to: query, k: 3, metric: unbounded)
          == data.exhaustiveNearest(to: query, k: 3))
      #expect(
        try data.index.within(radius: 2_000_000, of: query, metric: unbounded)
          == data.exhaustiveWithin(radius: 2_000_000, of: query))
    }
  }

  // MARK: Work done

  @Test func nearestEvaluatesTheMetricOnAHandfulOfPoints() throws {
    var random = SplitMix64(seed: 41)
    let data = Dataset((0..<20_000).map { _ in random.coordinate() })
    let queries = (0..<200).map { _ in random.coordinate() }
    let counter = CountingMetric()
    let metric = counter.metric
    for query in queries {
      _ = try data.index.nearest(to: query, k: 1, metric: metric)
    }
    let perQuery = Double(counter.evaluations.withLock { $0 }) / Double(queries.count)
    // Brute force measures all 20,000 points.
    #expect(perQuery < 3, "\(perQuery) evaluations per query")

    counter.evaluations.withLock { $0 = 0 }
    var found = 0
    for query in queries {
      found += try data.index.within(radius: 200_000, of: query, metric: metric).count
    }
    #expect(counter.evaluations.withLock { $0 } < 2 * found + queries.count)
  }

  // MARK: Edge cases

  @Test func duplicateCoordinatesAreOrderedByInsertion() throws {
    let here = try Coordinate(latitude: 48.8584, longitude: 2.2945)
    let elsewhere = try Coordinate(latitude: 48.8606, longitude: 2.3376)
    let items = [elsewhere, here, here, elsewhere, here, here].enumerated().map {
      (coordinate: $1, element: $0)
    }
    let index = PointIndex(items)
    #expect(try index.nearest(to: here, k: 3, metric: earth).map(\.element) == [1, 2, 4])
    #expect(try index.nearest(to: here, k: 6, metric: earth).map(\.element) == [1, 2, 4, 5, 0, 3])
    #expect(try index.nearest(to: elsewhere, k: 1, metric: earth).map(\.element) == [0])
    #expect(try index.within(radius: 0, of: here, metric: earth).map(\.element) == [1, 2, 4, 5])
  }

  @Test func anIndexReadBackFromItsLayoutAnswersAsTheIndexBuilt() throws {
    let (data, queries) = try scenario("worldwide")
    let points = data.coordinates
    let elements = Array(points.indices)
    let again = try #require(
      PointIndex(layout: data.index.layout, points: { points[$0] }, elements: elements))
    #expect(again.layout == data.index.layout)
    for query in queries {
      #expect(
        try again.nearest(to: query, k: 5, metric: earth)
          == data.index.nearest(to: query, k: 5, metric: earth))
      #expect(
        try again.within(radius: 500_000, of: query, metric: earth)
          == data.index.within(radius: 500_000, of: query, metric: earth))
    }
    let empty = PointIndex<Int>([])
    let emptyAgain = PointIndex<Int>(layout: empty.layout, points: { points[$0] }, elements: [])
    #expect(emptyAgain?.count == 0)
  }

  @Test func aLayoutThatDoesNotFitItsPointsIsRefused() throws {
    let data = Dataset(try worldwidePoints(seed: 5, count: 100))
    let points = data.coordinates
    let layout = data.index.layout
    func fits(_ change: (inout PointIndexLayout) -> Void, count: Int = 100) -> Bool {
      var changed = layout
      change(&changed)
      return PointIndex(
        layout: changed, points: { points[$0] }, elements: Array(0..<count)) != nil
    }
    let unchanged = fits { _ in }
    let otherCount = fits({ _ in }, count: 99)
    let changes: [(String, (inout PointIndexLayout) -> Void)] = [
      ("a point twice", { $0.indices[1] = $0.indices[0] }),
      ("a point past the last", { $0.indices[0] = 100 }),
      ("a vector short", { $0.vectors.removeLast() }),
      ("a box short", { $0.boxes.removeLast() }),
      ("a leaf past the last point", { $0.leafStarts[1] = 101 }),
      ("leaves out of order", { $0.leafStarts.swapAt(1, 2) }),
    ]
    #expect(unchanged && !otherCount)
    for (what, change) in changes {
      let fitted = fits(change)
      #expect(!fitted, "\(what)")
    }
  }

  @Test func anEmptyIndexAnswersNothing() throws {
    let index = PointIndex<String>([])
    #expect(index.count == 0)
    #expect(try index.nearest(to: tokyoStation, k: 3, metric: earth).isEmpty)
    #expect(try index.within(radius: .infinity, of: tokyoStation, metric: earth).isEmpty)
    let world = try CoordinateBounds(south: -90, west: -180, north: 90, east: 180)
    #expect(index.elements(in: world).isEmpty)
  }

  @Test func kLargerThanCountReturnsEveryPointNearestFirst() throws {
    let data = Dataset(try worldwidePoints(seed: 51, count: 37))
    let expected = data.exhaustiveWithin(radius: .infinity, of: tokyoStation)
    #expect(data.index.count == 37)
    #expect(try data.index.nearest(to: tokyoStation, k: 100, metric: earth) == expected)
    #expect(try data.index.within(radius: .infinity, of: tokyoStation, metric: earth) == expected)
  }

  @Test func neighboursAcrossThePoleAndTheAntimeridianAreNearest() throws {
    let items = try [
      (89.999, 179.999), (89.0, 0.0), (0.0, 179.9999), (0.0, 170.0), (-90.0, 0.0), (-89.0, 90.0),
    ].enumerated().map {
      (coordinate: try Coordinate(latitude: $1.0, longitude: $1.1), element: $0)
    }
    let index = PointIndex(items)
    let nearNorthPole = try Coordinate(latitude: 89.999, longitude: -0.001)
    #expect(try index.nearest(to: nearNorthPole, k: 1, metric: earth).map(\.element) == [0])
    let acrossAntimeridian = try Coordinate(latitude: 0, longitude: -179.9999)
    let nearest = try index.nearest(to: acrossAntimeridian, k: 1, metric: earth)
    #expect(nearest.map(\.element) == [2])
    #expect(abs(nearest[0].distance - 22.239) < 0.001)
    let southPole = try Coordinate(latitude: -90, longitude: 123)
    let atPole = try index.nearest(to: southPole, k: 1, metric: earth)
    #expect(atPole.map(\.element) == [4] && atPole[0].distance < 1e-6)
  }

  @Test func boundsCrossingTheAntimeridianHoldBothSides() throws {
    let bounds = try CoordinateBounds(south: -10, west: 170, north: 10, east: -170)
    #expect(bounds.crossesAntimeridian)
    for (latitude, longitude, inside) in [
      (0.0, 175.0, true), (0, -175, true), (0, 180, true), (0, 170, true), (10, -170, true),
      (0, 0, false), (0, 169.99, false), (0, -169.99, false), (10.01, 175, false),
    ] {
      let c = try Coordinate(latitude: latitude, longitude: longitude)
      #expect(bounds.contains(c) == inside, "\(c)")
    }
    let upToAntimeridian = try CoordinateBounds(south: 0, west: 170, north: 1, east: 180)
    #expect(!upToAntimeridian.crossesAntimeridian)
    #expect(upToAntimeridian.contains(try Coordinate(latitude: 0.5, longitude: 180)))
    #expect(!upToAntimeridian.contains(try Coordinate(latitude: 0.5, longitude: -179.9)))

    let items = try [(0.0, 175.0), (0, -175), (0, 0), (5, 180), (20, 179)].enumerated().map {
      (coordinate: try Coordinate(latitude: $1.0, longitude: $1.1), element: $0)
    }
    let index = PointIndex(items)
    #expect(index.elements(in: bounds) == [0, 1, 3])
    #expect(index.elements(in: upToAntimeridian) == [0])
    #expect(
      index.elements(in: try CoordinateBounds(south: -90, west: -180, north: 90, east: 180))
        == [0, 1, 2, 3, 4])
  }

  // MARK: Errors

  @Test(arguments: [0, -1, Int.min])
  func kBelowOneThrows(k: Int) {
    let index = PointIndex([(coordinate: tokyoStation, element: 1)])
    let error = #expect(throws: GeoError.self) {
      try index.nearest(to: tokyoStation, k: k, metric: earth)
    }
    #expect(error?.code == .invalidArgument)
  }

  @Test(arguments: [-1, -Double.infinity, .nan])
  func aRadiusThatIsNegativeOrNaNThrows(radius: Double) {
    let index = PointIndex([(coordinate: tokyoStation, element: 1)])
    let error = #expect(throws: GeoError.self) {
      try index.within(radius: radius, of: tokyoStation, metric: earth)
    }
    #expect(error?.code == .invalidArgument)
  }

  @Test(arguments: [
    (10.0, 0.0, -10.0, 1.0), (-91, 0, 0, 1), (0, 0, 90.5, 1), (0, -181, 1, 1), (0, 0, 1, 180.5),
    (.nan, 0, 1, 1), (0, .infinity, 1, 1), (0, 0, 1, -.infinity),
  ])
  func invalidBoundsThrow(south: Double, west: Double, north: Double, east: Double) {
    let error = #expect(throws: GeoError.self) {
      try CoordinateBounds(south: south, west: west, north: north, east: east)
    }
    #expect(error?.code == .invalidArgument)
  }

  @Test(arguments: [-1, Double.nan, .infinity])
  func aCustomMetricNeedsAFiniteNonNegativeLowerBoundRadius(radius: Double) {
    let error = #expect(throws: GeoError.self) {
      try DistanceMetric(lowerBoundRadius: radius) { _, _ in 0 }
    }
    #expect(error?.code == .invalidArgument)
  }

  @Test func sphereMetricIsTheHaversineDistance() throws {
    // One degree of arc on the IUGG mean-radius sphere, and Tokyo Station to the Eiffel Tower.
    let a = try Coordinate(latitude: 0, longitude: 0)
    let b = try Coordinate(latitude: 0, longitude: 1)
    #expect(abs(earth.distance(a, b) - 111_195.08) < 0.01)
    let paris = try Coordinate(latitude: 48.8584, longitude: 2.2945)
    #expect(abs(earth.distance(tokyoStation, paris) - 9_718_099.52) < 0.01)
    #expect(earth.distance(paris, tokyoStation) == earth.distance(tokyoStation, paris))
    let antipode = try Coordinate(latitude: 0, longitude: -180)
    #expect(abs(earth.distance(a, antipode) - .pi * 6_371_008.8) < 1e-6)
  }

  // MARK: Scenarios

  private func scenario(_ name: String) throws -> (Dataset, [Coordinate]) {
    if name == "Tokyo" {
      let data = Dataset(try tokyoPoints(seed: 2))
      return (data, try tokyoQueries(seed: 3, near: data.coordinates))
    }
    let data = Dataset(try worldwidePoints(seed: 1))
    return (data, try worldwideQueries(seed: 4, near: data.coordinates))
  }
}

@Suite struct GeodesicMetricTests {
  @Test func nearestByGeodesicEqualsBruteForce() throws {
    var random = SplitMix64(seed: 77)
    let points = (0..<2_000).map { _ in random.coordinate() }
    let index = PointIndex(points.enumerated().map { ($1, $0) })
    for _ in 0..<200 {
      let q = random.coordinate()
      let distances = points.map { Geodesic.wgs84.inverse(from: q, to: $0).distance }
      let expected = distances.indices.sorted { (distances[$0], $0) < (distances[$1], $1) }
      let found = try index.nearest(to: q, k: 3, metric: .geodesic)
      #expect(found.map(\.element) == Array(expected.prefix(3)))
    }
  }

  @Test func geodesicMetricHonoursItsLowerBoundContract() {
    var random = SplitMix64(seed: 78)
    let metric = DistanceMetric.geodesic
    for _ in 0..<5_000 {
      let a = random.coordinate()
      let b = random.coordinate()
      let angle = greatCircleDistance(from: a, to: b, radius: 1)
      #expect(metric.distance(a, b) >= metric.lowerBoundRadius * angle * (1 - 1e-12))
    }
  }
}
