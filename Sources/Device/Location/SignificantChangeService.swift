import Geo
import SimKernel

/// The phone's significant-change location service (`startMonitoringSignificantLocationChanges`):
/// the one owner of its state. It reads the phone's coarse position estimate — the Wi-Fi and
/// cell-tower position region monitoring uses, never GNSS — and delivers it to the managers
/// that started the service through `locationManager(_:didUpdateLocations:)`.
///
/// The service belongs to the app, not to one process: started once, it keeps watching after
/// the app is terminated and relaunches it in the background for the next change [A]. The
/// relaunched app must start the service again on a manager of its own, which then hears the
/// change at once [A]; until then the change is the phone's cached location [A].
final class SignificantChangeService {
  /// A manager that started the service, not kept alive (the app owns it).
  private final class Subscriber {
    private let reference: Uncounted<LocationManager>
    var manager: LocationManager? { reference.value }
    /// The manager has yet to hear its first, current location.
    var wantsCurrent = true

    init(_ manager: LocationManager) { reference = Uncounted(manager) }
  }

  /// The phone owns this service, so it outlives it.
  private unowned(unsafe) let phone: Phone
  private let sensor: (any LocationSensor)?
  private var subscribers: [Subscriber] = []
  /// Whether the app has the service on; kept when its process ends.
  private(set) var isActive = false
  /// The last location the service delivered, and when: what the next change is measured from.
  private var anchor: (location: Location, time: SimTime)?
  /// A change that relaunched the app, for the manager that starts the service in it.
  private var heldForLaunch: Location?
  private lazy var ticker = phone.simulation.makeTimer { [unowned(unsafe) self] in self.tick() }

  init(phone: Phone, sensor: (any LocationSensor)?) {
    self.phone = phone
    self.sensor = sensor
  }

  private var parameters: SignificantChangeParameters { phone.parameters.significantChanges }

  /// The subscribers whose manager belongs to the running process.
  private var live: [(LocationManager, Subscriber)] {
    let generation = phone.process.generation
    return subscribers.compactMap { s in
      s.manager.flatMap { $0.generation == generation ? ($0, s) : nil }
    }
  }

  // MARK: The managers' requests

  func start(_ manager: LocationManager) {
    guard manager.generation == phone.process.generation else { return }
    guard !phone.authorization.isRefused else {
      phone.record(SignificantChangeEvent.refused(manager: manager.identifier))
      phone.location.call(manager) {
        $0.delegate?.locationManager(
          $0, didFailWithError: LocationError(.denied, "the app is not authorized for location"))
      }
      return
    }
    subscribers.removeAll { $0.manager == nil || $0.manager!.generation != manager.generation }
    guard !subscribers.contains(where: { $0.manager === manager }) else { return }
    subscribers.append(Subscriber(manager))
    isActive = true
    phone.record(SignificantChangeEvent.started(manager: manager.identifier))
    rearm(now: true)
  }

  func stop(_ manager: LocationManager) {
    guard let index = subscribers.firstIndex(where: { $0.manager === manager }) else { return }
    subscribers.remove(at: index)
    phone.record(SignificantChangeEvent.stopped(manager: manager.identifier))
    if live.isEmpty {
      isActive = false
      anchor = nil
      heldForLaunch = nil
      ticker.cancel()
    }
  }

  /// The permission changed: a manager waiting for its first location hears it at once; when
  /// it was withdrawn, the managers using the service are told `denied` [?] (as for standard
  /// updates), and no change is decided until it comes back.
  func authorizationDidChange() {
    if phone.authorization.isAuthorized, live.contains(where: { $0.1.wantsCurrent }) {
      rearm(now: true)
    } else if phone.authorization.isRefused {
      for (manager, _) in live {
        phone.location.call(manager) {
          $0.delegate?.locationManager(
            $0, didFailWithError: LocationError(.denied, "location permission was withdrawn"))
        }
      }
    }
  }

  // MARK: The ticker

  private func rearm(now: Bool = false) {
    guard isActive, sensor != nil else { return ticker.cancel() }
    if now {
      ticker.cancel()
      checkedScheduling { try ticker.arm(after: .zero) }
    } else if !ticker.isArmed {
      checkedScheduling { try ticker.arm(after: parameters.evaluationInterval) }
    }
  }

  private func tick() {
    step()
    rearm()
  }

  private func step() {
    guard isActive, let estimate = sensor?.coarseEstimate(at: phone.simulation.now) else { return }
    let now = phone.simulation.now
    let authorized = phone.authorization.isAuthorized
    // A manager that just started hears the current location: the change that relaunched the
    // app, or the phone's cached location, or the estimate [A].
    for (manager, subscriber) in live where subscriber.wantsCurrent && authorized {
      subscriber.wantsCurrent = false
      let current = heldForLaunch ?? phone.location.lastKnownLocation ?? estimate
      heldForLaunch = nil
      if anchor == nil { anchor = (current, now) }
      phone.location.deliverFromService(told(current), to: manager)
    }
    guard authorized, let (last, time) = anchor else { return }
    let p = parameters
    guard now - time >= p.minimumInterval, estimate.distance(from: last) >= p.distance else {
      return
    }
    decided(estimate, at: now)
  }

  private func decided(_ change: Location, at now: SimTime) {
    anchor = (change, now)
    phone.record(SignificantChangeEvent.decided(location: change))
    if let cause = phone.backgroundEventSuppression() {
      phone.record(SignificantChangeEvent.suppressed(cause: cause))
      return
    }
    phone.authorization.resolveProvisionalAlwaysIfNeeded()
    if phone.process.state == .notRunning {
      // The relaunched app reads the change as the manager's `location` [A] and hears it once
      // it starts the service again.
      heldForLaunch = change
      phone.location.cache(told(change))
    }
    phone.process.wakeForLocationEvent()
    for (manager, subscriber) in live where !subscriber.wantsCurrent {
      phone.location.deliverFromService(told(change), to: manager)
    }
  }

  /// What the app is told of `location`: an approximate location when it has reduced accuracy,
  /// as every location service gives it then [A].
  private func told(_ location: Location) -> Location {
    guard !phone.authorization.isPrecise, let sensor else { return location }
    return sensor.approximate(location)
  }
}

extension Phone {
  /// Why an event of a background location service (significant changes, visits) cannot
  /// reach the app now, or `nil` when it can: it needs the permission, and with When In Use
  /// the app must be in use; Always lets the system wake or relaunch it [A].
  func backgroundEventSuppression() -> RegionSuppression? {
    if !authorization.isAuthorized { return .permission }
    if authorization.status == .authorizedWhenInUse && !location.isInUse { return .appNotInUse }
    return nil
  }
}
