import Device
import Foundation
import Geo
import Referee
import Replay
import SimKernel

/// How accurately the phone's geofences answered the true trajectory: every monitored region
/// and location-triggered notification, its true crossings, what the phone reported and how
/// the two match.
///
/// Built from a ``ReportInput`` alone: fences from the event log (see ``Fence``), truth from the
/// true trajectory (`CircleVisits`, interpolated between samples with GEOS linear
/// referencing), observations from the log (`region.didEnterRegion` / `didExitRegion`, and
/// `notifications.delivered` of a location trigger).
///
/// ## Matching
/// Observations are taken in log order. One of direction D on a fence answers a true crossing
/// of the same fence and direction:
/// - if the device is truly on D's side at the observation (inside for an entry), the crossing
///   that put it there (the latest crossing in D), if it happened while the fence was active;
/// - otherwise the nearer in time of the latest crossing in D before the observation (a late
///   report) and the next one after it (an early report, at most ``earlyWindow`` ahead, which
///   the coarse estimate's jumps make possible), considering only crossings not yet answered.
///
/// An observation whose crossing is already answered is a duplicate; one with no crossing to
/// answer is a false trigger. A crossing no observation answers is missed, with the cause the
/// log gives (see ``TrueCrossing/cause``).
///
/// A one-shot notification delivered before the true crossing ends its fence early; when the
/// device was still on the old side at the delivery, the crossing it anticipated (the first
/// expected one within ``earlyWindow`` after it) is still the fence's, and the delivery
/// answers it as an early detection.
///
/// ## Figures
/// Latency is observation time − crossing time (negative when early). The distance past the
/// boundary is measured along the true track from the crossing to the position at the
/// observation (negative when early); the distance from the boundary is the geodesic distance
/// from the centre at the observation minus the radius (negative inside).
public struct GeofenceReport {
  /// How far ahead of a true crossing an observation may come and still answer it: 600 s.
  public static let earlyWindow = SimDuration.seconds(600)

  /// A true crossing of an active fence's circle, and how the phone answered it.
  public struct TrueCrossing: Hashable, Sendable {
    /// The index of the fence in ``GeofenceReport/fences``.
    public let fence: Int
    /// Into or out of the circle.
    public let direction: Direction
    /// When, interpolated between samples (to the nanosecond).
    public let time: SimTime
    /// Where.
    public let coordinate: Coordinate
    /// The index in ``GeofenceReport/observations`` of the observation that answered it;
    /// `nil` when missed.
    public internal(set) var observation: Int?
    /// Why a missed crossing went unreported; `nil` when detected.
    public internal(set) var cause: MissCause?
  }

  /// Why a true crossing went unreported, as the log tells it.
  public enum MissCause: String, Hashable, Sendable, CaseIterable {
    /// The phone decided it and lost it (`region.missed`).
    case missed
    /// The app lacked location permission or precision (`region.suppressed`).
    case permission
    /// The app had When In Use permission and was not in use (`region.suppressed`).
    case appNotInUse
    /// A location trigger fired without location permission (`notifications.suppressed`).
    case locationPermission
    /// The notification could not be shown (`notifications.suppressed`).
    case notificationPermission
    /// Decided, then the fence ended before the delivery.
    case fenceEnded
    /// Decided, and the replay ended before the delivery.
    case pending
    /// The phone's coarse estimate never settled on the new side in time.
    case notDecided
  }

  /// What an observation turned out to be.
  public enum Outcome: String, Hashable, Sendable {
    /// The first report of a true crossing.
    case detected
    /// A second report of a crossing already answered.
    case duplicate
    /// A report with no true crossing to answer.
    case falseTrigger
  }

  /// A region event or a location notification's delivery.
  public struct Observation: Hashable, Sendable {
    /// The index of the fence in ``GeofenceReport/fences``.
    public let fence: Int
    /// The log event: `"didEnterRegion"`, `"didExitRegion"`, `"delivered"` or `"eventDelivered"`.
    public let event: String
    /// The direction reported (for a notification, that of the phone's last decision for it).
    public let direction: Direction
    /// When.
    public let time: SimTime
    /// The device's true position then.
    public let truePosition: Coordinate
    /// Where the phone believed it was: the coarse estimate of its last decision on this fence
    /// (`region.decided`); `nil` if it logged none.
    public let believedPosition: Coordinate?
    /// What it was.
    public let outcome: Outcome
    /// The index in ``GeofenceReport/crossings`` of the crossing it answered (or duplicated).
    public let crossing: Int?
    /// Observation time − crossing time, in seconds.
    public let latency: Double?
    /// Metres travelled along the true track from the crossing to the observation.
    public let distancePastBoundary: Double?
    /// Geodesic distance from the centre at the observation, minus the radius, in metres.
    public let distanceFromBoundary: Double
  }

  /// What happened to one fence while it was active.
  public struct FenceTruth: Hashable, Sendable {
    /// Whether the device was inside when the fence was registered.
    public let insideAtStart: Bool
    /// Seconds the device spent inside while the fence was active.
    public let timeInside: Double
  }

  /// Counts and rates over some fences.
  public struct Summary: Hashable, Sendable {
    /// True crossings the fences should report.
    public let trueCrossings: Int
    /// Crossings answered by an observation.
    public let detected: Int
    /// Crossings not answered.
    public let missed: Int
    /// Observations with no crossing.
    public let falseTriggers: Int
    /// Observations of a crossing already answered.
    public let duplicates: Int
    /// detected / trueCrossings; `nil` without crossings.
    public let sensitivity: Double?
    /// detected / (detected + falseTriggers); `nil` without either.
    public let precision: Double?
    /// The median latency of the detections, in seconds; `nil` without any.
    public let latencyMedian: Double?
    /// The 90th percentile latency (`Referee.quantile(_:_:)`: linear between the closest
    /// ranks).
    public let latencyP90: Double?
    /// The largest latency.
    public let latencyMax: Double?
  }

  /// The fences at one place that were active together: what the user experiences as one
  /// alarm. An app that schedules a location notification and monitors a region for the same
  /// arrival, or registers a region again, has several fences for one alarm; a crossing of
  /// the place counts once, detected when any of its fences answered it.
  public struct Alarm: Hashable, Sendable {
    /// The indices in ``GeofenceReport/fences`` of its fences.
    public let fences: [Int]
    /// Its crossings counted once: detected when one of its fences answered, at the earliest
    /// answer's latency; false triggers and duplicates are its fences'.
    public let summary: Summary
    /// The latencies (s) of its detected crossings, each the earliest answer's, in the order
    /// of the crossings: how long the user waited for the alarm.
    public let latencies: [Double]
  }

  /// The fences, by registration time.
  public let fences: [Fence]
  /// The alarms: the fences grouped by place and active span, in the order of their first
  /// fence.
  public let alarms: [Alarm]
  /// Per fence, in the order of ``fences``.
  public let truth: [FenceTruth]
  /// Every expected true crossing of an active fence, by time.
  public let crossings: [TrueCrossing]
  /// Every observation, in log order.
  public let observations: [Observation]
  /// Per fence, in the order of ``fences``.
  public let fenceSummaries: [Summary]
  /// Over all fences.
  public let summary: Summary

  /// Analyses `input`, using `context` for GEOS; with `resources`, the true trajectory is the
  /// one they built for the replay's phone, not solved again.
  ///
  /// - Throws: `GeoError` if GEOS fails.
  public init(input: ReportInput, context: GEOSContext, resources: ReplayResources? = nil) throws {
    let samples = input.trueSamples
    try self.init(
      events: input.events, trueSamples: samples,
      trajectory: try? resources.map { try $0.trajectory(samples) } ?? Trajectory(samples),
      context: context)
  }

  /// Analyses an event log against the true trajectory, using `context` for GEOS.
  ///
  /// - Throws: `GeoError` if GEOS fails.
  public init(events: [LogEntry], trueSamples samples: [TrajectorySample], context: GEOSContext)
    throws
  {
    try self.init(
      events: events, trueSamples: samples, trajectory: try? Trajectory(samples),
      context: context)
  }

  /// Analyses an event log against the true trajectory through `samples` (`nil` when they
  /// make none), using `context` for GEOS.
  private init(
    events: [LogEntry], trueSamples samples: [TrajectorySample], trajectory: Trajectory?,
    context: GEOSContext
  ) throws {
    let reader = FenceReader(events)
    fences = reader.fences
    let track = TrueTrack(samples.map { .init(time: $0.time, coordinate: $0.coordinate) })
    let endOfReplay = max(
      samples.last?.time ?? .zero, events.last?.time ?? .zero)

    // Truth.
    var truth: [FenceTruth] = []
    var crossings: [TrueCrossing] = []
    var visitsByFence: [[CircleVisits.Visit]] = []
    var sharedVisits: [String: [CircleVisits.Visit]] = [:]
    for (index, fence) in fences.enumerated() {
      let key = "\(fence.center.latitude),\(fence.center.longitude),\(fence.radius)"
      let visits: [CircleVisits.Visit]
      if let known = sharedVisits[key] {
        visits = known
      } else {
        visits = try CircleVisits(
          center: fence.center, radius: fence.radius, track: track, geos: context
        ).visits
        sharedVisits[key] = visits
      }
      visitsByFence.append(visits)
      let from = fence.activeFrom
      let until = fence.activeUntil ?? endOfReplay
      var inside = 0.0
      var insideAtStart = false
      // A one-shot notification delivered early ends its fence before the crossing it
      // anticipated: that crossing, the first expected within the early window after the
      // delivery, is still the fence's.
      var anticipated: TrueCrossing?
      let insideAtEnd = visits.contains { $0.start <= until && until < $0.end }
      // Only a delivery that came while the device was still on the old side anticipated one.
      let anticipates =
        fence.endedBy == .delivered && fence.notifyOnEntry != fence.notifyOnExit
        && insideAtEnd != fence.notifyOnEntry
      for visit in visits {
        if visit.start <= from && visit.end > from { insideAtStart = true }
        let overlap = min(visit.end, until) - max(visit.start, from)
        if overlap > .zero { inside += overlap.seconds }
        for (direction, crossing) in [(Direction.entry, visit.entry), (.exit, visit.exit)] {
          guard let crossing, fence.expects(direction), crossing.time >= from else { continue }
          let found = TrueCrossing(
            fence: index, direction: direction, time: crossing.time,
            coordinate: crossing.coordinate)
          if crossing.time < until || (fence.activeUntil == nil && crossing.time <= until) {
            crossings.append(found)
          } else if anticipates, crossing.time - until <= Self.earlyWindow,
            anticipated.map({ crossing.time < $0.time }) ?? true
          {
            anticipated = found
          }
        }
      }
      if let anticipated { crossings.append(anticipated) }
      truth.append(FenceTruth(insideAtStart: insideAtStart, timeInside: inside))
    }
    crossings.sort { ($0.time, $0.fence) < ($1.time, $1.fence) }
    self.truth = truth

    // Observations. Each is matched against its own fence's crossings in its direction
    // (`byFence`, in time order), found by bisection: linear in fences and observations.
    let log = FenceLog(events: events, fences: fences)
    var byFence = Array(repeating: [[Int]](repeating: [], count: 2), count: fences.count)
    for (i, crossing) in crossings.enumerated() {
      byFence[crossing.fence][crossing.direction == .entry ? 0 : 1].append(i)
    }
    var observations: [Observation] = []
    let distances = TrackDistances(samples: samples)
    for raw in log.observations {
      let fence = fences[raw.fence]
      let truePosition =
        trajectory?.state(at: raw.time)?.coordinate
        ?? (raw.time < (samples.first?.time ?? .zero)
          ? samples.first?.coordinate : samples.last?.coordinate) ?? fence.center
      let insideNow = visitsByFence[raw.fence].contains {
        $0.start <= raw.time && raw.time < $0.end
      }
      let candidates = byFence[raw.fence][raw.direction == .entry ? 0 : 1]
      // The first candidate after the observation; the one before it is the previous.
      var low = 0
      var high = candidates.count
      while low < high {
        let middle = (low + high) / 2
        if crossings[candidates[middle]].time <= raw.time {
          low = middle + 1
        } else {
          high = middle
        }
      }
      let previous = low > 0 ? candidates[low - 1] : nil
      let next = low < candidates.count ? candidates[low] : nil
      let onNewSide = insideNow == (raw.direction == .entry)
      var chosen: Int?
      var outcome = Outcome.falseTrigger
      if onNewSide {
        if let previous {
          chosen = previous
          outcome = crossings[previous].observation == nil ? .detected : .duplicate
        }
      } else {
        let late = previous.flatMap { crossings[$0].observation == nil ? $0 : nil }
        let early = next.flatMap {
          crossings[$0].observation == nil && crossings[$0].time - raw.time <= Self.earlyWindow
            ? $0 : nil
        }
        switch (late, early) {
        case (let l?, let e?):
          chosen = (raw.time - crossings[l].time) <= (crossings[e].time - raw.time) ? l : e
          outcome = .detected
        case (let l?, nil):
          chosen = l
          outcome = .detected
        case (nil, let e?):
          chosen = e
          outcome = .detected
        case (nil, nil):
          if let previous {
            chosen = previous
            outcome = .duplicate
          }
        }
      }
      var latency: Double?
      var past: Double?
      if let chosen {
        let crossing = crossings[chosen]
        latency = (raw.time - crossing.time).seconds
        past = distances.along(from: crossing.time, to: raw.time)
        if outcome == .detected { crossings[chosen].observation = observations.count }
      }
      let fromCentre = Geodesic.wgs84.inverse(from: fence.center, to: truePosition).distance
      observations.append(
        Observation(
          fence: raw.fence, event: raw.event, direction: raw.direction, time: raw.time,
          truePosition: truePosition, believedPosition: raw.believed, outcome: outcome,
          crossing: chosen, latency: latency, distancePastBoundary: past,
          distanceFromBoundary: fromCentre - fence.radius))
    }
    self.observations = observations

    // Causes of misses: the window of a missed crossing runs to its fence's next crossing in
    // the same direction, from its fence's previous crossing in either.
    var nextSameDirection = [Int?](repeating: nil, count: crossings.count)
    var previousOfFence = [Int?](repeating: nil, count: crossings.count)
    var lastOfFence = [Int?](repeating: nil, count: fences.count)
    for lists in byFence {
      for list in lists {
        for (a, b) in zip(list, list.dropFirst()) { nextSameDirection[a] = b }
      }
    }
    for i in crossings.indices {
      previousOfFence[i] = lastOfFence[crossings[i].fence]
      lastOfFence[crossings[i].fence] = i
    }
    for i in crossings.indices where crossings[i].observation == nil {
      let crossing = crossings[i]
      let windowEnd = nextSameDirection[i].map { crossings[$0].time } ?? endOfReplay
      let previousCrossing =
        previousOfFence[i].map { crossings[$0].time } ?? fences[crossing.fence].activeFrom
      crossings[i].cause = log.cause(
        fence: crossing.fence, fenceInfo: fences[crossing.fence], direction: crossing.direction,
        from: max(crossing.time - Self.earlyWindow, previousCrossing), to: windowEnd,
        endOfReplay: endOfReplay)
    }
    self.crossings = crossings

    var fenceCrossings = Array(repeating: [TrueCrossing](), count: fences.count)
    for crossing in crossings { fenceCrossings[crossing.fence].append(crossing) }
    var fenceObservations = Array(repeating: [Observation](), count: fences.count)
    for observation in observations { fenceObservations[observation.fence].append(observation) }
    fenceSummaries = fences.indices.map { index in
      Summary(crossings: fenceCrossings[index], observations: fenceObservations[index])
    }
    summary = Summary(crossings: crossings, observations: observations)
    alarms = Self.alarms(
      fences: fences, crossings: crossings, observations: observations,
      observationsOf: fenceObservations)
  }

  /// Groups fences with the same centre and radius whose active spans overlap into alarms.
  /// `observationsOf` holds each fence's `observations`.
  private static func alarms(
    fences: [Fence], crossings: [TrueCrossing], observations: [Observation],
    observationsOf: [[Observation]]
  ) -> [Alarm] {
    var groups: [[Int]] = []
    var spans: [(from: SimTime, until: SimTime?)] = []
    // The newest group at each place: fences come by registration time, so an older group at
    // a place ended before the newer one began and cannot overlap a later fence.
    var newestAt: [String: Int] = [:]
    for (index, fence) in fences.enumerated() {
      let place = "\(fence.center.latitude),\(fence.center.longitude),\(fence.radius)"
      let overlapping = newestAt[place].flatMap { g in
        spans[g].until.map { fence.activeFrom <= $0 } ?? true ? g : nil
      }
      if let g = overlapping {
        groups[g].append(index)
        if let until = spans[g].until {
          spans[g].until = fence.activeUntil.map { max(until, $0) }
        }
      } else {
        newestAt[place] = groups.count
        groups.append([index])
        spans.append((fence.activeFrom, fence.activeUntil))
      }
    }
    // Each fence's crossings, so that an alarm reads its own fences' only.
    var crossingsOf = Array(repeating: [Int](), count: fences.count)
    for (i, crossing) in crossings.enumerated() { crossingsOf[crossing.fence].append(i) }
    return groups.map { members in
      let own = members.flatMap { crossingsOf[$0] }.sorted()
      let heard = members.flatMap { observationsOf[$0] }
      // One crossing of the place per direction and instant (every fence at one place sees
      // the same true crossings).
      var places: [String: (crossing: TrueCrossing, latency: Double?)] = [:]
      var order: [String] = []
      for crossing in own.map({ crossings[$0] }) {
        let key = "\(crossing.direction.rawValue)@\(crossing.time.nanoseconds)"
        let latency = crossing.observation.flatMap { observations[$0].latency }
        if let known = places[key] {
          if crossing.observation != nil {
            if known.crossing.observation == nil {
              places[key] = (crossing, latency)
            } else if let latency, latency < (known.latency ?? .infinity) {
              places[key] = (crossing, latency)
            }
          }
        } else {
          places[key] = (crossing, latency)
          order.append(key)
        }
      }
      let counted = order.map { places[$0]! }
      let detected = counted.filter { $0.crossing.observation != nil }
      let falseTriggers = heard.count { $0.outcome == .falseTrigger }
      let duplicates = heard.count { $0.outcome == .duplicate }
      let latencies = detected.compactMap(\.latency)
      return Alarm(
        fences: members,
        summary: Summary(
          trueCrossings: counted.count, detected: detected.count,
          missed: counted.count - detected.count, falseTriggers: falseTriggers,
          duplicates: duplicates,
          sensitivity: counted.isEmpty ? nil : Double(detected.count) / Double(counted.count),
          precision: detected.isEmpty && falseTriggers == 0
            ? nil : Double(detected.count) / Double(detected.count + falseTriggers),
          latencyMedian: quantile(latencies, 0.5), latencyP90: quantile(latencies, 0.9),
          latencyMax: latencies.max()),
        latencies: latencies)
    }
  }
}

extension GeofenceReport.Summary {
  init(crossings: [GeofenceReport.TrueCrossing], observations: [GeofenceReport.Observation]) {
    let detected = observations.filter { $0.outcome == .detected }
    let falseTriggers = observations.count { $0.outcome == .falseTrigger }
    trueCrossings = crossings.count
    self.detected = detected.count
    missed = crossings.count { $0.observation == nil }
    self.falseTriggers = falseTriggers
    duplicates = observations.count { $0.outcome == .duplicate }
    sensitivity = crossings.isEmpty ? nil : Double(detected.count) / Double(crossings.count)
    precision =
      detected.isEmpty && falseTriggers == 0
      ? nil : Double(detected.count) / Double(detected.count + falseTriggers)
    let latencies = detected.compactMap(\.latency)
    latencyMedian = quantile(latencies, 0.5)
    latencyP90 = quantile(latencies, 0.9)
    latencyMax = latencies.max()
  }
}

/// Distances along the true track, with segment lengths solved on demand.
final class TrackDistances {
  private let samples: [TrajectorySample]
  private var lengths: [Int: Double] = [:]

  init(samples: [TrajectorySample]) { self.samples = samples }

  private func length(_ i: Int) -> Double {
    if let known = lengths[i] { return known }
    let d = Geodesic.wgs84.inverse(from: samples[i].coordinate, to: samples[i + 1].coordinate)
      .distance
    lengths[i] = d
    return d
  }

  /// (segment, fraction) of `time`, clamped to the track.
  private func locate(_ time: SimTime) -> (Int, Double) {
    guard samples.count > 1 else { return (0, 0) }
    if time <= samples[0].time { return (0, 0) }
    if time >= samples[samples.count - 1].time { return (samples.count - 2, 1) }
    var lo = 0
    var hi = samples.count - 1
    while hi - lo > 1 {
      let mid = (lo + hi) / 2
      if samples[mid].time <= time { lo = mid } else { hi = mid }
    }
    let span = (samples[lo + 1].time - samples[lo].time).seconds
    return (lo, span > 0 ? (time - samples[lo].time).seconds / span : 0)
  }

  /// Metres along the track from `start` to `end`; negative when `end` is earlier.
  func along(from start: SimTime, to end: SimTime) -> Double {
    if end < start { return -along(from: end, to: start) }
    guard samples.count > 1 else { return 0 }
    let (s0, f0) = locate(start)
    let (s1, f1) = locate(end)
    if s0 == s1 { return (f1 - f0) * length(s0) }
    var total = (1 - f0) * length(s0) + f1 * length(s1)
    for i in (s0 + 1)..<s1 { total += length(i) }
    return total
  }
}

extension GeofenceReport.MissCause {
  /// The cause in words, for the Markdown report.
  public var label: String {
    switch self {
    case .missed: "decided, then lost by the phone"
    case .permission: "suppressed, no location permission or precision"
    case .appNotInUse: "suppressed, When In Use and the app not in use"
    case .locationPermission: "the trigger fired without location permission"
    case .notificationPermission: "not shown, no notification permission"
    case .fenceEnded: "the fence ended before the delivery"
    case .pending: "decided, still on its way when the replay ended"
    case .notDecided: "never decided"
    }
  }
}
