import Geo
import SimKernel

/// The phone's region engine: decides entries and exits from the coarse position estimate.
///
/// It watches the app's monitored regions and the regions of location-triggered
/// notifications (they share one limit [A]). Each evaluation compares the estimate with every
/// region using ``RegionMonitoringParameters``; a decided transition is handed to the phone,
/// which applies latency and misses and delivers it. A region registered while the device is
/// already inside starts in its observed state without an event [A].
final class RegionMonitor {
  /// Who asked for a region to be watched.
  enum Owner: Hashable {
    case app
    case notification(String)
  }

  struct Watch {
    var region: CircularRegion
    var owner: Owner
    /// Identifies this registration, so a replaced region's pending events are dropped.
    var registration: Int
    var believed: RegionState = .unknown
    var candidate: RegionState?
    var candidateSince = SimTime.zero
  }

  private(set) var watches: [Watch] = []
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
  func watch(_ region: CircularRegion, owner: Owner) -> Int {
    nextRegistration += 1
    let watch = Watch(region: region, owner: owner, registration: nextRegistration)
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

  func removeAll() { watches.removeAll() }

  func state(of registration: Int) -> RegionState {
    watches.first { $0.registration == registration }?.believed ?? .unknown
  }

  private func index(of identifier: String, owner: Owner) -> Int? {
    let sameKind: (Owner) -> Bool = { other in
      switch (owner, other) {
      case (.app, .app): true
      case (.notification(let a), .notification(let b)): a == b
      default: false
      }
    }
    return watches.firstIndex { sameKind($0.owner) && $0.region.identifier == identifier }
  }

  /// The state the estimate supports for `watch`, or `nil` inside the hysteresis band.
  func observedState(of region: CircularRegion, estimate: Coordinate) -> RegionState? {
    let radius = max(region.radius, parameters.minimumEffectiveRadius)
    let inner = radius - min(parameters.hysteresis, radius / 2)
    let outer = radius + parameters.hysteresis
    // A spherical distance decides unless it is within 0.5 % of a threshold (WGS84 geodesics
    // differ from a 6371 km sphere by less than that); the exact geodesic decides the rest.
    var d = greatCircleDistance(from: estimate, to: region.center, radius: 6_371_008.8)
    if abs(d - inner) < 0.005 * inner + 1 || abs(d - outer) < 0.005 * outer + 1 {
      d = Geodesic.wgs84.inverse(from: estimate, to: region.center).distance
    }
    if d <= inner { return .inside }
    if d >= outer { return .outside }
    return nil
  }

  /// Re-evaluates every region against `estimate` at `now`; calls `decided` for each transition
  /// that has dwelt long enough (its watch as updated, the new state, and the previous one).
  func evaluate(
    estimate: Coordinate, now: SimTime, decided: (Watch, RegionState, RegionState) -> Void
  ) {
    for i in watches.indices {
      guard let observed = observedState(of: watches[i].region, estimate: estimate) else {
        watches[i].candidate = nil
        continue
      }
      if watches[i].believed == .unknown {
        // First evaluation after registration: adopt the observed state silently.
        watches[i].believed = observed
        watches[i].candidate = nil
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
