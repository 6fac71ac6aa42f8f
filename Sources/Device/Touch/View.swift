import SimKernel

/// A rectangle of the simulated screen that receives touches, like `UIView`, with its gesture
/// recognizers.
///
/// A view's points have their origin at its top-left corner, `x` right and `y` down [A]. Touch
/// streams replayed with ``replay(_:)`` are delivered to the view's recognizers as kernel
/// events at their virtual times; see ``GestureRecognizer`` for how they compete.
public class View {
  /// The phone whose screen shows the view.
  public unowned let phone: Phone
  /// The view's size in points.
  public let size: Size
  /// The recognizers attached to the view, in the order they were added.
  public private(set) var gestureRecognizers: [GestureRecognizer] = []

  /// The fingers down now, by finger number, with their current points.
  var touches: [Int: Point] = [:]
  /// The fingers that will be down once every replayed touch scheduled so far has fired, and
  /// the time of the last one: later replays continue from there.
  var scheduledFingers: Set<Int> = []
  var lastScheduledTime: SimTime?

  /// A view of `size` on `phone`'s screen; throws ``DeviceError`` unless both dimensions are
  /// positive finite numbers.
  public init(phone: Phone, size: Size) throws {
    guard size.width.isFinite, size.height.isFinite, size.width > 0, size.height > 0 else {
      throw DeviceError(
        .invalidArgument, "view size \(size) needs a positive finite width and height")
    }
    self.phone = phone
    self.size = size
  }

  /// Whether `point` lies within the view's bounds (edges included).
  public func contains(_ point: Point) -> Bool {
    point.x >= 0 && point.y >= 0 && point.x <= size.width && point.y <= size.height
  }

  /// Attaches a recognizer; it starts receiving the view's touches with the next touch.
  ///
  /// A recognizer belongs to one view: adding it here detaches it from any other.
  public func addGestureRecognizer(_ recognizer: GestureRecognizer) {
    if let other = recognizer.view, other !== self { other.removeGestureRecognizer(recognizer) }
    guard !gestureRecognizers.contains(where: { $0 === recognizer }) else { return }
    gestureRecognizers.append(recognizer)
    recognizer.view = self
  }

  /// Detaches a recognizer.
  public func removeGestureRecognizer(_ recognizer: GestureRecognizer) {
    gestureRecognizers.removeAll { $0 === recognizer }
    if recognizer.view === self {
      recognizer.reset()
      recognizer.view = nil
    }
  }
}
