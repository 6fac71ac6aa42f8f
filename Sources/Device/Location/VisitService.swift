import Geo
import SimKernel

/// The phone's visit monitoring (`startMonitoringVisits`): the one owner of the visit detector.
///
/// Stays are found in the **true** trace (``LocationSensor/truePosition(at:)``), not in the
/// coarse estimate: iOS tells visits from all its sensors and its history over minutes, while
/// the coarse estimate alone jumps 300–1000 m about once an hour and would split every long
/// stay in two. What the visit reports — its coordinate and accuracy — is the phone's coarse
/// estimate, averaged over the stay until it became a visit. ``VisitParameters`` has the rule.
///
/// Visit events go to every manager of the app once any of them started the service [A], and
/// the service is the app's: it goes on when the app is terminated, and a visit relaunches the
/// app in the background with Always permission [A].
final class VisitService {
  /// A stay under way: where and when it began, and the estimates taken during it.
  private struct Stay {
    let start: SimTime
    let centre: Coordinate
    /// Whether the stay began after monitoring did, so that its arrival is known.
    let arrivalKnown: Bool
    var last: SimTime
    var estimates: [Location] = []
    /// The visit it became, once it lasted the minimum dwell.
    var visit: Visit?
    /// Whether it became a visit without an arrival event (its arrival was unknown).
    var confirmed = false
  }

  /// The phone owns this service, so it outlives it.
  private unowned(unsafe) let phone: Phone
  private let sensor: (any LocationSensor)?
  /// Whether the app has visit monitoring on; kept when its process ends.
  private(set) var isActive = false
  /// Counts starts, so that a delivery scheduled before a stop is dropped.
  private var session = 0
  private var stay: Stay?
  private lazy var ticker = phone.simulation.makeTimer { [unowned(unsafe) self] in self.tick() }

  init(phone: Phone, sensor: (any LocationSensor)?) {
    self.phone = phone
    self.sensor = sensor
  }

  private var parameters: VisitParameters { phone.parameters.visits }

  // MARK: The managers' requests

  func start(_ manager: LocationManager) {
    guard manager.generation == phone.process.generation else { return }
    guard !phone.authorization.isRefused else {
      phone.record(VisitEvent.refused(manager: manager.identifier))
      phone.location.call(manager) {
        $0.delegate?.locationManager(
          $0, didFailWithError: LocationError(.denied, "the app is not authorized for location"))
      }
      return
    }
    phone.record(VisitEvent.started(manager: manager.identifier))
    guard !isActive else { return }
    isActive = true
    session += 1
    stay = nil
    if sensor != nil { checkedScheduling { try ticker.arm(after: .zero) } }
  }

  func stop(_ manager: LocationManager) {
    guard manager.generation == phone.process.generation, isActive else { return }
    isActive = false
    stay = nil
    ticker.cancel()
    phone.record(VisitEvent.stopped(manager: manager.identifier))
  }

  // MARK: The detector

  private func tick() {
    step()
    if isActive {
      checkedScheduling { try ticker.arm(after: parameters.samplingInterval) }
    }
  }

  private func step() {
    guard let sensor else { return }
    let now = phone.simulation.now
    guard let here = sensor.truePosition(at: now) else { return }
    let estimate = sensor.coarseEstimate(at: now)
    let p = parameters
    guard var current = stay else {
      // The first sample: the device may have been here for long, so the arrival is unknown.
      stay = Stay(start: now, centre: here, arrivalKnown: false, last: now)
      stay!.estimates += estimate.map { [$0] } ?? []
      return
    }
    let inside = Geodesic.wgs84.inverse(from: current.centre, to: here).distance <= p.radius
    guard inside else {
      if let visit = current.visit {
        let departed = Visit(
          coordinate: visit.coordinate, horizontalAccuracy: visit.horizontalAccuracy,
          arrival: visit.arrival, departure: current.last)
        phone.record(VisitEvent.departed(departed))
        schedule(departed, after: p.departureDelay)
      }
      stay = Stay(start: now, centre: here, arrivalKnown: true, last: now)
      stay!.estimates += estimate.map { [$0] } ?? []
      return
    }
    current.last = now
    if current.visit == nil {
      if let estimate { current.estimates.append(estimate) }
      if now - current.start >= p.minimumDwell {
        let visit = Self.visit(from: current)
        current.visit = visit
        if current.arrivalKnown {
          phone.record(VisitEvent.arrived(visit))
          schedule(visit, after: p.arrivalDelay)
        }
      }
    }
    stay = current
  }

  /// The visit a stay became: the mean of its estimates, with their accuracy.
  private static func visit(from stay: Stay) -> Visit {
    let estimates = stay.estimates
    guard !estimates.isEmpty else {
      return Visit(
        coordinate: stay.centre, horizontalAccuracy: -1,
        arrival: stay.arrivalKnown ? stay.start : nil, departure: nil)
    }
    let n = Double(estimates.count)
    // A stay is at most a few hundred metres across: averaging degrees is exact enough there
    // (away from the antimeridian, where the centre's own longitude is kept).
    let latitude = estimates.reduce(0) { $0 + $1.coordinate.latitude } / n
    let longitudes = estimates.map(\.coordinate.longitude)
    let longitude =
      (longitudes.max()! - longitudes.min()! > 180)
      ? stay.centre.longitude : longitudes.reduce(0, +) / n
    let accuracy = estimates.reduce(0) { $0 + $1.horizontalAccuracy } / n
    return Visit(
      coordinate: (try? Coordinate(latitude: latitude, longitude: longitude)) ?? stay.centre,
      horizontalAccuracy: accuracy, arrival: stay.arrivalKnown ? stay.start : nil,
      departure: nil)
  }

  // MARK: Delivery

  private func schedule(_ visit: Visit, after delay: SimDuration) {
    let session = session
    checkedScheduling {
      try phone.simulation.schedule(after: delay) { [weak self] in
        guard let self, self.isActive, self.session == session else { return }
        self.deliver(visit)
      }
    }
  }

  private func deliver(_ visit: Visit) {
    if let cause = phone.backgroundEventSuppression() {
      phone.record(VisitEvent.suppressed(cause: cause))
      return
    }
    phone.authorization.resolveProvisionalAlwaysIfNeeded()
    phone.process.wakeForLocationEvent()
    var visit = visit
    if !phone.authorization.isPrecise, let sensor {
      // With reduced accuracy the visit says so in its accuracy [A]: the approximate location.
      let place = sensor.approximate(
        Location(
          coordinate: visit.coordinate, horizontalAccuracy: visit.horizontalAccuracy,
          timestamp: phone.simulation.now))
      visit = Visit(
        coordinate: place.coordinate, horizontalAccuracy: place.horizontalAccuracy,
        arrival: visit.arrival, departure: visit.departure)
    }
    phone.location.callEachManager { m in
      m.phone.record(VisitEvent.didVisit(manager: m.identifier, visit: visit))
      m.delegate?.locationManager(m, didVisit: visit)
    }
  }
}
