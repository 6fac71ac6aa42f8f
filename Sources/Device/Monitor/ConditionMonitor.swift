import SimKernel

/// The app's handle on one named monitor of the phone (`CLMonitor`): the conditions it holds
/// belong to the phone and outlive the handle and the process [A]; the handle receives the
/// monitor's events while the process that made it runs.
///
/// Creating a handle opens the monitor: events that waited for a monitor of that name are
/// delivered to it [A]. The newest handle of a name in a process is the one that receives
/// events [?]. Events come later, never inside the call that caused them, through
/// ``onEvent``; those that arrive before it is set wait for it.
public final class ConditionMonitor {
  /// The monitor's name.
  public let name: String
  /// The phone; the phone outlives the app's objects.
  public unowned let phone: Phone
  /// Receives each event of the monitor, on the app's main thread.
  public var onEvent: ((ConditionEvent) -> Void)? {
    didSet { flush() }
  }
  private var waiting: [ConditionEvent] = []
  /// Whether the app iterates this monitor's events (see ``beginIterating()``).
  public private(set) var isIterated = false

  /// Opens the monitor `name` on `phone` for the running app.
  public init(name: String, phone: Phone) {
    self.name = name
    self.phone = phone
    phone.monitors.open(self)
  }

  /// The identifiers of the monitor's conditions, in the order they were added.
  public var identifiers: [String] { phone.monitors.identifiers(monitor: name) }

  /// The condition with `identifier` and the last event the app received for it, or `nil`.
  public func record(for identifier: String) -> ConditionRecord? {
    phone.monitors.record(monitor: name, identifier: identifier)
  }

  /// Adds `condition` as `identifier`, replacing a condition with that identifier, with
  /// `assuming` as its state until the phone knows better. When the phone's first evaluation
  /// disagrees, an event with the real state follows [A]; a condition added with `.unknown`
  /// gets its first state as an event [A].
  public func add(
    _ condition: MonitorCondition, identifier: String, assuming: ConditionState = .unknown
  ) {
    phone.monitors.add(condition, identifier: identifier, assuming: assuming, monitor: name)
  }

  /// Removes the condition with `identifier` and its record, if there is one.
  public func remove(_ identifier: String) {
    phone.monitors.remove(identifier, monitor: name)
  }

  /// The app started iterating the monitor's events: what the session model reads through
  /// ``Phone/iteratedConditionMonitors``. Iterating holds an implicit When In Use service
  /// session (which may prompt) unless the app's Info.plist requires explicit sessions; then,
  /// without one, the monitor's events carry `serviceSessionRequired` until the app creates
  /// one [A].
  public func beginIterating() {
    guard !isIterated else { return }
    isIterated = true
    switch phone.startImplicitServiceSession() {
    case .session(let session): implicitSession = session
    case .explicitSessionHeld: break
    case .serviceSessionRequired: phone.setMonitorServiceSessionRequired(true)
    }
  }

  /// The implicit session iterating holds, for as long as the monitor lives (its process).
  private var implicitSession: ServiceSession?

  func receive(_ event: ConditionEvent) {
    waiting.append(event)
    flush()
  }

  private func flush() {
    guard let onEvent, !waiting.isEmpty else { return }
    let events = waiting
    waiting.removeAll()
    for event in events { onEvent(event) }
  }
}
