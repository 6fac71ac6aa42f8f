/// The app's location permission as a state machine: the user's choice, the system-wide
/// switches, and what the app is told.
///
/// Facts from FIDELITY.md: statuses and their raw values [A]; prompts only from
/// notDetermined, asynchronously, in the foreground [A]; iOS 13+ options Allow Once / Allow While
/// Using / Don't Allow, Allow Once reporting authorizedWhenInUse until the session ends [3P];
/// asking for Always and answering While Using gives provisional Always, reported as
/// authorizedAlways until a one-time second prompt [3P, WWDC19 705]; Location Services off
/// system-wide or Airplane mode report denied and restore the previous status when undone [A].
struct LocationAuthorizer: Hashable, Sendable {
  /// What the user has chosen for the app.
  enum Choice: String, Hashable, Sendable {
    case notDetermined, denied, whenInUse, always
    /// Allow Once: When In Use until the app's session ends.
    case allowOnce
    /// While Using chosen at an Always request: reported as Always until resolved.
    case provisionalAlways
  }

  var choice: Choice = .notDetermined
  var restricted = false
  var precise = true
  var servicesEnabled = true
  var airplaneMode = false
  /// The one-time Always upgrade prompt has been shown.
  var upgradePromptShown = false
  /// The user allowed precise location once, for this session, while Precise Location is off.
  var temporaryFullAccuracy = false

  /// What ``LocationManager/authorizationStatus`` reports. (Asked on every fix: inlined, so
  /// that its caller holds no reference across a call.)
  @inline(__always) var status: AuthorizationStatus {
    if restricted { return .restricted }
    if !servicesEnabled || airplaneMode { return .denied }
    switch choice {
    case .notDetermined: return .notDetermined
    case .denied: return .denied
    case .whenInUse, .allowOnce: return .authorizedWhenInUse
    case .always, .provisionalAlways: return .authorizedAlways
    }
  }

  /// What ``LocationManager/accuracyAuthorization`` reports.
  var accuracy: AccuracyAuthorization {
    precise || temporaryFullAccuracy ? .fullAccuracy : .reducedAccuracy
  }

  @inline(__always) var isAuthorized: Bool {
    status == .authorizedAlways || status == .authorizedWhenInUse
  }

  /// The prompt a request for When In Use shows, if any.
  func promptForWhenInUse() -> PromptKind? {
    choice == .notDetermined && !restricted && servicesEnabled && !airplaneMode ? .location : nil
  }

  /// The prompt a request for Always shows, if any.
  func promptForAlways() -> PromptKind? {
    if let prompt = promptForWhenInUse() { return prompt }
    if choice == .whenInUse && !upgradePromptShown && status == .authorizedWhenInUse {
      return .alwaysUpgrade
    }
    return nil
  }

  /// Applies an answer to a location prompt raised by a When In Use (`always: false`) or
  /// Always (`always: true`) request.
  mutating func apply(_ answer: PromptAnswer, to kind: PromptKind, always: Bool) {
    switch (kind, answer) {
    case (.location, .allowOnce): choice = .allowOnce
    case (.location, .allowWhileUsing): choice = always ? .provisionalAlways : .whenInUse
    case (.location, .dontAllow): choice = .denied
    case (.alwaysUpgrade, .changeToAlways): choice = .always
    case (.alwaysUpgrade, .keepWhileUsing): choice = .whenInUse
    default: break
    }
    if kind == .alwaysUpgrade && answer != .unanswered { upgradePromptShown = true }
  }
}

/// The per-app location setting in the Settings app.
public enum LocationSetting: String, Hashable, Sendable, CaseIterable {
  /// Never.
  case never
  /// Ask Next Time Or When I Share (back to notDetermined).
  case askNextTime
  /// While Using the App.
  case whileUsing
  /// Always.
  case always
}
