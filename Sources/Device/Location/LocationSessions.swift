import SimKernel

/// The phone's live-updates streams, service sessions and background activity sessions: the
/// clients of the iOS 17 and 18 location APIs. It owns only which of them exist; the fixes come
/// from ``LocationService`` and the permission from ``AuthorizationService``, as for every
/// other client.
final class LocationSessions {
  private unowned let phone: Phone
  private var streams: [Weak<LiveUpdateStream>] = []
  private var serviceSessions: [ServiceSession] = []
  private var backgroundSessions: [BackgroundActivitySession] = []
  private var streamCount = 0
  private var serviceSessionCount = 0
  private var backgroundSessionCount = 0
  /// Whether an active background activity session kept the app in use at the last change.
  private var backgroundAllowed = false

  init(phone: Phone) {
    self.phone = phone
  }

  private final class Weak<T: AnyObject> {
    weak var value: T?
    init(_ value: T) { self.value = value }
  }

  private var liveStreams: [LiveUpdateStream] {
    streams.compactMap { $0.value }.filter { !$0.isStopped }
  }

  var hasActiveBackgroundSession: Bool { backgroundSessions.contains { $0.isActive } }

  private var hasExplicitSession: Bool { serviceSessions.contains { !$0.isImplicit } }

  private var requiresExplicitSession: Bool {
    phone.runningApp?.infoPlist.requiresExplicitServiceSession == true
  }

  // MARK: Making clients

  func startLiveUpdates(
    _ configuration: LiveConfiguration, onUpdate: @escaping (LiveUpdate) -> Void
  ) -> LiveUpdateStream {
    streamCount += 1
    let stream = LiveUpdateStream(
      phone: phone, identifier: streamCount, configuration: configuration, onUpdate: onUpdate)
    streams.append(Weak(stream))
    stream.setBackgroundAllowed(hasActiveBackgroundSession)
    stream.begin(
      requiresExplicitSession: requiresExplicitSession, hasExplicitSession: hasExplicitSession)
    return stream
  }

  func makeServiceSession(
    authorization: ServiceSessionAuthorization, fullAccuracyPurposeKey: String?, implicit: Bool
  ) -> ServiceSession {
    serviceSessionCount += 1
    let session = ServiceSession(
      phone: phone, identifier: serviceSessionCount, authorization: authorization,
      fullAccuracyPurposeKey: fullAccuracyPurposeKey, implicit: implicit)
    phone.record(
      LiveLocationEvent.serviceSessionCreated(
        session: session.identifier, authorization: authorization,
        purposeKey: fullAccuracyPurposeKey, implicit: implicit))
    serviceSessions.append(session)
    session.pursue()
    if !implicit {
      for stream in liveStreams { stream.explicitSessionAvailable() }
      // A monitor waiting for an explicit session has one now.
      phone.setMonitorServiceSessionRequired(false)
    }
    return session
  }

  func implicitSession() -> ImplicitServiceSession {
    if requiresExplicitSession {
      return hasExplicitSession ? .explicitSessionHeld : .serviceSessionRequired
    }
    return .session(
      makeServiceSession(authorization: .whenInUse, fullAccuracyPurposeKey: nil, implicit: true))
  }

  func startBackgroundActivitySession() -> BackgroundActivitySession {
    backgroundSessionCount += 1
    let session = BackgroundActivitySession(phone: phone, identifier: backgroundSessionCount)
    phone.record(
      LiveLocationEvent.backgroundActivitySessionCreated(
        session: session.identifier, active: session.isActive))
    backgroundSessions.append(session)
    backgroundSessionsChanged()
    return session
  }

  // MARK: What the clients tell

  func streamStopped(_ stream: LiveUpdateStream) {
    streams.removeAll { $0.value == nil || $0.value === stream }
  }

  func serviceSessionInvalidated(_ session: ServiceSession) {
    serviceSessions.removeAll { $0 === session }
    // The last explicit session is gone: an app that requires them has its monitors wait for
    // one again, as before the first [A].
    if !session.isImplicit, requiresExplicitSession, !hasExplicitSession,
      !phone.iteratedConditionMonitors.isEmpty
    {
      phone.setMonitorServiceSessionRequired(true)
    }
  }

  func backgroundSessionsChanged() {
    backgroundSessions.removeAll { !$0.isActive }
    let allowed = hasActiveBackgroundSession
    for stream in liveStreams { stream.setBackgroundAllowed(allowed) }
    // The last session ended: a background app no longer kept in use is suspended at once.
    if backgroundAllowed && !allowed && phone.appState == .background {
      phone.process.suspendIfIdle(after: .zero)
    }
    backgroundAllowed = allowed
    refreshSessions()
  }

  // MARK: What the phone tells

  func authorizationDidChange() {
    for session in serviceSessions { session.pursue() }
  }

  func promptDidChange() {
    refreshSessions()
  }

  func appStateDidChange() {
    let state = phone.appState
    if state == .notRunning {
      for stream in liveStreams { stream.processEnded() }
      streams.removeAll()
      for session in serviceSessions { session.processEnded() }
      serviceSessions.removeAll()
      for session in backgroundSessions { session.processEnded() }
      backgroundSessions.removeAll()
      backgroundAllowed = false
      return
    }
    let allowed = hasActiveBackgroundSession
    for stream in liveStreams { stream.appStateDidChange(backgroundAllowed: allowed) }
    for session in serviceSessions {
      if state == .foreground { session.pursue() } else { session.refresh() }
    }
  }

  private func refreshSessions() {
    for session in serviceSessions { session.refresh() }
  }

  /// Whether the blue indicator shows: a When In Use app in the background, kept in use by a
  /// background activity session [A].
  var showsBackgroundIndicator: Bool {
    phone.authorization.status == .authorizedWhenInUse && phone.appState == .background
      && hasActiveBackgroundSession
  }
}

extension Phone {
  /// Starts a live-updates stream for the running app (what iterating
  /// `CLLocationUpdate.liveUpdates(_:)` does); `onUpdate` runs in the app for every update
  /// (see ``LiveUpdateStream``). Logged as `location`/`liveUpdatesStarted`.
  public func startLiveUpdates(
    _ configuration: LiveConfiguration = .default,
    onUpdate: @escaping (LiveUpdate) -> Void
  ) -> LiveUpdateStream {
    sessions.startLiveUpdates(configuration, onUpdate: onUpdate)
  }

  /// Creates a service session for the running app (`CLServiceSession(authorization:…)`), which
  /// may show a prompt at once (see ``ServiceSession``). Logged as
  /// `location`/`serviceSessionCreated`.
  public func makeServiceSession(
    authorization: ServiceSessionAuthorization, fullAccuracyPurposeKey: String? = nil
  ) -> ServiceSession {
    sessions.makeServiceSession(
      authorization: authorization, fullAccuracyPurposeKey: fullAccuracyPurposeKey,
      implicit: false)
  }

  /// What a client of Apple's newer APIs other than live updates (a `CLMonitor`'s events) calls
  /// when it starts: the implicit When In Use session it holds while it runs, unless the app's
  /// Info.plist sets `NSLocationRequireExplicitServiceSession` [A] (see
  /// ``ImplicitServiceSession``). Invalidate the session when the client ends.
  public func startImplicitServiceSession() -> ImplicitServiceSession {
    sessions.implicitSession()
  }

  /// Starts a background activity session for the running app (`CLBackgroundActivitySession()`;
  /// see ``BackgroundActivitySession``). Logged as `location`/`backgroundActivitySessionCreated`.
  public func startBackgroundActivitySession() -> BackgroundActivitySession {
    sessions.startBackgroundActivitySession()
  }

  /// Whether iOS would show the blue location indicator now: a When In Use app kept in use in
  /// the background by a background activity session [A].
  public var showsBackgroundLocationIndicator: Bool {
    sessionsIfUsed?.showsBackgroundIndicator ?? false
  }
}

/// What a client of the newer location APIs gets when it starts
/// (``Phone/startImplicitServiceSession()``).
public enum ImplicitServiceSession {
  /// The implicit When In Use session the phone made for the client (it may have prompted).
  case session(ServiceSession)
  /// The app requires explicit sessions and holds one: the client runs without an implicit one.
  case explicitSessionHeld
  /// The app requires explicit sessions and holds none: the client delivers nothing but
  /// reports `serviceSessionRequired` [A].
  case serviceSessionRequired
}
