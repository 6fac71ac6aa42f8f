import SimKernel

/// The phone's behaviour numbers, each with its source; every one can be overridden.
///
/// Sources: [A] Apple's documentation, [3P] third-party measurement, [?] an assumption (see
/// FIDELITY.md and docs/DEVICE.md).
public struct PhoneParameters: Hashable, Sendable {
  /// Time an app keeps running after entering the background before it is suspended: about
  /// 5 s [A] (`applicationDidEnterBackground(_:)` "has approximately five seconds").
  public var backgroundGracePeriod = SimDuration.seconds(5)
  /// Time a terminated app relaunched for a region event has before it is suspended again:
  /// about 10 s [A].
  public var regionRelaunchWindow = SimDuration.seconds(10)
  /// Probability that starting updates first delivers the cached last fix with its old
  /// timestamp: 0.5 [?] (stale cached first fixes happen [A][3P]; their rate is unpublished).
  public var staleFirstFixProbability = 0.5
  /// How long ``LocationManager/requestLocation()`` waits for a good enough fix before
  /// delivering the best one: 10 s [?].
  public var oneShotTimeout = SimDuration.seconds(10)
  /// Speed below which the device counts as stationary for automatic pausing: 0.5 m/s [?].
  public var stationarySpeed = 0.5
  /// Stationary time after which updates pause, by activity type [?] (Apple documents only
  /// that pausing depends on the activity type [A]).
  public var pauseAfter: [ActivityType: SimDuration] = [
    .automotiveNavigation: .minutes(10), .otherNavigation: .minutes(10), .fitness: .minutes(15),
    .other: .minutes(15), .airborne: .minutes(30),
  ]
  /// Still time (true speed below ``stationarySpeed``) after which a live-updates stream
  /// pauses with an `isStationary` update: 2 min [?] (Apple documents the pause and the
  /// resumption when the device moves [A], not the time).
  public var liveUpdatesStationaryAfter = SimDuration.minutes(2)
  /// Time without a fix after which a live-updates stream reports `locationUnavailable`, once
  /// per outage: 10 s [?] (Apple names the diagnostic, not when it is set).
  public var liveUpdatesUnavailableAfter = SimDuration.seconds(10)
  /// The largest region radius that can be monitored: 400 km [?] (CLLocationManager reports a
  /// device-dependent value; larger radii fail with `monitoringDidFailFor` [A]).
  public var maximumRegionMonitoringDistance = 400_000.0
  /// Regions an app may monitor, shared with location-triggered notifications: 20 [A].
  public var maximumMonitoredRegions = 20
  /// Whether the conditions of the app's monitors (`CLMonitor`) count against
  /// ``maximumMonitoredRegions``: `true` [?] (Apple reports `conditionLimitExceeded` but
  /// documents neither the number nor whether regions share it).
  public var monitorConditionsShareRegionLimit = true
  /// The conditions an app's monitors may hold when they do not share the region limit: 20 [?].
  public var maximumMonitorConditions = 20
  /// The region engine's decision rule and timing; see ``RegionMonitoringParameters``.
  public var regionMonitoring = RegionMonitoringParameters()
  /// The significant-change location service's rule; see ``SignificantChangeParameters``.
  public var significantChanges = SignificantChangeParameters()
  /// The visit detector's rule and delays; see ``VisitParameters``.
  public var visits = VisitParameters()

  /// The documented defaults.
  public init() {}
}

/// How the simulated phone decides region entries and exits, from the positioning sources it
/// has at each moment (docs/DEVICE.md has the model and its calibration).
///
/// The phone looks for a low-power position every ``evaluationInterval`` while a watched region
/// is within ``nearDistance`` of where it last found itself, and every ``idleInterval``
/// otherwise: a Wi-Fi position where access points locate it, else its serving cell's, and none
/// without a network connection, underground without cell coverage or in an outage [A]; every
/// GNSS fix the app's own location updates produce is used too. An entry needs a position
/// within the (effective) radius, an exit one whose whole uncertainty lies past the radius
/// plus ``hysteresis``; each after the new state has held for ``dwell``. A decided transition
/// is delivered after a short log-normal delay, in the order the region's transitions were
/// decided, or missed with ``missProbability``.
public struct RegionMonitoringParameters: Hashable, Sendable {
  /// How often the phone looks for a position while a region is near: every 10 s [?].
  public var evaluationInterval = SimDuration.seconds(10)
  /// How often it looks while none is: every 180 s [?], so that an entry that is not
  /// anticipated takes a few minutes, as Apple's "within 3 to 5 minutes on average, if not
  /// sooner" describes [A].
  public var idleInterval = SimDuration.seconds(180)
  /// How close, in metres beyond its radius and the last position's accuracy, a region counts
  /// as near: 1000 m [?].
  public var nearDistance = 1_000.0
  /// Whether the phone turns GNSS on for a look when a region is near and the low-power
  /// position cannot decide it (a cell position that does not put the phone inside a region,
  /// or none), where satellites can be seen and the phone is connected: `true` [?]. A cell
  /// position inside a region is taken as it is, which is how triggers about a kilometre from
  /// a fence come about [3P Radius Networks 2015]. Apple: region monitoring uses "Wi-Fi, cellular and
  /// GPS" [A]; with it a car's arrival is heard within seconds, as Radius Networks saw [3P].
  public var gnssWhenNear = true
  /// Distance past the boundary before an exit counts: 200 m [A] ("for testing purposes, you
  /// can assume that the minimum distance is approximately 200 meters"), or the position's
  /// accuracy when that is larger (a cell position must lie wholly outside) [?]. Entries count
  /// at the boundary itself: going 200 m inwards is impossible for the small fences apps use.
  public var hysteresis = 200.0
  /// Time the device must stay past the boundary: 20 s [A].
  public var dwell = SimDuration.seconds(20)
  /// Radii below this act as this: 100 m [3P].
  public var minimumEffectiveRadius = 100.0
  /// Median delay from the decision to the delivery of an entry: 2 s [?]; the time to a
  /// decision already comes from how often positions are found.
  public var entryLatencyMedian = SimDuration.seconds(2)
  /// Median delay from the decision to the delivery of an exit: 150 s [3P]. Exits come late
  /// even from GNSS positions: openradar 17064346 saw `didExitRegion` about 190 s and 5.3 km
  /// after leaving a region on a freeway, "regardless of the radius", and field reports agree
  /// that exits lag entries; with this delay the calibration's freeway exit lands there.
  public var exitLatencyMedian = SimDuration.seconds(150)
  /// Spread of the delay's logarithm: 0.5 [?].
  public var latencySigma = 0.5
  /// Probability that a decided transition is never delivered: 0 [?], a residual for a device
  /// profile to set; misses follow from the positions the phone has. The field tests do not
  /// settle it: in Radius Networks' test each app missed a few of about 100 triggers (92 came
  /// to both apps, 3 more to one) [3P], and Shevchenko & Reips' 82.5 % pools Android phones
  /// with iPhones [3P] (docs/DEVICE.md, calibration).
  public var missProbability = 0.0

  /// The defaults.
  public init() {}

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
    let intervals = SensorParameters.minimumInterval...SensorParameters.maximumInterval
    for (name, value) in [
      ("evaluationInterval", evaluationInterval), ("idleInterval", idleInterval),
    ] {
      try require(intervals.contains(value), name, value, "from 0.01 s to 10⁹ s")
    }
    for (name, value) in [
      ("nearDistance", nearDistance), ("hysteresis", hysteresis),
      ("minimumEffectiveRadius", minimumEffectiveRadius),
    ] {
      try require(value.isFinite && (0...100_000).contains(value), name, value, "0 to 100000 m")
    }
    for (name, value) in [
      ("dwell", dwell), ("entryLatencyMedian", entryLatencyMedian),
      ("exitLatencyMedian", exitLatencyMedian),
    ] {
      try require(value >= .zero, name, value, "zero or positive")
    }
    try require((0...10).contains(latencySigma), "latencySigma", latencySigma, "in [0, 10]")
    try require(
      (0...1).contains(missProbability), "missProbability", missProbability, "in [0, 1]")
  }
}
