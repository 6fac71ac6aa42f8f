import Geo
import SimKernel

extension GeofenceReport {
  /// What put a fence on the phone.
  public enum FenceKind: String, Hashable, Sendable {
    /// A region the app monitors (`startMonitoring(for:)`).
    case region
    /// A location-triggered notification request (`UNLocationNotificationTrigger`).
    case notification
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
  /// A fence starts at `region.startMonitoring`, or at `notifications.added` / `replaced` of a
  /// request with a location trigger. It ends at the first of:
  /// - `region.stopMonitoring` (``endedBy`` `"stopMonitoring"`);
  /// - a new registration with the same identifier (`"replaced"`): iOS replaces the region;
  /// - for a notification, `notifications.delivered` with `stillPending` false (`"delivered"`),
  ///   `removedPending` (`"removed"`) or `dropped` (`"dropped"`);
  /// - `phone.reboot` (`"reboot"`): the phone forgets every watched region, those of pending
  ///   notification requests included;
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
    /// Whether entries are expected to be reported (always `true` for a region: the phone
    /// decides and logs both directions whatever the region's flags).
    public let notifyOnEntry: Bool
    /// Whether exits are expected to be reported.
    public let notifyOnExit: Bool
    /// When it was registered.
    public let activeFrom: SimTime
    /// When it stopped being watched; `nil` if still active when the replay ended.
    public let activeUntil: SimTime?
    /// Why it stopped: `"stopMonitoring"`, `"replaced"`, `"delivered"`, `"removed"`,
    /// `"dropped"`, `"reboot"`; `nil` if still active.
    public let endedBy: String?
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
  /// Location triggers logged without their region's centre and radius (older logs).
  private(set) var unlocated: [String] = []

  init(_ events: [LogEntry]) {
    for entry in events { read(entry) }
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
    switch (entry.source, entry.event) {
    case ("region", "startMonitoring"):
      guard case .string(let id)? = entry["identifier"],
        let center = coordinate(entry["latitude"], entry["longitude"]),
        let radius = entry["radius"]?.doubleValue
      else { return }
      end(.region, id, at: entry.time, by: "replaced")
      start(.region, id, center, radius, true, true, at: entry.time, sequence: entry.sequence)
    case ("region", "stopMonitoring"):
      guard case .string(let id)? = entry["identifier"] else { return }
      end(.region, id, at: entry.time, by: "stopMonitoring")
    case ("phone", "reboot"):
      for key in order {
        if let fence = open[key] { close(fence, at: entry.time, by: "reboot") }
      }
      open.removeAll()
      order.removeAll()
    case ("notifications", "added"), ("notifications", "replaced"):
      guard case .string(let id)? = entry["identifier"] else { return }
      end(.notification, id, at: entry.time, by: "replaced")
      guard case .string("location")? = entry["trigger"] else { return }
      guard let center = coordinate(entry["latitude"], entry["longitude"]),
        let radius = entry["radius"]?.doubleValue
      else {
        unlocated.append(id)
        return
      }
      let onEntry = entry["notifyOnEntry"]?.boolValue ?? true
      let onExit = entry["notifyOnExit"]?.boolValue ?? true
      start(
        .notification, id, center, radius, onEntry, onExit, at: entry.time,
        sequence: entry.sequence)
    case ("notifications", "delivered"):
      guard case .string(let id)? = entry["identifier"], entry["stillPending"]?.boolValue == false
      else { return }
      end(.notification, id, at: entry.time, by: "delivered")
    case ("notifications", "removedPending"):
      guard case .string(let id)? = entry["identifier"] else { return }
      end(.notification, id, at: entry.time, by: "removed")
    case ("notifications", "dropped"):
      guard case .string(let id)? = entry["identifier"] else { return }
      end(.notification, id, at: entry.time, by: "dropped")
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
    _ kind: GeofenceReport.FenceKind, _ identifier: String, at time: SimTime, by reason: String
  ) {
    let key = Self.key(kind, identifier)
    guard let fence = open.removeValue(forKey: key) else { return }
    order.removeAll { $0 == key }
    close(fence, at: time, by: reason)
  }

  private mutating func close(_ fence: Open, at time: SimTime?, by reason: String?) {
    fences.append(
      GeofenceReport.Fence(
        kind: fence.kind, identifier: fence.identifier, registration: fence.registration,
        center: fence.center, radius: fence.radius, notifyOnEntry: fence.notifyOnEntry,
        notifyOnExit: fence.notifyOnExit, activeFrom: fence.from, activeUntil: time,
        endedBy: reason, sequence: fence.sequence))
  }
}

func coordinate(_ latitude: LogValue?, _ longitude: LogValue?) -> Coordinate? {
  guard let lat = latitude?.doubleValue, let lon = longitude?.doubleValue else { return nil }
  return try? Coordinate(latitude: lat, longitude: lon)
}
