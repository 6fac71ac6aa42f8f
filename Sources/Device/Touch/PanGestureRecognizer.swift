/// Recognizes fingers dragging, like `UIPanGestureRecognizer`: a continuous gesture.
///
/// It begins once the fingers' centroid has moved more than ``minimumTranslation`` from where
/// it started (10 pt [?]: UIKit does not publish its threshold; FIDELITY notes that moving more
/// than 10 pt before 0.5 s is a pan [A][3P]), reports changed on every move and ends when the
/// last finger lifts. ``translation(in:)`` counts from the touch-down point, so it includes the
/// distance covered before the gesture began, as in UIKit [3P].
public final class PanGestureRecognizer: GestureRecognizer {
  /// The fewest fingers that pan; default 1 [A].
  public var minimumNumberOfTouches = 1
  /// The most fingers that pan; default unlimited [A].
  public var maximumNumberOfTouches = Int.max
  /// How far the fingers must move before the pan begins; 10 pt [?].
  public var minimumTranslation = 10.0

  private var origin = Point(x: 0, y: 0)
  private var current = Point(x: 0, y: 0)

  override var kind: String { "pan" }

  /// The movement since touch-down, in `view`'s points.
  public func translation(in view: View?) -> Point {
    Point(x: current.x - origin.x, y: current.y - origin.y)
  }

  /// Makes the current translation equal `translation`, like `setTranslation(_:in:)`.
  public func setTranslation(_ translation: Point, in view: View?) {
    origin = Point(x: current.x - translation.x, y: current.y - translation.y)
  }

  override func touchBegan(_ finger: Int, fingers: [Int: Point]) {
    let c = GestureRecognizer.centroid(fingers)
    if fingers.count == 1 && state == .possible {
      origin = c
    } else {
      // The centroid jumps when a finger lands; keep the translation continuous.
      let before = GestureRecognizer.centroid(fingers.filter { $0.key != finger })
      origin = Point(x: origin.x + c.x - before.x, y: origin.y + c.y - before.y)
    }
    current = c
    lastLocation = c
    if state == .possible && fingers.count > maximumNumberOfTouches { transition(to: .failed) }
  }

  override func touchMoved(_ finger: Int, fingers: [Int: Point]) {
    current = GestureRecognizer.centroid(fingers)
    lastLocation = current
    switch state {
    case .possible:
      let t = translation(in: nil)
      if (t.x * t.x + t.y * t.y).squareRoot() > minimumTranslation
        && fingers.count >= minimumNumberOfTouches
      {
        transition(to: .began)
      }
    case .began, .changed: transition(to: .changed)
    default: break
    }
  }

  override func touchEnded(_ finger: Int, fingers: [Int: Point]) {
    let remaining = fingers.filter { $0.key != finger }
    if remaining.isEmpty {
      switch state {
      case .possible: transition(to: .failed)
      case .began, .changed: transition(to: .ended)
      default: break
      }
      return
    }
    let after = GestureRecognizer.centroid(remaining)
    origin = Point(x: origin.x + after.x - current.x, y: origin.y + after.y - current.y)
    current = after
    lastLocation = after
    if remaining.count < minimumNumberOfTouches, state == .began || state == .changed {
      transition(to: .ended)
    }
  }
}

/// Recognizes two fingers pinching, like `UIPinchGestureRecognizer`: a continuous gesture
/// whose ``scale`` is the fingers' distance over their distance at touch-down.
///
/// It begins once that distance has changed by more than ``minimumDistanceChange`` (10 pt [?]:
/// UIKit does not publish its threshold) and ends when fewer than two fingers remain.
public final class PinchGestureRecognizer: GestureRecognizer {
  /// The current distance between the fingers over the distance when the second touched down.
  public var scale = 1.0
  /// How much the fingers' distance must change before the pinch begins; 10 pt [?].
  public var minimumDistanceChange = 10.0

  private var startDistance = 0.0

  override var kind: String { "pinch" }

  private static func pair(_ fingers: [Int: Point]) -> (Point, Point)? {
    let keys = fingers.keys.sorted()
    guard keys.count >= 2 else { return nil }
    return (fingers[keys[0]]!, fingers[keys[1]]!)
  }

  override func touchBegan(_ finger: Int, fingers: [Int: Point]) {
    lastLocation = GestureRecognizer.centroid(fingers)
    if state == .possible, fingers.count == 2, let (a, b) = PinchGestureRecognizer.pair(fingers) {
      startDistance = a.distance(to: b)
      scale = 1
    }
  }

  override func touchMoved(_ finger: Int, fingers: [Int: Point]) {
    lastLocation = GestureRecognizer.centroid(fingers)
    guard let (a, b) = PinchGestureRecognizer.pair(fingers), startDistance > 0 else { return }
    let d = a.distance(to: b)
    switch state {
    case .possible:
      if abs(d - startDistance) > minimumDistanceChange {
        scale = d / startDistance
        transition(to: .began)
      }
    case .began, .changed:
      scale = d / startDistance
      transition(to: .changed)
    default: break
    }
  }

  override func touchEnded(_ finger: Int, fingers: [Int: Point]) {
    let remaining = fingers.count - 1
    if (state == .began || state == .changed) && remaining < 2 {
      transition(to: .ended)
    } else if state == .possible && remaining == 0 {
      transition(to: .failed)
    }
  }

  override func reset() {
    super.reset()
    scale = 1
    startDistance = 0
  }
}
