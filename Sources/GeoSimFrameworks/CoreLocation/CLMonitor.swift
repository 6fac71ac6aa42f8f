import Device
import Geo

/// A condition a ``CLMonitor`` can watch (`CLCondition`).
public protocol CLCondition: Codable, Sendable {}

/// A condition's state (`CLMonitoringState`): `.unknown`, `.satisfied`, `.unsatisfied`,
/// `.unmonitored`, with Apple's raw values.
public typealias CLMonitoringState = ConditionState

/// A beacon's major value (`CLBeaconMajorValue`).
public typealias CLBeaconMajorValue = UInt16
/// A beacon's minor value (`CLBeaconMinorValue`).
public typealias CLBeaconMinorValue = UInt16

/// Monitors the conditions added to it and reports their changes as ``events`` (`CLMonitor`,
/// iOS 17).
///
/// An actor whose executor is the app's main thread on the simulated phone, so its methods run
/// in virtual time. `await CLMonitor("name")` binds to the phone whose app runs on the calling
/// thread. The conditions belong to the phone, not to the process: a monitor of the same name
/// created after a relaunch finds them, and receives the events that happened while no such
/// monitor existed [A]. What the phone decides and when is the region engine's
/// (docs/DEVICE.md, "CLMonitor").
public actor CLMonitor {
  /// A circle on the ground: satisfied while the device is inside it [A].
  public struct CircularGeographicCondition: CLCondition {
    /// The centre.
    public let center: CLLocationCoordinate2D
    /// The radius in metres.
    public let radius: CLLocationDistance

    /// A circle of `radius` metres around `center`.
    public init(center: CLLocationCoordinate2D, radius: CLLocationDistance) {
      self.center = center
      self.radius = radius
    }

    private enum CodingKeys: String, CodingKey { case latitude, longitude, radius }

    /// Decodes the centre's latitude and longitude and the radius.
    public init(from decoder: any Decoder) throws {
      let c = try decoder.container(keyedBy: CodingKeys.self)
      center = CLLocationCoordinate2D(
        latitude: try c.decode(Double.self, forKey: .latitude),
        longitude: try c.decode(Double.self, forKey: .longitude))
      radius = try c.decode(Double.self, forKey: .radius)
    }

    /// Encodes the centre's latitude and longitude and the radius.
    public func encode(to encoder: any Encoder) throws {
      var c = encoder.container(keyedBy: CodingKeys.self)
      try c.encode(center.latitude, forKey: .latitude)
      try c.encode(center.longitude, forKey: .longitude)
      try c.encode(radius, forKey: .radius)
    }
  }

  /// A beacon identity: the phone has no Bluetooth radio and scenarios place no beacons, so
  /// such a condition is never watched; its event says `conditionUnsupported`.
  public struct BeaconIdentityCondition: CLCondition {
    /// The beacons' UUID.
    public let uuid: UUID
    /// The major value, or `nil` for any.
    public let major: CLBeaconMajorValue?
    /// The minor value, or `nil` for any.
    public let minor: CLBeaconMinorValue?

    /// Beacons with `uuid`.
    public init(uuid: UUID) { self.init(uuid: uuid, major: nil, minor: nil) }
    /// Beacons with `uuid` and `major`.
    public init(uuid: UUID, major: CLBeaconMajorValue) {
      self.init(uuid: uuid, major: major, minor: nil)
    }
    /// The beacon with `uuid`, `major` and `minor`.
    public init(uuid: UUID, major: CLBeaconMajorValue, minor: CLBeaconMinorValue) {
      self.init(uuid: uuid, major: Optional(major), minor: Optional(minor))
    }
    private init(uuid: UUID, major: CLBeaconMajorValue?, minor: CLBeaconMinorValue?) {
      self.uuid = uuid
      self.major = major
      self.minor = minor
    }
  }

  /// One event of the monitor: a condition's new state, or what keeps the monitor from
  /// watching it (`CLMonitor.Event`).
  public struct Event: Sendable {
    /// The condition's state (`CLMonitoringState`).
    public typealias State = CLMonitoringState
    /// The identifier of the condition.
    public let identifier: String
    /// When it happened, in the world's calendar.
    public let date: Date
    /// The condition's state.
    public let state: State
    /// The most specific condition the event applies to; `nil` for circles [A].
    public let refinement: (any CLCondition)?
    let diagnostics: MonitorDiagnostics

    init(_ event: ConditionEvent, in phone: Phone) {
      identifier = event.identifier
      date = phone.simulation.date(of: event.date)
      state = event.state
      refinement = nil
      diagnostics = event.diagnostics
    }

    /// The app receives accuracy-limited locations: circles are not monitored (iOS 18).
    public var accuracyLimited: Bool { diagnostics.contains(.accuracyLimited) }
    /// The app's own location permission is denied (iOS 18).
    public var authorizationDenied: Bool { diagnostics.contains(.authorizationDenied) }
    /// Location Services are off for the whole phone (iOS 18).
    public var authorizationDeniedGlobally: Bool {
      diagnostics.contains(.authorizationDeniedGlobally)
    }
    /// A location permission prompt is on screen (iOS 18).
    public var authorizationRequestInProgress: Bool {
      diagnostics.contains(.authorizationRequestInProgress)
    }
    /// Location is restricted for the app and it cannot change that (iOS 18).
    public var authorizationRestricted: Bool { diagnostics.contains(.authorizationRestricted) }
    /// The app monitors too many conditions: this one is not watched (iOS 18).
    public var conditionLimitExceeded: Bool { diagnostics.contains(.conditionLimitExceeded) }
    /// The phone cannot monitor this kind of condition (iOS 18): beacons here.
    public var conditionUnsupported: Bool { diagnostics.contains(.conditionUnsupported) }
    /// The app has When In Use permission and is not in use (iOS 18).
    public var insufficientlyInUse: Bool { diagnostics.contains(.insufficientlyInUse) }
    /// The monitor cannot store its conditions (iOS 18); never here.
    public var persistenceUnavailable: Bool { diagnostics.contains(.persistenceUnavailable) }
    /// The app needs a `CLServiceSession` for the monitor to work (iOS 18).
    public var serviceSessionRequired: Bool { diagnostics.contains(.serviceSessionRequired) }
  }

  /// A condition and the most recent event the app received for it (`CLMonitor.Record`).
  public struct Record: Sendable {
    /// The condition.
    public let condition: any CLCondition
    /// The most recent event; until the first, the assumed state at the time of `add`.
    public let lastEvent: Event
  }

  /// The monitor's events, an asynchronous sequence that never ends (`CLMonitor.Events`).
  ///
  /// While a loop waits for the next event, the wait is a `waiting` item of the app's pending
  /// work, so a loop still waiting when a run ends is listed.
  public struct Events: AsyncSequence, Sendable {
    /// An event.
    public typealias Element = Event
    let channel: EventChannel

    /// An iterator over the events; each event goes to one iterator.
    public struct Iterator: AsyncIteratorProtocol {
      let channel: EventChannel
      /// The next event, once there is one.
      public mutating func next() async throws -> Event? {
        await channel.next()
      }
    }

    /// An iterator; iterating tells the phone the app consumes the monitor's events.
    public func makeAsyncIterator() -> Iterator {
      channel.beganIterating()
      return Iterator(channel: channel)
    }
  }

  /// The monitor's name.
  public nonisolated let name: String
  /// The monitor's events.
  public let events: Events
  private let monitor: ConditionMonitor
  private nonisolated let executor: AppExecutor

  /// The app's main thread on its phone.
  public nonisolated var unownedExecutor: UnownedSerialExecutor {
    executor.asUnownedSerialExecutor()
  }

  /// Opens the monitor `name` on the running app's phone: the conditions the phone keeps for
  /// that name, and the events that waited for it, are this monitor's [A].
  public init(_ name: String) async {
    let phone = Phone.requireCurrent(doing: "CLMonitor(_:)")
    let monitor = ConditionMonitor(name: name, phone: phone)
    let channel = EventChannel(phone: phone, label: "CLMonitor(\"\(name)\").events")
    channel.monitor = monitor
    monitor.onEvent = { [unowned(unsafe) phone] event in
      channel.push(Event(event, in: phone))
    }
    self.name = name
    self.monitor = monitor
    self.events = Events(channel: channel)
    self.executor = phone.runLoop.executor
  }

  /// The identifiers of the monitor's conditions.
  public var identifiers: [String] { monitor.identifiers }

  /// The condition with `identifier` and its most recent event, or `nil` [A].
  public func record(for identifier: String) -> Record? {
    guard let record = monitor.record(for: identifier) else { return nil }
    return Record(
      condition: Self.condition(record.condition),
      lastEvent: Event(record.lastEvent, in: monitor.phone))
  }

  /// Adds `condition` as `identifier`; its state is `.unknown` until the phone determines it,
  /// which it reports as an event [A].
  public func add(_ condition: any CLCondition, identifier: String) {
    add(condition, identifier: identifier, assuming: .unknown)
  }

  /// Adds `condition` as `identifier` with `state` as its initial state; when the phone's
  /// first evaluation disagrees, an event with the real state follows [A].
  public func add(_ condition: any CLCondition, identifier: String, assuming state: Event.State) {
    monitor.add(Self.deviceCondition(condition), identifier: identifier, assuming: state)
  }

  /// Stops monitoring the condition `identifier` and removes its record.
  public func remove(_ identifier: String) {
    monitor.remove(identifier)
  }

  private static func deviceCondition(_ condition: any CLCondition) -> MonitorCondition {
    switch condition {
    case let circle as CircularGeographicCondition:
      return .circle(
        latitude: circle.center.latitude, longitude: circle.center.longitude,
        radius: circle.radius)
    case let beacon as BeaconIdentityCondition:
      return .beacon(
        uuid: beacon.uuid.uuidString, major: beacon.major.map(Int.init),
        minor: beacon.minor.map(Int.init))
    default:
      // A condition type of the app's own: the phone cannot watch it.
      return .beacon(uuid: String(describing: type(of: condition)), major: nil, minor: nil)
    }
  }

  private static func condition(_ condition: MonitorCondition) -> any CLCondition {
    switch condition {
    case .circle(let latitude, let longitude, let radius):
      return CircularGeographicCondition(
        center: CLLocationCoordinate2D(latitude: latitude, longitude: longitude), radius: radius)
    case .beacon(let uuid, let major, let minor):
      let id = UUID(uuidString: uuid) ?? UUID(uuidString: "00000000-0000-0000-0000-000000000000")!
      switch (major, minor) {
      case (let major?, let minor?):
        return BeaconIdentityCondition(
          uuid: id, major: CLBeaconMajorValue(major), minor: CLBeaconMinorValue(minor))
      case (let major?, nil):
        return BeaconIdentityCondition(uuid: id, major: CLBeaconMajorValue(major))
      default: return BeaconIdentityCondition(uuid: id)
      }
    }
  }
}

/// The events of one monitor on their way to the app's loops: buffered until a loop asks,
/// each handed to one waiting loop. Used on the world's one thread only.
final class EventChannel: @unchecked Sendable {
  private unowned(unsafe) let phone: Phone
  private let label: String
  /// Weak: the monitor's event handler holds this channel, and the actor holds the monitor.
  weak var monitor: ConditionMonitor?
  private var buffer: [CLMonitor.Event] = []
  private var waiters:
    [(number: Int, resumption: Resumption<CLMonitor.Event?, Never>, wait: AppWorkItem)] =
      []
  private var nextWaiter = 0

  init(phone: Phone, label: String) {
    self.phone = phone
    self.label = label
  }

  func beganIterating() {
    monitor?.beginIterating()
  }

  func push(_ event: CLMonitor.Event) {
    guard !waiters.isEmpty else { return buffer.append(event) }
    let waiter = waiters.removeFirst()
    waiter.wait.cancel()
    waiter.resumption.resume(with: .success(event))
  }

  /// The next event; `nil` when the waiting task is cancelled [?] (Apple's sequence never
  /// ends by itself; an iterator ends on cancellation, as Swift's `AsyncSequence`s do), or
  /// when the world is over.
  func next() async -> CLMonitor.Event? {
    if !buffer.isEmpty { return buffer.removeFirst() }
    if _Concurrency.Task.isCancelled {
      await phone.runLoop.closingTurn()
      return nil
    }
    nextWaiter += 1
    let number = nextWaiter
    return await withTaskCancellationHandler {
      await withCheckedContinuation { continuation in
        let resumption = Resumption(continuation)
        guard !_Concurrency.Task.isCancelled else { return resumption.resume(with: .success(nil)) }
        let wait = phone.runLoop.beginWaiting(label) { [self] in end(number) }
        waiters.append((number, resumption, wait))
      }
    } onCancel: {
      // Cancelling is app code, on the world's thread.
      self.end(number)
    }
  }

  /// Ends the wait `number` without an event, if it still waits.
  private func end(_ number: Int) {
    guard let index = waiters.firstIndex(where: { $0.number == number }) else { return }
    let waiter = waiters.remove(at: index)
    waiter.wait.cancel()
    waiter.resumption.resume(with: .success(nil))
  }
}
