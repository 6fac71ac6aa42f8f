import Foundation
import Geo
import SimKernel

/// A simulated phone's positioning: turns the true trajectory into the fixes the phone delivers.
///
/// ## Fixes
/// The desired accuracy picks the positioning source, as on iOS: `bestForNavigation`, `best` and
/// `nearestTenMeters` use GNSS (Wi-Fi indoors), `hundredMeters` Wi-Fi, `kilometer` and
/// `threeKilometers` cell towers; values in between take the next coarser tier. The environment at
/// the true position decides the rest:
///
/// | desired accuracy | open sky | urban canyon | indoor | outage |
/// |---|---|---|---|---|
/// | GNSS tiers | GNSS, 5 m | GNSS, 30 m | Wi-Fi, 65 m | silent |
/// | `hundredMeters` | Wi-Fi, 65 m | Wi-Fi, 65 m | Wi-Fi, 65 m | silent |
/// | `kilometer` | cell, 1414 m | cell, 1414 m | cell, 1414 m | silent |
/// | `threeKilometers` | cell, 3000 m | cell, 3000 m | cell, 3000 m | silent |
///
/// The metres are the reported `horizontalAccuracy` (``SensorParameters``). The error of each
/// source is a two-dimensional Gauss–Markov process (east and north, unit variance, the source's
/// correlation time) scaled to the accuracy's standard deviation, so the error exceeds the
/// reported accuracy about a third of the time and consecutive fixes are correlated. Fixes from
/// GNSS carry a speed and a course measured from the true velocity plus noise (the course is −1
/// below ``SensorParameters/minimumSpeedForCourse``); Wi-Fi and cell fixes report both as −1
/// [?]. Altitude is the true altitude with `verticalAccuracy` −1: vertical error is not modelled
/// yet, and −1 tells apps not to trust the altitude [A]. A small fraction of fixes is invalid
/// (``SensorParameters/invalidFixProbability``).
///
/// With reduced accuracy (iOS 14 approximate location) the fix is the centre of a predefined
/// region of about 11 km, recomputed at most every ``SensorParameters/reducedAccuracyInterval``;
/// the desired accuracy has no effect [A][3P Radar 2020].
///
/// ## The coarse estimate
/// Region monitoring does not wait for GNSS: ``coarseEstimate(at:)`` is a Wi-Fi and cell-tower
/// position with its own slower error and occasional jumps of up to a kilometre. It keeps working
/// in outage areas, where cell positioning still reaches many underground stations, with the same
/// indoor-like error it has everywhere [?].
///
/// ## Randomness
/// Every random number comes from the stream given at creation, split by name into one
/// sub-stream per process (`error.gnss`, `error.wifi`, `error.cell`, `invalid`, `velocity`,
/// `coarse`, `coarse.jumps`), so how often one process is used never shifts another: the coarse
/// estimate is the same whatever fixes are read in between. The Gauss–Markov processes advance
/// with their exact transition over any gap, so sampling at 1 Hz or once an hour gives errors
/// with the right correlation for that gap.
///
/// ## Cost
/// A reading allocates nothing. It costs a trajectory lookup (O(1) for increasing times; between
/// samples one midpoint step of the geodesic equations, within 0.2 mm of the exact position, see
/// `Trajectory.fastState(at:cursor:)`), an environment lookup (no GEOS call away from area
/// edges), two normal deviates for the error and two for the velocity. Offsets are applied with
/// local radii of curvature (first order, exact to millimetres for GNSS-sized errors), not a
/// projection.
///
/// One model per simulated phone; it is not `Sendable` and belongs to its world's thread.
public final class SensorModel: LocationSensor {
  /// The ground truth.
  public let trajectory: Trajectory
  /// How often fixes are produced while updates run (``SensorParameters/updateInterval``).
  public var updateInterval: SimDuration { parameters.updateInterval }
  /// Where positioning is degraded or silent; `nil` is open sky everywhere.
  public let environment: SensorEnvironment?
  /// The numbers behind the fixes.
  public let parameters: SensorParameters

  // The state each reading advances: changed only by the values' own mutating methods, which
  // never reach the model again, so without the runtime's exclusivity check on every reading.
  @exclusivity(unchecked) private var cursor = Trajectory.Cursor()
  @exclusivity(unchecked) private var coarseCursor = Trajectory.Cursor()
  @exclusivity(unchecked) private var truthCursor = Trajectory.Cursor()
  @exclusivity(unchecked) private var regionCursor = Trajectory.Cursor()
  private let cellTowers: CellGrid
  @exclusivity(unchecked) private var regionGNSSError: GaussMarkovProcess
  private let wifiTiles: CellGrid
  @exclusivity(unchecked) private var gnssError: GaussMarkovProcess
  @exclusivity(unchecked) private var wifiError: GaussMarkovProcess
  @exclusivity(unchecked) private var cellError: GaussMarkovProcess
  @exclusivity(unchecked) private var coarseError: GaussMarkovProcess
  @exclusivity(unchecked) private var coarseJumps: OutlierSchedule
  @exclusivity(unchecked) private var invalidRandom: RandomStream
  @exclusivity(unchecked) private var velocityRandom: RandomStream
  /// When the next approximate location may be computed.
  @exclusivity(unchecked) private var nextApproximateFix = Int64.min

  private let gnssOpenSkySigma: Double
  private let gnssUrbanCanyonSigma: Double
  private let wifiSigma: Double
  private let kilometerSigma: Double
  private let threeKilometersSigma: Double
  private let coarseSigma: Double

  /// Creates the model of one phone.
  ///
  /// - Parameters:
  ///   - trajectory: where the phone truly is.
  ///   - environment: outage, indoor and urban-canyon areas; `nil` for open sky everywhere.
  ///   - parameters: the numbers behind the fixes; they must pass
  ///     ``SensorParameters/validate()``; otherwise the initialiser throws its error.
  ///   - random: the phone's stream, for example `simulation.random.stream("sensor")`.
  public init(
    trajectory: Trajectory, environment: SensorEnvironment?,
    parameters: SensorParameters = .init(), random: RandomStream
  ) throws {
    try parameters.validate()
    self.trajectory = trajectory
    self.environment = environment
    self.parameters = parameters
    gnssError = GaussMarkovProcess(
      correlationTime: parameters.gnssCorrelationTime, random: random.split("error.gnss"))
    wifiError = GaussMarkovProcess(
      correlationTime: parameters.wifiCorrelationTime, random: random.split("error.wifi"))
    cellError = GaussMarkovProcess(
      correlationTime: parameters.cellCorrelationTime, random: random.split("error.cell"))
    coarseError = GaussMarkovProcess(
      correlationTime: parameters.coarseCorrelationTime, random: random.split("coarse"))
    coarseJumps = OutlierSchedule(
      origin: trajectory.startTime.nanoseconds, perHour: parameters.coarseJumpsPerHour,
      meanDuration: parameters.coarseJumpMeanDuration, distance: parameters.coarseJumpDistance,
      random: random.split("coarse.jumps"))
    invalidRandom = random.split("invalid")
    cellTowers = CellGrid(spacing: parameters.cellSpacing, random: random.split("cells"))
    regionGNSSError = GaussMarkovProcess(
      correlationTime: parameters.gnssCorrelationTime, random: random.split("region.gnss"))
    wifiTiles = CellGrid(spacing: 250, random: random.split("wifi.tiles"))
    velocityRandom = random.split("velocity")
    let sigma = SensorParameters.standardDeviation(forAccuracy:)
    gnssOpenSkySigma = sigma(parameters.gnssOpenSkyAccuracy)
    gnssUrbanCanyonSigma = sigma(parameters.gnssUrbanCanyonAccuracy)
    wifiSigma = sigma(parameters.wifiAccuracy)
    kilometerSigma = sigma(parameters.kilometerAccuracy)
    threeKilometersSigma = sigma(parameters.threeKilometersAccuracy)
    coarseSigma = sigma(parameters.coarseAccuracy)
  }

  /// The fix the phone's positioning yields at `time`, or ``SensorReading/silent``.
  ///
  /// - Parameters:
  ///   - time: when the fix is determined; it becomes the fix's timestamp. Readings are meant to
  ///     be taken in increasing time order (any order gives valid fixes, but a time before the
  ///     previous reading repeats the previous error).
  ///   - desiredAccuracy: the app's `desiredAccuracy` in metres (``LocationAccuracy``).
  ///   - reducedAccuracy: whether the app has only approximate location.
  public func reading(at time: SimTime, desiredAccuracy: Double, reducedAccuracy: Bool)
    -> SensorReading
  {
    guard let truth = trajectory.fastState(at: time, cursor: &cursor) else { return .silent }
    let place = truth.coordinate
    let kind =
      environment?.kind(longitude: place.longitude, latitude: place.latitude) ?? .openSky
    if kind >= .underground { return .silent }
    if reducedAccuracy { return approximateReading(truth, at: time) }

    let t = time.nanoseconds
    let error: (east: Double, north: Double)
    let sigma: Double
    let accuracy: Double
    var measuresVelocity = false
    switch Tier(desiredAccuracy) {
    case .gnss where kind == .indoor, .hundredMeters:
      error = wifiError.advance(to: t)
      sigma = wifiSigma
      accuracy = parameters.wifiAccuracy
    case .gnss:
      error = gnssError.advance(to: t)
      measuresVelocity = true
      if kind == .urbanCanyon {
        sigma = gnssUrbanCanyonSigma
        accuracy = parameters.gnssUrbanCanyonAccuracy
      } else {
        sigma = gnssOpenSkySigma
        accuracy = parameters.gnssOpenSkyAccuracy
      }
    case .kilometer:
      error = cellError.advance(to: t)
      sigma = kilometerSigma
      accuracy = parameters.kilometerAccuracy
    case .threeKilometers:
      error = cellError.advance(to: t)
      sigma = threeKilometersSigma
      accuracy = parameters.threeKilometersAccuracy
    }

    if invalidRandom.nextUnit() < parameters.invalidFixProbability {
      return .fix(
        Location(
          coordinate: SensorModel.nullIsland, altitude: truth.altitude, horizontalAccuracy: -1,
          timestamp: time))
    }
    let coordinate = MetricOffset.apply(
      east: sigma * error.east, north: sigma * error.north, to: place)
    var speed = -1.0
    var course = -1.0
    if measuresVelocity {
      (speed, course) = measuredVelocity(truth)
    }
    return .fix(
      Location(
        coordinate: coordinate, altitude: truth.altitude, horizontalAccuracy: accuracy,
        speed: speed, course: course, timestamp: time))
  }

  /// The true speed at `time` (what the phone's motion sensors feel), `nil` outside the
  /// trajectory.
  public func trueSpeed(at time: SimTime) -> Double? {
    trajectory.state(at: time)?.speed
  }

  /// The position that region monitoring works from at `time`: a Wi-Fi and cell-tower estimate,
  /// or `nil` before the trajectory starts.
  ///
  /// Its error is a Gauss–Markov process of σ ≈ 100 m per axis and a 120 s correlation time
  /// (``SensorParameters/coarseAccuracy``, ``SensorParameters/coarseCorrelationTime``), plus
  /// occasional episodes, about one an hour and a minute long, when it is 300–1000 m off: field
  /// tests saw some region triggers about 1 km from the fence [3P Radius Networks 2015]. It is
  /// available in outage areas too (see the type's discussion) and does not depend on how
  /// ``reading(at:desiredAccuracy:reducedAccuracy:)`` is called. Speed and course are −1.
  public func coarseEstimate(at time: SimTime) -> Location? {
    guard let truth = trajectory.fastState(at: time, cursor: &coarseCursor) else { return nil }
    let t = time.nanoseconds
    let error = coarseError.advance(to: t)
    var east = coarseSigma * error.east
    var north = coarseSigma * error.north
    if let jump = coarseJumps.offset(at: t) {
      east += jump.east
      north += jump.north
    }
    return Location(
      coordinate: MetricOffset.apply(east: east, north: north, to: truth.coordinate),
      altitude: truth.altitude, horizontalAccuracy: parameters.coarseAccuracy, timestamp: time)
  }

  /// The position `source` gives region monitoring at `time`: Wi-Fi and cell need the network
  /// (`connected`) to be located [A].
  ///
  /// - Wi-Fi: the coarse estimate (``coarseEstimate(at:)``), where there are access points: in
  ///   urban canyons and buildings, and on the share ``SensorParameters/wifiCoverage`` of
  ///   open-sky tiles; not underground or in outages, and not above
  ///   ``SensorParameters/wifiMaximumSpeed``.
  /// - Cell: the serving cell's reference point, reported with the accuracy
  ///   ``SensorParameters/cellSpacing``; everywhere but in outages.
  /// - GNSS: a fix of the phone's own, under open sky or in an urban canyon, for when region
  ///   monitoring turns GNSS on briefly (its own error process, so that it does not disturb the
  ///   app's fixes).
  public func regionPosition(at time: SimTime, from source: PositioningSource, connected: Bool)
    -> Location?
  {
    guard connected || source == .gnss,
      let truth = trajectory.fastState(at: time, cursor: &regionCursor)
    else { return nil }
    let place = truth.coordinate
    let kind = environment?.kind(longitude: place.longitude, latitude: place.latitude) ?? .openSky
    switch source {
    case .wifi:
      guard kind < .underground, kind != .openSky || hasWifi(at: place), !inVehicle(at: time)
      else { return nil }
      return coarseEstimate(at: time)
    case .cell:
      guard kind != .outage else { return nil }
      return Location(
        coordinate: cellPosition(serving: place), altitude: truth.altitude,
        horizontalAccuracy: parameters.cellSpacing, timestamp: time)
    case .gnss:
      guard kind <= .urbanCanyon else { return nil }
      let urban = kind == .urbanCanyon
      let sigma = urban ? gnssUrbanCanyonSigma : gnssOpenSkySigma
      let error = regionGNSSError.advance(to: time.nanoseconds)
      return Location(
        coordinate: MetricOffset.apply(
          east: sigma * error.east, north: sigma * error.north, to: place),
        altitude: truth.altitude,
        horizontalAccuracy: urban
          ? parameters.gnssUrbanCanyonAccuracy : parameters.gnssOpenSkyAccuracy,
        timestamp: time)
    }
  }

  /// The position of the cell that serves `place`: the nearest of the given sites, else the
  /// grid's.
  private func cellPosition(serving place: Coordinate) -> Coordinate {
    let sites = parameters.cellSites
    guard !sites.isEmpty else { return cellTowers.position(serving: place) }
    // Nearest by the equirectangular approximation: exact enough to pick among sites
    // hundreds of metres apart, and cheap on every tick.
    let scale = cos(place.latitude * .pi / 180)
    var best = sites[0]
    var bestDistance = Double.infinity
    for site in sites {
      let dy = site.latitude - place.latitude
      var dx = site.longitude - place.longitude
      if dx > 180 { dx -= 360 } else if dx < -180 { dx += 360 }
      let d = dy * dy + (dx * scale) * (dx * scale)
      if d < bestDistance { (best, bestDistance) = (site, d) }
    }
    return best
  }

  /// Whether the phone moved faster than ``SensorParameters/wifiMaximumSpeed`` within the last
  /// ``SensorParameters/vehicleHold`` (checked every 10 s of it).
  private func inVehicle(at time: SimTime) -> Bool {
    let hold = parameters.vehicleHold.nanoseconds
    var back: Int64 = 0
    while true {
      let t = SimTime(nanoseconds: time.nanoseconds &- back)
      if let state = trajectory.state(at: t), state.speed > parameters.wifiMaximumSpeed {
        return true
      }
      if back >= hold { return false }
      back = min(hold, back + 10_000_000_000)
    }
  }

  /// Whether the open-sky tile of `place` has Wi-Fi access points.
  private func hasWifi(at place: Coordinate) -> Bool {
    let coverage = parameters.wifiCoverage
    if coverage >= 1 { return true }
    if coverage <= 0 { return false }
    var tile = wifiTiles.tile(of: place).random
    return tile.nextUnit() < coverage
  }

  /// The true position at `time` (the trajectory's), or `nil` before the trajectory starts. It
  /// reads the trajectory with its own cursor, so it does not disturb the other readings.
  public func truePosition(at time: SimTime) -> Coordinate? {
    trajectory.fastState(at: time, cursor: &truthCursor)?.coordinate
  }

  /// The approximate location an app with reduced accuracy is told of `location`: the centre
  /// of its grid cell, with the approximate accuracy, as the fixes of
  /// ``reading(at:desiredAccuracy:reducedAccuracy:)`` are [A][3P Radar 2020].
  public func approximate(_ location: Location) -> Location {
    Location(
      coordinate: ApproximateLocationGrid.centre(
        of: location.coordinate, size: parameters.reducedAccuracyCellSize),
      altitude: location.altitude,
      horizontalAccuracy: parameters.reducedAccuracyHorizontalAccuracy,
      timestamp: location.timestamp)
  }

  /// The approximate location, if one is due: the centre of the truth's grid cell.
  private func approximateReading(_ truth: TrueState, at time: SimTime) -> SensorReading {
    let t = time.nanoseconds
    guard t >= nextApproximateFix else { return .silent }
    nextApproximateFix = t &+ parameters.reducedAccuracyInterval.nanoseconds
    let centre = ApproximateLocationGrid.centre(
      of: truth.coordinate, size: parameters.reducedAccuracyCellSize)
    return .fix(
      Location(
        coordinate: centre, altitude: truth.altitude,
        horizontalAccuracy: parameters.reducedAccuracyHorizontalAccuracy, timestamp: time))
  }

  /// Speed and course from the true velocity plus independent noise on its east and north
  /// components; the course is −1 below the minimum speed.
  @inline(__always)
  private func measuredVelocity(_ truth: TrueState) -> (speed: Double, course: Double) {
    let (a, b) = velocityRandom.normalPair()
    let noise = parameters.velocityStandardDeviation
    let heading = truth.course * (Double.pi / 180)
    let east = truth.speed * sin(heading) + noise * a
    let north = truth.speed * cos(heading) + noise * b
    let speed = (east * east + north * north).squareRoot()
    guard speed >= parameters.minimumSpeedForCourse, speed > 0 else { return (speed, -1) }
    return (speed, Trajectory.course(atan2(east, north) * (180 / Double.pi)))
  }

  /// The placeholder coordinate of invalid fixes.
  private static let nullIsland = try! Coordinate(latitude: 0, longitude: 0)

  /// The positioning source a desired accuracy asks for.
  private enum Tier {
    case gnss
    case hundredMeters
    case kilometer
    case threeKilometers

    /// The tier of the smallest accuracy constant at or above `desiredAccuracy`; negative values
    /// (best, best for navigation) and NaN ask for GNSS.
    @inline(__always)
    init(_ desiredAccuracy: Double) {
      if desiredAccuracy > LocationAccuracy.kilometer {
        self = .threeKilometers
      } else if desiredAccuracy > LocationAccuracy.hundredMeters {
        self = .kilometer
      } else if desiredAccuracy > LocationAccuracy.nearestTenMeters {
        self = .hundredMeters
      } else {
        self = .gnss
      }
    }
  }
}

/// A grid of nearly square tiles of a given spacing in metres (rows of latitude, each cut into
/// columns of the same width in metres), each with its own fixed random numbers: the serving
/// cells of cell positioning and the tiles of Wi-Fi coverage.
struct CellGrid {
  let spacing: Double
  private let seed: UInt64
  private static let metresPerDegree = 111_320.0

  init(spacing: Double, random: RandomStream) {
    self.spacing = spacing
    var random = random
    seed = random.next()
  }

  /// One tile: its row and column, and a random stream that only it has.
  struct Tile {
    var row: Int64
    var column: Int64
    var random: RandomStream
  }

  func tile(of place: Coordinate) -> Tile {
    let height = spacing / Self.metresPerDegree
    let row = (place.latitude / height).rounded(.down)
    let width = columnWidth(row: row)
    let column = ((place.longitude + 180) / width).rounded(.down)
    let r = Int64(row)
    let c = Int64(column)
    // SplitMix-style mixing of the seed with the tile's indices.
    var key = seed ^ (UInt64(bitPattern: r) &* 0x9E37_79B9_7F4A_7C15)
    key ^= UInt64(bitPattern: c) &* 0xC2B2_AE3D_27D4_EB4F
    key = (key ^ (key >> 31)) &* 0x94D0_49BB_1331_11EB
    return Tile(row: r, column: c, random: RandomStream(seed: key ^ (key >> 29)))
  }

  /// The width in degrees of longitude of the tiles of `row`: `spacing` metres at the row's
  /// middle latitude (at most a whole turn near the poles).
  private func columnWidth(row: Double) -> Double {
    let height = spacing / Self.metresPerDegree
    let middle = min(89.9, abs((row + 0.5) * height))
    return min(360, spacing / (Self.metresPerDegree * cos(middle * .pi / 180)))
  }

  /// The reference point of the cell that serves `place`: the tile's centre moved by a fixed
  /// offset of σ = spacing / 4 per axis, so that neighbouring cells' points are not a lattice.
  func position(serving place: Coordinate) -> Coordinate {
    var tile = tile(of: place)
    let height = spacing / Self.metresPerDegree
    let width = columnWidth(row: Double(tile.row))
    let latitude = min(90, max(-90, (Double(tile.row) + 0.5) * height))
    let longitude = (Double(tile.column) + 0.5) * width - 180
    let centre =
      (try? Coordinate(latitude: latitude, longitude: longitude)) ?? place
    let (east, north) = (tile.random.normal(), tile.random.normal())
    return MetricOffset.apply(east: east * spacing / 4, north: north * spacing / 4, to: centre)
  }
}
