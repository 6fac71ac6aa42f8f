import SimKernel

/// The authorization a ``ServiceSession`` declares the app needs
/// (`CLServiceSession.AuthorizationRequirement`, iOS 18).
public enum ServiceSessionAuthorization: String, Hashable, Sendable, CaseIterable {
  /// No prompt; the session meets an explicit-session requirement if the app is authorized.
  case none
  /// When In Use.
  case whenInUse
  /// Always.
  case always
}

/// How a ``ServiceSession``'s goal differs from the app's authorization now
/// (`CLServiceSession.Diagnostic`, iOS 18): every property Apple defines.
public struct ServiceSessionDiagnostic: Hashable, Sendable {
  /// The session asks for Always and the user kept When In Use at the upgrade prompt.
  public var alwaysAuthorizationDenied = false
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
  /// The session names a full-accuracy purpose key, was answered, and the app still has
  /// approximate location.
  public var fullAccuracyDenied = false
  /// The app has When In Use authorization and is not in use: in the background, not running
  /// location updates there and without a background activity session.
  public var insufficientlyInUse = false
  /// The app requires explicit sessions and this one cannot serve (never set on a session:
  /// live updates and monitor events carry it [?]).
  public var serviceSessionRequired = false

  /// A diagnostic with nothing set.
  public init() {}

  /// The names of the properties that are set, in Apple's order (for the log).
  public var names: [String] {
    var names: [String] = []
    if alwaysAuthorizationDenied { names.append("alwaysAuthorizationDenied") }
    if authorizationDenied { names.append("authorizationDenied") }
    if authorizationDeniedGlobally { names.append("authorizationDeniedGlobally") }
    if authorizationRequestInProgress { names.append("authorizationRequestInProgress") }
    if authorizationRestricted { names.append("authorizationRestricted") }
    if fullAccuracyDenied { names.append("fullAccuracyDenied") }
    if insufficientlyInUse { names.append("insufficientlyInUse") }
    if serviceSessionRequired { names.append("serviceSessionRequired") }
    return names
  }
}

/// The authorization an app declares it needs for a workflow (`CLServiceSession`, iOS 18),
/// held from creation until ``invalidate()`` or the end of the app's process.
///
/// Behaviour, through the phone's one authorization state (its prompts are the ones a
/// scenario's `promptAnswers` answer):
///
/// - while the app is in the foreground and no prompt is up, a session pursues its goal [A]: from
///   notDetermined it shows the location prompt (an Always session as
///   `requestAlwaysAuthorization()` does, so While Using gives provisional Always [3P]); an
///   Always session with When In Use shows the one-time upgrade prompt [A]; a session with a
///   full-accuracy purpose key and approximate location asks for temporary full accuracy
///   with that key (`NSLocationTemporaryUsageDescriptionDictionary`) once the app is
///   authorized, again only after a grant has lapsed [?];
/// - in the background it asks nothing [A] and pursues its goal when the app is next in the
///   foreground;
/// - ``diagnostic`` says how the goal differs from the state, and every change is handed to
///   the observers (`diagnostics`) and logged as `location`/`serviceSessionDiagnostic`.
public final class ServiceSession {
  /// A number identifying the session in the event log, from 1 in each phone.
  public let identifier: Int
  /// The authorization the session asks for.
  public let authorization: ServiceSessionAuthorization
  /// The key of the app's `NSLocationTemporaryUsageDescriptionDictionary` the session asks full
  /// accuracy with, if any.
  public let fullAccuracyPurposeKey: String?
  /// Whether the phone made the session for a live-updates stream or a monitor (not the app).
  public let isImplicit: Bool
  private unowned let phone: Phone
  let generation: Int
  private var observers: [Int: (body: (ServiceSessionDiagnostic) -> Void, ended: () -> Void)] =
    [:]
  private var nextObserver = 0
  private var fullAccuracyAsked = false
  private var fullAccuracyGranted = false
  /// The diagnostic the observers last heard.
  public private(set) var diagnostic = ServiceSessionDiagnostic()
  /// Whether ``invalidate()`` was called or the app's process ended.
  public private(set) var isInvalidated = false

  init(
    phone: Phone, identifier: Int, authorization: ServiceSessionAuthorization,
    fullAccuracyPurposeKey: String?, implicit: Bool
  ) {
    self.phone = phone
    self.identifier = identifier
    self.authorization = authorization
    self.fullAccuracyPurposeKey = fullAccuracyPurposeKey
    self.isImplicit = implicit
    self.generation = phone.process.generation
    diagnostic = current()
  }

  /// Calls `body` with every diagnostic from now on, the current one first, and `ended` once
  /// the session is invalidated (asynchronously, in the app); returns a number that
  /// ``stopObserving(_:)`` takes.
  public func observe(
    _ body: @escaping (ServiceSessionDiagnostic) -> Void, ended: @escaping () -> Void = {}
  ) -> Int {
    nextObserver += 1
    observers[nextObserver] = (body, ended)
    let now = diagnostic
    if isInvalidated {
      phone.process.call(ended)
    } else {
      phone.process.call { body(now) }
    }
    return nextObserver
  }

  /// Stops calling the observer `token` names.
  public func stopObserving(_ token: Int) {
    observers[token] = nil
  }

  /// Ends the session: it asks nothing more and its observers hear that it ended [A].
  public func invalidate() {
    guard !isInvalidated else { return }
    isInvalidated = true
    for observer in observers.sorted(by: { $0.key < $1.key }).map(\.value) {
      phone.process.call(observer.ended)
    }
    observers.removeAll()
    phone.record(LiveLocationEvent.serviceSessionInvalidated(session: identifier))
    phone.sessions.serviceSessionInvalidated(self)
  }

  /// The process ended: the session ended with it.
  func processEnded() {
    isInvalidated = true
    observers.removeAll()
  }

  // MARK: Pursuing the goal

  /// Shows the prompt the goal needs now, if one can appear, then reports the diagnostic.
  func pursue() {
    guard !isInvalidated else { return }
    let auth = phone.authorization
    if phone.appState == .foreground && !auth.isPromptShown {
      let status = auth.status
      if status == .notDetermined && authorization != .none {
        auth.requestAuthorization(always: authorization == .always)
      } else if status == .authorizedWhenInUse && authorization == .always {
        auth.requestAuthorization(always: true)
      } else if auth.isAuthorized, let key = fullAccuracyPurposeKey,
        auth.accuracy == .reducedAccuracy, !fullAccuracyAsked
      {
        fullAccuracyAsked = true
        auth.requestTemporaryFullAccuracy(purposeKey: key) { [weak self] _ in
          guard let self else { return }
          self.fullAccuracyGranted = self.phone.authorization.accuracy == .fullAccuracy
          self.refresh()
        }
      }
    }
    if fullAccuracyGranted && auth.accuracy == .reducedAccuracy {
      // The grant lapsed: ask again next time the app is in the foreground [A].
      fullAccuracyGranted = false
      fullAccuracyAsked = false
    }
    refresh()
  }

  /// Logs and reports the diagnostic if it changed.
  func refresh() {
    guard !isInvalidated else { return }
    let now = current()
    guard now != diagnostic else { return }
    diagnostic = now
    phone.record(
      LiveLocationEvent.serviceSessionDiagnostic(session: identifier, diagnostics: now.names))
    for observer in observers.sorted(by: { $0.key < $1.key }).map(\.value) {
      phone.process.call { observer.body(now) }
    }
  }

  private func current() -> ServiceSessionDiagnostic {
    var d = ServiceSessionDiagnostic()
    let auth = phone.authorization
    let state = auth.state
    d.authorizationRestricted = state.restricted
    d.authorizationDeniedGlobally =
      !state.restricted && (!state.servicesEnabled || state.airplaneMode)
    d.authorizationDenied = state.status == .denied && !d.authorizationDeniedGlobally
    d.authorizationRequestInProgress = auth.isLocationPromptShown
    d.alwaysAuthorizationDenied =
      authorization == .always && state.status == .authorizedWhenInUse && state.upgradePromptShown
    d.fullAccuracyDenied =
      fullAccuracyPurposeKey != nil && fullAccuracyAsked && state.accuracy == .reducedAccuracy
      && !auth.isLocationPromptShown
    d.insufficientlyInUse =
      state.status == .authorizedWhenInUse && !phone.location.isInUse
      && !phone.sessions.hasActiveBackgroundSession
    return d
  }
}

/// Keeps the app in use in the background (`CLBackgroundActivitySession`, iOS 17): while one is
/// held, live-updates streams keep delivering after the app leaves the foreground, and a When
/// In Use app counts as in use [A] (the case in which iOS shows the blue location indicator
/// [A]: ``Phone/showsBackgroundLocationIndicator``).
///
/// A session must be created in the foreground to take effect [A]; one created elsewhere is
/// logged with `active: false` and keeps nothing running [?]. The `location` background mode
/// Apple asks apps to declare is not checked (nor is it for `allowsBackgroundLocationUpdates`).
public final class BackgroundActivitySession {
  /// A number identifying the session in the event log, from 1 in each phone.
  public let identifier: Int
  /// Whether the session keeps the app in use: created in the foreground and not invalidated.
  public private(set) var isActive: Bool
  private unowned let phone: Phone
  let generation: Int

  init(phone: Phone, identifier: Int) {
    self.phone = phone
    self.identifier = identifier
    self.generation = phone.process.generation
    isActive = phone.appState == .foreground
  }

  /// Ends the session at once; it cannot become active again [A].
  public func invalidate() {
    guard isActive else { return }
    isActive = false
    phone.record(LiveLocationEvent.backgroundActivitySessionInvalidated(session: identifier))
    phone.sessions.backgroundSessionsChanged()
  }

  /// The process ended: the session ended with it.
  func processEnded() {
    isActive = false
  }
}
