import Device
import Geo
import SimKernel

extension GeofenceReport {
  /// What put a fence on the phone.
  public enum FenceKind: String, Hashable, Sendable {
    /// A region the app monitors (`startMonitoring(for:)`).
    case region
    /// A location-triggered notification request (`UNLocationNotificationTrigger`).
    case notification
    /// A circular condition of a monitor (`CLMonitor`), identified as `name/identifier`.
    case monitor
  }

  /// Why a fence stopped being watched.
  public enum FenceEnding: String, Hashable, Sendable, CaseIterable {
    /// `stopMonitoring(for:)`.
    case stopMonitoring
    /// A new registration with the same identifier replaced it.
    case replaced
    /// Its notification was delivered and does not repeat.
    case delivered
    /// Its notification request, or its monitor condition, was removed by the app.
    case removed
    /// Its notification request was dropped by the pending limit.
    case dropped
    /// The phone restarted.
    case reboot
  }

  /// The direction of a boundary crossing.
  public enum Direction: String, Hashable, Sendable {
    /// Into the circle.
    case entry
    /// Out of the circle.
    case exit
  }

  /// One registration of a fence, read from the event log, with the span it was active.
  ///
  /// A fence starts at `region.startMonitoring` (a second one for the same region, with the same
  /// centre, radius and flags, continues it), at `notifications.added` / `replaced` of a
  /// request with a location trigger, or at `monitor.conditionAdded` of a circle. It ends at
  /// the first of:
  /// - `region.stopMonitoring` (``endedBy`` `"stopMonitoring"`);
  /// - a new registration with the same identifier (`"replaced"`): iOS replaces the region;
  /// - for a notification, `notifications.delivered` with `stillPending` false (`"delivered"`),
  ///   `removedPending` (`"removed"`) or `dropped` (`"dropped"`);
  /// - for a monitor's condition, `monitor.conditionRemoved` (`"removed"`);
  /// - `phone.reboot` (`"reboot"`): the phone forgets every watched region, those of pending
  ///   notification requests included (a monitor's conditions are kept);
  /// - the end of the replay (``activeUntil`` `nil`, ``endedBy`` `nil`).
  ///
  /// An app's termination does not end a fence: a region event relaunches the app.
  public struct Fence: Hashable, Sendable {
    /// What registered it.
    public let kind: FenceKind
    /// The region identifier for a region; the request identifier for a notification.
    public let identifier: String
    /// 1 for the first registration of this kind and identifier, 2 for the next, …
    public let registration: Int
    /// The centre.
    public let center: Coordinate
    /// The radius in metres, as registered (not the phone's effective radius).
    public let radius: Double
    /// Whether entries are expected to be reported: the region's or the trigger's
    /// `notifyOnEntry`.
    public let notifyOnEntry: Bool
    /// Whether exits are expected to be reported.
    public let notifyOnExit: Bool
    /// When it was registered.
    public let activeFrom: SimTime
    /// When it stopped being watched; `nil` if still active when the replay ended.
    public let activeUntil: SimTime?
    /// Why it stopped; `nil` if still active.
    public let endedBy: FenceEnding?
    /// The log sequence of the registering entry, to order fences registered together.
    let sequence: Int

    /// Whether a crossing in `direction` is one the fence should report.
    public func expects(_ direction: Direction) -> Bool {
      direction == .entry ? notifyOnEntry : notifyOnExit
    }

    /// Whether the fence was active at `time` (from registration, inclusive, to its end,
    /// exclusive).
    public func isActive(at time: SimTime) -> Bool {
      time >= activeFrom && (activeUntil.map { time < $0 } ?? true)
    }
  }
}

/// Reads the fences from an event log.
struct FenceReader {
  /// The events ``read(_:)`` has cases for: the others are passed over without a cast.
  private static let cases = LogEventTypes(
    RegionEvent.self, PhoneEvent.self, MonitorEvent.self, NotificationEvent.self)
  private struct Open {
    var kind: GeofenceReport.FenceKind
    var identifier: String
    var registration: Int
    var center: Coordinate
    var radius: Double
    var notifyOnEntry: Bool
    var notifyOnExit: Bool
    var from: SimTime
    var sequence: Int
  }

  private var open: [String: Open] = [:]
  private var order: [String] = []
  private var registrations: [String: Int] = [:]
  private(set) var fences: [GeofenceReport.Fence] = []

  init(_ events: [LogEntry]) {
    for entry in events where Self.cases.contains(entry) { read(entry) }
    for key in order {
      if let fence = open[key] { close(fence, at: nil, by: nil) }
    }
    fences.sort {
      ($0.activeFrom, $0.kind.rawValue, $0.identifier) < (
        $1.activeFrom, $1.kind.rawValue, $1.identifier
      )
    }
  }

  private static func key(_ kind: GeofenceReport.FenceKind, _ identifier: String) -> String {
    "\(kind.rawValue):\(identifier)"
  }

  private mutating func read(_ entry: LogEntry) {
    switch entry.payload {
    case let event as RegionEvent:
      switch event {
      case .startMonitoring(let id, let center, let radius, let onEntry, let onExit):
        // The same region registered again (an app relaunched by a region event re-registers
        // its regions) is the same fence: iOS replaces it with an identical one.
        if let same = open[Self.key(.region, id)], same.center == center, same.radius == radius,
          same.notifyOnEntry == onEntry, same.notifyOnExit == onExit
        {
          return
        }
        end(.region, id, at: entry.time, by: .replaced)
        start(
          .region, id, center, radius, onEntry, onExit, at: entry.time, sequence: entry.sequence)
      case .stopMonitoring(let id):
        end(.region, id, at: entry.time, by: .stopMonitoring)
      default:
        return
      }
    case PhoneEvent.reboot:
      for key in order {
        guard let fence = open[key], fence.kind != .monitor else { continue }
        close(fence, at: entry.time, by: .reboot)
        open[key] = nil
      }
      order.removeAll { open[$0] == nil }
    case let event as MonitorEvent:
      switch event {
      case .conditionAdded(let monitor, let id, let condition, _):
        let identifier = "\(monitor)/\(id)"
        end(.monitor, identifier, at: entry.time, by: .replaced)
        guard case .circle(let latitude, let longitude, let radius) = condition,
          let center = try? Coordinate(latitude: latitude, longitude: longitude)
        else { return }
        start(
          .monitor, identifier, center, radius, true, true, at: entry.time,
          sequence: entry.sequence)
      case .conditionRemoved(let monitor, let id):
        end(.monitor, "\(monitor)/\(id)", at: entry.time, by: .removed)
      default:
        return
      }
    case let event as NotificationEvent:
      switch event {
      case .added(let request), .replaced(let request):
        end(.notification, request.identifier, at: entry.time, by: .replaced)
        guard case .location(let region, _)? = request.trigger else { return }
        start(
          .notification, request.identifier, region.center, region.radius,
          region.notifyOnEntry, region.notifyOnExit, at: entry.time, sequence: entry.sequence)
      case .delivered(let request, stillPending: false, _, _):
        end(.notification, request.identifier, at: entry.time, by: .delivered)
      case .removedPending(let id):
        end(.notification, id, at: entry.time, by: .removed)
      case .dropped(let request, _):
        end(.notification, request.identifier, at: entry.time, by: .dropped)
      default:
        return
      }
    default:
      return
    }
  }

  private mutating func start(
    _ kind: GeofenceReport.FenceKind, _ identifier: String, _ center: Coordinate,
    _ radius: Double, _ onEntry: Bool, _ onExit: Bool, at time: SimTime, sequence: Int
  ) {
    let key = Self.key(kind, identifier)
    let registration = (registrations[key] ?? 0) + 1
    registrations[key] = registration
    open[key] = Open(
      kind: kind, identifier: identifier, registration: registration, center: center,
      radius: radius, notifyOnEntry: onEntry, notifyOnExit: onExit, from: time,
      sequence: sequence)
    order.append(key)
  }

  private mutating func end(
    _ kind: GeofenceReport.FenceKind, _ identifier: String, at time: SimTime,
    by reason: GeofenceReport.FenceEnding
  ) {
    let key = Self.key(kind, identifier)
    guard let fence = open.removeValue(forKey: key) else { return }
    order.removeAll { $0 == key }
    close(fence, at: time, by: reason)
  }

  private mutating func close(
    _ fence: Open, at time: SimTime?, by reason: GeofenceReport.FenceEnding?
  ) {
    fences.append(
      GeofenceReport.Fence(
        kind: fence.kind, identifier: fence.identifier, registration: fence.registration,
        center: fence.center, radius: fence.radius, notifyOnEntry: fence.notifyOnEntry,
        notifyOnExit: fence.notifyOnExit, activeFrom: fence.from, activeUntil: time,
        endedBy: reason, sequence: fence.sequence))
  }
}
