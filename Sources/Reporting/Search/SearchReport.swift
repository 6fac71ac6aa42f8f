import Cloud
import Foundation
import Geo
import JSON
import Referee
import Replay
import SimKernel

/// How well the app's geo searches went: every NCMB query, three-word request and geocoder
/// lookup, with its latency, its answer, its comparison with the truth and its anomalies, and a
/// summary per service.
///
/// Everything is read from the event log: the `"network"` requests and responses (ids, the
/// request as sent, the simulated network and service times, the status and body, or the
/// failure, and the offline windows), the `"ncmb"` query log (the datastore's own count) and
/// the `"geocoder"` requests, replies and failures. The true NCMB result sets come from
/// ``ReportInput/stations``, not from the datastore (``NCMBSearchAnalysis``), and three-word
/// answers are decoded again through Cloud's public API (``ThreeWordCheck``).
///
/// ```swift
/// let report = SearchReport(input: ReportInput(run))
/// try report.json.jsonText.write(to: url, atomically: true, encoding: .utf8)
/// print(report.markdown())
/// ```
public struct SearchReport: Sendable {
  /// The scenario's name.
  public let scenario: String
  /// Every search, in the order sent.
  public let requests: [SearchRequestRecord]
  /// One summary per service that was asked, ordered by service name.
  public let summaries: [SearchServiceSummary]

  /// The report of a finished run.
  ///
  /// - Parameters:
  ///   - input: the run's scenario, event log and stations.
  ///   - resources: where the three-word languages come from for the round-trip check; they
  ///     are loaded only when the log holds a three-word answer.
  public init(input: ReportInput, resources: ReplayResources = ReplayResources()) {
    scenario = input.scenario.name
    let records = SearchLogReader(input: input, resources: resources).records()
    requests = records
    summaries = Set(records.map(\.service)).sorted().map { service in
      SearchServiceSummary(service: service, records: records.filter { $0.service == service })
    }
  }

  /// The NCMB searches that an SVG map can draw, in the order sent.
  public var ncmbSearches: [(record: SearchRequestRecord, analysis: NCMBSearchAnalysis)] {
    requests.compactMap { record in record.ncmb.map { (record, $0) } }
  }
}

/// Median, 90th percentile and maximum of a set of durations, in seconds.
public struct LatencyStatistics: Hashable, Sendable {
  /// How many values.
  public let count: Int
  /// The median (`Referee.quantile(_:_:)` at 0.5: the mean of the middle two for an even
  /// count).
  public let median: Double
  /// The 90th percentile (`Referee.quantile(_:_:)` at 0.9: linear between the closest
  /// ranks).
  public let p90: Double
  /// The largest value.
  public let max: Double

  /// The statistics of `values`, or `nil` when there are none.
  public init?(_ values: [Double]) {
    guard let median = quantile(values, 0.5), let p90 = quantile(values, 0.9),
      let max = values.max()
    else { return nil }
    count = values.count
    self.median = median
    self.p90 = p90
    self.max = max
  }
}

/// One service's searches in figures.
public struct SearchServiceSummary: Sendable {
  /// `"ncmb"`, `"threewords"` or `"geocoder"`.
  public let service: String
  /// How many requests were sent.
  public let requests: Int
  /// How many failed (``SearchRequestRecord/isError``).
  public let errors: Int
  /// Total latency of the answered requests, leaving out those refused at once as offline
  /// (`notConnectedToInternet`); timeouts count with the time waited.
  public let total: LatencyStatistics?
  /// Network time of the same requests (none for the geocoder).
  public let network: LatencyStatistics?
  /// Service time of the same requests (none for the geocoder).
  public let serviceTime: LatencyStatistics?
  /// NCMB: the mean recall over the searches where it is defined.
  public let meanRecall: Double?
  /// NCMB: the mean precision over the searches where it is defined.
  public let meanPrecision: Double?
  /// How many requests showed each anomaly.
  public let anomalies: [SearchAnomaly: Int]

  /// Errors over requests (0 without requests).
  public var errorRate: Double { requests == 0 ? 0 : Double(errors) / Double(requests) }

  init(service: String, records: [SearchRequestRecord]) {
    self.service = service
    requests = records.count
    errors = records.filter(\.isError).count
    // A request refused at once for want of a connection never travelled: its zero latency
    // would only pull the figures down.
    let latencies = records.filter { $0.failure != "notConnectedToInternet" }.compactMap(
      \.latency)
    total = LatencyStatistics(latencies.map(\.totalSeconds))
    network = LatencyStatistics(latencies.compactMap(\.networkSeconds))
    serviceTime = LatencyStatistics(latencies.compactMap(\.serviceSeconds))
    let recalls = records.compactMap { $0.ncmb?.recall }
    let precisions = records.compactMap { $0.ncmb?.precision }
    meanRecall = recalls.isEmpty ? nil : recalls.reduce(0, +) / Double(recalls.count)
    meanPrecision = precisions.isEmpty ? nil : precisions.reduce(0, +) / Double(precisions.count)
    var counts: [SearchAnomaly: Int] = [:]
    for record in records {
      for anomaly in record.anomalies { counts[anomaly, default: 0] += 1 }
    }
    anomalies = counts
  }
}
