import Cloud
import Foundation
import Geo
import JSON
import Replay
import SimKernel

/// Reads the searches out of an event log and analyses each one.
struct SearchLogReader {
  let input: ReportInput
  let resources: ReplayResources

  /// A request seen in the log, with its answer once found.
  private struct Exchange {
    var networkID: Int?
    var service: String
    var sentAt: SimTime
    var request: String
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

  func records() -> [SearchRequestRecord] {
    var exchanges: [Exchange] = []
    var byNetworkID: [Int: Int] = [:]
    var pendingGeocode: Int?
    var offlineWindows: [(from: SimTime, to: SimTime?)] = []
    var ncmbQueries: [LogEntry] = []
    for entry in input.events {
      switch (entry.source, entry.event) {
      case ("network", "offline"):
        offlineWindows.append((entry.time, nil))
      case ("network", "online"):
        if let last = offlineWindows.indices.last, offlineWindows[last].to == nil {
          offlineWindows[last].to = entry.time
        }
      case ("network", "request"):
        guard case .string(let service)? = entry["service"], Self.searchServices.contains(service),
          let id = Self.int(entry["id"])
        else { continue }
        var request = ""
        if case .string(let text)? = entry["request"] { request = text }
        byNetworkID[id] = exchanges.count
        exchanges.append(
          Exchange(networkID: id, service: service, sentAt: entry.time, request: request))
      case ("network", "response"):
        guard let id = Self.int(entry["id"]), let index = byNetworkID[id] else { continue }
        var exchange = exchanges[index]
        exchange.answeredAt = entry.time
        exchange.latency = SearchLatency(
          totalSeconds: Self.double(entry["totalSeconds"]) ?? 0,
          networkSeconds: Self.double(entry["networkSeconds"]),
          serviceSeconds: Self.double(entry["serviceSeconds"]))
        exchange.status = Self.int(entry["status"])
        if case .string(let text)? = entry["body"] {
          exchange.body = try? JSONValue(parsing: Data(text.utf8))
        }
        if case .string(let failure)? = entry["failure"] { exchange.failure = failure }
        exchanges[index] = exchange
      case ("ncmb", "query"):
        ncmbQueries.append(entry)
      case ("geocoder", "request"):
        var kind = "reverse"
        if case .string(let k)? = entry["kind"] { kind = k }
        var exchange = Exchange(
          networkID: nil, service: "geocoder", sentAt: entry.time, request: kind)
        exchange.geocodeKind = kind
        if let lat = Self.double(entry["latitude"]), let lon = Self.double(entry["longitude"]) {
          exchange.geocodePoint = try? Coordinate(latitude: lat, longitude: lon)
          exchange.request = "\(kind) \(JSONText.number(lat)),\(JSONText.number(lon))"
        } else if case .string(let text)? = entry["text"] {
          var quoted = ""
          JSONText.writeString(text, to: &quoted)
          exchange.request = "\(kind) \(quoted)"
        }
        pendingGeocode = exchanges.count
        exchanges.append(exchange)
      case ("geocoder", "reply"), ("geocoder", "failure"):
        guard let index = pendingGeocode else { continue }
        pendingGeocode = nil
        var exchange = exchanges[index]
        exchange.answeredAt = entry.time
        exchange.latency = SearchLatency(
          totalSeconds: (entry.time - exchange.sentAt).seconds, networkSeconds: nil,
          serviceSeconds: nil)
        if entry.event == "reply" {
          var name: String?
          if case .string(let n)? = entry["name"] { name = n }
          exchange.geocodeResult = (Self.int(entry["count"]) ?? 0, name)
        } else {
          if case .string(let code)? = entry["error"] { exchange.failure = code }
          if case .string(let reason)? = entry["reason"] { exchange.geocodeReason = reason }
        }
        exchanges[index] = exchange
      default:
        continue
      }
    }

    let offline: (SimTime) -> Bool = { time in
      offlineWindows.contains { $0.from <= time && $0.to.map { time < $0 } ?? true }
    }
    var usedQueries = Set<Int>()
    var threeWords: (service: ThreeWordAddressService?, note: String?)?
    return exchanges.map { exchange in
      var anomalies = Set<SearchAnomaly>()
      if offline(exchange.sentAt) || exchange.failure == "notConnectedToInternet" {
        anomalies.insert(.offline)
      }
      if exchange.failure == "timedOut" { anomalies.insert(.timedOut) }
      if let status = exchange.status, status >= 500 { anomalies.insert(.serverError) }
      if exchange.answeredAt == nil { anomalies.insert(.unanswered) }
      let errorCode = Self.errorCode(exchange.body)
      if errorCode != nil { anomalies.insert(.serviceError) }

      var kind: SearchKind
      var results: [SearchResultItem] = []
      var ncmb: NCMBSearchAnalysis?
      var check: ThreeWordCheck?
      var points: [Coordinate] = []
      switch exchange.service {
      case "ncmb":
        kind = .ncmbOther
        let (path, query) = Self.split(exchange.request)
        let parts = path.split(separator: "/").map(String.init)
        let query1 = Dictionary(query, uniquingKeysWith: { first, _ in first })
        var datastoreQuery: DatastoreQuery?
        if parts.count == 3, parts[1] == "classes" {
          var rest: [String: JSONValue] = [:]
          if let text = query1["where"], let value = try? JSONValue(parsing: Data(text.utf8)) {
            rest["where"] = value
          }
          for name in ["limit", "skip"] {
            if let n = query1[name].flatMap({ Int($0) }) { rest[name] = .number(Double(n)) }
          }
          datastoreQuery = try? DatastoreQuery(className: parts[2], restJSON: .object(rest))
        }
        if let q = datastoreQuery, let constraint = q.geoConstraint {
          let field: String
          switch constraint {
          case .near(let f, let point, _):
            kind = .ncmbNear
            field = f
            points = [point.coordinate]
          case .box(let f, let sw, let ne):
            kind = .ncmbBox
            field = f
            points = [sw.coordinate, ne.coordinate]
          }
          let returned = Self.ncmbResults(exchange.body, field: field)
          results = returned.map {
            SearchResultItem(id: $0.objectId, label: $0.name, coordinate: $0.coordinate)
          }
          var count: Int?
          if exchange.status != nil, let answered = exchange.answeredAt {
            let whereValue = query1["where"].flatMap { try? JSONValue(parsing: Data($0.utf8)) }
            if let i = ncmbQueries.indices.first(where: { i in
              let e = ncmbQueries[i]
              guard !usedQueries.contains(i), e.time >= exchange.sentAt, e.time <= answered,
                case .string(let className)? = e["className"], className == q.className,
                case .string(let text)? = e["where"]
              else { return false }
              return (try? JSONValue(parsing: Data(text.utf8))) == whereValue
            }) {
              usedQueries.insert(i)
              count = Self.int(ncmbQueries[i]["count"])
            }
          }
          let answered = exchange.status == 200 && errorCode == nil
          let analysis = NCMBSearchAnalysis(
            query: q, returned: answered ? returned : [], answered: answered,
            stations: stations(className: q.className, field: field), datastoreCount: count)
          // An unanswered or failed request is not compared with the truth.
          if answered {
            anomalies.formUnion(analysis.anomalies)
          } else if analysis.swappedLatitudes || analysis.swappedLongitudes {
            anomalies.insert(.invertedBox)
          }
          ncmb = analysis
        } else {
          results = Self.ncmbResults(exchange.body, field: "geo").map {
            SearchResultItem(id: $0.objectId, label: $0.name, coordinate: $0.coordinate)
          }
        }
      case "threewords":
        let (path, query) = Self.split(exchange.request)
        let query1 = Dictionary(query, uniquingKeysWith: { first, _ in first })
        switch path.split(separator: "/").last.map(String.init) ?? "" {
        case "convert-to-3wa": kind = .threeWordsToWords
        case "convert-to-coordinates": kind = .threeWordsToCoordinates
        case "autosuggest": kind = .threeWordsAutosuggest
        default: kind = .threeWordsOther
        }
        for name in ["coordinates", "focus"] {
          let n = (query1[name] ?? "").split(separator: ",").compactMap { Double($0) }
          if n.count == 2, let c = try? Coordinate(latitude: n[0], longitude: n[1]) {
            points.append(c)
          }
        }
        results = Self.threeWordResults(exchange.body)
        if kind != .threeWordsOther {
          if threeWords == nil, exchange.status == 200 {
            do {
              threeWords = (
                ThreeWordAddressService(languages: try resources.threeWordLanguages()), nil
              )
            } catch {
              threeWords = (nil, "the word lists could not be loaded: \(error)")
            }
          }
          let result = ThreeWordCheck(
            kind: kind, query: query1, status: exchange.status, body: exchange.body,
            service: threeWords?.service, unavailable: threeWords?.note)
          if result.failed { anomalies.insert(.wrongSquare) }
          check = result
        }
      default:
        kind = exchange.geocodeKind == "forward" ? .geocodeForward : .geocodeReverse
        if let point = exchange.geocodePoint { points.append(point) }
        if let result = exchange.geocodeResult {
          results =
            result.name.map { [SearchResultItem(id: nil, label: $0, coordinate: nil)] } ?? []
          if result.count > results.count {
            results += Array(
              repeating: SearchResultItem(id: nil, label: nil, coordinate: nil),
              count: result.count - results.count)
          }
        }
        if exchange.failure != nil {
          anomalies.insert(.serviceError)
          if exchange.geocodeReason?.contains("Airplane mode") == true {
            anomalies.insert(.offline)
          }
        }
      }
      if points.contains(where: { abs($0.latitude) <= 0.01 && abs($0.longitude) <= 0.01 }) {
        anomalies.insert(.nearNullIsland)
      }
      return SearchRequestRecord(
        networkID: exchange.networkID, service: exchange.service, kind: kind,
        sentAt: exchange.sentAt, answeredAt: exchange.answeredAt,
        request: Self.redactingKey(exchange.request),
        latency: exchange.latency, status: exchange.status, failure: exchange.failure,
        errorCode: errorCode, results: results, ncmb: ncmb, threeWords: check,
        anomalies: anomalies.sorted())
    }
  }

  /// The stations loaded into `className` with their GeoPoint in `field`, or `nil` when the
  /// datasets mix classes and a file can no longer be read to tell them apart.
  ///
  /// A scenario without datasets (a constructed input) puts its stations in `Station.geo`,
  /// the datasets' default.
  func stations(className: String, field: String) -> [StationRecord]? {
    let datasets = input.scenario.datasets
    if datasets.isEmpty {
      return className == "Station" && field == "geo" ? input.stations : []
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

  // MARK: Reading values

  static func int(_ value: LogValue?) -> Int? {
    switch value {
    case .int(let n)?: Int(n)
    case .double(let d)? where d == d.rounded() && abs(d) < 1e15: Int(d)
    default: nil
    }
  }

  static func double(_ value: LogValue?) -> Double? {
    switch value {
    case .int(let n)?: Double(n)
    case .double(let d)?: d
    default: nil
    }
  }

  /// `GET /path?a=1&b=2` → the path and the query parameters, in order. The log writes values
  /// unencoded, so an `&` belongs to the value before it unless a `name=` follows.
  static func split(_ summary: String) -> (path: String, query: [(String, String)]) {
    var rest = Substring(summary)
    if let space = rest.firstIndex(of: " ") { rest = rest[rest.index(after: space)...] }
    guard let mark = rest.firstIndex(of: "?") else { return (String(rest), []) }
    let path = String(rest[..<mark])
    var query: [(String, String)] = []
    for piece in rest[rest.index(after: mark)...].split(
      separator: "&", omittingEmptySubsequences: false)
    {
      if let equals = piece.firstIndex(of: "="),
        !piece[..<equals].isEmpty,
        piece[..<equals].allSatisfy({ $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" })
      {
        query.append((String(piece[..<equals]), String(piece[piece.index(after: equals)...])))
      } else if let last = query.indices.last {
        query[last].1 += "&" + piece
      }
    }
    return (path, query)
  }

  /// The summary with the value of a `key` parameter (an API key) replaced by `***`, so that
  /// reports do not copy credentials.
  static func redactingKey(_ summary: String) -> String {
    let (path, query) = split(summary)
    guard query.contains(where: { $0.0 == "key" }) else { return summary }
    let method = summary.split(separator: " ", maxSplits: 1).first.map(String.init) ?? "GET"
    let parameters = query.map { "\($0.0)=\($0.0 == "key" ? "***" : $0.1)" }
    return "\(method) \(path)?" + parameters.joined(separator: "&")
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
