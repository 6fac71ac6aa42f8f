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

/// How the simulated phone decides region entries and exits, calibrated to published
/// measurements (docs/DEVICE.md has the calibration).
///
/// The phone decides from its own coarse position estimate (Wi-Fi like), not from the true
/// position: an entry once the estimate is inside the (effective) radius, an exit once it is
/// ``hysteresis`` beyond it, each after the new state has held for ``dwell``; the transition is
/// then delivered after a log-normal latency, or missed with ``missProbability``.
public struct RegionMonitoringParameters: Hashable, Sendable {
  /// How often the coarse estimate is re-evaluated: 10 s [?].
  public var evaluationInterval = SimDuration.seconds(10)
  /// Distance past the boundary before an exit counts: 200 m [A] ("for testing purposes, you
  /// can assume that the minimum distance is approximately 200 meters"). Entries count at the
  /// boundary itself: going 200 m inwards is impossible for the small fences apps use, and with
  /// it walking detection falls far below the measured 82.5 % (docs/DEVICE.md).
  public var hysteresis = 200.0
  /// Time the device must stay past the boundary: 20 s [A].
  public var dwell = SimDuration.seconds(20)
  /// Radii below this act as this: 100 m [3P].
  public var minimumEffectiveRadius = 100.0
  /// Median delay from the decision to the delivery of an entry: 10 s [3P] (Radius Networks
  /// 2015: most triggers within 30 s).
  public var entryLatencyMedian = SimDuration.seconds(10)
  /// Median delay for an exit: 60 s [3P] (openradar 17064346: an exit seen ~190 s late).
  public var exitLatencyMedian = SimDuration.seconds(60)
  /// Spread of the latency's logarithm: 0.9 [?], giving a long tail of minutes as Apple's
  /// "within 3 to 5 minutes on average, if not sooner" allows [A].
  public var latencySigma = 0.9
  /// Probability that a decided transition is never delivered: 0.1 [3P] (with the misses the
  /// dwell and hysteresis cause, about the 82.5 % detection of Shevchenko & Reips 2024).
  public var missProbability = 0.1

  /// The calibrated defaults.
  public init() {}
}
