import Device
import Geo

/// The app's window onto the simulated phone's location services (`CLLocationManager`).
///
/// `CLLocationManager()` binds to the phone whose app is running on the calling thread; the
/// behaviour — permissions, fixes, pauses, region monitoring, their delays and failures — is
/// the phone's (`Device.LocationManager`), with Apple's names. Outside a world,
/// `CLLocationManager()` stops the process with a message saying how to run the code in one.
open class CLLocationManager: NSObject, LifetimeOwner {
  /// Receives fixes, region events, errors and authorization changes.
  open weak var delegate: (any CLLocationManagerDelegate)? {
    didSet { bridge.delegateChanged() }
  }
  let manager: LocationManager
  private let bridge: Bridge
  /// Ends when the manager goes away: its bridge holds it ``Uncounted``.
  package let lifetime = Lifetime()

  /// A manager on the running app's phone; its delegate hears the authorization soon after,
  /// once the caller has set it [A].
  public override init() {
    let phone = Phone.requireCurrent(doing: "CLLocationManager()")
    manager = LocationManager(phone: phone)
    bridge = Bridge()
    super.init()
    bridge.owner = self
    manager.delegate = bridge
  }

  deinit { lifetime.end() }

  var phone: Phone { manager.phone }

  // MARK: Settings

  /// The accuracy the app wants, in metres or a `kCLLocationAccuracy…` constant; default
  /// `kCLLocationAccuracyBest` [A].
  open var desiredAccuracy: CLLocationAccuracy {
    get { manager.desiredAccuracy }
    set { manager.desiredAccuracy = newValue }
  }
  /// Metres the device must move before the next fix is delivered; default
  /// `kCLDistanceFilterNone` [A].
  open var distanceFilter: CLLocationDistance {
    get { manager.distanceFilter }
    set { manager.distanceFilter = newValue }
  }
  /// What the app is doing, which decides when updates pause; default `.other` [A].
  open var activityType: CLActivityType {
    get { manager.activityType }
    set { manager.activityType = newValue }
  }
  /// Whether updates pause when the device stops; default `true` [A].
  open var pausesLocationUpdatesAutomatically: Bool {
    get { manager.pausesLocationUpdatesAutomatically }
    set { manager.pausesLocationUpdatesAutomatically = newValue }
  }
  /// Whether updates continue in the background (needs the location background mode);
  /// default `false` [A].
  open var allowsBackgroundLocationUpdates: Bool {
    get { manager.allowsBackgroundLocationUpdates }
    set { manager.allowsBackgroundLocationUpdates = newValue }
  }
  /// Whether the status bar shows that the app uses location in the background (kept; there
  /// is no status bar).
  open var showsBackgroundLocationIndicator = false

  // MARK: Authorization

  /// The app's authorization status (iOS 14).
  open var authorizationStatus: CLAuthorizationStatus { manager.authorizationStatus }
  /// Precise or approximate location (iOS 14).
  open var accuracyAuthorization: CLAccuracyAuthorization { manager.accuracyAuthorization }

  /// The running app's authorization status (deprecated in iOS 14).
  open class func authorizationStatus() -> CLAuthorizationStatus {
    Phone.requireCurrent(doing: "CLLocationManager.authorizationStatus()").authorizationStatus
  }

  /// Whether Location Services are on for the whole phone.
  open class func locationServicesEnabled() -> Bool {
    Phone.requireCurrent(doing: "CLLocationManager.locationServicesEnabled()")
      .locationServicesEnabled
  }

  /// Whether the phone can monitor regions of `regionClass`: circles only [A].
  open class func isMonitoringAvailable(for regionClass: AnyClass) -> Bool {
    regionClass == CLCircularRegion.self
  }

  /// Asks for When In Use permission: the prompt shows only from `.notDetermined`, in the
  /// foreground [A].
  open func requestWhenInUseAuthorization() {
    manager.requestWhenInUseAuthorization()
  }

  /// Asks for Always permission: the first prompt, or the one-time upgrade from When In Use
  /// [A][3P].
  open func requestAlwaysAuthorization() {
    manager.requestAlwaysAuthorization()
  }

  /// Asks the user for precise location for this session while the app has approximate
  /// location (iOS 14).
  ///
  /// `purposeKey` must be a key of the app's `NSLocationTemporaryUsageDescriptionDictionary`
  /// (in GeoSim, the app's `Device.SimulatedApp.infoPlist`) [A]. `completion` runs on the
  /// app's main thread, never inside the call: with `nil` once the user has answered, whatever
  /// the answer, so read ``accuracyAuthorization`` then [A]; with `nil` at once when the app
  /// already has full accuracy [A]; with ``CLError/promptDeclined`` when the prompt cannot be
  /// shown (an undeclared key [A], no authorization [?], the app not in the foreground or
  /// another prompt on screen [3P]). A grant lasts while the app is in use: until it is
  /// suspended or terminated [A].
  open func requestTemporaryFullAccuracyAuthorization(
    withPurposeKey purposeKey: String, completion: (((any Error)?) -> Void)? = nil
  ) {
    manager.requestTemporaryFullAccuracyAuthorization(purposeKey: purposeKey) { error in
      completion?(error.map { CLError($0) })
    }
  }

  /// Asks the user for precise location for this session and returns once the request is
  /// complete (read ``accuracyAuthorization`` then), or throws ``CLError/promptDeclined`` when
  /// the prompt cannot be shown; see
  /// ``requestTemporaryFullAccuracyAuthorization(withPurposeKey:completion:)``.
  ///
  /// Until the user answers, the wait is listed among the app's pending work.
  open func requestTemporaryFullAccuracyAuthorization(
    withPurposeKey purposeKey: String, file: StaticString = #fileID, line: UInt = #line
  ) async throws {
    let label =
      "CLLocationManager.requestTemporaryFullAccuracyAuthorization(withPurposeKey:) at "
      + "\(file):\(line)"
    try await withCheckedThrowingContinuation {
      (continuation: CheckedContinuation<Void, any Error>) in
      let resumption = Resumption(continuation)
      let wait = phone.runLoop.beginWaiting(
        label, endedBy: { resumption.resume(with: .success(())) })
      manager.requestTemporaryFullAccuracyAuthorization(purposeKey: purposeKey) { error in
        wait.cancel()
        resumption.resume(with: error.map { .failure(CLError($0)) } ?? .success(()))
      }
    }
  }

  // MARK: Updates

  /// The most recent fix delivered on the phone, if any.
  open var location: CLLocation? {
    manager.location.map { CLLocation($0, in: phone.simulation) }
  }

  /// Starts delivering fixes; a denied app gets `CLError.denied` instead.
  open func startUpdatingLocation() {
    manager.startUpdatingLocation()
  }

  /// Stops delivering fixes.
  open func stopUpdatingLocation() {
    manager.stopUpdatingLocation()
  }

  /// Delivers one fix, then stops; or fails with `CLError.locationUnknown` [A].
  open func requestLocation() {
    manager.requestLocation()
  }

  // MARK: Significant changes and visits

  /// Whether the device can run the significant-change location service: always, on the
  /// simulated iPhone (it has a cellular radio) [A].
  open class func significantLocationChangeMonitoringAvailable() -> Bool { true }

  /// Starts the significant-change location service: the current location, then a location
  /// through ``CLLocationManagerDelegate/locationManager(_:didUpdateLocations:)`` each time the
  /// device has moved about 500 m from the last one, at most every 5 minutes [A], from the
  /// phone's coarse (Wi-Fi and cell) position; ``desiredAccuracy`` and ``distanceFilter`` do
  /// not apply [A]. With Always permission a terminated app is relaunched in the background
  /// (`launchOptions[.location]`) for the next change, which the app hears once it calls this
  /// method again [A].
  open func startMonitoringSignificantLocationChanges() {
    manager.startMonitoringSignificantLocationChanges()
  }

  /// Stops the significant-change location service for this manager.
  open func stopMonitoringSignificantLocationChanges() {
    manager.stopMonitoringSignificantLocationChanges()
  }

  /// Starts visit monitoring for the whole app: every manager's delegate hears
  /// ``CLLocationManagerDelegate/locationManager(_:didVisit:)`` [A]. With Always permission a
  /// terminated app is relaunched in the background for a visit [A].
  open func startMonitoringVisits() {
    manager.startMonitoringVisits()
  }

  /// Stops visit monitoring for the whole app [A].
  open func stopMonitoringVisits() {
    manager.stopMonitoringVisits()
  }

  // MARK: Regions

  /// The regions the app monitors (shared by its managers, kept across relaunches) [A].
  open var monitoredRegions: Set<CLRegion> {
    Set(manager.monitoredRegions.map { CLCircularRegion($0) as CLRegion })
  }

  /// The largest radius that can be monitored, in metres.
  open var maximumRegionMonitoringDistance: CLLocationDistance {
    manager.maximumRegionMonitoringDistance
  }

  /// Starts monitoring `region`, replacing a region with the same identifier; a region that
  /// cannot be monitored is reported to
  /// ``CLLocationManagerDelegate/locationManager(_:monitoringDidFailFor:withError:)`` [A].
  open func startMonitoring(for region: CLRegion) {
    guard let circle = (region as? CLCircularRegion)?.circularRegion else {
      return bridge.monitoringFailed(
        region, "only a CLCircularRegion with a valid centre can be monitored")
    }
    manager.startMonitoring(for: circle)
  }

  /// Stops monitoring the region with `region`'s identifier.
  open func stopMonitoring(for region: CLRegion) {
    manager.stopMonitoring(identifier: region.identifier)
  }

  /// Asks for `region`'s state; the answer comes through
  /// ``CLLocationManagerDelegate/locationManager(_:didDetermineState:for:)``.
  open func requestState(for region: CLRegion) {
    guard let circle = (region as? CLCircularRegion)?.circularRegion else { return }
    manager.requestState(for: circle)
  }
}

/// Turns the phone's callbacks into Apple's: `CLLocation`s, `CLRegion`s and `CLError`s.
private final class Bridge: LocationManagerDelegate {
  @Uncounted var owner: CLLocationManager? = nil
  private var reportedStatus: CLAuthorizationStatus?

  func delegateChanged() {}

  func monitoringFailed(_ region: CLRegion, _ reason: String) {
    guard let owner else { return }
    owner.manager.recordMonitoringFailure(identifier: region.identifier, reason: reason)
    let reference = Uncounted(owner)
    owner.phone.runLoop.enqueue("locationManager(_:monitoringDidFailFor:withError:)") {
      guard let owner = reference.value else { return }
      owner.delegate?.locationManager(
        owner, monitoringDidFailFor: region,
        withError: CLError(.regionMonitoringFailure, reason: reason))
    }
  }

  func locationManagerDidChangeAuthorization(_ manager: LocationManager) {
    guard let owner, let delegate = owner.delegate else { return }
    delegate.locationManagerDidChangeAuthorization(owner)
    let status = manager.authorizationStatus
    if status != reportedStatus {
      reportedStatus = status
      delegate.locationManager(owner, didChangeAuthorization: status)
    }
  }

  func locationManager(_ manager: LocationManager, didUpdateLocations locations: [Location]) {
    guard let owner, let delegate = owner.delegate else { return }
    let simulation = manager.phone.simulation
    delegate.locationManager(
      owner, didUpdateLocations: locations.map { CLLocation($0, in: simulation) })
  }

  func locationManager(_ manager: LocationManager, didFailWithError error: LocationError) {
    guard let owner else { return }
    owner.delegate?.locationManager(owner, didFailWithError: CLError(error))
  }

  func locationManager(_ manager: LocationManager, didEnterRegion region: CircularRegion) {
    guard let owner else { return }
    owner.delegate?.locationManager(owner, didEnterRegion: CLCircularRegion(region))
  }

  func locationManager(_ manager: LocationManager, didExitRegion region: CircularRegion) {
    guard let owner else { return }
    owner.delegate?.locationManager(owner, didExitRegion: CLCircularRegion(region))
  }

  func locationManager(
    _ manager: LocationManager, didDetermineState state: RegionState, for region: CircularRegion
  ) {
    guard let owner else { return }
    owner.delegate?.locationManager(owner, didDetermineState: state, for: CLCircularRegion(region))
  }

  func locationManager(
    _ manager: LocationManager, monitoringDidFailFor region: CircularRegion?,
    withError error: LocationError
  ) {
    guard let owner else { return }
    owner.delegate?.locationManager(
      owner, monitoringDidFailFor: region.map { CLCircularRegion($0) }, withError: CLError(error))
  }

  func locationManagerDidPauseLocationUpdates(_ manager: LocationManager) {
    guard let owner else { return }
    owner.delegate?.locationManagerDidPauseLocationUpdates(owner)
  }

  func locationManager(_ manager: LocationManager, didVisit visit: Visit) {
    guard let owner else { return }
    owner.delegate?.locationManager(owner, didVisit: CLVisit(visit, in: manager.phone.simulation))
  }
}
