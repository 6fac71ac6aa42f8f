import Device
import Geo
import SimKernel

/// A published field test's design, re-run on the simulated phone: where and how the testers
/// moved, the fence, the phone's conditions and how many trials — and the figures it published.
///
/// Trial `i` of a run with seed `s` runs in a world seeded with `s + i`, so every trial has its
/// own independent random streams and the whole table is reproducible. What the source does
/// not say is written in ``assumptions``, each marked `[?]`.
public struct FieldTestDesign: Sendable {
  /// A short identifier (`radius-networks-2015`).
  public let id: String
  /// Who published it, and when.
  public let source: String
  /// Where it was published.
  public let reference: String
  /// The design in one line: movement, speed, fence, environment, app, trials.
  public let summary: String
  /// What the design takes from the source, and what it had to assume (marked `[?]`).
  public let assumptions: [String]
  /// The device profile whose conditions the source's match: every trial's phone starts from
  /// it.
  public let profile: DeviceProfile
  /// How many trials the source ran (or the suite runs, when the source does not say).
  public let trials: Int
  /// The figures the source published, each with the measure and band it is checked against.
  public let checks: [CalibrationCheck]
  /// Trial `i`'s true track, fences and conditions, given `i` and the profile's conditions.
  public let trial: @Sendable (Int, FieldConditions) throws -> FieldTrial

  /// A design.
  public init(
    id: String, source: String, reference: String, summary: String, assumptions: [String],
    profile: DeviceProfile = .standard, trials: Int, checks: [CalibrationCheck],
    trial: @escaping @Sendable (Int, FieldConditions) throws -> FieldTrial
  ) {
    self.id = id
    self.source = source
    self.reference = reference
    self.summary = summary
    self.assumptions = assumptions
    self.profile = profile
    self.trials = trials
    self.checks = checks
    self.trial = trial
  }

  /// Runs `count` trials (the design's own number when `nil`) with seeds `seed`, `seed + 1`, …
  public func run(trials count: Int? = nil, seed: UInt64 = 0, geos: GEOSContext) throws
    -> [FieldTrialRecord]
  {
    try (0..<(count ?? trials)).map { i in
      try trial(i, FieldConditions(profile: profile)).run(seed: seed &+ UInt64(i), geos: geos)
    }
  }
}

/// One published figure of a field test, the measure that estimates it from the trials, and
/// the band the estimate must fall in.
public struct CalibrationCheck: Hashable, Sendable {
  /// A short identifier, unique in the suite (`radius-within-30s`).
  public let id: String
  /// The published figure, as the source puts it.
  public let published: String
  /// The published figure as a number in the measure's unit, when it gives one.
  public let publishedValue: Double?
  /// What is estimated from the trials.
  public let measure: CalibrationMeasure
  /// The acceptable range of the estimate, in the measure's unit.
  public let band: ClosedRange<Double>
  /// Why the band is what it is.
  public let bandReason: String

  /// A check.
  public init(
    id: String, published: String, publishedValue: Double?, measure: CalibrationMeasure,
    band: ClosedRange<Double>, bandReason: String
  ) {
    self.id = id
    self.published = published
    self.publishedValue = publishedValue
    self.measure = measure
    self.band = band
    self.bandReason = bandReason
  }
}

/// What a check estimates from a design's trials.
public enum CalibrationMeasure: Hashable, Sendable {
  /// The share of true crossings (entries and exits of every fence) whose event the app heard.
  case detectedCrossings
  /// The share of true entries whose first entry event came at most `seconds` after the
  /// crossing (an early one counts; a missed one does not).
  case entriesWithin(seconds: Double)
  /// The share of heard entries that the phone heard while truly at least `metres` outside the
  /// fence.
  case entriesFartherThan(metres: Double)
  /// The share of true entries that were missed or heard more than `seconds` late.
  case entriesMissedOrLaterThan(seconds: Double)
  /// The median of the seconds from a true exit to its first exit event (exits heard).
  case medianExitLatency
  /// The median of how far inside the fence (metres; negative outside) the phone truly was when
  /// it heard its first entry (entries heard).
  case medianEntryDepth
  /// The mean of the seconds from a true entry to its first entry event (entries heard).
  case meanEntryLatency

  /// The unit of the estimate: `share`, `s` or `m`.
  public var unit: String {
    switch self {
    case .detectedCrossings, .entriesWithin, .entriesFartherThan, .entriesMissedOrLaterThan:
      "share"
    case .medianExitLatency, .meanEntryLatency: "s"
    case .medianEntryDepth: "m"
    }
  }

  /// A short description of the measure.
  public var description: String {
    switch self {
    case .detectedCrossings: "crossings detected"
    case .entriesWithin(let s): "entries heard within \(Self.number(s)) s"
    case .entriesFartherThan(let m): "entries heard ≥ \(Self.number(m)) m outside the fence"
    case .entriesMissedOrLaterThan(let s): "entries missed or > \(Self.number(s)) s late"
    case .medianExitLatency: "median exit latency"
    case .medianEntryDepth: "median depth inside the fence at the entry"
    case .meanEntryLatency: "mean entry latency"
    }
  }

  private static func number(_ x: Double) -> String {
    x == x.rounded() ? String(Int(x)) : String(x)
  }

  /// The estimate from `records`; `random` draws a bootstrap's resamples.
  public func estimate(_ records: [FieldTrialRecord], random: RandomStream) -> CalibrationEstimate {
    switch self {
    case .detectedCrossings:
      var crossings = 0
      var heard = 0
      for record in records {
        for fence in record.fences {
          for kind in [FieldCrossingKind.entry, .exit]
          where record.firstCrossing(kind, fence: fence.identifier) != nil {
            crossings += 1
            if record.firstEvent(kind, fence: fence.identifier) != nil { heard += 1 }
          }
        }
      }
      return .proportion(heard, of: crossings)
    case .entriesWithin(let seconds):
      let entries = Self.entries(records)
      let within = entries.filter { $0.map { $0 <= seconds } ?? false }.count
      return .proportion(within, of: entries.count)
    case .entriesMissedOrLaterThan(let seconds):
      let entries = Self.entries(records)
      let bad = entries.filter { $0.map { $0 > seconds } ?? true }.count
      return .proportion(bad, of: entries.count)
    case .entriesFartherThan(let metres):
      let heard = records.flatMap { record in
        record.fences.compactMap { record.firstEvent(.entry, fence: $0.identifier) }
          .compactMap { record.distanceOutside($0) }
      }
      return .proportion(heard.filter { $0 >= metres }.count, of: heard.count)
    case .medianExitLatency:
      return .median(Self.latencies(.exit, records))
    case .medianEntryDepth:
      let depths = records.flatMap { record in
        record.fences.compactMap { record.firstEvent(.entry, fence: $0.identifier) }
          .compactMap { record.distanceOutside($0).map { -$0 } }
      }
      return .median(depths)
    case .meanEntryLatency:
      return .mean(Self.latencies(.entry, records), random: random)
    }
  }

  /// Every true first entry of a fence, with its latency (`nil` when missed).
  private static func entries(_ records: [FieldTrialRecord]) -> [Double?] {
    records.flatMap { record in
      record.fences.filter { record.firstCrossing(.entry, fence: $0.identifier) != nil }
        .map { record.latency(.entry, fence: $0.identifier) }
    }
  }

  private static func latencies(_ kind: FieldCrossingKind, _ records: [FieldTrialRecord])
    -> [Double]
  {
    records.flatMap { record in
      record.fences.compactMap { record.latency(kind, fence: $0.identifier) }
    }
  }
}

/// A straight route through a fence's centre: legs along one azimuth, distances counted from
/// the centre (negative before it), and stops.
struct StraightRoute {
  let centre: Coordinate
  let azimuth: Double
  private(set) var points: [(distance: Double, time: Double)]

  init(centre: Coordinate, azimuth: Double = 90, start: Double) {
    self.centre = centre
    self.azimuth = azimuth
    self.points = [(start, 0)]
  }

  /// Where the route has got to, and when.
  var last: (distance: Double, time: Double) { points[points.count - 1] }

  /// Moves to `distance` at `speed` m/s, with a vertex at the centre when passing it.
  mutating func move(to distance: Double, speed: Double) {
    let from = last
    if (from.distance < 0 && distance > 0) || (from.distance > 0 && distance < 0) {
      points.append((0, from.time + abs(from.distance) / speed))
    }
    points.append((distance, last.time + abs(distance - last.distance) / speed))
  }

  /// Stands still for `seconds`.
  mutating func stay(_ seconds: Double) {
    points.append((last.distance, last.time + seconds))
  }

  func samples() throws -> [TrajectorySample] {
    try points.map { point in
      let coordinate =
        point.distance == 0
        ? centre
        : try Geodesic.wgs84.direct(
          from: centre, azimuth: point.distance > 0 ? azimuth : azimuth + 180,
          distance: abs(point.distance)
        ).coordinate
      return TrajectorySample(time: .seconds(point.time), coordinate: coordinate)
    }
  }
}
