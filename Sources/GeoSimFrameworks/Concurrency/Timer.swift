import Device
import SimKernel

/// A timer on the app's main thread in virtual time (Foundation's `Timer`, standing in for it
/// in code that imports this module): the block-based timers; target–action timers need
/// `#selector`, which has no runtime on Linux.
public final class Timer: NSObject, @unchecked Sendable {
  // Unchecked: a timer belongs to one world's main thread, as on iOS to one run loop.
  /// Seconds between firings of a repeating timer; 0 for a one-shot timer.
  public let timeInterval: TimeInterval
  /// Extra lateness the system may allow (kept; a world fires on time).
  public var tolerance: TimeInterval = 0
  /// Whether the timer will still fire.
  public private(set) var isValid = true
  /// Anything the app attaches.
  public let userInfo: Any?
  private let repeats: Bool
  private let block: @Sendable (Timer) -> Void
  private let label: String
  private var work: AppWorkItem?
  private var due: SimTime?
  private unowned(unsafe) let runLoop: AppRunLoop

  private init(
    interval: TimeInterval, repeats: Bool, userInfo: Any?, label: String,
    block: @escaping @Sendable (Timer) -> Void
  ) {
    runLoop = Phone.requireCurrent(doing: label).runLoop
    // As Foundation does, a non-positive interval is taken as 0.1 ms.
    timeInterval = repeats ? max(interval, 0.0001) : max(interval, 0)
    self.repeats = repeats
    self.userInfo = userInfo
    self.label = label
    self.block = block
  }

  /// Creates a timer and schedules it on the main run loop: `block` runs after `interval`
  /// seconds of virtual time, and again every `interval` if it `repeats`.
  @discardableResult
  public class func scheduledTimer(
    withTimeInterval interval: TimeInterval, repeats: Bool, file: StaticString = #fileID,
    line: UInt = #line, block: @escaping @Sendable (Timer) -> Void
  ) -> Timer {
    let timer = Timer(
      interval: interval, repeats: repeats, userInfo: nil,
      label: "Timer.scheduledTimer at \(file):\(line)", block: block)
    timer.arm(after: interval)
    return timer
  }

  /// When the timer fires next, in the world's calendar; `distantFuture` if never.
  public var fireDate: Date {
    guard isValid, let due else { return .distantFuture }
    return runLoop.owner.simulation.date(of: due)
  }

  /// Fires the timer now, without changing its schedule (a one-shot timer is then invalid).
  public func fire() {
    guard isValid else { return }
    block(self)
    if !repeats { invalidate() }
  }

  /// Stops the timer: it never fires again.
  public func invalidate() {
    isValid = false
    work?.cancel()
    work = nil
    due = nil
  }

  private func arm(after seconds: TimeInterval) {
    let delay = AppRunLoop.delay(seconds: seconds)
    due = delay.map { runLoop.owner.simulation.now + $0 }
    work = runLoop.schedule(after: delay, kind: .timer, label) { [self] in
      guard isValid else { return }
      work = nil
      if repeats { arm(after: timeInterval) } else { isValid = false }
      block(self)
    }
  }
}
