import SimKernel

/// The kind of positioning a live-updates stream asks for (`CLLocationUpdate.LiveConfiguration`,
/// iOS 17), mapped onto the sensor model's accuracy and the activity type that the phone's
/// delegate-era updates use, so that both kinds of client share the one sensor.
///
/// Apple names the configurations and what each is for [A] (the `LiveConfiguration` reference)
/// but documents neither an accuracy nor a pausing rule for any of them; the mapping is GeoSim's
/// [?]: navigation configurations ask for `kCLLocationAccuracyBestForNavigation`, the others
/// for `kCLLocationAccuracyBest`, and each takes the `CLActivityType` of the same name
/// (`.default` takes `.other`).
public enum LiveConfiguration: String, Hashable, Sendable, CaseIterable {
  /// Activities the other configurations do not cover.
  case `default`
  /// An automobile following a road network.
  case automotiveNavigation
  /// Navigation that is not by car: boats, trains, off-road vehicles.
  case otherNavigation
  /// Walking, running, cycling and other fitness activities.
  case fitness
  /// Activities in the air.
  case airborne

  /// The activity type the configuration stands for [?].
  public var activityType: ActivityType {
    switch self {
    case .default: .other
    case .automotiveNavigation: .automotiveNavigation
    case .otherNavigation: .otherNavigation
    case .fitness: .fitness
    case .airborne: .airborne
    }
  }

  /// The desired accuracy the stream's fixes are read with [?].
  public var desiredAccuracy: Double {
    switch self {
    case .automotiveNavigation, .otherNavigation: LocationAccuracy.bestForNavigation
    case .default, .fitness, .airborne: LocationAccuracy.best
    }
  }
}

/// One element of a live-updates stream (`CLLocationUpdate`): a fix, or none, and what the
/// phone says about the stream's state (the iOS 18 diagnostic properties).
public struct LiveUpdate: Hashable, Sendable {
  /// The fix, if the update carries one.
  public var location: Location?
  /// The device is stationary and updates stop until it moves (iOS 17) [A].
  public var isStationary = false
  /// The user denied the app location access.
  public var authorizationDenied = false
  /// Location Services are off for the whole phone, or Airplane mode is on: both deny every
  /// app [A] (`CLAuthorizationStatus.denied`: "Location services are unavailable because the
  /// device is in Airplane mode").
  public var authorizationDeniedGlobally = false
  /// A location prompt is on screen.
  public var authorizationRequestInProgress = false
  /// Location access is restricted (parental controls, a profile).
  public var authorizationRestricted = false
  /// The app is not in use enough for When In Use authorization: in the background without a
  /// background activity session.
  public var insufficientlyInUse = false
  /// No fix has come for ``PhoneParameters/liveUpdatesUnavailableAfter`` although one could
  /// (a tunnel, underground): reported once per outage [?].
  public var locationUnavailable = false
  /// The app has approximate location only.
  public var accuracyLimited = false
  /// The app's Info.plist requires an explicit service session and none is held.
  public var serviceSessionRequired = false

  /// An update with `location` and no diagnostic set.
  public init(location: Location? = nil) {
    self.location = location
  }

  /// The names of the diagnostic properties that are set, in Apple's order (for the log).
  public var diagnostics: [String] {
    var names: [String] = []
    if isStationary { names.append("isStationary") }
    if authorizationDenied { names.append("authorizationDenied") }
    if authorizationDeniedGlobally { names.append("authorizationDeniedGlobally") }
    if authorizationRequestInProgress { names.append("authorizationRequestInProgress") }
    if authorizationRestricted { names.append("authorizationRestricted") }
    if insufficientlyInUse { names.append("insufficientlyInUse") }
    if locationUnavailable { names.append("locationUnavailable") }
    if accuracyLimited { names.append("accuracyLimited") }
    if serviceSessionRequired { names.append("serviceSessionRequired") }
    return names
  }
}

/// A live-updates stream on the phone (what iterating `CLLocationUpdate.liveUpdates(_:)` starts):
/// fixes from the phone's one location service, delivered to `onUpdate`, with automatic pausing
/// while the device is still and the background rules of ``BackgroundActivitySession``.
///
/// The stream is served by a location manager of its own, which the log names in
/// `location`/`liveUpdatesStarted`: its fixes are that manager's `didUpdateLocations`, so the
/// one sensor ticker, the strictest-accuracy rule, suspension and the authorization state are
/// the same as for delegate-era updates. What differs is the stream's:
///
/// - it pauses by itself when the true motion stops (the motion coprocessor, not the fixes'
///   speed) for ``PhoneParameters/liveUpdatesStationaryAfter`` [?], with one update whose
///   ``LiveUpdate/isStationary`` is set [A], and resumes by itself once the device moves [A];
/// - in the background it delivers only while a ``BackgroundActivitySession`` is held [A];
///   without one it reports ``LiveUpdate/insufficientlyInUse`` once and the app is suspended as
///   usual [?];
/// - when no fix comes for ``PhoneParameters/liveUpdatesUnavailableAfter`` although one could
///   (an outage), it reports ``LiveUpdate/locationUnavailable`` once [?];
/// - a change of authorization reaches it as an update without a location carrying the
///   diagnostic (``LiveUpdate/authorizationDenied``, …) [A], never as an error, and updates
///   resume by themselves when the app is authorized again [?];
/// - iterating creates an implicit When In Use ``ServiceSession`` (which prompts), unless the
///   app's Info.plist sets `NSLocationRequireExplicitServiceSession`, in which case nothing
///   starts until the app holds an explicit session and the stream reports
///   ``LiveUpdate/serviceSessionRequired`` [A].
public final class LiveUpdateStream {
  /// A number identifying the stream in the event log, from 1 in each phone.
  public let identifier: Int
  /// The configuration the stream was started with.
  public let configuration: LiveConfiguration
  private unowned let phone: Phone
  private let manager: LocationManager
  private let listener = Listener()
  private let onUpdate: (LiveUpdate) -> Void
  private var implicitSession: ServiceSession?
  private var waitsForSession = false
  private var updating = false
  private var needsRestart = false
  private var stationarySince: SimTime?
  private var stationary = false
  private var motionCheck: EventHandle?
  private var unavailableCheck: EventHandle?
  private var lastReported: [String] = []
  /// Whether ``stop()`` was called or the app's process ended.
  public private(set) var isStopped = false

  init(
    phone: Phone, identifier: Int, configuration: LiveConfiguration,
    onUpdate: @escaping (LiveUpdate) -> Void
  ) {
    self.phone = phone
    self.identifier = identifier
    self.configuration = configuration
    self.onUpdate = onUpdate
    manager = LocationManager(phone: phone)
    manager.desiredAccuracy = configuration.desiredAccuracy
    manager.activityType = configuration.activityType
    manager.pausesLocationUpdatesAutomatically = false
    listener.stream = self
    manager.delegate = listener
    phone.record(
      LiveLocationEvent.liveUpdatesStarted(
        stream: identifier, manager: manager.identifier, configuration: configuration))
  }

  /// Starts the stream: the implicit session or the wait for an explicit one, then updates.
  func begin(requiresExplicitSession: Bool, hasExplicitSession: Bool) {
    if requiresExplicitSession {
      if hasExplicitSession {
        startUpdating()
      } else {
        waitsForSession = true
        var update = diagnosed(nil)
        update.serviceSessionRequired = true
        report(update, always: true)
      }
    } else {
      implicitSession = phone.sessions.makeServiceSession(
        authorization: .whenInUse, fullAccuracyPurposeKey: nil, implicit: true)
      startUpdating()
    }
  }

  /// Stops the stream: no more updates, its manager stops and its implicit session ends.
  public func stop() {
    guard !isStopped else { return }
    isStopped = true
    if let motionCheck { phone.simulation.cancel(motionCheck) }
    if let unavailableCheck { phone.simulation.cancel(unavailableCheck) }
    manager.stopUpdatingLocation()
    manager.delegate = nil
    implicitSession?.invalidate()
    implicitSession = nil
    phone.record(LiveLocationEvent.liveUpdatesStopped(stream: identifier))
    phone.sessions.streamStopped(self)
  }

  // MARK: What the phone tells the stream

  /// The process ended: the stream ends with it, without a word to the app.
  func processEnded() {
    isStopped = true
    manager.delegate = nil
  }

  /// An explicit service session now exists.
  func explicitSessionAvailable() {
    guard waitsForSession, !isStopped else { return }
    waitsForSession = false
    startUpdating()
  }

  /// Whether a background activity session keeps the stream running in the background.
  func setBackgroundAllowed(_ allowed: Bool) {
    manager.allowsBackgroundLocationUpdates = allowed
  }

  /// The app's state changed: in the background without a session, the stream says it is
  /// insufficiently in use.
  func appStateDidChange(backgroundAllowed: Bool) {
    guard !isStopped, updating, phone.appState == .background, !backgroundAllowed,
      phone.authorization.status == .authorizedWhenInUse
    else { return }
    var update = diagnosed(nil)
    update.insufficientlyInUse = true
    report(update, always: true)
  }

  // MARK: The manager's callbacks

  private func startUpdating() {
    updating = true
    manager.startUpdatingLocation()
    watchForSilence()
  }

  /// Reports ``LiveUpdate/locationUnavailable`` once when no fix has come for
  /// ``PhoneParameters/liveUpdatesUnavailableAfter`` while fixes could come [?]: the stream
  /// runs, is not paused, the app is authorized with precise location (approximate fixes are
  /// minutes apart) and may receive them (not suspended, in the background only with a
  /// session).
  private func watchForSilence() {
    if let unavailableCheck { phone.simulation.cancel(unavailableCheck) }
    unavailableCheck = checkedScheduling {
      try phone.simulation.schedule(after: phone.parameters.liveUpdatesUnavailableAfter) {
        [weak self] in
        guard let self, !self.isStopped, !self.stationary else { return }
        let phone = self.phone
        let state = phone.appState
        guard phone.authorization.isAuthorized, phone.authorization.isPrecise,
          state == .foreground
            || (state == .background && self.manager.allowsBackgroundLocationUpdates)
        else { return }
        var update = self.diagnosed(nil)
        update.locationUnavailable = true
        self.report(update, always: true)
      }
    }
  }

  fileprivate func didChangeAuthorization() {
    guard !isStopped, !waitsForSession else { return }
    let update = diagnosed(nil)
    if !update.diagnostics.filter({ $0 != "accuracyLimited" }).isEmpty {
      report(update, always: false)
    } else {
      lastReported = []
      // Authorized again after a refusal or a withdrawal: updates resume by themselves [?].
      if needsRestart && phone.authorization.isAuthorized {
        needsRestart = false
        manager.startUpdatingLocation()
      }
    }
  }

  fileprivate func didFail(_ error: LocationError) {
    if error.code == .denied { needsRestart = true }
  }

  fileprivate func didUpdate(_ fix: Location) {
    guard !isStopped, !stationary else { return }
    watchForSilence()
    let now = phone.simulation.now
    let speed = phone.location.trueSpeed() ?? fix.speed
    guard speed >= 0 && speed < phone.parameters.stationarySpeed else {
      stationarySince = nil
      return report(diagnosed(fix), always: true)
    }
    let since = stationarySince ?? now
    stationarySince = since
    guard now - since >= phone.parameters.liveUpdatesStationaryAfter else {
      return report(diagnosed(fix), always: true)
    }
    // Still for long enough: one update saying so, then nothing until the device moves [A].
    stationary = true
    phone.record(LiveLocationEvent.liveUpdatesStationary(stream: identifier))
    var update = diagnosed(fix)
    update.isStationary = true
    report(update, always: true)
    manager.stopUpdatingLocation()
    if let unavailableCheck { phone.simulation.cancel(unavailableCheck) }
    watchForMotion()
  }

  /// Checks the true motion every sensor interval while stationary, and resumes updates once
  /// the device moves: a suspended app runs again in the background for them [?].
  private func watchForMotion() {
    let interval = phone.location.updateInterval ?? .seconds(1)
    motionCheck = checkedScheduling {
      try phone.simulation.schedule(after: interval) { [weak self] in
        guard let self, !self.isStopped, self.stationary else { return }
        let speed = self.phone.location.trueSpeed() ?? 0
        guard speed >= self.phone.parameters.stationarySpeed else { return self.watchForMotion() }
        self.stationary = false
        self.stationarySince = nil
        self.phone.record(LiveLocationEvent.liveUpdatesResumed(stream: self.identifier))
        if self.phone.appState == .suspended { self.phone.process.wakeForLocationEvent() }
        self.manager.startUpdatingLocation()
        self.watchForSilence()
      }
    }
  }

  /// An update with `location` and the diagnostics the authorization state gives now.
  private func diagnosed(_ location: Location?) -> LiveUpdate {
    var update = LiveUpdate(location: location)
    let state = phone.authorization.state
    update.authorizationRestricted = state.restricted
    update.authorizationDeniedGlobally =
      !state.restricted && (!state.servicesEnabled || state.airplaneMode)
    update.authorizationDenied =
      state.status == .denied && !update.authorizationDeniedGlobally
    update.authorizationRequestInProgress =
      state.status == .notDetermined && phone.authorization.isLocationPromptShown
    update.accuracyLimited = state.accuracy == .reducedAccuracy
    return update
  }

  /// Hands `update` to the app; one without a location only when its diagnostics changed,
  /// unless `always`.
  private func report(_ update: LiveUpdate, always: Bool) {
    let diagnostics = update.diagnostics
    if update.location == nil {
      guard always || diagnostics != lastReported else { return }
      phone.record(LiveLocationEvent.liveUpdate(stream: identifier, diagnostics: diagnostics))
    }
    lastReported = diagnostics
    phone.process.deliverToApp { [onUpdate] in onUpdate(update) }
  }

  /// The stream's manager's delegate, which forwards to the stream without owning it.
  private final class Listener: LocationManagerDelegate {
    weak var stream: LiveUpdateStream?

    func locationManager(_ manager: LocationManager, didUpdateLocations locations: [Location]) {
      if let fix = locations.last { stream?.didUpdate(fix) }
    }

    func locationManagerDidChangeAuthorization(_ manager: LocationManager) {
      stream?.didChangeAuthorization()
    }

    func locationManager(_ manager: LocationManager, didFailWithError error: LocationError) {
      stream?.didFail(error)
    }
  }
}
