import SimKernel

/// Recognizes one or more taps of one or more fingers, like `UITapGestureRecognizer`: a
/// discrete gesture recognized when the last finger of the last tap lifts.
///
/// Defaults are UIKit's: one tap of one finger [A]. A finger moving more than
/// ``allowableMovement`` from where it touched down, more fingers than required, or a gap
/// longer than ``maximumIntervalBetweenTaps`` before the next tap fails it. A tap may be held
/// any time: UIKit documents no limit and GeoSim sets none [?].
public final class TapGestureRecognizer: GestureRecognizer {
  /// Taps needed; default 1 [A].
  public var numberOfTapsRequired = 1
  /// Fingers per tap; default 1 [A].
  public var numberOfTouchesRequired = 1
  /// The longest wait from one tap's lift to the next touch-down: 0.35 s [?] (UIKit does not
  /// publish it; about the system's double-tap interval).
  public var maximumIntervalBetweenTaps = SimDuration.milliseconds(350)
  /// How far a finger may move during a tap: 10 pt [?] (UIKit's long-press default, assumed
  /// for taps).
  public var allowableMovement = 10.0

  private var taps = 0
  private var mostFingers = 0
  private var downPoints: [Int: Point] = [:]

  override var kind: String { "tap" }
  override var isContinuous: Bool { false }

  /// Whether some taps have been counted and more are needed.
  var isBetweenTaps: Bool { taps > 0 && taps < numberOfTapsRequired }

  override func touchBegan(_ finger: Int, fingers: [Int: Point]) {
    cancelTimer()
    downPoints[finger] = fingers[finger]
    mostFingers = max(mostFingers, fingers.count)
    lastLocation = GestureRecognizer.centroid(fingers)
    if fingers.count > numberOfTouchesRequired { transition(to: .failed) }
  }

  override func touchMoved(_ finger: Int, fingers: [Int: Point]) {
    if let down = downPoints[finger], let now = fingers[finger],
      down.distance(to: now) > allowableMovement
    {
      transition(to: .failed)
    }
  }

  override func touchEnded(_ finger: Int, fingers: [Int: Point]) {
    lastLocation = GestureRecognizer.centroid(fingers)
    downPoints[finger] = nil
    guard fingers.count == 1 else { return }  // the tap ends when its last finger lifts
    guard mostFingers == numberOfTouchesRequired else {
      transition(to: .failed)
      return
    }
    taps += 1
    mostFingers = 0
    if taps >= numberOfTapsRequired {
      transition(to: .recognized)
    } else {
      startTimer(after: maximumIntervalBetweenTaps) { [weak self] in
        guard let self, self.state == .possible else { return }
        self.transition(to: .failed)
      }
    }
  }

  override func reset() {
    super.reset()
    taps = 0
    mostFingers = 0
    downPoints = [:]
  }
}

/// Recognizes a finger held still, like `UILongPressGestureRecognizer`: a continuous gesture.
///
/// It begins when the fingers have been down ``minimumPressDuration`` (0.5 s [A]) without
/// moving more than ``allowableMovement`` (10 pt [A]); after that it reports changed on every
/// move, however far (the allowance applies only before it begins [A]), and ended when a
/// finger lifts. Lifting or moving too far before then fails it. The timer is a kernel event,
/// so the gesture begins at exactly touch-down + ``minimumPressDuration``.
public final class LongPressGestureRecognizer: GestureRecognizer {
  /// How long the fingers must stay down; default 0.5 s [A].
  public var minimumPressDuration = SimDuration.milliseconds(500)
  /// How far a finger may move before the gesture begins; default 10 pt [A].
  public var allowableMovement = 10.0
  /// Fingers that must be down; default 1 [A].
  public var numberOfTouchesRequired = 1

  private var downPoints: [Int: Point] = [:]

  override var kind: String { "longPress" }

  override func touchBegan(_ finger: Int, fingers: [Int: Point]) {
    guard state == .possible else { return }
    downPoints[finger] = fingers[finger]
    lastLocation = GestureRecognizer.centroid(fingers)
    if fingers.count > numberOfTouchesRequired {
      transition(to: .failed)
    } else if fingers.count == numberOfTouchesRequired {
      startTimer(after: minimumPressDuration) { [weak self] in
        guard let self, self.state == .possible, self.pendingState == nil else { return }
        self.transition(to: .began)
      }
    }
  }

  override func touchMoved(_ finger: Int, fingers: [Int: Point]) {
    switch state {
    case .possible:
      lastLocation = GestureRecognizer.centroid(fingers)
      if let down = downPoints[finger], let now = fingers[finger],
        down.distance(to: now) > allowableMovement
      {
        transition(to: .failed)
      }
    case .began, .changed:
      lastLocation = GestureRecognizer.centroid(fingers)
      transition(to: .changed)
    default: break
    }
  }

  override func touchEnded(_ finger: Int, fingers: [Int: Point]) {
    lastLocation = GestureRecognizer.centroid(fingers)
    switch state {
    case .possible: transition(to: .failed)
    case .began, .changed: transition(to: .ended)
    default: break
    }
  }

  override func reset() {
    super.reset()
    downPoints = [:]
  }
}
