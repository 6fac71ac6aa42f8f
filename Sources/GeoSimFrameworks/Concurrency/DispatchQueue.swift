import Device
import Dispatch
import SimKernel

/// A queue of the app's work (Dispatch's `DispatchQueue`, standing in for it in code that
/// imports this module): every queue — `.main`, `.global()`, one made with a label — runs its
/// blocks on the simulated phone's main thread, in virtual time, in the order they became due.
///
/// On iOS only `.main` is the main thread, and a global or concurrent queue may run blocks at
/// once on other threads; here they run one at a time, which keeps a run deterministic and
/// never reorders a queue's own blocks. `sync` runs the block at once on the caller's thread.
public final class DispatchQueue: Sendable, CustomStringConvertible {
  /// The queue's label.
  public let label: String
  /// The queue's quality of service (kept; it changes nothing in a world).
  public let qos: DispatchQoS

  /// Attributes of a queue made with a label.
  public struct Attributes: OptionSet, Sendable {
    /// The option bits.
    public let rawValue: UInt64
    /// Attributes from option bits.
    public init(rawValue: UInt64) { self.rawValue = rawValue }
    /// A concurrent queue (its blocks still run one at a time in a world).
    public static let concurrent = Attributes(rawValue: 1 << 1)
    /// A queue that runs nothing until `activate()`.
    public static let initiallyInactive = Attributes(rawValue: 1 << 2)
  }

  /// The main queue: the app's main thread.
  public static let main = DispatchQueue(label: "com.apple.main-thread", qos: .userInteractive)

  private static let globals: [DispatchQoS.QoSClass: DispatchQueue] = [
    .background: DispatchQueue(label: "com.apple.root.background-qos", qos: .background),
    .utility: DispatchQueue(label: "com.apple.root.utility-qos", qos: .utility),
    .default: DispatchQueue(label: "com.apple.root.default-qos", qos: .default),
    .userInitiated: DispatchQueue(label: "com.apple.root.user-initiated-qos", qos: .userInitiated),
    .userInteractive: DispatchQueue(
      label: "com.apple.root.user-interactive-qos", qos: .userInteractive),
    .unspecified: DispatchQueue(label: "com.apple.root.default-qos", qos: .unspecified),
  ]

  /// The global queue of a quality of service.
  public class func global(qos: DispatchQoS.QoSClass = .default) -> DispatchQueue {
    globals[qos] ?? globals[.default]!
  }

  /// A queue with a label.
  public init(
    label: String, qos: DispatchQoS = .unspecified, attributes: Attributes = [],
    target: DispatchQueue? = nil
  ) {
    self.label = label
    self.qos = qos
  }

  /// The label.
  public var description: String { "DispatchQueue(\(label))" }

  /// Runs `work` on the app's main thread after the work already queued.
  public func async(
    qos: DispatchQoS = .unspecified, flags: DispatchWorkItemFlags = [],
    file: StaticString = #fileID, line: UInt = #line,
    execute work: @escaping @Sendable () -> Void
  ) {
    let label = "\(description).async at \(file):\(line)"
    Phone.requireCurrent(doing: label).runLoop.enqueue(label, work)
  }

  /// Runs `work` at `deadline` of the world's virtual time.
  public func asyncAfter(
    deadline: DispatchTime, qos: DispatchQoS = .unspecified, flags: DispatchWorkItemFlags = [],
    file: StaticString = #fileID, line: UInt = #line,
    execute work: @escaping @Sendable () -> Void
  ) {
    let label = "\(description).asyncAfter at \(file):\(line)"
    let runLoop = Phone.requireCurrent(doing: label).runLoop
    let delay = deadline.instant.map { $0 - runLoop.owner.simulation.now }
    runLoop.schedule(after: delay, kind: .timer, label, work)
  }

  /// Runs `work` at once on the calling thread and returns its result.
  public func sync<T>(execute work: () throws -> T) rethrows -> T {
    try work()
  }
}

/// An instant of the world's virtual time for `asyncAfter` (Dispatch's `DispatchTime`,
/// standing in for it in code that imports this module).
public struct DispatchTime: Comparable, Sendable {
  /// The instant, or `nil` for ``distantFuture``.
  let instant: SimTime?

  /// The current instant of the world running on this thread.
  public static func now() -> DispatchTime {
    DispatchTime(instant: Phone.requireCurrent(doing: "DispatchTime.now()").simulation.now)
  }

  /// An instant that never comes.
  public static let distantFuture = DispatchTime(instant: nil)

  /// Nanoseconds since the world began.
  public var uptimeNanoseconds: UInt64 {
    instant.map { UInt64(max($0.nanoseconds, 0)) } ?? UInt64.max
  }

  /// Whether `a` is earlier than `b`.
  public static func < (a: DispatchTime, b: DispatchTime) -> Bool {
    switch (a.instant, b.instant) {
    case (let a?, let b?): a < b
    case (_?, nil): true
    default: false
    }
  }

  /// `time` plus `seconds`.
  public static func + (time: DispatchTime, seconds: Double) -> DispatchTime {
    time.adding(AppRunLoop.delay(seconds: seconds))
  }

  /// `time` plus `interval`.
  public static func + (time: DispatchTime, interval: DispatchTimeInterval) -> DispatchTime {
    time.adding(interval.delay)
  }

  /// `time` minus `seconds`.
  public static func - (time: DispatchTime, seconds: Double) -> DispatchTime {
    time + -seconds
  }

  private func adding(_ delay: SimDuration?) -> DispatchTime {
    guard let instant, let delay else { return .distantFuture }
    let (sum, overflow) = instant.nanoseconds.addingReportingOverflow(delay.nanoseconds)
    return overflow ? .distantFuture : DispatchTime(instant: SimTime(nanoseconds: sum))
  }
}

extension DispatchTimeInterval {
  /// The interval as a delay; `nil` for `.never`.
  var delay: SimDuration? {
    switch self {
    case .seconds(let n): AppRunLoop.delay(seconds: Double(n))
    case .milliseconds(let n): AppRunLoop.delay(seconds: Double(n) / 1e3)
    case .microseconds(let n): AppRunLoop.delay(seconds: Double(n) / 1e6)
    case .nanoseconds(let n): SimDuration(nanoseconds: Int64(n))
    case .never: nil
    @unknown default: nil
    }
  }
}
