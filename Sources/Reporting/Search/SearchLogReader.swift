import Cloud
import Device
import Foundation
import Geo
import JSON
import Replay
import SimKernel

/// Reads the searches out of an event log and analyses each one.
struct SearchLogReader {
  /// The events ``readLog()`` has cases for: the others are passed over without a cast.
  private static let cases = LogEventTypes(
    NetworkEvent.self, DatastoreEvent.self, GeocoderEvent.self)
  let input: ReportInput
  let resources: ReplayResources

  /// A request seen in the log, with its answer once found.
  private struct Exchange {
    var networkID: Int?
    var service: String
    var sentAt: SimTime
    /// The request as the report shows it (a network request's summary, or the geocoder's
    /// kind and argument).
    var request: String
    /// The network request, for network searches.
    var httpRequest: HTTPRequest?
    /// Geocoder requests: the coordinate asked about.
    var geocodePoint: Coordinate?
    var geocodeKind: String?
    var answeredAt: SimTime?
    var latency: SearchLatency?
    var status: Int?
    var body: JSONValue?
    var failure: String?
    var geocodeResult: (count: Int, name: String?)?
    var geocodeReason: String?
  }

  /// The services whose requests are searches.
  static let searchServices: Set<String> = ["ncmb", "threewords"]

  /// Every search in the log, analysed, in the order sent.
  func records() -> [SearchRequestRecord] {
    var (exchanges, context) = readLog()
    return exchanges.map { analyse($0, &context) }
  }

  /// What the analyses of successive requests share.
  private struct Context {
    /// When the phone went offline and, if it did, back online.
    var offlineWindows: [(from: SimTime, to: SimTime?)] = []
    /// The datastore's queries, and which of them a request has claimed.
    var ncmbQueries: [(time: SimTime, className: String, where: JSONValue, count: Int)] = []
    var claimedQueries = Set<Int>()
    /// The three-word service for the independent check, once needed, or why it is missing.
    var threeWords: (service: ThreeWordAddressService?, note: String?)?

    func isOffline(at time: SimTime) -> Bool {
      offlineWindows.contains { $0.from <= time && $0.to.map { time < $0 } ?? true }
    }
  }

  /// What one request's analysis finds.
  private struct Findings {
    var kind: SearchKind
    var results: [SearchResultItem] = []
    var ncmb: NCMBSearchAnalysis?
    var threeWords: ThreeWordCheck?
    /// The coordinates the request carried.
    var points: [Coordinate] = []
    var anomalies = Set<SearchAnomaly>()
  }

  /// The requests with their answers, and the offline windows and datastore queries.
  private func readLog() -> ([Exchange], Context) {
    var exchanges: [Exchange] = []
    var byNetworkID: [Int: Int] = [:]
    var pendingGeocode: Int?
    var context = Context()
    for entry in input.events where Self.cases.contains(entry) {
      switch entry.payload {
      case let event as NetworkEvent:
        switch event {
        case .offline:
          context.offlineWindows.append((entry.time, nil))
        case .online:
          if let last = context.offlineWindows.indices.last,
            context.offlineWindows[last].to == nil
          {
            context.offlineWindows[last].to = entry.time
          }
        case .request(let id, let service, let request):
          guard Self.searchServices.contains(service) else { continue }
          byNetworkID[id] = exchanges.count
          exchanges.append(
            Exchange(
              networkID: id, service: service, sentAt: entry.time, request: request.summary,
              httpRequest: request))
        case .response(let id, _, let network, let service, let total, let result):
          guard let index = byNetworkID[id] else { continue }
          var exchange = exchanges[index]
          exchange.answeredAt = entry.time
          exchange.latency = SearchLatency(
            totalSeconds: total.seconds, networkSeconds: network.seconds,
            serviceSeconds: service.seconds)
          switch result {
          case .success(let response):
            exchange.status = response.status
            exchange.body = response.body
          case .failure(let failure):
            exchange.failure = failure.description
          }
          exchanges[index] = exchange
        }
      case let event as DatastoreEvent:
        if case .query(let className, let whereClause, _, _, let count, _, _) = event {
          context.ncmbQueries.append(
            (time: entry.time, className: className, where: whereClause, count: count))
        }
      case let event as GeocoderEvent:
        switch event {
        case .request(let query):
          var exchange = Exchange(
            service: "geocoder", sentAt: entry.time, request: query.kind)
          exchange.geocodeKind = query.kind
          switch query {
          case .reverse(let c):
            exchange.geocodePoint = c
            exchange.request =
              "\(query.kind) \(JSONText.number(c.latitude)),\(JSONText.number(c.longitude))"
          case .forward(let text):
            var quoted = ""
            JSONText.writeString(text, to: &quoted)
            exchange.request = "\(query.kind) \(quoted)"
          }
          pendingGeocode = exchanges.count
          exchanges.append(exchange)
        case .reply, .failure:
          guard let index = pendingGeocode else { continue }
          pendingGeocode = nil
          var exchange = exchanges[index]
          exchange.answeredAt = entry.time
          exchange.latency = SearchLatency(
            totalSeconds: (entry.time - exchange.sentAt).seconds, networkSeconds: nil,
            serviceSeconds: nil)
          if case .reply(_, let count, let name) = event {
            exchange.geocodeResult = (count, name)
          } else if case .failure(_, let code, let reason) = event {
            exchange.failure = code.description
            exchange.geocodeReason = reason
          }
          exchanges[index] = exchange
        }
      default:
        continue
      }
    }

    return (exchanges, context)
  }

  private func analyse(_ exchange: Exchange, _ context: inout Context) -> SearchRequestRecord {
    let errorCode = Self.errorCode(exchange.body)
    var findings: Findings
    switch exchange.service {
    case "ncmb": findings = ncmbFindings(exchange, errorCode: errorCode, &context)
    case "threewords": findings = threeWordFindings(exchange, &context)
    default: findings = geocoderFindings(exchange)
    }
    var anomalies = findings.anomalies
    if context.isOffline(at: exchange.sentAt) || exchange.failure == "notConnectedToInternet" {
      anomalies.insert(.offline)
    }
    if exchange.failure == "timedOut" { anomalies.insert(.timedOut) }
    if let status = exchange.status, status >= 500 { anomalies.insert(.serverError) }
    if exchange.answeredAt == nil { anomalies.insert(.unanswered) }
    if errorCode != nil { anomalies.insert(.serviceError) }
    if findings.points.contains(where: { abs($0.latitude) <= 0.01 && abs($0.longitude) <= 0.01 }) {
      anomalies.insert(.nearNullIsland)
    }
    return SearchRequestRecord(
      networkID: exchange.networkID, service: exchange.service, kind: findings.kind,
      sentAt: exchange.sentAt, answeredAt: exchange.answeredAt,
      request: exchange.httpRequest.map(Self.redactingKey) ?? exchange.request,
      latency: exchange.latency,
      status: exchange.status, failure: exchange.failure, errorCode: errorCode,
      results: findings.results, ncmb: findings.ncmb, threeWords: findings.threeWords,
      anomalies: anomalies.sorted())
  }

  private func ncmbFindings(_ exchange: Exchange, errorCode: String?, _ context: inout Context)
    -> Findings
  {
    var findings = Findings(kind: .ncmbOther)
    let (path, parameters) = Self.parts(of: exchange.httpRequest)
    let parts = path.split(separator: "/").map(String.init)
    // The where clause as the request carried it, read as the service reads it.
    let whereValue = parameters["where"].flatMap { try? JSONValue(parsing: Data($0.utf8)) }
    var rest: [String: JSONValue] = [:]
    if let whereValue { rest["where"] = whereValue }
    for name in ["limit", "skip"] {
      if let n = parameters[name].flatMap({ Int($0) }) { rest[name] = .number(Double(n)) }
    }
    guard parts.count == 3, parts[1] == "classes",
      let q = try? DatastoreQuery(className: parts[2], restJSON: .object(rest)),
      let constraint = q.geoConstraint
    else {
      findings.results = Self.ncmbResults(exchange.body, field: "geo").map(Self.item)
      return findings
    }
    let field: String
    switch constraint {
    case .near(let f, let point, _):
      findings.kind = .ncmbNear
      field = f
      findings.points = [point.coordinate]
    case .box(let f, let sw, let ne):
      findings.kind = .ncmbBox
      field = f
      findings.points = [sw.coordinate, ne.coordinate]
    }
    let returned = Self.ncmbResults(exchange.body, field: field)
    findings.results = returned.map(Self.item)
    var count: Int?
    if exchange.status != nil, let answered = exchange.answeredAt {
      let queries = context.ncmbQueries
      let claimed = context.claimedQueries
      let match = queries.indices.first { i in
        let e = queries[i]
        return !claimed.contains(i) && e.time >= exchange.sentAt && e.time <= answered
          && e.className == q.className && e.where == whereValue
      }
      if let match {
        context.claimedQueries.insert(match)
        count = queries[match].count
      }
    }
    let answered = exchange.status == 200 && errorCode == nil
    let analysis = NCMBSearchAnalysis(
      query: q, returned: answered ? returned : [], answered: answered,
      stations: stations(className: q.className, field: field), datastoreCount: count)
    // An unanswered or failed request is not compared with the truth.
    if answered {
      findings.anomalies.formUnion(analysis.anomalies)
    } else if analysis.swappedLatitudes || analysis.swappedLongitudes {
      findings.anomalies.insert(.invertedBox)
    }
    findings.ncmb = analysis
    return findings
  }

  private func threeWordFindings(_ exchange: Exchange, _ context: inout Context) -> Findings {
    let (path, parameters) = Self.parts(of: exchange.httpRequest)
    var findings: Findings
    switch path.split(separator: "/").last.map(String.init) ?? "" {
    case "convert-to-3wa": findings = Findings(kind: .threeWordsToWords)
    case "convert-to-coordinates": findings = Findings(kind: .threeWordsToCoordinates)
    case "autosuggest": findings = Findings(kind: .threeWordsAutosuggest)
    default: findings = Findings(kind: .threeWordsOther)
    }
    for name in ["coordinates", "focus"] {
      let n = (parameters[name] ?? "").split(separator: ",").compactMap { Double($0) }
      if n.count == 2, let c = try? Coordinate(latitude: n[0], longitude: n[1]) {
        findings.points.append(c)
      }
    }
    findings.results = Self.threeWordResults(exchange.body)
    guard findings.kind != .threeWordsOther else { return findings }
    if context.threeWords == nil, exchange.status == 200 {
      do {
        let languages = try resources.threeWordLanguages()
        context.threeWords = (ThreeWordAddressService(languages: languages), nil)
      } catch {
        context.threeWords = (nil, "the word lists could not be loaded: \(error)")
      }
    }
    let check = ThreeWordCheck(
      kind: findings.kind, query: parameters, status: exchange.status, body: exchange.body,
      service: context.threeWords?.service, unavailable: context.threeWords?.note)
    if check.failed { findings.anomalies.insert(.wrongSquare) }
    findings.threeWords = check
    return findings
  }

  private func geocoderFindings(_ exchange: Exchange) -> Findings {
    var findings = Findings(
      kind: exchange.geocodeKind == "forward" ? .geocodeForward : .geocodeReverse)
    if let point = exchange.geocodePoint { findings.points.append(point) }
    if let result = exchange.geocodeResult {
      // The log names the first placemark only.
      findings.results = (0..<result.count).map { i in
        SearchResultItem(id: nil, label: i == 0 ? result.name : nil, coordinate: nil)
      }
    }
    if exchange.failure != nil {
      findings.anomalies.insert(.serviceError)
      if exchange.geocodeReason?.contains("Airplane mode") == true {
        findings.anomalies.insert(.offline)
      }
    }
    return findings
  }

  private static func item(_ point: NCMBStationPoint) -> SearchResultItem {
    SearchResultItem(id: point.objectId, label: point.name, coordinate: point.coordinate)
  }

  /// The stations loaded into `className` with their GeoPoint in `field`, or `nil` when the
  /// datasets mix classes and a file can no longer be read to tell them apart.
  ///
  /// A scenario without datasets has its stations in its PostGIS user table's class and
  /// field, or (a constructed input) in `Station.geo`, the datasets' default.
  func stations(className: String, field: String) -> [StationRecord]? {
    let datasets = input.scenario.datasets
    if datasets.isEmpty {
      // The stations of a PostGIS user table, or of a constructed input, are in one field.
      let home =
        input.scenario.postGISTable != nil
        ? input.scenario.tableStations : TableStations(className: "Station", geoField: "geo")
      return className == home.className && field == home.geoField ? input.stations : []
    }
    let first = datasets[0]
    if datasets.allSatisfy({ $0.className == first.className && $0.geoField == first.geoField }) {
      return first.className == className && first.geoField == field ? input.stations : []
    }
    // Mixed classes: the stations are the datasets' in order; count each file's again.
    var selected: [StationRecord] = []
    var offset = 0
    for dataset in datasets {
      guard let text = try? String(contentsOf: dataset.file, encoding: .utf8) else { return nil }
      let records =
        dataset.file.pathExtension.lowercased() == "csv"
        ? try? GeoDatastore.stations(csv: text, file: dataset.file.path)
        : try? GeoDatastore.stations(json: text, file: dataset.file.path)
      guard let count = records?.count, offset + count <= input.stations.count else { return nil }
      if dataset.className == className && dataset.geoField == field {
        selected += input.stations[offset..<offset + count]
      }
      offset += count
    }
    return selected
  }

  /// The request's path and its query parameters (the first of each name).
  static func parts(of request: HTTPRequest?) -> (path: String, parameters: [String: String]) {
    guard let request else { return ("", [:]) }
    return (
      request.path,
      Dictionary(request.query.map { ($0.name, $0.value) }, uniquingKeysWith: { first, _ in first })
    )
  }

  /// The request's summary with the value of a `key` parameter (an API key) replaced by
  /// `***`, so that reports do not copy credentials.
  static func redactingKey(_ request: HTTPRequest) -> String {
    var request = request
    guard request.queryValue("key") != nil else { return request.summary }
    request.query = request.query.map { ($0.name, $0.name == "key" ? "***" : $0.value) }
    return request.summary
  }

  /// NCMB's `code` or the three-word service's `error.code`, if the body is an error.
  static func errorCode(_ body: JSONValue?) -> String? {
    guard case .object(let members)? = body else { return nil }
    if case .string(let code)? = members["code"] { return code }
    if case .object(let error)? = members["error"], case .string(let code)? = error["code"] {
      return code
    }
    return nil
  }

  /// The objects of an NCMB `{"results": […]}` body.
  static func ncmbResults(_ body: JSONValue?, field: String) -> [NCMBStationPoint] {
    guard case .object(let members)? = body, case .array(let results)? = members["results"]
    else { return [] }
    return results.compactMap { result in
      guard case .object(let object) = result,
        let point = object[field].flatMap({ try? GeoPoint(json: $0) })
      else { return nil }
      var name: String?
      if case .string(let n)? = object["name"] { name = n }
      var id: String?
      if case .string(let i)? = object["objectId"] { id = i }
      return NCMBStationPoint(
        name: name, coordinate: point.coordinate, objectId: id, distanceMeters: nil)
    }
  }

  /// The words and centre of a convert answer, or the suggestions of autosuggest.
  static func threeWordResults(_ body: JSONValue?) -> [SearchResultItem] {
    guard case .object(let members)? = body else { return [] }
    if case .array(let suggestions)? = members["suggestions"] {
      return suggestions.compactMap { suggestion in
        guard case .object(let s) = suggestion, case .string(let words)? = s["words"] else {
          return nil
        }
        return SearchResultItem(id: nil, label: words, coordinate: nil)
      }
    }
    guard case .string(let words)? = members["words"] else { return [] }
    return [
      SearchResultItem(
        id: nil, label: words, coordinate: ThreeWordCheck.coordinate(members["coordinates"]))
    ]
  }
}
