import Geo
import SimKernel

/// The event log as it concerns the fences: observations, decisions, misses and suppressions,
/// each attributed to the fence registration active when it was logged.
struct FenceLog {
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
      case suppressed(String)
    }
    var fence: Int
    var kind: Kind
    var direction: GeofenceReport.Direction?
    var time: SimTime
  }

  private(set) var observations: [RawObservation] = []
  private(set) var notes: [Note] = []

  init(events: [LogEntry], fences: [GeofenceReport.Fence]) {
    func fence(_ kind: GeofenceReport.FenceKind, _ identifier: String?, at time: SimTime) -> Int? {
      guard let identifier else { return nil }
      return fences.indices.last {
        fences[$0].kind == kind && fences[$0].identifier == identifier
          && fences[$0].activeFrom <= time && (fences[$0].activeUntil.map { time <= $0 } ?? true)
      }
    }
    var lastDecided: [Int: (direction: GeofenceReport.Direction, estimate: Coordinate?)] = [:]
    var suppressedDelivery: [String: SimTime] = [:]
    for entry in events {
      switch (entry.source, entry.event) {
      case ("region", "decided"), ("region", "missed"):
        let index =
          entry["request"] != nil
          ? fence(.notification, entry["request"]?.stringValue, at: entry.time)
          : fence(.region, entry["identifier"]?.stringValue, at: entry.time)
        guard let index else { continue }
        let direction: GeofenceReport.Direction? =
          switch entry["state"]?.stringValue {
          case "inside": .entry
          case "outside": .exit
          default: nil
          }
        if entry.event == "decided", let direction {
          lastDecided[index] = (
            direction, coordinate(entry["estimateLatitude"], entry["estimateLongitude"])
          )
        }
        notes.append(
          Note(
            fence: index, kind: entry.event == "decided" ? .decided : .missed,
            direction: direction, time: entry.time))
      case ("region", "suppressed"):
        guard let index = fence(.region, entry["identifier"]?.stringValue, at: entry.time) else {
          continue
        }
        notes.append(
          Note(
            fence: index, kind: .suppressed(entry["cause"]?.stringValue ?? "suppressed"),
            direction: lastDecided[index]?.direction, time: entry.time))
      case ("notifications", "suppressed"):
        let identifier = entry["identifier"]?.stringValue
        guard let index = fence(.notification, identifier, at: entry.time) else { continue }
        let cause = entry["cause"]?.stringValue ?? "suppressed"
        if cause == "notificationPermission", let identifier {
          // The system consumes the undisplayable notification: its "delivered" follows.
          suppressedDelivery[identifier] = entry.time
        }
        notes.append(
          Note(
            fence: index, kind: .suppressed(cause), direction: lastDecided[index]?.direction,
            time: entry.time))
      case ("region", "didEnterRegion"), ("region", "didExitRegion"):
        guard let index = fence(.region, entry["identifier"]?.stringValue, at: entry.time) else {
          continue
        }
        observations.append(
          RawObservation(
            fence: index, event: entry.event,
            direction: entry.event == "didEnterRegion" ? .entry : .exit, time: entry.time,
            believed: lastDecided[index]?.estimate))
      case ("notifications", "delivered"):
        guard entry["trigger"]?.stringValue == "location",
          let identifier = entry["identifier"]?.stringValue,
          let index = fence(.notification, identifier, at: entry.time)
        else { continue }
        if suppressedDelivery.removeValue(forKey: identifier) == entry.time { continue }
        let f = fences[index]
        let direction =
          lastDecided[index]?.direction ?? (f.notifyOnEntry || !f.notifyOnExit ? .entry : .exit)
        observations.append(
          RawObservation(
            fence: index, event: entry.event, direction: direction, time: entry.time,
            believed: lastDecided[index]?.estimate))
      default:
        continue
      }
    }
  }

  /// Why a crossing of fence `index` in `direction` went unreported, from the notes between
  /// `from` and `to`; see ``GeofenceReport/TrueCrossing/cause``.
  func cause(
    fence index: Int, fenceInfo: GeofenceReport.Fence, direction: GeofenceReport.Direction,
    from: SimTime, to: SimTime, endOfReplay: SimTime
  ) -> String {
    let relevant = notes.filter {
      $0.fence == index && $0.time >= from && $0.time <= to
        && ($0.direction == nil || $0.direction == direction)
    }
    if relevant.contains(where: { if case .missed = $0.kind { true } else { false } }) {
      return "missed"
    }
    for note in relevant {
      if case .suppressed(let cause) = note.kind { return cause }
    }
    let ended = fenceInfo.activeUntil.map { $0 <= to } ?? false
    if relevant.contains(where: { if case .decided = $0.kind { true } else { false } }) {
      return ended ? "fenceEnded" : "pending"
    }
    return ended ? "fenceEnded" : "notDecided"
  }
}
