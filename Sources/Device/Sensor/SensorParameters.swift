import Foundation
import Geo
import SimKernel

/// The numbers behind a simulated phone's fixes; every default has its source or is marked as an
/// assumption.
///
/// Sources are tagged as in GeoSim's list of platform facts: [A] Apple's documentation, [3P] a
/// third party (measurement, blog, bug report), [?] an assumption, overridable here.
///
/// Accuracies are the *reported* `horizontalAccuracy` values, in metres. Apple does not say what
/// confidence its radius has; Android documents 68 % for the same quantity and GeoSim assumes the
/// same for iOS [?]. The simulated error is drawn to match: each axis of the east/north error has
/// standard deviation `accuracy / √(−2 ln 0.32)` ≈ `accuracy / 1.51`, so the true position lies
/// outside the reported circle about a third of the time (see
/// ``standardDeviation(forAccuracy:)``).
///
/// The error is not drawn afresh for every fix: real positioning errors drift slowly, so GeoSim
/// models each source's error as a two-dimensional first-order Gauss–Markov process with a
/// correlation time, and consecutive 1 Hz GNSS fixes are strongly correlated like real ones.
public struct SensorParameters: Hashable, Sendable {
  /// How often a phone produces a fix while updating: about 1 Hz with no distance filter
  /// (FIDELITY "Location updates" [?]).
  public var updateInterval: SimDuration = .seconds(1)

  /// Reported accuracy of GNSS fixes under open sky: 5 m, the best value iPhones report since the
  /// 4S [3P developer measurements, e.g. "Where is the iPhone buried, or how accurate is GPS?",
  /// 2013]; Zandbergen measured a median A-GPS error of 8 m on the 3G iPhone [3P Zandbergen 2009,
  /// Transactions in GIS 13(s1)].
  public var gnssOpenSkyAccuracy = 5.0
  /// Reported accuracy of GNSS fixes in an urban canyon: 30 m, so σ ≈ 20 m per axis [?].
  public var gnssUrbanCanyonAccuracy = 30.0
  /// Reported accuracy of Wi-Fi fixes, used indoors and for `hundredMeters`: 65 m, the value
  /// iOS commonly reports for Wi-Fi positions [3P developer observations]; Zandbergen measured a
  /// median Wi-Fi error of 74 m [3P Zandbergen 2009].
  public var wifiAccuracy = 65.0
  /// Reported accuracy for `kilometer`: 1414 m, the value iOS reports for cell-tower positions
  /// [3P Stack Overflow 7402503]; Zandbergen measured a median cellular error of 600 m
  /// [3P Zandbergen 2009].
  public var kilometerAccuracy = 1_414.0
  /// Reported accuracy for `threeKilometers`: 3000 m [3P developer observations].
  public var threeKilometersAccuracy = 3_000.0

  /// Correlation time of the GNSS error: 30 s, so consecutive 1 Hz fixes have correlation
  /// exp(−1/30) ≈ 0.97 [?].
  public var gnssCorrelationTime: SimDuration = .seconds(30)
  /// Correlation time of the Wi-Fi error: 60 s [?].
  public var wifiCorrelationTime: SimDuration = .seconds(60)
  /// Correlation time of the cell-tower error: 300 s [?].
  public var cellCorrelationTime: SimDuration = .seconds(300)

  /// Probability that a fix is invalid (`horizontalAccuracy` −1): 0.002 [?]. Apps must ignore
  /// such fixes ([A] `CLLocation.horizontalAccuracy`); their coordinate is (0, 0), so an app that
  /// does not is easy to catch [?].
  public var invalidFixProbability = 0.002

  /// Standard deviation of each horizontal component of the measured velocity, in m/s: 0.2 [?].
  ///
  /// Speed and course are derived from the noisy velocity vector, so the course is noisier at low
  /// speed, as with Doppler-derived GNSS velocities.
  public var velocityStandardDeviation = 0.2
  /// Below this measured speed, in m/s, the course is reported as unknown (−1): 0.5 [?].
  public var minimumSpeedForCourse = 0.5

  /// With reduced (approximate) accuracy, how often the phone recomputes its location: every
  /// 15 minutes, "about 4 times per hour" [A][3P Radar, "Understanding approximate location in
  /// iOS 14", 2020].
  public var reducedAccuracyInterval: SimDuration = .minutes(15)
  /// Size, in degrees of latitude, of the regions approximate locations snap to: 0.1° (about
  /// 11 km). iOS snaps to predefined regions and its approximate locations are accurate to
  /// 1–20 km [3P Radar]; GeoSim uses one grid of nearly square cells of this size [?].
  public var reducedAccuracyCellSize = 0.1
  /// Reported accuracy of approximate locations: 5000 m, about the 68 % radius of the distance
  /// from a point to its cell's centre for 0.1° cells [?].
  public var reducedAccuracyHorizontalAccuracy = 5_000.0

  /// Reported accuracy of the coarse estimate that drives region monitoring: 65 m, so
  /// σ ≈ 43 m per axis — a Wi-Fi fix rather than GNSS, as iOS reports 65 m for Wi-Fi
  /// positions and Zandbergen (2009) measured a 74 m median Wi-Fi error [3P]. With it the
  /// region engine's walking detection rate and latency match the published field tests
  /// (docs/DEVICE.md, calibration).
  public var coarseAccuracy = 65.0
  /// Correlation time of the coarse estimate's error: 120 s [?].
  public var coarseCorrelationTime: SimDuration = .seconds(120)
  /// How many times per hour, on average, the coarse estimate jumps far off: 0, off by default.
  /// Wi-Fi positions do jump (a moved access point), but no published rate exists, and a jump
  /// while the user sits still makes a phantom exit and entry that no field test reports [?];
  /// the triggers about 1 km from a fence that Radius Networks saw [3P] come from cell
  /// positions where Wi-Fi is sparse (``wifiCoverage``). Set a rate to study jumps.
  public var coarseJumpsPerHour = 0.0
  /// How long a jump lasts on average (exponentially distributed): 60 s [?].
  public var coarseJumpMeanDuration: SimDuration = .seconds(60)
  /// How far a jump moves the coarse estimate, in metres, uniformly distributed: 300–1000 m
  /// [3P Radius Networks 2015] [?].
  public var coarseJumpDistance: ClosedRange<Double> = 300...1_000

  /// The share of open-sky ground where Wi-Fi access points locate the phone: 1, everywhere
  /// (the cities the reference apps run in) [?]. Urban canyons and buildings always have them;
  /// underground and in outages there are none. Coverage is decided per 250 m tile, so a place
  /// keeps it; 0 is the countryside, where region monitoring falls back to cell positions.
  public var wifiCoverage = 1.0
  /// The speed, in m/s, above which Wi-Fi no longer locates the phone: 7 m/s (25 km/h) [?]. From
  /// a car or a train a scan sees each access point too briefly, through the vehicle's body,
  /// to be matched; above it region monitoring has only cell positions. With it the field tests
  /// agree: Radius Networks' triggers about 1 km from the fence were all made driving, and the
  /// Qiita tester's trains were missed or minutes late where walking in was notified at once
  /// [3P] (docs/DEVICE.md, calibration).
  public var wifiMaximumSpeed = 7.0
  /// How long the phone counts as in a vehicle after it last moved faster than
  /// ``wifiMaximumSpeed``: 60 s [?], so that a train's stop at a station or a car at a light
  /// does not bring Wi-Fi positions back (the motion coprocessor's activity changes only after
  /// the new one has lasted).
  public var vehicleHold: SimDuration = .seconds(60)
  /// The spacing of serving cells, in metres: 1000 [?] (urban macro cells are 0.5–2 km apart
  /// [3P]). A cell position is the serving cell's reference point — a point of a grid of this
  /// spacing with a fixed offset per cell — reported with this accuracy, and stays the same
  /// while the phone stays in the cell. Rural cells are several kilometres apart.
  public var cellSpacing = 1_000.0
  /// The serving cells' positions, where they are known (a cell-site database, or a field
  /// test's geography): empty by default, so cells lie on the grid of ``cellSpacing``. When
  /// given, the phone is served by the nearest site and a cell position is that site, reported
  /// with ``cellSpacing`` as its accuracy. A site with no neighbour on one side serves the
  /// ground far out on that side — across a river or a park — as real cells do [3P Radius
  /// Networks 2015: triggers "across the river nearly 1000 meters away"].
  public var cellSites: [Coordinate] = []

  /// The defaults above.
  public init() {}

  /// The confidence of a reported accuracy radius: 68 % [?].
  public static let accuracyConfidence = 0.68

  /// The per-axis standard deviation, in metres, of a circular Gaussian error whose radius of
  /// ``accuracyConfidence`` is `accuracy`.
  ///
  /// The distance of a two-dimensional Gaussian error with per-axis σ follows a Rayleigh
  /// distribution, P(r ≤ R) = 1 − exp(−R² / 2σ²), so σ = R / √(−2 ln(1 − 0.68)) ≈ R / 1.5096.
  public static func standardDeviation(forAccuracy accuracy: Double) -> Double {
    accuracy / (-2 * Foundation.log(1 - accuracyConfidence)).squareRoot()
  }

  /// The shortest ``updateInterval`` and ``reducedAccuracyInterval``: 10 ms. Shorter ones would
  /// flood a replay with fixes (scenario files have the same floor).
  public static let minimumInterval = SimDuration.milliseconds(10)
  /// The longest ``updateInterval`` and ``reducedAccuracyInterval``: 10⁹ s.
  public static let maximumInterval = SimDuration.seconds(1e9)

  /// Checks that every parameter is in its domain.
  ///
  /// - Throws: ``DeviceError`` with code ``DeviceErrorCode/invalidArgument`` naming the first
  ///   parameter out of range.
  public func validate() throws {
    func require(_ condition: Bool, _ name: String, _ value: Any, _ domain: String) throws {
      guard condition else {
        throw DeviceError(.invalidArgument, "\(name) must be \(domain), got \(value)")
      }
    }
    func positive(_ value: Double) -> Bool { value.isFinite && value > 0 }
    func nonNegative(_ value: Double) -> Bool { value.isFinite && value >= 0 }
    let intervals = Self.minimumInterval...Self.maximumInterval
    for (name, value) in [
      ("updateInterval", updateInterval), ("reducedAccuracyInterval", reducedAccuracyInterval),
    ] {
      try require(intervals.contains(value), name, value, "from 0.01 s to 10⁹ s")
    }
    for (name, value) in [
      ("gnssOpenSkyAccuracy", gnssOpenSkyAccuracy),
      ("gnssUrbanCanyonAccuracy", gnssUrbanCanyonAccuracy), ("wifiAccuracy", wifiAccuracy),
      ("kilometerAccuracy", kilometerAccuracy),
      ("threeKilometersAccuracy", threeKilometersAccuracy),
      ("reducedAccuracyHorizontalAccuracy", reducedAccuracyHorizontalAccuracy),
      ("coarseAccuracy", coarseAccuracy),
    ] {
      try require(positive(value), name, value, "a positive number of metres")
    }
    for (name, value) in [
      ("gnssCorrelationTime", gnssCorrelationTime), ("wifiCorrelationTime", wifiCorrelationTime),
      ("cellCorrelationTime", cellCorrelationTime),
      ("coarseCorrelationTime", coarseCorrelationTime),
      ("coarseJumpMeanDuration", coarseJumpMeanDuration),
    ] {
      try require(value >= .zero, name, value, "zero or positive")
    }
    try require(
      (0...1).contains(invalidFixProbability), "invalidFixProbability", invalidFixProbability,
      "in [0, 1]")
    try require(
      nonNegative(velocityStandardDeviation), "velocityStandardDeviation",
      velocityStandardDeviation, "a finite number ≥ 0")
    try require(
      nonNegative(minimumSpeedForCourse), "minimumSpeedForCourse", minimumSpeedForCourse,
      "a finite number ≥ 0")
    try require(
      positive(reducedAccuracyCellSize) && reducedAccuracyCellSize <= 90,
      "reducedAccuracyCellSize", reducedAccuracyCellSize, "in (0, 90] degrees")
    try require(
      (0...1).contains(wifiCoverage), "wifiCoverage", wifiCoverage, "in [0, 1]")
    try require(
      nonNegative(wifiMaximumSpeed), "wifiMaximumSpeed", wifiMaximumSpeed, "a finite number ≥ 0")
    try require(
      (.zero...Self.maximumInterval).contains(vehicleHold), "vehicleHold", vehicleHold,
      "from 0 to 10⁹ s")
    try require(
      positive(cellSpacing) && cellSpacing <= 100_000, "cellSpacing", cellSpacing,
      "in (0, 100000] metres")
    try require(
      nonNegative(coarseJumpsPerHour), "coarseJumpsPerHour", coarseJumpsPerHour,
      "a finite number ≥ 0")
    try require(
      nonNegative(coarseJumpDistance.lowerBound) && coarseJumpDistance.upperBound.isFinite,
      "coarseJumpDistance", coarseJumpDistance, "a finite range of metres ≥ 0")
  }
}
