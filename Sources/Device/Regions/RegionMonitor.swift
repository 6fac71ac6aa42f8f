import Foundation
import Geo
import SimKernel

/// The phone's region engine: decides entries and exits from the positions the phone finds.
///
/// It watches the app's monitored regions, the regions of location-triggered notifications
/// (they share one limit [A]) and the circular conditions of the app's `CLMonitor`s. Each
/// evaluation compares a position (GNSS, Wi-Fi or cell, with its accuracy) with every region
/// using ``RegionMonitoringParameters``; a decided transition is handed to the phone,
/// which applies latency and misses and delivers it. A region registered while the device is
/// already inside starts in its observed state without an event [A]; a monitor's condition
/// starts from the state the app assumed, and its first observed state is decided at once
/// when it differs from an unknown one [A].
final class RegionMonitor {
  /// Who asked for a region to be watched.
  enum Owner: Hashable {
    case app
    case notification(String)
    /// A condition of the app's monitor with this name.
    case monitor(String)
  }

  struct Watch {
    var region: CircularRegion
    var owner: Owner
    /// Identifies this registration, so a replaced region's pending events are dropped.
    var registration: Int
    var believed: RegionState = .unknown
    var candidate: RegionState?
    var candidateSince = SimTime.zero
    /// The decision thresholds as squared chords of the unit sphere, for the fast path.
    var thresholds: ChordThresholds
  }

  /// A region's centre as a unit vector and its thresholds as squared unit-sphere chords,
  /// widened on both sides by more than the mean-radius sphere can differ from WGS84 geodesics
  /// (under 0.6 %), so that only estimates close to a threshold need the exact geodesic.
  struct ChordThresholds {
    var x, y, z: Double
    /// Inside for sure below this; above it but below `innerHigh`, ask the geodesic.
    var innerLow: Double
    var innerHigh: Double
    var outerLow: Double
    /// Outside for sure above this.
    var outerHigh: Double

    init(center: Coordinate, inner: Double, outer: Double) {
      let v = unitVector(center)
      (x, y, z) = (v.x, v.y, v.z)
      func chord2(_ metres: Double) -> Double {
        let half = max(0, min(metres, 20_000_000)) / (2 * Ellipsoid.wgs84MeanRadius)
        let c = 2 * sin(half)
        return c * c
      }
      innerLow = chord2(inner * 0.99 - 1)
      innerHigh = chord2(inner * 1.01 + 1)
      outerLow = chord2(outer * 0.99 - 1)
      outerHigh = chord2(outer * 1.01 + 1)
    }
  }

  // Read and written for every region on every position, never across a call that could reach
  // the monitor again (the predicates passed in are pure): without the runtime's exclusivity
  // check, which cost more than the evaluation of a region far away.
  @exclusivity(unchecked) private(set) var watches: [Watch] = []
  private var nextRegistration = 0
  let parameters: RegionMonitoringParameters

  init(parameters: RegionMonitoringParameters) {
    self.parameters = parameters
  }

  /// The app's monitored regions by identifier.
  var regions: [String: CircularRegion] {
    var result: [String: CircularRegion] = [:]
    for watch in watches where watch.owner == .app {
      result[watch.region.identifier] = watch.region
    }
    return result
  }

  var count: Int { watches.count }

  /// Registers a region, replacing one with the same owner kind and identifier; returns the
  /// registration number.
  @discardableResult
  func watch(_ region: CircularRegion, owner: Owner, believed: RegionState = .unknown) -> Int {
    nextRegistration += 1
    let (inner, outer) = radii(of: region)
    let watch = Watch(
      region: region, owner: owner, registration: nextRegistration, believed: believed,
      thresholds: ChordThresholds(center: region.center, inner: inner, outer: outer))
    if let index = index(of: region.identifier, owner: owner) {
      watches[index] = watch
    } else {
      watches.append(watch)
    }
    return nextRegistration
  }

  func isWatched(identifier: String, owner: Owner) -> Bool {
    index(of: identifier, owner: owner) != nil
  }

  /// Whether a registration is still current (not replaced or removed).
  func isCurrent(_ registration: Int) -> Bool {
    watches.contains { $0.registration == registration }
  }

  func stopMonitoring(identifier: String) {
    watches.removeAll { $0.owner == .app && $0.region.identifier == identifier }
  }

  func unwatch(owner: Owner) {
    watches.removeAll { $0.owner == owner }
  }

  /// Stops watching `owner`'s region `identifier`.
  func unwatch(_ identifier: String, owner: Owner) {
    watches.removeAll { $0.owner == owner && $0.region.identifier == identifier }
  }

  /// How many regions are watched for monitors, and how many for everything else.
  var counts: (monitors: Int, others: Int) {
    var monitors = 0
    for watch in watches { if case .monitor = watch.owner { monitors += 1 } }
    return (monitors, watches.count - monitors)
  }

  func removeAll() { watches.removeAll() }

  func state(of registration: Int) -> RegionState {
    watches.first { $0.registration == registration }?.believed ?? .unknown
  }

  private func index(of identifier: String, owner: Owner) -> Int? {
    let sameKind: (Owner) -> Bool = { other in
      switch (owner, other) {
      case (.app, .app): true
      case (.notification(let a), .notification(let b)): a == b
      case (.monitor(let a), .monitor(let b)): a == b
      default: false
      }
    }
    return watches.firstIndex { sameKind($0.owner) && $0.region.identifier == identifier }
  }

  /// The distances from the centre within which a position counts as inside, and beyond which
  /// one of `accuracy` counts as outside (its uncertainty must lie past the radius).
  private func radii(of region: CircularRegion, accuracy: Double = 0)
    -> (inner: Double, outer: Double)
  {
    let radius = max(region.radius, parameters.minimumEffectiveRadius)
    return (radius, radius + max(parameters.hysteresis, accuracy))
  }

  /// The state a position of `accuracy` metres supports for `region`, or `nil` inside the
  /// hysteresis band, decided by WGS84 geodesic distance.
  func observedState(of region: CircularRegion, estimate: Coordinate, accuracy: Double = 0)
    -> RegionState?
  {
    let (inner, outer) = radii(of: region, accuracy: accuracy)
    let d = Geodesic.wgs84.inverse(from: estimate, to: region.center).distance
    if d <= inner { return .inside }
    if d >= outer { return .outside }
    return nil
  }

  /// Whether a position of `accuracy` metres lies inside a watched region.
  func observesInside(estimate: Coordinate, accuracy: Double) -> Bool {
    let unit = unitVector(estimate)
    return watches.contains {
      observedState(of: $0, estimate: estimate, accuracy: accuracy, unit: unit) == .inside
    }
  }

  /// Whether some watched region's effective boundary is within `limit` metres of
  /// `estimate` (geodesic; 0 inside a region).
  func hasRegionBoundary(within limit: Double, of estimate: Coordinate) -> Bool {
    guard limit >= 0 else { return false }
    let unit = unitVector(estimate)
    let minimumRadius = parameters.minimumEffectiveRadius
    // Read in place: a copy of each watch would retain and release its references, and this
    // runs on every fix.
    return watches.withUnsafeBufferPointer { watches in
      watches.indices.contains { i in
        let reach = max(watches[i].region.radius, minimumRadius) + limit
        let (low, high) = Self.distanceBounds(to: watches[i].thresholds, unit: unit)
        if low > reach { return false }
        if high <= reach { return true }
        return Geodesic.wgs84.inverse(from: estimate, to: watches[i].region.center).distance
          <= reach
      }
    }
  }

  /// Bounds on the geodesic distance in metres from the position `unit` to the watch's
  /// centre: the distance on the mean-radius sphere, within 0.6 % of the WGS84 geodesic,
  /// widened by 1 % and a metre either way. Only a distance this close to a threshold needs
  /// the geodesic itself, which costs twenty times as much; the region engine decides on every
  /// position the phone finds.
  private static func distanceBounds(to t: ChordThresholds, unit: UnitVector) -> (
    low: Double, high: Double
  ) {
    let dx = unit.x - t.x
    let dy = unit.y - t.y
    let dz = unit.z - t.z
    let chord = (dx * dx + dy * dy + dz * dz).squareRoot()
    let sphere = 2 * asin(min(1, chord / 2)) * Ellipsoid.wgs84MeanRadius
    return (sphere * 0.99 - 1, sphere * 1.01 + 1)
  }

  /// ``observedState(of:estimate:accuracy:)`` with a cheap comparison first: the same answer,
  /// the geodesic only near a threshold.
  private func observedState(
    of watch: Watch, estimate: Coordinate, accuracy: Double, unit: UnitVector
  ) -> RegionState? {
    if accuracy > parameters.hysteresis {
      // The outer threshold is the position's own: compare distances, not precomputed chords.
      let (inner, outer) = radii(of: watch.region, accuracy: accuracy)
      let (low, high) = Self.distanceBounds(to: watch.thresholds, unit: unit)
      if high <= inner { return .inside }
      if low >= outer { return .outside }
      if low > inner && high < outer { return nil }
      return observedState(of: watch.region, estimate: estimate, accuracy: accuracy)
    }
    let t = watch.thresholds
    let dx = unit.x - t.x
    let dy = unit.y - t.y
    let dz = unit.z - t.z
    let chord2 = dx * dx + dy * dy + dz * dz
    if chord2 < t.innerLow { return .inside }
    if chord2 > t.outerHigh { return .outside }
    if chord2 > t.innerHigh && chord2 < t.outerLow { return nil }
    return observedState(of: watch.region, estimate: estimate)
  }

  /// Re-evaluates every region against a position of `accuracy` metres at `now`; calls
  /// `decided` for each transition that has dwelt long enough (its watch as updated, the new
  /// state, and the previous one).
  func evaluate(
    estimate: Coordinate, accuracy: Double, now: SimTime,
    decided: (Watch, RegionState, RegionState) -> Void
  ) {
    let unit = unitVector(estimate)
    for i in watches.indices {
      guard
        let observed = observedState(
          of: watches[i], estimate: estimate, accuracy: accuracy, unit: unit)
      else {
        watches[i].candidate = nil
        continue
      }
      if watches[i].believed == .unknown {
        // First evaluation after registration: adopt the observed state silently, except for
        // a monitor's condition, whose first state is an event [A].
        watches[i].believed = observed
        watches[i].candidate = nil
        if case .monitor = watches[i].owner { decided(watches[i], observed, .unknown) }
        continue
      }
      if observed == watches[i].believed {
        watches[i].candidate = nil
        continue
      }
      if watches[i].candidate != observed {
        watches[i].candidate = observed
        watches[i].candidateSince = now
      }
      if now - watches[i].candidateSince >= parameters.dwell {
        let previous = watches[i].believed
        watches[i].believed = observed
        watches[i].candidate = nil
        decided(watches[i], observed, previous)
      }
    }
  }
}
