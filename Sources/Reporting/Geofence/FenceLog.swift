import Device
import Geo
import SimKernel

/// The event log as it concerns the fences: observations, decisions, misses and suppressions,
/// each attributed to the fence registration active when it was logged.
struct FenceLog {
  /// The events this reads: the others are passed over without a cast.
  private static let cases = LogEventTypes(
    RegionEvent.self, MonitorEvent.self, NotificationEvent.self)
  struct RawObservation {
    var fence: Int
    var event: String
    var direction: GeofenceReport.Direction
    var time: SimTime
    var believed: Coordinate?
  }

  /// A decision, miss or suppression on a fence.
  struct Note {
    enum Kind {
      case decided
      case missed
      case suppressed(GeofenceReport.MissCause)
    }
    var fence: Int
    var kind: Kind
    var direction: GeofenceReport.Direction?
    var time: SimTime
  }

  private(set) var observations: [RawObservation] = []
  private(set) var notes: [Note] = []
  /// Per fence, the indices in ``notes`` of its notes, in log (and so time) order.
  private var notesByFence: [[Int]]

  init(events: [LogEntry], fences: [GeofenceReport.Fence]) {
    notesByFence = Array(repeating: [], count: fences.count)
    // The registrations of each kind and identifier, in the order of `fences`: an event is
    // matched against its own fence's registrations only, not every fence.
    var registrations: [String: [Int]] = [:]
    for (index, f) in fences.enumerated() {
      registrations["\(f.kind.rawValue):\(f.identifier)", default: []].append(index)
    }
    func fence(_ kind: GeofenceReport.FenceKind, _ identifier: String?, at time: SimTime) -> Int? {
      guard let identifier else { return nil }
      let active = (registrations["\(kind.rawValue):\(identifier)"] ?? []).filter {
        fences[$0].activeFrom <= time && (fences[$0].activeUntil.map { time <= $0 } ?? true)
      }
      // At the instant a registration is replaced, what is logged still belongs to the old
      // one: the phone decided it for that registration.
      return active.first {
        fences[$0].endedBy == .replaced && fences[$0].activeUntil == time
      } ?? active.last
    }
    var lastDecided: [Int: (direction: GeofenceReport.Direction, estimate: Coordinate)] = [:]
    var suppressedDelivery: [String: SimTime] = [:]
    /// The state each monitor fence's app last heard: a change between satisfied and
    /// unsatisfied is an observation; the first known state (from unknown) is not.
    var heard: [Int: ConditionState] = [:]
    func direction(_ state: RegionState) -> GeofenceReport.Direction? {
      switch state {
      case .inside: .entry
      case .outside: .exit
      case .unknown: nil
      }
    }
    func add(_ note: Note) {
      notesByFence[note.fence].append(notes.count)
      notes.append(note)
    }
    func note(_ decision: RegionDecision, decided: Bool, at time: SimTime) {
      let index =
        decision.request.map { fence(.notification, $0, at: time) }
        ?? fence(.region, decision.identifier, at: time)
      guard let index else { return }
      let direction = direction(decision.state)
      if decided, let direction { lastDecided[index] = (direction, decision.estimate) }
      add(Note(fence: index, kind: decided ? .decided : .missed, direction: direction, time: time))
    }
    func observe(
      _ index: Int, _ event: String, _ direction: GeofenceReport.Direction, _ time: SimTime
    ) {
      observations.append(
        RawObservation(
          fence: index, event: event, direction: direction, time: time,
          believed: lastDecided[index]?.estimate))
    }
    for entry in events where Self.cases.contains(entry) {
      switch entry.payload {
      case let event as RegionEvent:
        switch event {
        case .decided(let decision):
          note(decision, decided: true, at: entry.time)
        case .missed(let decision):
          note(decision, decided: false, at: entry.time)
        case .suppressed(let id, let cause):
          guard let index = fence(.region, id, at: entry.time) else { continue }
          let missCause: GeofenceReport.MissCause =
            switch cause {
            case .permission: .permission
            case .appNotInUse: .appNotInUse
            }
          add(
            Note(
              fence: index, kind: .suppressed(missCause),
              direction: lastDecided[index]?.direction, time: entry.time))
        case .didEnterRegion(let id, let notified), .didExitRegion(let id, let notified):
          // Without the region's notify flag the app hears no event for the transition.
          guard notified, let index = fence(.region, id, at: entry.time) else { continue }
          if case .didEnterRegion = event {
            observe(index, event.name, .entry, entry.time)
          } else {
            observe(index, event.name, .exit, entry.time)
          }
        default:
          continue
        }
      case let event as MonitorEvent:
        switch event {
        case .decided(let monitor, let id, let state, let estimate),
          .missed(let monitor, let id, let state, let estimate):
          guard let index = fence(.monitor, "\(monitor)/\(id)", at: entry.time) else { continue }
          let direction: GeofenceReport.Direction? =
            switch state {
            case .satisfied: .entry
            case .unsatisfied: .exit
            case .unknown, .unmonitored: nil
            }
          let decided = if case .decided = event { true } else { false }
          if decided, let direction { lastDecided[index] = (direction, estimate) }
          add(
            Note(
              fence: index, kind: decided ? .decided : .missed, direction: direction,
              time: entry.time))
        case .suppressed(let monitor, let id, let cause):
          guard let index = fence(.monitor, "\(monitor)/\(id)", at: entry.time) else { continue }
          let missCause: GeofenceReport.MissCause =
            switch cause {
            case .permission: .permission
            case .appNotInUse: .appNotInUse
            }
          add(
            Note(
              fence: index, kind: .suppressed(missCause),
              direction: lastDecided[index]?.direction, time: entry.time))
        case .conditionAdded(let monitor, let id, _, let assumed):
          guard let index = fence(.monitor, "\(monitor)/\(id)", at: entry.time) else { continue }
          heard[index] = assumed
        case .eventDelivered(let monitor, let id, let state, _):
          guard let index = fence(.monitor, "\(monitor)/\(id)", at: entry.time) else { continue }
          let before = heard[index] ?? .unknown
          heard[index] = state
          guard state != before, before == .satisfied || before == .unsatisfied else { continue }
          switch state {
          case .satisfied: observe(index, event.name, .entry, entry.time)
          case .unsatisfied: observe(index, event.name, .exit, entry.time)
          case .unknown, .unmonitored: continue
          }
        default:
          continue
        }
      case let event as NotificationEvent:
        switch event {
        case .suppressed(let id, let cause):
          guard let index = fence(.notification, id, at: entry.time) else { continue }
          let missCause: GeofenceReport.MissCause
          switch cause {
          case .locationPermission:
            missCause = .locationPermission
          case .notificationPermission:
            // The system consumes the undisplayable notification: its "delivered" follows.
            suppressedDelivery[id] = entry.time
            missCause = .notificationPermission
          }
          add(
            Note(
              fence: index, kind: .suppressed(missCause),
              direction: lastDecided[index]?.direction, time: entry.time))
        case .delivered(let request, _, _, _):
          guard case .location? = request.trigger,
            let index = fence(.notification, request.identifier, at: entry.time)
          else { continue }
          if suppressedDelivery.removeValue(forKey: request.identifier) == entry.time { continue }
          let f = fences[index]
          let direction =
            lastDecided[index]?.direction ?? (f.notifyOnEntry || !f.notifyOnExit ? .entry : .exit)
          observe(index, event.name, direction, entry.time)
        default:
          continue
        }
      default:
        continue
      }
    }
    // A log is in time order; one put together by hand may not be.
    let written = notes
    for i in notesByFence.indices {
      notesByFence[i].sort { (written[$0].time, $0) < (written[$1].time, $1) }
    }
  }

  /// Why a crossing of fence `index` in `direction` went unreported, from the notes between
  /// `from` and `to`; see ``GeofenceReport/TrueCrossing/cause``.
  func cause(
    fence index: Int, fenceInfo: GeofenceReport.Fence, direction: GeofenceReport.Direction,
    from: SimTime, to: SimTime, endOfReplay: SimTime
  ) -> GeofenceReport.MissCause {
    let own = notesByFence[index]
    // The first of the fence's notes at or after `from`, by bisection: its notes are in time
    // order.
    var low = 0
    var high = own.count
    while low < high {
      let middle = (low + high) / 2
      if notes[own[middle]].time < from { low = middle + 1 } else { high = middle }
    }
    var relevant: [Note] = []
    for i in own[low...] {
      let note = notes[i]
      if note.time > to { break }
      if note.direction == nil || note.direction == direction { relevant.append(note) }
    }
    if relevant.contains(where: { if case .missed = $0.kind { true } else { false } }) {
      return .missed
    }
    for note in relevant {
      if case .suppressed(let cause) = note.kind { return cause }
    }
    let ended = fenceInfo.activeUntil.map { $0 <= to } ?? false
    if relevant.contains(where: { if case .decided = $0.kind { true } else { false } }) {
      return ended ? .fenceEnded : .pending
    }
    return ended ? .fenceEnded : .notDecided
  }
}
