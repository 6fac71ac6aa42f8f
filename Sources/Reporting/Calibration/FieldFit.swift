import Device
import Foundation
import Geo
import Referee
import Replay
import SimKernel

/// One true crossing of a field trial and the event the app heard for it, if any.
public struct FieldMatch: Hashable, Sendable {
  /// The true crossing.
  public let crossing: FieldEvent
  /// The event matched to it: the first of its kind and fence heard after the crossing before
  /// it (an early trigger counts) and before the next crossing of the same kind; `nil` when
  /// missed.
  public let event: FieldEvent?
  /// Seconds from the crossing to the event (negative when early).
  public var latency: Double? { event.map { ($0.time - crossing.time).seconds } }
}

extension FieldTrialRecord {
  /// Every true crossing with the event heard for it, in time order, and how many heard
  /// events matched no crossing.
  ///
  /// For a fence crossed once each way this is ``firstEvent(_:fence:)`` of each kind; for one
  /// visited several times, crossing *i* takes the first event of its kind heard after
  /// crossing *i* − 1 (so that an entry heard before the phone truly entered counts) and
  /// before crossing *i* + 2, the next of the same kind.
  public func matches() -> (matches: [FieldMatch], unmatchedEvents: Int) {
    var result: [FieldMatch] = []
    var unmatched = 0
    for fence in fences {
      let crossings = self.crossings.filter { $0.fence == fence.identifier }
      var events = self.events.filter { $0.fence == fence.identifier }
      var used = [Bool](repeating: false, count: events.count)
      for (i, crossing) in crossings.enumerated() {
        let from = i > 0 ? crossings[i - 1].time : SimTime(nanoseconds: .min)
        let until = i + 2 < crossings.count ? crossings[i + 2].time : SimTime(nanoseconds: .max)
        let index = events.indices.first { j in
          !used[j] && events[j].kind == crossing.kind && events[j].time >= from
            && events[j].time < until
        }
        if let index { used[index] = true }
        result.append(FieldMatch(crossing: crossing, event: index.map { events[$0] }))
      }
      unmatched += used.filter { !$0 }.count
      events.removeAll()
    }
    result.sort { $0.crossing.time < $1.crossing.time }
    return (result, unmatched)
  }
}

/// A statistic of a field log that the fit matches between the log and the simulation.
public enum FieldStatistic: String, Hashable, Sendable, CaseIterable {
  /// The share of true crossings the app heard.
  case detectedCrossings
  /// The median seconds from a true entry to the entry heard for it.
  case medianEntryLatency
  /// The median seconds from a true exit to the exit heard for it.
  case medianExitLatency
  /// The median metres inside the fence the phone truly was when it heard an entry
  /// (negative outside).
  case medianEntryDepth
  /// The interquartile range of those depths, in metres: how much the position an entry is
  /// decided from scatters.
  case entryDepthSpread

  /// The unit: `share`, `s` or `m`.
  public var unit: String {
    switch self {
    case .detectedCrossings: "share"
    case .medianEntryLatency, .medianExitLatency: "s"
    case .medianEntryDepth, .entryDepthSpread: "m"
    }
  }

  /// A short description.
  public var description: String {
    switch self {
    case .detectedCrossings: "crossings heard"
    case .medianEntryLatency: "median entry latency"
    case .medianExitLatency: "median exit latency"
    case .medianEntryDepth: "median depth inside the fence at the entry"
    case .entryDepthSpread: "interquartile range of the depth at the entry"
    }
  }

  /// The depths inside their fence (metres; negative outside) at which entries were heard.
  static func depths(_ matches: [FieldMatch], fences: [String: CircularRegion]) -> [Double] {
    matches.filter { $0.crossing.kind == .entry }.compactMap { match in
      guard let event = match.event, let fence = fences[event.fence] else { return nil }
      return fence.radius
        - Geodesic.wgs84.inverse(from: fence.center, to: event.coordinate).distance
    }
  }

  /// The interquartile range of `values`; `nil` below two values.
  static func interquartileRange(_ values: [Double]) -> Double? {
    guard values.count >= 2, let low = quantile(values, 0.25), let high = quantile(values, 0.75)
    else { return nil }
    return high - low
  }

  /// The statistic of `matches` with its 95 % interval (Wilson for the share, the
  /// order-statistic interval for the medians, the percentile bootstrap from `random` for the
  /// interquartile range).
  func estimate(
    _ matches: [FieldMatch], fences: [String: CircularRegion], random: RandomStream
  ) -> CalibrationEstimate {
    switch self {
    case .detectedCrossings:
      return .proportion(matches.filter { $0.event != nil }.count, of: matches.count)
    case .medianEntryLatency:
      return .median(matches.filter { $0.crossing.kind == .entry }.compactMap(\.latency))
    case .medianExitLatency:
      return .median(matches.filter { $0.crossing.kind == .exit }.compactMap(\.latency))
    case .medianEntryDepth:
      return .median(Self.depths(matches, fences: fences))
    case .entryDepthSpread:
      let depths = Self.depths(matches, fences: fences)
      guard let value = Self.interquartileRange(depths) else {
        return CalibrationEstimate(
          value: nil, lower: nil, upper: nil, count: depths.count, successes: nil,
          method: .bootstrap)
      }
      var random = random
      var draws: [Double] = []
      draws.reserveCapacity(CalibrationEstimate.bootstrapResamples)
      for _ in 0..<CalibrationEstimate.bootstrapResamples {
        let sample = depths.map { _ in depths[Int(random.next() % UInt64(depths.count))] }
        draws.append(Self.interquartileRange(sample)!)
      }
      let tail = (1 - CalibrationEstimate.confidence) / 2
      return CalibrationEstimate(
        value: value, lower: quantile(draws, tail), upper: quantile(draws, 1 - tail),
        count: depths.count, successes: nil, method: .bootstrap)
    }
  }

  /// The point value only (no interval), for the fit's many evaluations.
  func value(_ matches: [FieldMatch], fences: [String: CircularRegion]) -> Double? {
    switch self {
    case .detectedCrossings:
      return matches.isEmpty
        ? nil : Double(matches.filter { $0.event != nil }.count) / Double(matches.count)
    case .medianEntryLatency, .medianExitLatency, .medianEntryDepth:
      return estimate(matches, fences: fences, random: RandomStream(seed: 0)).value
    case .entryDepthSpread:
      return Self.interquartileRange(Self.depths(matches, fences: fences))
    }
  }
}

/// A region-engine parameter that `geosim calibrate --fit` fits, the statistic that
/// identifies it and the grid it is searched over.
public enum FittedParameter: String, Hashable, Sendable, CaseIterable {
  /// `RegionMonitoringParameters.missProbability`, from the share of crossings heard.
  case missProbability
  /// `RegionMonitoringParameters.entryLatencyMedian`, from the median entry latency.
  case entryLatencyMedian
  /// `RegionMonitoringParameters.exitLatencyMedian`, from the median exit latency.
  case exitLatencyMedian
  /// `SensorParameters.coarseAccuracy` (the Wi-Fi positions region monitoring decides
  /// from), from how much the depth inside the fence at which entries are heard scatters.
  case coarseAccuracy

  /// The statistic that identifies the parameter.
  public var statistic: FieldStatistic {
    switch self {
    case .missProbability: .detectedCrossings
    case .entryLatencyMedian: .medianEntryLatency
    case .exitLatencyMedian: .medianExitLatency
    case .coarseAccuracy: .entryDepthSpread
    }
  }

  /// The unit: `probability`, `s` or `m`.
  public var unit: String {
    switch self {
    case .missProbability: "probability"
    case .entryLatencyMedian, .exitLatencyMedian: "s"
    case .coarseAccuracy: "m"
    }
  }

  /// The values the search simulates, in increasing order; the fit interpolates between them
  /// and never leaves their range.
  public var grid: [Double] {
    switch self {
    case .missProbability: [0, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9]
    case .entryLatencyMedian: [0, 2, 5, 10, 20, 40, 80, 160]
    case .exitLatencyMedian: [0, 20, 40, 60, 90, 120, 150, 200, 300, 450, 600]
    // Up to 150 m: from about 200 m on a Wi-Fi position no longer decides a 100 m fence and
    // GNSS fixes do, so the scatter falls again and the curve would not be monotone.
    case .coarseAccuracy: [5, 15, 30, 45, 65, 80, 100, 125, 150]
    }
  }

  /// `value` to the precision the fit reports: a thousandth of a probability, a tenth of a
  /// second or a metre.
  public func rounded(_ value: Double) -> Double {
    switch self {
    case .missProbability: (value * 1_000).rounded() / 1_000
    default: (value * 10).rounded() / 10
    }
  }

  /// The parameter's value in a profile.
  public func value(in profile: DeviceProfile) -> Double {
    switch self {
    case .missProbability: profile.parameters.regionMonitoring.missProbability
    case .entryLatencyMedian: profile.parameters.regionMonitoring.entryLatencyMedian.seconds
    case .exitLatencyMedian: profile.parameters.regionMonitoring.exitLatencyMedian.seconds
    case .coarseAccuracy: profile.sensor.coarseAccuracy
    }
  }

  /// Sets the parameter in a profile.
  public func set(_ value: Double, in profile: inout DeviceProfile) {
    switch self {
    case .missProbability: profile.parameters.regionMonitoring.missProbability = value
    case .entryLatencyMedian:
      profile.parameters.regionMonitoring.entryLatencyMedian = .seconds(value)
    case .exitLatencyMedian: profile.parameters.regionMonitoring.exitLatencyMedian = .seconds(value)
    case .coarseAccuracy: profile.sensor.coarseAccuracy = value
    }
  }
}

/// Fits the region-engine parameters to a user's field log by simulated moments: every
/// candidate is simulated on the log's own track and regions with seeded trials, and each
/// ``FittedParameter`` is moved until its statistic in the simulation matches the log's
/// (docs/DEVICE.md, "Fitting a profile to your phone").
public struct FieldFit: Sendable {
  /// The log.
  public let log: FieldLog
  /// The profile the fit starts from; the fitted profile changes only the fitted numbers.
  public let base: DeviceProfile
  /// The fitted profile's name and summary.
  public let name: String
  /// The environment and app state of the simulated trials (their parameters come from the
  /// candidate profile).
  public let conditions: FieldConditions
  /// Simulated trials per candidate; trial *i* is seeded ``seed`` + *i* for every candidate
  /// (common random numbers, so that candidates differ by their parameters, not their draws).
  public let trials: Int
  /// The seed of trial 0, and of the bootstrap.
  public let seed: UInt64
  /// Coordinate-search passes over the parameters.
  public let passes: Int
  /// Bootstrap resamples of the log's crossings for the parameters' intervals.
  public let resamples: Int

  /// A fit of `log` starting from `base`.
  public init(
    log: FieldLog, base: DeviceProfile, name: String,
    conditions: FieldConditions = FieldConditions(),
    trials: Int = 20, seed: UInt64 = 0, passes: Int = 2, resamples: Int = 500
  ) {
    self.log = log
    self.base = base
    self.name = name
    self.conditions = conditions
    self.trials = trials
    self.seed = seed
    self.passes = passes
    self.resamples = resamples
  }

  /// Runs the fit.
  ///
  /// - Throws: ``FieldLogError`` when the track crosses none of the log's regions; `DeviceError`
  ///   or `GeoError` from the simulation.
  public func run() throws -> FieldFitReport {
    let geos = GEOSContext()
    let fences = Dictionary(log.fences.map { ($0.identifier, $0) }, uniquingKeysWith: { a, _ in a })
    let observedRecord = try log.record(geos: geos)
    let (observed, unmatched) = observedRecord.matches()
    guard !observed.isEmpty else {
      throw FieldLogError(
        file: "the field log", line: nil,
        "the track crosses none of the registered regions' circles: there is nothing to fit")
    }
    var cache: [[Double]: [FieldMatch]] = [:]
    func simulate(_ values: [Double]) throws -> [FieldMatch] {
      if let hit = cache[values] { return hit }
      let profile = self.profile(values)
      var conditions = self.conditions
      conditions.parameters = profile.parameters
      conditions.sensor = profile.sensor
      let trial = log.trial(conditions)
      var matches: [FieldMatch] = []
      for i in 0..<trials {
        matches += try trial.run(seed: seed &+ UInt64(i), geos: geos).matches().matches
      }
      cache[values] = matches
      return matches
    }
    let parameters = FittedParameter.allCases
    let baseValues = parameters.map { $0.value(in: base) }
    var current = parameters.map { p in
      min(max(p.value(in: base), p.grid.first!), p.grid.last!)
    }
    let observedValues = parameters.map { $0.statistic.value(observed, fences: fences) }
    var profiles: [[Double?]] = parameters.map { _ in [] }
    var notes: [String?] = parameters.map { _ in nil }
    var identified = observedValues.map { $0 != nil }
    for (i, p) in parameters.enumerated() where !identified[i] {
      notes[i] =
        "not identified: the log has no \(p.statistic == .medianExitLatency ? "exit" : "entry") heard for a true crossing; the base profile's value is kept"
    }
    // A parameter's interval: the log's crossings resampled, each resample's statistic
    // inverted through the parameter's simulated curve (no new simulation).
    func interval(_ i: Int, pass: Int) -> (lower: Double, upper: Double)? {
      let p = parameters[i]
      var random = RandomSource(seed: seed).stream("fit.bootstrap.\(pass).\(p.rawValue)")
      var draws: [Double] = []
      for _ in 0..<resamples {
        var sample: [FieldMatch] = []
        sample.reserveCapacity(observed.count)
        for _ in 0..<observed.count {
          sample.append(observed[Int(random.next() % UInt64(observed.count))])
        }
        guard let target = p.statistic.value(sample, fences: fences),
          let inverted = Self.invert(grid: p.grid, curve: profiles[i], target: target)
        else { continue }
        draws.append(inverted.value)
      }
      let sorted = draws.sorted()
      let tail = (1 - CalibrationEstimate.confidence) / 2
      guard let lower = quantile(sorted, tail), let upper = quantile(sorted, 1 - tail) else {
        return nil
      }
      return (lower, upper)
    }
    var intervals: [(lower: Double, upper: Double)?] = parameters.map { _ in nil }
    for pass in 0..<passes {
      for (i, p) in parameters.enumerated() where identified[i] {
        var curve: [Double?] = []
        for x in p.grid {
          var values = current
          values[i] = x
          curve.append(p.statistic.value(try simulate(values), fences: fences))
        }
        profiles[i] = curve
        guard let inverted = Self.invert(grid: p.grid, curve: curve, target: observedValues[i]!)
        else {
          identified[i] = false
          current[i] = baseValues[i]
          notes[i] =
            "not identified: the simulated \(p.statistic.description) does not move over the grid; the base profile's value is kept"
          continue
        }
        current[i] = p.rounded(inverted.value)
        notes[i] = inverted.edge.map {
          "at the grid's \($0) end: the log's \(p.statistic.description) lies outside what the grid simulates"
        }
        // A parameter whose interval spans nearly the whole grid is not pinned by the log: it
        // goes back to the base's value before the others are fitted around it.
        intervals[i] = interval(i, pass: pass)
        let span = p.grid.last! - p.grid.first!
        if let range = intervals[i], range.upper - range.lower >= 0.9 * span {
          identified[i] = false
          current[i] = baseValues[i]
          notes[i] =
            "not identified: its 95 % interval spans the grid (\(Self.describe(range.lower, p))–\(Self.describe(range.upper, p))), so the log's \(p.statistic.description) does not pin it; the base profile's value is kept"
          intervals[i] = nil
        }
      }
    }
    // The fitted profile keeps the base's value of a parameter the log does not identify.
    let fitted = parameters.indices.map { identified[$0] ? current[$0] : baseValues[$0] }

    let fits = parameters.enumerated().map { i, p in
      FieldFitReport.Parameter(
        parameter: p, base: baseValues[i], fitted: fitted[i], identified: identified[i],
        lower: identified[i] ? intervals[i].map { p.rounded($0.lower) } : nil,
        upper: identified[i] ? intervals[i].map { p.rounded($0.upper) } : nil, note: notes[i])
    }
    let atFit = try simulate(fitted)
    let atBase = try simulate(baseValues)
    let statistics = FieldStatistic.allCases.map { s in
      let random = RandomSource(seed: seed).stream("fit.statistic.\(s.rawValue)")
      return FieldFitReport.Statistic(
        statistic: s, observed: s.estimate(observed, fences: fences, random: random),
        fitted: s.estimate(atFit, fences: fences, random: random),
        base: s.estimate(atBase, fences: fences, random: random))
    }
    var profile = self.profile(fitted)
    profile.name = name
    profile.summary =
      "fitted to a field log (\(log.fences.count) regions, \(observed.count) crossings) from \(base.name) by geosim calibrate --fit"
    return FieldFitReport(
      name: name, base: base.name, conditions: conditions, trials: trials, seed: seed,
      fences: log.fences.count, crossings: observed.count, events: log.events.count,
      unmatchedEvents: unmatched, parameters: fits, statistics: statistics,
      candidates: cache.count, profile: profile)
  }

  /// A value as the report writes it.
  static func describe(_ value: Double, _ p: FittedParameter) -> String {
    p.unit == "probability"
      ? String(format: "%.2f", value) : String(format: "%.0f %@", value, p.unit)
  }

  /// The base profile with the fitted parameters set to `values`.
  func profile(_ values: [Double]) -> DeviceProfile {
    var profile = base
    for (p, v) in zip(FittedParameter.allCases, values) { p.set(v, in: &profile) }
    return profile
  }

  /// The grid value at which the simulated curve meets `target`, and the end of the grid it
  /// was held at when the target lies beyond the curve; `nil` when the curve is flat.
  ///
  /// The curve is first made monotone (pool-adjacent-violators, in the direction of its
  /// least-squares slope), since simulation noise can make it wobble; where it is flat at the
  /// target the middle of the flat stretch is taken.
  static func invert(grid: [Double], curve: [Double?], target: Double) -> (
    value: Double, edge: String?
  )? {
    let points = zip(grid, curve).compactMap { x, y in y.map { (x, $0) } }
    guard points.count >= 2 else { return nil }
    let xs = points.map(\.0)
    let meanX = xs.reduce(0, +) / Double(xs.count)
    let meanY = points.map(\.1).reduce(0, +) / Double(points.count)
    let slope = points.reduce(0) { $0 + ($1.0 - meanX) * ($1.1 - meanY) }
    guard slope != 0 else { return nil }
    let sign = slope > 0 ? 1.0 : -1.0
    let ys = isotonic(points.map { sign * $0.1 })
    let y = sign * target
    guard ys.last! > ys.first! else { return nil }
    if y < ys.first! { return (xs.first!, "lower") }
    if y > ys.last! { return (xs.last!, "upper") }
    // The lowest x where the curve reaches y, and the highest where it has not passed it.
    var low = xs.first!
    for k in 0..<(xs.count - 1) where ys[k + 1] >= y {
      low = ys[k] >= y ? xs[k] : xs[k] + (y - ys[k]) / (ys[k + 1] - ys[k]) * (xs[k + 1] - xs[k])
      break
    }
    var high = xs.last!
    for k in stride(from: xs.count - 2, through: 0, by: -1) where ys[k] <= y {
      high =
        ys[k + 1] <= y ? xs[k + 1] : xs[k] + (y - ys[k]) / (ys[k + 1] - ys[k]) * (xs[k + 1] - xs[k])
      break
    }
    return ((low + high) / 2, nil)
  }

  /// The non-decreasing sequence closest to `ys` in least squares (pool adjacent violators).
  static func isotonic(_ ys: [Double]) -> [Double] {
    var blocks: [(sum: Double, count: Int)] = []
    for y in ys {
      blocks.append((y, 1))
      while blocks.count >= 2 {
        let b = blocks[blocks.count - 1]
        let a = blocks[blocks.count - 2]
        guard a.sum / Double(a.count) > b.sum / Double(b.count) else { break }
        blocks.removeLast(2)
        blocks.append((a.sum + b.sum, a.count + b.count))
      }
    }
    return blocks.flatMap { Array(repeating: $0.sum / Double($0.count), count: $0.count) }
  }
}
