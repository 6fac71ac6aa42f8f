import SimKernel

/// How the simulated phone's significant-change location service decides to tell the app
/// (`startMonitoringSignificantLocationChanges()`); docs/DEVICE.md has the sources.
///
/// The phone checks its **coarse** position estimate — the Wi-Fi and cell-tower position that
/// region monitoring uses (``LocationSensor/coarseEstimate(at:)``), never GNSS — every
/// ``evaluationInterval``, and delivers that estimate once it is ``distance`` or more from the
/// last location it delivered and at least ``minimumInterval`` after it.
public struct SignificantChangeParameters: Hashable, Sendable {
  /// Distance from the previously delivered location that counts as significant: 500 m [A]
  /// ("apps can expect a notification as soon as the device moves 500 meters or more from its
  /// previous notification").
  public var distance = 500.0
  /// Shortest time between two deliveries: 5 minutes [A] ("it should not expect notifications
  /// more frequently than once every five minutes").
  public var minimumInterval = SimDuration.minutes(5)
  /// How often the phone compares its coarse estimate with the last delivery: 60 s [?]
  /// (Apple documents no period; the service follows cell-tower changes).
  public var evaluationInterval = SimDuration.seconds(60)

  /// The documented defaults.
  public init() {}
}

/// How the simulated phone detects visits (`startMonitoringVisits()`) from where the phone
/// truly is, and when it tells the app; docs/DEVICE.md has the sources.
///
/// Every ``samplingInterval`` the phone takes its true position (``LocationSensor/truePosition(at:)``).
/// A stay begins at a sample and lasts while the samples stay within ``radius`` of it; once it
/// has lasted ``minimumDwell`` it is a visit, whose arrival is told ``arrivalDelay`` later; the
/// first sample beyond the radius ends it, and its departure is told ``departureDelay`` later.
/// Apple publishes none of these numbers [A], and no field measurement of them was found, so
/// all are assumptions [?] a scenario can change.
public struct VisitParameters: Hashable, Sendable {
  /// How often the position is sampled: 60 s [?].
  public var samplingInterval = SimDuration.seconds(60)
  /// How far from where a stay began the device may wander and still be there: 150 m [?].
  public var radius = 150.0
  /// How long a stay must last to be a visit: 10 minutes [?].
  public var minimumDwell = SimDuration.minutes(10)
  /// Delay from the moment a stay becomes a visit to the arrival's delivery: 5 minutes [?].
  public var arrivalDelay = SimDuration.minutes(5)
  /// Delay from the first sample outside the visit to the departure's delivery: 5 minutes [?].
  public var departureDelay = SimDuration.minutes(5)

  /// The assumed defaults.
  public init() {}
}
