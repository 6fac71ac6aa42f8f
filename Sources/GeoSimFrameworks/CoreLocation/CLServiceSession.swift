import Device

/// The authorization an app needs for a workflow (`CLServiceSession`, iOS 18): creating one in
/// the foreground shows the prompt its goal needs, through the phone's one authorization state
/// (`Device.ServiceSession`), and ``diagnostics`` says how the app's authorization differs
/// from the goal.
///
/// A session lasts until ``invalidate()``, until the app lets go of it [?] (WWDC24 says a
/// session is active while the app holds it; the reference does not say), or until the app's
/// process ends. `CLServiceSession(…)` binds to the running app's phone and stops the process
/// outside a world.
public final class CLServiceSession: @unchecked Sendable {
  // Unchecked: a world runs on one thread, as for every object of this module.

  /// The authorization a session asks for (`CLServiceSession.AuthorizationRequirement`).
  public typealias AuthorizationRequirement = ServiceSessionAuthorization
  /// How the app's authorization differs from the goal (`CLServiceSession.Diagnostic`).
  public typealias Diagnostic = ServiceSessionDiagnostic

  let session: ServiceSession
  @Uncounted private var phone: Phone? = nil

  /// A session that asks for `authorization` (`.none` asks nothing, but meets an
  /// explicit-session requirement while the app is authorized) [A].
  public init(authorization: AuthorizationRequirement) {
    let phone = Phone.requireCurrent(doing: "CLServiceSession(authorization:)")
    self.phone = phone
    session = phone.makeServiceSession(authorization: authorization)
  }

  /// A session that asks for `authorization` and for full accuracy with `fullAccuracyPurposeKey`,
  /// a key of the app's `NSLocationTemporaryUsageDescriptionDictionary` [A].
  public init(authorization: AuthorizationRequirement, fullAccuracyPurposeKey: String) {
    let phone = Phone.requireCurrent(
      doing: "CLServiceSession(authorization:fullAccuracyPurposeKey:)")
    self.phone = phone
    session = phone.makeServiceSession(
      authorization: authorization, fullAccuracyPurposeKey: fullAccuracyPurposeKey)
  }

  deinit {
    // A phone that is gone took its sessions with it.
    if phone != nil { session.invalidate() }
  }

  /// Ends the session [A].
  public func invalidate() {
    session.invalidate()
  }

  /// The session's diagnostics as an asynchronous sequence: the current one first, then every
  /// change, until the session is invalidated [A]. While a loop waits for the next one, the
  /// wait is listed among the app's pending work.
  public var diagnostics: Diagnostics { Diagnostics(session: self) }

  /// The asynchronous sequence of a session's diagnostics (`CLServiceSession.Diagnostics`).
  public struct Diagnostics: AsyncSequence, Sendable {
    /// The diagnostics.
    public typealias Element = Diagnostic
    let session: CLServiceSession

    /// Starts observing the session.
    public func makeAsyncIterator() -> Iterator {
      Iterator(feed: DiagnosticsFeed(session.session))
    }

    /// Waits for the session's diagnostics, one at a time.
    public struct Iterator: AsyncIteratorProtocol, Sendable {
      let feed: DiagnosticsFeed

      /// The next diagnostic; `nil` once the session is invalidated.
      public mutating func next() async throws -> Diagnostic? {
        await feed.next()
      }
    }
  }
}

/// The app's side of one loop over a session's diagnostics.
final class DiagnosticsFeed: @unchecked Sendable {
  // Unchecked: a world runs on one thread.
  private let session: ServiceSession
  @Uncounted private var phone: Phone? = nil
  private var buffer: [ServiceSessionDiagnostic] = []
  private var ended = false
  private var token: Int?
  private var waiting:
    (continuation: CheckedContinuation<ServiceSessionDiagnostic?, Never>, wait: AppWorkItem)?

  init(_ session: ServiceSession) {
    self.session = session
    self.phone = Phone.requireCurrent(doing: "CLServiceSession.diagnostics")
    token = session.observe(
      { [weak self] in self?.receive($0) }, ended: { [weak self] in self?.end() })
  }

  deinit {
    if phone != nil, let token { session.stopObserving(token) }
  }

  func next() async -> ServiceSessionDiagnostic? {
    if !buffer.isEmpty { return buffer.removeFirst() }
    guard !ended, let phone else {
      await self.phone?.runLoop.closingTurn()
      return nil
    }
    let wait = phone.runLoop.beginWaiting("CLServiceSession.diagnostics") { [self] in end() }
    return await withCheckedContinuation { waiting = ($0, wait) }
  }

  private func receive(_ diagnostic: ServiceSessionDiagnostic) {
    guard let waiting else { return buffer.append(diagnostic) }
    self.waiting = nil
    waiting.wait.cancel()
    waiting.continuation.resume(returning: diagnostic)
  }

  private func end() {
    ended = true
    guard let waiting else { return }
    self.waiting = nil
    waiting.wait.cancel()
    waiting.continuation.resume(returning: nil)
  }
}

/// Keeps the app in use in the background so that its live updates keep coming
/// (`CLBackgroundActivitySession`, iOS 17): create it in the foreground [A]; for a When In Use
/// app the system then shows the blue location indicator in the background [A]
/// (`Device.BackgroundActivitySession`).
///
/// A session lasts until ``invalidate()``, until the app lets go of it [?], or until the app's
/// process ends.
public final class CLBackgroundActivitySession: @unchecked Sendable {
  // Unchecked: a world runs on one thread.
  let session: BackgroundActivitySession
  @Uncounted private var phone: Phone? = nil

  /// Starts a background activity session for the running app [A].
  public init() {
    let phone = Phone.requireCurrent(doing: "CLBackgroundActivitySession()")
    self.phone = phone
    session = phone.startBackgroundActivitySession()
  }

  deinit {
    if phone != nil { session.invalidate() }
  }

  /// Ends the session at once; it cannot become active again [A].
  public func invalidate() {
    session.invalidate()
  }
}
