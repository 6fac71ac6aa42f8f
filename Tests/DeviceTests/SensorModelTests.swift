import Device
import Foundation
import Geo
import SimKernel
import Testing

@Suite struct SensorModelTests {
  let context = GEOSContext()
  let tokyo = try! Coordinate(latitude: 35.681236, longitude: 139.767125)

  /// A phone lying still at Tokyo station from t = 0 for `days` days.
  func still(days: Double = 1_000) throws -> Trajectory {
    try Trajectory([
      TrajectorySample(time: .zero, coordinate: tokyo),
      TrajectorySample(time: .seconds(days * 86_400), coordinate: tokyo),
    ])
  }

  /// A phone going due east at `speed` m/s for an hour.
  func eastbound(speed: Double) throws -> Trajectory {
    let end = try Geodesic.wgs84.direct(from: tokyo, azimuth: 90, distance: speed * 3_600)
    return try Trajectory([
      TrajectorySample(time: .zero, coordinate: tokyo),
      TrajectorySample(time: .seconds(3_600), coordinate: end.coordinate),
    ])
  }

  func environment(_ kind: EnvironmentKind) throws -> SensorEnvironment? {
    guard kind != .openSky else { return nil }
    let area = try GeographicShapes.circle(
      center: tokyo, radiusMeters: 20_000, context: context)
    return try SensorEnvironment(areas: [(kind, area)], context: context)
  }

  func model(
    _ trajectory: Trajectory, _ kind: EnvironmentKind = .openSky,
    parameters: SensorParameters = .init(), seed: UInt64 = 42
  ) throws -> SensorModel {
    try SensorModel(
      trajectory: trajectory, environment: try environment(kind), parameters: parameters,
      random: RandomSource(seed: seed).stream("sensor"))
  }

  /// The fix's offset from the truth in metres east and north.
  func error(of location: Location, from truth: Coordinate) -> (east: Double, north: Double) {
    let p = LocalProjection(center: truth).project(location.coordinate)
    return (p.x, p.y)
  }

  func fix(_ reading: SensorReading) -> Location? {
    if case .fix(let location) = reading { return location }
    return nil
  }

  struct ErrorCase: Sendable, CustomTestStringConvertible {
    let desiredAccuracy: Double
    let environment: EnvironmentKind
    let reportedAccuracy: Double
    var testDescription: String { "\(desiredAccuracy) m, \(environment)" }
  }

  @Test(arguments: [
    ErrorCase(desiredAccuracy: -1, environment: .openSky, reportedAccuracy: 5),
    ErrorCase(desiredAccuracy: -2, environment: .urbanCanyon, reportedAccuracy: 30),
    ErrorCase(desiredAccuracy: 10, environment: .indoor, reportedAccuracy: 65),
    ErrorCase(desiredAccuracy: 100, environment: .openSky, reportedAccuracy: 65),
    ErrorCase(desiredAccuracy: 1_000, environment: .urbanCanyon, reportedAccuracy: 1_414),
    ErrorCase(desiredAccuracy: 3_000, environment: .indoor, reportedAccuracy: 3_000),
  ])
  func errorsAreUnbiasedWithTheReportedAccuracyAsTheir68PercentRadius(_ c: ErrorCase) throws {
    // Fixes 3000 s apart, ten correlation times of the slowest source: nearly independent.
    let sensor = try model(try still(), c.environment)
    let sigma = c.reportedAccuracy / (-2 * log(0.32)).squareRoot()
    var count = 0.0
    var sumEast = 0.0
    var sumNorth = 0.0
    var sumSquares = 0.0
    var inside = 0.0
    for step in 0..<12_000 {
      let reading = sensor.reading(
        at: .seconds(Double(step) * 3_000), desiredAccuracy: c.desiredAccuracy,
        reducedAccuracy: false)
      let location = try #require(fix(reading))
      guard location.horizontalAccuracy >= 0 else { continue }
      #expect(location.horizontalAccuracy == c.reportedAccuracy)
      let (east, north) = error(of: location, from: tokyo)
      count += 1
      sumEast += east
      sumNorth += north
      sumSquares += east * east + north * north
      if (east * east + north * north).squareRoot() <= location.horizontalAccuracy { inside += 1 }
    }
    // Standard errors: σ/√n for the means, about 0.7 % for the RMS, 0.4 % for the fraction.
    #expect(abs(sumEast / count) < 5 * sigma / count.squareRoot())
    #expect(abs(sumNorth / count) < 5 * sigma / count.squareRoot())
    let rms = (sumSquares / count).squareRoot()
    #expect(abs(rms / (sigma * 2.0.squareRoot()) - 1) < 0.03)
    #expect(abs(inside / count - 0.68) < 0.02)
  }

  @Test func consecutiveGnssFixesAreCorrelatedWithTheirCorrelationTime() throws {
    for (spacing, lag) in [(1.0, 1), (10.0, 1), (1.0, 30)] {
      let sensor = try model(try still())
      var easts: [Double] = []
      for step in 0..<30_000 {
        let reading = sensor.reading(
          at: .seconds(Double(step) * spacing), desiredAccuracy: LocationAccuracy.best,
          reducedAccuracy: false)
        let location = try #require(fix(reading))
        // An invalid fix still advances the error; keep its place with the previous value.
        easts.append(
          location.horizontalAccuracy < 0
            ? easts.last ?? 0 : error(of: location, from: tokyo).east)
      }
      let expected = exp(-spacing * Double(lag) / 30)
      let measured = autocorrelation(easts, lag: lag)
      #expect(abs(measured - expected) < (lag == 1 ? 0.02 : 0.1), "spacing \(spacing) lag \(lag)")
    }
  }

  func autocorrelation(_ x: [Double], lag: Int) -> Double {
    let mean = x.reduce(0, +) / Double(x.count)
    var numerator = 0.0
    var denominator = 0.0
    for i in x.indices {
      let d = x[i] - mean
      denominator += d * d
      if i + lag < x.count { numerator += d * (x[i + lag] - mean) }
    }
    return numerator / denominator
  }

  @Test func urbanCanyonFixesAreWorseThanOpenSkyFixes() throws {
    func rms(_ kind: EnvironmentKind, seed: UInt64) throws -> Double {
      let sensor = try model(try still(), kind, seed: seed)
      var sum = 0.0
      var count = 0.0
      for step in 0..<2_000 {
        let location = try #require(
          fix(
            sensor.reading(
              at: .seconds(Double(step) * 300), desiredAccuracy: -1, reducedAccuracy: false)))
        guard location.horizontalAccuracy >= 0 else { continue }
        let (east, north) = error(of: location, from: tokyo)
        sum += east * east + north * north
        count += 1
      }
      return (sum / count).squareRoot()
    }
    #expect(try rms(.urbanCanyon, seed: 1) > 4 * rms(.openSky, seed: 2))
  }

  @Test func anOutageSilencesFixesButNotTheCoarseEstimate() throws {
    let sensor = try model(try still(), .outage)
    for second in 0..<100 {
      let time = SimTime.seconds(Double(second))
      for accuracy in [-2.0, -1, 10, 100, 1_000, 3_000] {
        #expect(
          sensor.reading(at: time, desiredAccuracy: accuracy, reducedAccuracy: false) == .silent)
      }
      #expect(sensor.reading(at: time, desiredAccuracy: -1, reducedAccuracy: true) == .silent)
      #expect(sensor.coarseEstimate(at: time) != nil)
    }
  }

  @Test func beforeTheTrajectoryStartsThereIsNothing() throws {
    let trajectory = try Trajectory([TrajectorySample(time: .seconds(100), coordinate: tokyo)])
    let sensor = try model(trajectory)
    #expect(
      sensor.reading(at: .seconds(99), desiredAccuracy: -1, reducedAccuracy: false) == .silent)
    #expect(sensor.coarseEstimate(at: .seconds(99)) == nil)
    #expect(
      fix(sensor.reading(at: .seconds(100), desiredAccuracy: -1, reducedAccuracy: false)) != nil)
  }

  @Test func invalidFixesComeAtTheConfiguredRateWithAccuracyMinusOne() throws {
    var parameters = SensorParameters()
    parameters.invalidFixProbability = 0.05
    let sensor = try model(try still(), parameters: parameters)
    var invalid = 0
    let n = 20_000
    for second in 0..<n {
      let location = try #require(
        fix(
          sensor.reading(at: .seconds(Double(second)), desiredAccuracy: -1, reducedAccuracy: false))
      )
      if location.horizontalAccuracy < 0 {
        invalid += 1
        #expect(location.horizontalAccuracy == -1)
        #expect(location.speed == -1 && location.course == -1)
      }
    }
    // Standard error √(p(1−p)/n) ≈ 0.0015.
    #expect(abs(Double(invalid) / Double(n) - 0.05) < 0.006)
    #expect(SensorParameters().invalidFixProbability == 0.002)
  }

  @Test func gnssFixesMeasureSpeedAndCourseAroundTheTruth() throws {
    let sensor = try model(try eastbound(speed: 10))
    var speeds = 0.0
    var courses = 0.0
    for second in 0..<3_000 {
      let location = try #require(
        fix(
          sensor.reading(at: .seconds(Double(second)), desiredAccuracy: -1, reducedAccuracy: false))
      )
      guard location.horizontalAccuracy >= 0 else { continue }
      #expect(abs(location.speed - 10) < 1.5)
      #expect(abs(location.course - 90) < 10)
      speeds += location.speed
      courses += location.course
    }
    #expect(abs(speeds / 3_000 - 10) < 0.05)
    #expect(abs(courses / 3_000 - 90) < 0.2)
  }

  @Test func aPhoneStandingStillMostlyReportsAnUnknownCourse() throws {
    let sensor = try model(try still())
    var unknown = 0
    for second in 0..<2_000 {
      let location = try #require(
        fix(
          sensor.reading(at: .seconds(Double(second)), desiredAccuracy: -1, reducedAccuracy: false))
      )
      #expect(location.speed < 1.5)
      if location.course == -1 { unknown += 1 }
    }
    // With 0.2 m/s noise per axis the measured speed exceeds 0.5 m/s with probability e^−3.1.
    #expect(unknown > 1_850)
  }

  @Test func wifiAndCellFixesReportUnknownSpeedAndCourse() throws {
    let sensor = try model(try eastbound(speed: 10))
    for accuracy in [100.0, 1_000, 3_000] {
      let location = try #require(
        fix(
          sensor.reading(at: .seconds(accuracy), desiredAccuracy: accuracy, reducedAccuracy: false))
      )
      #expect(location.speed == -1 && location.course == -1)
    }
  }

  @Test func desiredAccuraciesBetweenTheConstantsTakeTheNextCoarserTier() throws {
    let sensor = try model(try still())
    for (desired, reported) in [
      (-2.0, 5.0), (5, 5), (10, 5), (50, 65), (500, 1_414), (2_000, 3_000), (1e6, 3_000),
    ] {
      var accuracy = -1.0
      var second = desired.magnitude
      while accuracy < 0 {  // skip the rare invalid fix
        second += 1
        accuracy = try #require(
          fix(
            sensor.reading(at: .seconds(second), desiredAccuracy: desired, reducedAccuracy: false))
        )
        .horizontalAccuracy
      }
      #expect(accuracy == reported, "desired \(desired)")
    }
  }

  @Test func approximateLocationsAreCellCentresRecomputedFourTimesAnHour() throws {
    // Walking for two hours, read every second with reduced accuracy.
    let walk = try Geodesic.wgs84.direct(from: tokyo, azimuth: 30, distance: 1.4 * 7_200)
    let trajectory = try Trajectory([
      TrajectorySample(time: .zero, coordinate: tokyo),
      TrajectorySample(time: .seconds(7_200), coordinate: walk.coordinate),
    ])
    let precise = try model(trajectory)
    let anyAccuracy = try model(trajectory, seed: 43)
    var fixes: [Location] = []
    for second in 0..<7_200 {
      let time = SimTime.seconds(Double(second))
      let reading = precise.reading(at: time, desiredAccuracy: -1, reducedAccuracy: true)
      #expect(
        reading == anyAccuracy.reading(at: time, desiredAccuracy: 3_000, reducedAccuracy: true))
      if let location = fix(reading) { fixes.append(location) }
    }
    #expect(fixes.map(\.timestamp) == (0..<8).map { SimTime.seconds(Double($0) * 900) })
    for location in fixes {
      #expect(location.horizontalAccuracy == 5_000)
      #expect(location.speed == -1 && location.course == -1)
      // A cell centre lies halfway between two multiples of 0.1° of latitude.
      let band = (location.coordinate.latitude + 90) / 0.1 - 0.5
      #expect(abs(band - band.rounded()) < 1e-6)
      let truth = try #require(trajectory.state(at: location.timestamp)).coordinate
      let offset = Geodesic.wgs84.inverse(from: truth, to: location.coordinate).distance
      #expect(offset < 8_000)  // half the diagonal of an 11 km cell
    }
    // Snapping loses the position: walking 10 km moves through at most two cells north–south.
    #expect(Set(fixes.map(\.coordinate)).count <= 4)
  }

  @Test func theCoarseEstimateHasAWiFiSizedErrorAndJumpsOnlyWhenAskedTo() throws {
    // No published rate for Wi-Fi jumps: off by default.
    #expect(SensorParameters().coarseJumpsPerHour == 0)
    let steady = try model(try still())
    var sumSquares = 0.0
    var worstCalm = 0.0
    for step in 0..<10_000 {
      let location = try #require(steady.coarseEstimate(at: .seconds(Double(step) * 1_200)))
      #expect(location.horizontalAccuracy == 65)
      let (east, north) = error(of: location, from: tokyo)
      sumSquares += east * east + north * north
      worstCalm = max(worstCalm, (east * east + north * north).squareRoot())
    }
    let perAxis = (sumSquares / 20_000).squareRoot()
    #expect(abs(perAxis - 65 / (-2 * log(0.32)).squareRoot()) < 2)
    #expect(worstCalm < 300)

    var jumping = SensorParameters()
    jumping.coarseJumpsPerHour = 1
    let jumpy = try model(try still(), parameters: jumping)
    var far = 0
    var worst = 0.0
    for step in 0..<86_400 / 5 {
      let location = try #require(jumpy.coarseEstimate(at: .seconds(Double(step) * 5)))
      let (east, north) = error(of: location, from: tokyo)
      let distance = (east * east + north * north).squareRoot()
      if distance > 600 { far += 1 }
      worst = max(worst, distance)
    }
    #expect(far > 0)
    #expect(worst < 1_000 + 5 * 43)
  }

  @Test func theSameSeedGivesTheSameReadingsAndAnotherSeedDifferentOnes() throws {
    func run(seed: UInt64) throws -> [SensorReading] {
      let sensor = try model(try eastbound(speed: 3), .urbanCanyon, seed: seed)
      var readings: [SensorReading] = []
      for second in 0..<500 {
        let time = SimTime.seconds(Double(second) * 1.5)
        readings.append(
          sensor.reading(
            at: time, desiredAccuracy: second % 3 == 0 ? 100 : -1, reducedAccuracy: false))
        if second % 10 == 0, let coarse = sensor.coarseEstimate(at: time) {
          readings.append(.fix(coarse))
        }
      }
      return readings
    }
    #expect(try run(seed: 1) == run(seed: 1))
    #expect(try run(seed: 1) != run(seed: 2))
  }

  @Test func readingFixesDoesNotChangeTheCoarseEstimate() throws {
    let trajectory = try eastbound(speed: 12)
    let busy = try model(trajectory)
    let idle = try model(trajectory)
    for second in 0..<1_800 {
      let time = SimTime.seconds(Double(second))
      _ = busy.reading(at: time, desiredAccuracy: second < 900 ? -1 : 100, reducedAccuracy: false)
      if second % 60 == 0 {
        #expect(busy.coarseEstimate(at: time) == idle.coarseEstimate(at: time))
      }
    }
  }

  @Test func invalidParametersAreReportedByName() throws {
    var parameters = SensorParameters()
    parameters.wifiAccuracy = -5
    let error = try #require(throws: DeviceError.self) { try parameters.validate() }
    #expect(error.code == .invalidArgument)
    #expect(error.message.contains("wifiAccuracy"))
    parameters = SensorParameters()
    parameters.invalidFixProbability = 1.5
    #expect(throws: DeviceError.self) { try parameters.validate() }
    try SensorParameters().validate()
    // The model refuses them too, rather than running with them.
    #expect(throws: DeviceError.self) {
      try SensorModel(
        trajectory: try Trajectory([TrajectorySample(time: .zero, coordinate: tokyo)]),
        environment: nil, parameters: parameters, random: RandomStream(seed: 1))
    }
  }

  /// A phone asked for a fix every microsecond would spend a replay's whole event budget on
  /// fixes: code that sets the parameters meets the same floor as scenario files.
  @Test(arguments: [
    (\SensorParameters.updateInterval, SimDuration(nanoseconds: 1_000)),
    (\.updateInterval, .zero), (\.updateInterval, .seconds(2e9)),
    (\.reducedAccuracyInterval, .milliseconds(9)),
  ])
  func intervalsBelowTenMillisecondsOrAboveABillionSecondsAreRefused(
    interval: WritableKeyPath<SensorParameters, SimDuration> & Sendable, value: SimDuration
  ) throws {
    var parameters = SensorParameters()
    parameters[keyPath: interval] = value
    let error = try #require(throws: DeviceError.self) { try parameters.validate() }
    #expect(error.message.hasSuffix("must be from 0.01 s to 10⁹ s, got \(value)"))
    parameters[keyPath: interval] = SensorParameters.minimumInterval
    try parameters.validate()
  }
}
