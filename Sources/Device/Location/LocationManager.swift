import Geo
import SimKernel

/// The app's window onto the simulated phone's location services (`CLLocationManager`).
///
/// Names, defaults and semantics follow Apple's: set ``delegate``, ask for permission, start
/// updates or monitoring, and receive everything through the delegate — asynchronously, as
/// kernel events, never inside the call that asked. The delegate is told the authorization when
/// the manager is created and on every change.
public final class LocationManager: LifetimeOwner {
  /// Receives fixes, region events, errors and authorization changes.
  public weak var delegate: (any LocationManagerDelegate)?
  // The settings below are read by the phone's location service for every fix and only ever
  // assigned by the app: no access to them is held across a call into the phone, so they go
  // without the runtime's exclusivity check.

  /// The accuracy the app wants, in metres or a ``LocationAccuracy`` constant; default
  /// ``LocationAccuracy/best`` [A].
  @exclusivity(unchecked) public var desiredAccuracy = LocationAccuracy.best
  /// Metres the device must move from the previously *delivered* fix before the next is
  /// delivered; default ``distanceFilterNone`` [A].
  @exclusivity(unchecked) public var distanceFilter = distanceFilterNone
  /// What the app is doing, which decides when updates pause automatically; default `.other` [A].
  @exclusivity(unchecked) public var activityType = ActivityType.other
  /// Whether updates pause when the device stops; default `true` [A].
  @exclusivity(unchecked) public var pausesLocationUpdatesAutomatically = true
  /// Whether updates continue in the background (needs the location background mode); default
  /// `false` [A].
  @exclusivity(unchecked) public var allowsBackgroundLocationUpdates = false

  /// A number identifying this manager in the event log.
  public let identifier: Int
  /// The phone the manager belongs to.
  public unowned let phone: Phone
  /// The app instance that created the manager; a relaunch makes it stale.
  let generation: Int
  /// Ends when the manager goes away: the phone's services hold it ``Uncounted``.
  package let lifetime = Lifetime()

  /// Creates a manager on `phone` for the running app.
  ///
  /// As on iOS, ``LocationManagerDelegate/locationManagerDidChangeAuthorization(_:)`` follows
  /// asynchronously, once the caller has had the chance to set ``delegate``.
  public init(phone: Phone) {
    self.phone = phone
    self.identifier = phone.location.nextManagerIdentifier()
    self.generation = phone.process.generation
    phone.location.adopt(self)
  }

  deinit { lifetime.end() }

  // MARK: Authorization

  /// The app's authorization status.
  public var authorizationStatus: AuthorizationStatus { phone.authorization.status }

  /// Whether the app gets precise or approximate fixes.
  public var accuracyAuthorization: AccuracyAuthorization { phone.authorization.accuracy }

  /// Whether Location Services are on for the whole phone (`locationServicesEnabled()`, a class
  /// method on iOS; here it asks this manager's phone, as there is no global phone).
  public func locationServicesEnabled() -> Bool { phone.locationServicesEnabled }

  /// Asks for When In Use permission: shows the prompt only from notDetermined, in the
  /// foreground; otherwise does nothing [A].
  public func requestWhenInUseAuthorization() {
    phone.authorization.requestAuthorization(always: false)
  }

  /// Asks for Always permission: the first prompt from notDetermined, or the one-time upgrade
  /// prompt from When In Use [A][3P].
  public func requestAlwaysAuthorization() {
    phone.authorization.requestAuthorization(always: true)
  }

  /// Asks the user for precise location for this session while the app has approximate
  /// location; `purposeKey` must be a key of the app's
  /// ``InfoPlist/locationTemporaryUsageDescriptionDictionary`` [A]. `completion` runs
  /// asynchronously: `nil` once the user has answered, or at once with full accuracy already;
  /// ``LocationErrorCode/promptDeclined`` when the prompt cannot be shown.
  public func requestTemporaryFullAccuracyAuthorization(
    purposeKey: String, completion: @escaping (LocationError?) -> Void = { _ in }
  ) {
    phone.authorization.requestTemporaryFullAccuracy(purposeKey: purposeKey, completion: completion)
  }

  // MARK: Updates

  /// The most recent fix delivered to any manager on the phone, if any.
  public var location: Location? { phone.lastKnownLocation }

  /// Starts delivering fixes; a denied app gets ``LocationErrorCode/denied`` instead.
  public func startUpdatingLocation() {
    phone.location.startUpdates(self)
  }

  /// Stops delivering fixes.
  public func stopUpdatingLocation() {
    phone.location.stopUpdates(self)
  }

  /// Delivers one fix — the first good enough for ``desiredAccuracy``, or the best within the
  /// timeout — then stops; or fails with ``LocationErrorCode/locationUnknown``.
  public func requestLocation() {
    phone.location.requestOneShot(self)
  }

  // MARK: Significant changes and visits

  /// Starts the significant-change location service: fixes from the phone's coarse position
  /// (Wi-Fi and cell towers) through ``LocationManagerDelegate/locationManager(_:didUpdateLocations:)``,
  /// first the current location, then one each time the device has moved about 500 m from the
  /// last one, at most every 5 minutes [A]; ``desiredAccuracy`` and ``distanceFilter`` do not
  /// apply [A]. A terminated app is relaunched in the background for the next change when it
  /// has Always permission [A]; it must start the service again to hear it [A]. A denied app
  /// gets ``LocationErrorCode/denied`` instead.
  public func startMonitoringSignificantLocationChanges() {
    phone.significantChanges.start(self)
  }

  /// Stops the significant-change location service for this manager.
  public func stopMonitoringSignificantLocationChanges() {
    phone.significantChanges.stop(self)
  }

  /// Starts visit monitoring for the whole app: every manager's delegate hears
  /// ``LocationManagerDelegate/locationManager(_:didVisit:)`` [A]. A terminated app is relaunched
  /// in the background for a visit when it has Always permission [A]. A denied app gets
  /// ``LocationErrorCode/denied`` instead.
  public func startMonitoringVisits() {
    phone.visits.start(self)
  }

  /// Stops visit monitoring for the whole app [A].
  public func stopMonitoringVisits() {
    phone.visits.stop(self)
  }

  // MARK: Regions

  /// The regions the app monitors (shared by all its managers, kept across relaunches).
  public var monitoredRegions: Set<CircularRegion> { phone.regions.monitoredRegions }

  /// The largest radius that can be monitored, in metres.
  public var maximumRegionMonitoringDistance: Double {
    phone.parameters.maximumRegionMonitoringDistance
  }

  /// Starts monitoring `region`, replacing any region with the same identifier [A].
  public func startMonitoring(for region: CircularRegion) {
    phone.regions.startMonitoring(region, from: self)
  }

  /// Stops monitoring `region` (matched by identifier).
  public func stopMonitoring(for region: CircularRegion) {
    phone.regions.stopMonitoring(identifier: region.identifier)
  }

  /// Stops monitoring the app's region called `identifier`, if it monitors one.
  public func stopMonitoring(identifier: String) {
    phone.regions.stopMonitoring(identifier: identifier)
  }

  /// Records that a region the app asked for could not be monitored, for a reason found before
  /// it reached the phone (a layer above checks the region's shape); the delegate is the
  /// caller's to tell.
  public func recordMonitoringFailure(identifier: String, reason: String) {
    phone.record(RegionEvent.monitoringDidFail(identifier: identifier, reason: reason))
  }

  /// Asks for `region`'s current state; the answer comes through
  /// ``LocationManagerDelegate/locationManager(_:didDetermineState:for:)``.
  public func requestState(for region: CircularRegion) {
    phone.regions.requestState(for: region, from: self)
  }
}
