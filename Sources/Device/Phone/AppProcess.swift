import SimKernel

/// The app's process on the phone: its state, its instance, and the callbacks a suspended app
/// hears when it runs again. It alone changes the app's state; the other services ask it.
///
/// A suspended app receives nothing: callbacks made while it is suspended wait in order and are
/// delivered when it runs again; a terminated app's pending callbacks are dropped with it.
final class AppProcess: LifetimeOwner {
  /// The phone owns this service, so it outlives it: no reference counting on the hot path.
  private unowned(unsafe) let phone: Phone
  /// The app's state.
  private(set) var state = AppState.notRunning
  /// Counts launches: callbacks and managers of an earlier process are recognised by it.
  private(set) var generation = 0
  private var factory: (() -> any SimulatedApp)?
  private(set) var app: (any SimulatedApp)?
  private var deferred: [() -> Void] = []
  private lazy var suspension = phone.simulation.makeTimer(priority: .system) {
    [unowned(unsafe) self] in self.suspendIfIdle()
  }

  /// Ends when the process goes away, for the callbacks it has scheduled.
  let lifetime = Lifetime()

  init(phone: Phone) {
    self.phone = phone
  }

  deinit { lifetime.end() }

  var isInstalled: Bool { factory != nil }

  func install(_ factory: @escaping () -> any SimulatedApp) {
    self.factory = factory
  }

  // MARK: The user's actions

  func launch() throws {
    guard factory != nil else {
      throw DeviceError(.invalidState, "no app is installed on the phone")
    }
    if state == .notRunning {
      start(reason: .user, state: .foreground)
    } else if state != .foreground {
      enterForeground()
    }
  }

  func sendToBackground() {
    guard state == .foreground else { return }
    setState(.background)
    app?.didEnterBackground()
    suspendIfIdle(after: phone.parameters.backgroundGracePeriod)
  }

  func bringToForeground() {
    guard state == .background || state == .suspended else { return }
    enterForeground()
  }

  func terminate() {
    guard state != .notRunning else { return }
    if state == .foreground || state == .background { app?.willTerminate() }
    phone.authorization.sessionEnded()
    app = nil
    deferred.removeAll()
    generation += 1
    setState(.notRunning)
    phone.location.processEnded()
    phone.runLoopIfUsed?.processEnded()
    phone.defaultsRegistration.values.removeAll()
  }

  // MARK: The system's actions

  /// A location event for the app — a region's or a monitor condition's transition, a
  /// significant change, a visit, a paused stream moving again: relaunches it into the
  /// background, or lets a suspended app run, for the relaunch window [A].
  func wakeForLocationEvent() {
    if state == .notRunning {
      start(reason: .location, state: .background)
    } else if state == .suspended {
      setState(.background)
      suspendIfIdle(after: phone.parameters.regionRelaunchWindow)
      app?.didResumeInBackground()
      runDeferred()
    }
  }

  /// Suspends the background app after `delay` unless it keeps running in the background.
  func suspendIfIdle(after delay: SimDuration) {
    checkedScheduling { try suspension.arm(after: delay) }
  }

  // MARK: Calling into the app

  /// Calls into the app asynchronously (a kernel event at the current instant), deferring the
  /// call while the app is suspended and dropping it if that process is gone.
  func call(_ body: @escaping () -> Void) {
    let generation = generation
    let process = Uncounted(self)
    checkedScheduling {
      try phone.simulation.schedule(after: .zero) {
        guard let self = process.value, generation == self.generation else { return }
        self.deliverToApp(body)
      }
    }
  }

  /// Runs `body` in the app now, or when it next runs if it is suspended; drops it if the app
  /// is not running (its completion handlers went with its process).
  func deliverToApp(_ body: @escaping () -> Void) {
    switch state {
    case .foreground, .background: body()
    case .suspended: deferred.append(body)
    case .notRunning: break
    }
  }

  // MARK: Transitions

  private func start(reason: LaunchReason, state: AppState) {
    guard let factory else { return }
    generation += 1
    let app = factory()
    self.app = app
    setState(state, reason: reason)
    app.didLaunch(on: phone, reason: reason)
    if state == .background {
      suspendIfIdle(after: phone.parameters.regionRelaunchWindow)
    }
    phone.location.processStarted()
  }

  private func enterForeground() {
    suspension.cancel()
    setState(.foreground)
    app?.willEnterForeground()
    runDeferred()
    phone.location.processResumed()
    // In use again: a monitor held back for When In Use hears its state.
    phone.monitors.authorizationDidChange()
  }

  private func suspendIfIdle() {
    guard state == .background, !phone.location.runsInBackground else { return }
    setState(.suspended)
    phone.authorization.sessionEnded()
  }

  private func runDeferred() {
    let callbacks = deferred
    deferred.removeAll()
    for callback in callbacks { callback() }
  }

  private func setState(_ state: AppState, reason: LaunchReason? = nil) {
    self.state = state
    phone.record(AppLifecycleEvent.state(state, reason: reason))
    phone.sessionsIfUsed?.appStateDidChange()
  }
}
