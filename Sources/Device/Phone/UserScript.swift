import SimKernel

/// A system prompt the user can answer.
public enum PromptKind: String, Hashable, Sendable, CaseIterable {
  /// The first location prompt: Allow Once / Allow While Using App / Don't Allow.
  case location
  /// The one-time upgrade prompt: Keep Only While Using / Change to Always Allow.
  case alwaysUpgrade
  /// The notification prompt: Allow / Don't Allow.
  case notifications
  /// The one-time prompt for precise location while the app has approximate location
  /// (`requestTemporaryFullAccuracyAuthorization(withPurposeKey:)`): Allow Once / Don't Allow.
  case temporaryFullAccuracy
}

/// How the user answers a prompt.
public enum PromptAnswer: String, Hashable, Sendable, CaseIterable {
  /// Location: Allow Once (temporary When In Use for this session).
  case allowOnce
  /// Location: Allow While Using App.
  case allowWhileUsing
  /// Location, notifications or temporary full accuracy: Don't Allow.
  case dontAllow
  /// Notifications: Allow; temporary full accuracy: Allow Once.
  case allow
  /// Upgrade prompt: Keep Only While Using.
  case keepWhileUsing
  /// Upgrade prompt: Change to Always Allow.
  case changeToAlways
  /// The user leaves the prompt on screen.
  case unanswered

  /// Whether this answer is one the prompt offers.
  public func isValid(for kind: PromptKind) -> Bool {
    switch kind {
    case .location: [.allowOnce, .allowWhileUsing, .dontAllow, .unanswered].contains(self)
    case .alwaysUpgrade: [.keepWhileUsing, .changeToAlways, .unanswered].contains(self)
    case .notifications, .temporaryFullAccuracy: [.allow, .dontAllow, .unanswered].contains(self)
    }
  }
}

/// The simulated user's part: how each prompt will be answered, and how long that takes.
///
/// Answers are consumed in order per kind of prompt; a prompt with no scripted answer stays on
/// screen until ``Phone/answerPrompt(_:)`` answers it (a timeline event) — it is never answered
/// by default.
public struct UserScript: Sendable {
  /// Queued answers per prompt kind, first used first.
  public var answers: [PromptKind: [PromptAnswer]]
  /// How long the user takes to answer a prompt: 2 s [?] (an assumption; overridable).
  public var answerDelay: SimDuration

  /// A script with queued answers.
  public init(answers: [PromptKind: [PromptAnswer]] = [:], answerDelay: SimDuration = .seconds(2)) {
    self.answers = answers
    self.answerDelay = answerDelay
  }

  mutating func nextAnswer(for kind: PromptKind) -> PromptAnswer? {
    guard var queue = answers[kind], !queue.isEmpty else { return nil }
    let answer = queue.removeFirst()
    answers[kind] = queue
    return answer
  }
}
