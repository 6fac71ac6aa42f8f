import SimKernel

/// Turns a view's touches into a gesture, like `UIGestureRecognizer`: a state machine that
/// calls its targets as the gesture begins, changes and ends.
///
/// States and their raw values are UIKit's: possible 0, began 1, changed 2, ended (recognized)
/// 3, cancelled 4, failed 5 [A]. Discrete recognizers (taps) go from possible to ended
/// (recognized) at once; continuous ones (long press, pan, pinch) go through began and changed.
///
/// How recognizers on one view compete — GeoSim's reading of UIKit, where Apple is partly silent:
/// - every enabled recognizer still possible (or began/changed) sees every touch, in the order
///   the recognizers were added to the view (MapKit's own first);
/// - when one begins or recognizes, every other that is still possible fails, unless
///   ``shouldRecognizeSimultaneously`` allows both [A]; a tap recognizer half-way through a
///   multi-tap is not failed by another *tap* recognizing, so a single tap that does not wait
///   also fires on a double tap [A][3P];
/// - a recognizer that ``require(toFail:)`` another waits, once it would recognize, until the
///   other fails (then it recognizes) or recognizes (then it fails) [A];
/// - recognizers that ended, failed or were cancelled reset to possible once every finger has
///   lifted [A].
///
/// Timers (a long press's 0.5 s, a double tap's wait for the next tap) are kernel events, so
/// the states change at exact virtual instants. Every state change is logged with source
/// `"gesture"`.
public class GestureRecognizer {
  /// UIKit's gesture states, with UIKit's raw values [A].
  public enum State: Int, Sendable, CustomStringConvertible {
    /// Not recognized yet; the default.
    case possible = 0
    /// A continuous gesture has begun.
    case began = 1
    /// A continuous gesture has changed.
    case changed = 2
    /// A continuous gesture has ended, or a discrete one was recognized.
    case ended = 3
    /// The gesture was cancelled.
    case cancelled = 4
    /// The touches are not this gesture.
    case failed = 5

    /// A discrete gesture's success: the same value as ``ended`` [A].
    public static let recognized = State.ended

    /// The state's name.
    public var description: String {
      switch self {
      case .possible: "possible"
      case .began: "began"
      case .changed: "changed"
      case .ended: "ended"
      case .cancelled: "cancelled"
      case .failed: "failed"
      }
    }
  }

  /// The current state.
  public internal(set) var state = State.possible
  /// The view the recognizer is attached to.
  public internal(set) weak var view: View?
  /// Whether the recognizer receives touches; default `true` [A].
  public var isEnabled = true
  /// A name for the event log and for debugging.
  public var name: String?
  /// Whether this recognizer and another may recognize at the same time, like the delegate's
  /// `gestureRecognizer(_:shouldRecognizeSimultaneouslyWith:)`; default `nil`, meaning no [A].
  public var shouldRecognizeSimultaneously: ((GestureRecognizer, GestureRecognizer) -> Bool)?

  private var targets: [(GestureRecognizer) -> Void] = []
  var failureRequirements: [GestureRecognizer] = []
  /// Set while the recognizer would recognize but waits for its failure requirements.
  var pendingState: State?
  var lastLocation = Point(x: 0, y: 0)
  var fingerCount = 0
  var timer: EventHandle?

  /// A recognizer that calls `action`, if given, on every state change it reports.
  public init(_ action: ((GestureRecognizer) -> Void)? = nil) {
    if let action { targets.append(action) }
  }

  /// Adds a target called with the recognizer at each reported state, like
  /// `addTarget(_:action:)`.
  public func addTarget(_ action: @escaping (GestureRecognizer) -> Void) {
    targets.append(action)
  }

  /// Makes this recognizer wait, once it would recognize, until `other` fails, like
  /// `require(toFail:)` [A]. If `other` recognizes instead, this one fails.
  public func require(toFail other: GestureRecognizer) {
    guard other !== self, !failureRequirements.contains(where: { $0 === other }) else { return }
    failureRequirements.append(other)
  }

  /// Where the gesture is in `view`'s points: the centroid of its touches, like
  /// `location(in:)`. Views share the screen's origin, so the result is the same in every
  /// view [?].
  public func location(in view: View?) -> Point { lastLocation }

  /// How many fingers the gesture involves now.
  public var numberOfTouches: Int { fingerCount }

  /// The recognizer's kind in the event log.
  var kind: String { "gesture" }
  /// Whether it is a continuous recognizer (began/changed/ended) rather than a discrete one.
  var isContinuous: Bool { true }

  // MARK: Subclass hooks

  /// A finger touched down; `fingers` holds every finger down, this one included.
  func touchBegan(_ finger: Int, fingers: [Int: Point]) {}
  /// A finger moved.
  func touchMoved(_ finger: Int, fingers: [Int: Point]) {}
  /// A finger lifted; `fingers` still includes it, at its last point.
  func touchEnded(_ finger: Int, fingers: [Int: Point]) {}
  /// The system cancelled a finger's touch.
  func touchCancelled(_ finger: Int, fingers: [Int: Point]) {
    switch state {
    case .began, .changed: transition(to: .cancelled)
    case .possible: transition(to: .failed)
    default: break
    }
  }

  /// Back to possible for the next gesture; subclasses clear their own tracking too.
  func reset() {
    cancelTimer()
    state = .possible
    pendingState = nil
    fingerCount = 0
  }

  // MARK: Machinery

  /// Whether the recognizer takes part in the current touches.
  var isTracking: Bool {
    isEnabled && pendingState == nil
      && (state == .possible || state == .began || state == .changed)
  }

  func cancelTimer() {
    if let timer, let view { view.phone.simulation.cancel(timer) }
    timer = nil
  }

  /// Schedules `action` after `delay`, replacing any earlier timer of this recognizer.
  func startTimer(after delay: SimDuration, _ action: @escaping () -> Void) {
    cancelTimer()
    guard let view else { return }
    timer = checkedScheduling {
      try view.phone.simulation.schedule(after: max(delay, .zero)) { [weak self] in
        self?.timer = nil
        action()
      }
    }
  }

  /// Asks the view to move the recognizer to `state`, resolving competition with others.
  func transition(to newState: State) {
    view?.transition(self, to: newState)
  }

  func callTargets() {
    for target in targets { target(self) }
  }

  static func centroid(_ fingers: [Int: Point]) -> Point {
    guard !fingers.isEmpty else { return Point(x: 0, y: 0) }
    var x = 0.0
    var y = 0.0
    // In finger order: a dictionary's order varies between runs, and sums must not.
    for finger in fingers.keys.sorted() {
      let p = fingers[finger]!
      x += p.x
      y += p.y
    }
    return Point(x: x / Double(fingers.count), y: y / Double(fingers.count))
  }
}
