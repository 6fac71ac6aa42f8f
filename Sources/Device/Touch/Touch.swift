import SimKernel

/// The phase of one finger's touch, like `UITouch.Phase` without the stationary phase [A].
public enum TouchPhase: String, Hashable, Sendable {
  /// The finger touched down.
  case began
  /// The finger moved.
  case moved
  /// The finger lifted.
  case ended
  /// The system cancelled the touch (an incoming call, an alert).
  case cancelled
}

/// One raw touch sample: a finger, a phase, a point in the view and a virtual time.
public struct TouchSample: Hashable, Sendable, CustomStringConvertible {
  /// Which finger, numbered by the scenario; fingers down at the same time need different
  /// numbers.
  public var finger: Int
  /// What the finger did.
  public var phase: TouchPhase
  /// Where, in the view's points.
  public var point: Point
  /// When.
  public var time: SimTime

  /// A sample.
  public init(finger: Int = 0, phase: TouchPhase, point: Point, time: SimTime) {
    self.finger = finger
    self.phase = phase
    self.point = point
    self.time = time
  }

  /// The sample as `phase finger at point t=…`.
  public var description: String { "\(phase) of finger \(finger) at \(point) \(time)" }
}
