import SimKernel

/// The app's location permission on the phone: the prompts, the user's answers and Settings.
/// It alone changes the permission state; every change is logged and reported to the app's
/// managers through the location service.
final class AuthorizationService: LifetimeOwner {
  /// The phone owns this service, so it outlives it: no reference counting on the hot path.
  private unowned(unsafe) let phone: Phone
  // Read for every fix; changed by assignment or by the value's own mutating methods, which
  // never reach this service again: without the runtime's exclusivity check.
  /// The permission state.
  @exclusivity(unchecked) private(set) var state = LocationAuthorizer()
  private var prompt: (kind: PromptKind, always: Bool)?
  /// Who waits for the temporary full accuracy prompt on screen: the process that asked and
  /// its completion.
  private var temporaryAccuracyRequest: (generation: Int, completion: (LocationError?) -> Void)?

  /// Ends when the service goes away, for the answers it has scheduled.
  let lifetime = Lifetime()

  init(phone: Phone) {
    self.phone = phone
  }

  deinit { lifetime.end() }

  // Asked on every fix: inlined, so that a caller holds no reference to the service across a
  // call.
  @inline(__always) var status: AuthorizationStatus { state.status }
  var accuracy: AccuracyAuthorization { state.accuracy }
  @inline(__always) var isAuthorized: Bool { state.isAuthorized }
  @inline(__always) var isPrecise: Bool { state.accuracy == .fullAccuracy }
  /// Whether the app may not use location at all now (an undetermined app may: its requests
  /// wait for the user's answer).
  var isRefused: Bool { state.status == .denied || state.status == .restricted }
  /// Whether a prompt (of any kind) is on screen.
  var isPromptShown: Bool { prompt != nil }
  /// Whether a location prompt (not the notification one) is on screen.
  var isLocationPromptShown: Bool { prompt.map { $0.kind != .notifications } ?? false }

  // MARK: Prompts

  func requestAuthorization(always: Bool) {
    guard phone.appState == .foreground, prompt == nil else { return }
    guard let kind = always ? state.promptForAlways() : state.promptForWhenInUse()
    else { return }
    show(kind, always: always)
  }

  /// Shows the notification prompt if it can appear now; says whether it did.
  func showNotificationPrompt() -> Bool {
    guard prompt == nil, phone.appState == .foreground else {
      phone.record(PromptEvent.notShown(.notifications))
      return false
    }
    show(.notifications, always: false)
    return true
  }

  /// Provisional Always is resolved by a one-time second prompt that the system shows when the
  /// app first uses location while not in use [3P, WWDC19 705].
  func resolveProvisionalAlwaysIfNeeded() {
    guard state.choice == .provisionalAlways, !state.upgradePromptShown,
      prompt == nil, phone.appState != .foreground
    else { return }
    show(.alwaysUpgrade, always: true)
  }

  /// Asks for precise location for this session while the app has approximate location
  /// (`requestTemporaryFullAccuracyAuthorization(withPurposeKey:completion:)`).
  ///
  /// `completion` runs asynchronously in the app: with `nil` at once when the app already has
  /// full accuracy [A], or once the user has answered the prompt, whatever the answer [A]; with
  /// ``LocationErrorCode/promptDeclined`` when the prompt cannot be shown [A] — `purposeKey`
  /// is not in the app's `NSLocationTemporaryUsageDescriptionDictionary` [A], the app is not
  /// authorized [?], not in the foreground or another prompt is on screen [3P]. Allow grants
  /// full accuracy until the session ends (``sessionEnded()``) [A].
  func requestTemporaryFullAccuracy(
    purposeKey: String, completion: @escaping (LocationError?) -> Void
  ) {
    let declared = phone.runningApp?.infoPlist.locationTemporaryUsageDescriptionDictionary
    let outcome: TemporaryFullAccuracyOutcome
    if state.accuracy == .fullAccuracy {
      outcome = .alreadyFullAccuracy
    } else if declared?[purposeKey] == nil {
      outcome = .unknownPurposeKey
    } else if !state.isAuthorized {
      outcome = .notAuthorized
    } else if prompt != nil || phone.appState != .foreground {
      outcome = .notShown
    } else {
      outcome = .prompted
    }
    phone.record(AuthorizationEvent.temporaryFullAccuracy(purposeKey: purposeKey, outcome: outcome))
    let error: LocationError?
    switch outcome {
    case .prompted:
      temporaryAccuracyRequest = (phone.process.generation, completion)
      show(.temporaryFullAccuracy, always: false)
      return
    case .alreadyFullAccuracy: error = nil
    case .unknownPurposeKey:
      error = LocationError(
        .promptDeclined,
        "'\(purposeKey)' is not a key of the app's NSLocationTemporaryUsageDescriptionDictionary")
    case .notAuthorized:
      error = LocationError(.promptDeclined, "the app is not authorized for location")
    case .notShown:
      phone.record(PromptEvent.notShown(.temporaryFullAccuracy))
      error = LocationError(
        .promptDeclined,
        prompt != nil ? "another prompt is on screen" : "the app is not in the foreground")
    }
    phone.process.call { completion(error) }
  }

  private func show(_ kind: PromptKind, always: Bool) {
    prompt = (kind, always)
    if kind == .alwaysUpgrade { state.upgradePromptShown = true }
    phone.record(PromptEvent.shown(kind))
    phone.sessionsIfUsed?.promptDidChange()
    if let answer = phone.user.nextAnswer(for: kind), answer != .unanswered {
      let service = Uncounted(self)
      checkedScheduling {
        try phone.simulation.schedule(after: phone.user.answerDelay) {
          try service.value?.answer(answer)
        }
      }
    }
  }

  func answer(_ answer: PromptAnswer) throws {
    guard let prompt else {
      throw DeviceError(.invalidState, "no prompt is on screen to answer \(answer)")
    }
    guard answer.isValid(for: prompt.kind) else {
      throw DeviceError(
        .invalidArgument, "'\(answer)' is not an answer the \(prompt.kind) prompt offers")
    }
    guard answer != .unanswered else { return }
    self.prompt = nil
    phone.record(PromptEvent.answered(prompt.kind, answer))
    phone.sessionsIfUsed?.promptDidChange()
    if prompt.kind == .notifications {
      phone.notificationCenter.resolveAuthorization(answer)
    } else if prompt.kind == .temporaryFullAccuracy {
      guard let request = temporaryAccuracyRequest else { return }
      temporaryAccuracyRequest = nil
      // The grant is for the session that asked; a process gone since hears nothing.
      guard request.generation == phone.process.generation else { return }
      if answer == .allow { change { $0.temporaryFullAccuracy = true } }
      phone.process.call { request.completion(nil) }
    } else {
      change { $0.apply(answer, to: prompt.kind, always: prompt.always) }
    }
  }

  /// Allow Once lasts for the app's session: it ends when the app is suspended or terminated
  /// [3P]. So does temporary full accuracy: it expires once the app is no longer in use, which
  /// running location updates in the background postpones [A].
  func sessionEnded() {
    guard state.choice == .allowOnce || state.temporaryFullAccuracy else { return }
    change {
      if $0.choice == .allowOnce { $0.choice = .notDetermined }
      $0.temporaryFullAccuracy = false
    }
  }

  // MARK: Settings

  func setLocationSetting(_ setting: LocationSetting) {
    phone.record(SettingsEvent.location(setting))
    change { a in
      switch setting {
      case .never: a.choice = .denied
      case .askNextTime: a.choice = .notDetermined
      case .whileUsing: a.choice = .whenInUse
      case .always: a.choice = .always
      }
    }
  }

  func setPreciseLocation(_ on: Bool) {
    phone.record(SettingsEvent.preciseLocation(on))
    // The user's choice in Settings replaces a temporary grant [?].
    change {
      $0.precise = on
      $0.temporaryFullAccuracy = false
    }
  }

  func setLocationServices(_ on: Bool) {
    phone.record(SettingsEvent.locationServices(on))
    change { $0.servicesEnabled = on }
  }

  func setAirplaneMode(_ on: Bool) {
    phone.record(SettingsEvent.airplaneMode(on))
    change { $0.airplaneMode = on }
  }

  func setRestricted(_ on: Bool) {
    phone.record(SettingsEvent.restricted(on))
    change { $0.restricted = on }
  }

  /// Applies a change to the permission state and, if what the managers report changed, logs
  /// it and tells them [A].
  private func change(_ body: (inout LocationAuthorizer) -> Void) {
    let before = (state.status, state.accuracy)
    body(&state)
    let after = (state.status, state.accuracy)
    guard before != after else { return }
    phone.record(AuthorizationEvent.changed(status: after.0, accuracy: after.1))
    phone.location.authorizationDidChange()
    phone.sessionsIfUsed?.authorizationDidChange()
    phone.monitors.authorizationDidChange()
  }
}
