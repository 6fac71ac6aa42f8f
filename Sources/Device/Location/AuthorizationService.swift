import SimKernel

/// The app's location permission on the phone: the prompts, the user's answers and Settings.
/// It alone changes the permission state; every change is logged and reported to the app's
/// managers through the location service.
final class AuthorizationService {
  /// The phone owns this service, so it outlives it: no reference counting on the hot path.
  private unowned(unsafe) let phone: Phone
  /// The permission state.
  private(set) var state = LocationAuthorizer()
  private var prompt: (kind: PromptKind, always: Bool)?

  init(phone: Phone) {
    self.phone = phone
  }

  var status: AuthorizationStatus { state.status }
  var accuracy: AccuracyAuthorization { state.accuracy }
  var isAuthorized: Bool { state.isAuthorized }
  var isPrecise: Bool { state.precise }
  /// Whether the app may not use location at all now (an undetermined app may: its requests
  /// wait for the user's answer).
  var isRefused: Bool { state.status == .denied || state.status == .restricted }

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

  private func show(_ kind: PromptKind, always: Bool) {
    prompt = (kind, always)
    if kind == .alwaysUpgrade { state.upgradePromptShown = true }
    phone.record(PromptEvent.shown(kind))
    if let answer = phone.user.nextAnswer(for: kind), answer != .unanswered {
      checkedScheduling {
        try phone.simulation.schedule(after: phone.user.answerDelay) { [weak self] in
          try self?.answer(answer)
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
    if prompt.kind == .notifications {
      phone.notificationCenter.resolveAuthorization(answer)
    } else {
      change { $0.apply(answer, to: prompt.kind, always: prompt.always) }
    }
  }

  /// Allow Once lasts for the app's session: it ends when the app is suspended or terminated
  /// [3P].
  func sessionEnded() {
    if state.choice == .allowOnce {
      change { $0.choice = .notDetermined }
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
    change { $0.precise = on }
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
  }
}
