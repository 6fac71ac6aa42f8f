import Cloud
import Geo
import JSON
import SimKernel

extension SearchReport {
  /// The report as JSON (schema: docs/REPORTS.md, "Search performance").
  ///
  /// Times and durations are in seconds rounded to the millisecond, distances in metres
  /// rounded to the centimetre and ratios to six decimals, so that `JSONValue.jsonText`
  /// (sorted keys) gives the same bytes for the same run.
  public var json: JSONValue {
    .object([
      "format": .string("geosim-search-report/1"),
      "scenario": .string(scenario),
      "services": .array(summaries.map(\.json)),
      "requests": .array(requests.map(\.json)),
    ])
  }
}

/// Seconds rounded to the millisecond.
private func secondsJSON(_ seconds: Double?) -> JSONValue {
  guard let seconds, seconds.isFinite else { return .null }
  return .number((seconds * 1000).rounded() / 1000)
}

/// Metres rounded to the centimetre.
private func metresJSON(_ metres: Double?) -> JSONValue {
  guard let metres, metres.isFinite else { return .null }
  return .number((metres * 100).rounded() / 100)
}

/// A ratio rounded to six decimals.
private func ratioJSON(_ ratio: Double?) -> JSONValue {
  guard let ratio, ratio.isFinite else { return .null }
  return .number((ratio * 1_000_000).rounded() / 1_000_000)
}

private func optional(_ value: String?) -> JSONValue { value.map(JSONValue.string) ?? .null }
private func optional(_ value: Int?) -> JSONValue { value.map { .number(Double($0)) } ?? .null }
private func optional(_ value: Bool?) -> JSONValue { value.map(JSONValue.bool) ?? .null }

/// `{"latitude", "longitude"}`.
private func coordinateJSON(_ c: Coordinate?) -> JSONValue {
  guard let c else { return .null }
  return .object(["latitude": .number(c.latitude), "longitude": .number(c.longitude)])
}

extension LatencyStatistics {
  fileprivate var json: JSONValue {
    .object([
      "count": .number(Double(count)), "median": secondsJSON(median), "p90": secondsJSON(p90),
      "max": secondsJSON(max),
    ])
  }
}

extension SearchServiceSummary {
  fileprivate var json: JSONValue {
    var counts: [String: JSONValue] = [:]
    for (anomaly, count) in anomalies { counts[anomaly.rawValue] = .number(Double(count)) }
    return .object([
      "service": .string(service),
      "requests": .number(Double(requests)),
      "errors": .number(Double(errors)),
      "errorRate": ratioJSON(errorRate),
      "latency": .object([
        "total": total?.json ?? .null, "network": network?.json ?? .null,
        "service": serviceTime?.json ?? .null,
      ]),
      "meanRecall": ratioJSON(meanRecall),
      "meanPrecision": ratioJSON(meanPrecision),
      "anomalies": .object(counts),
    ])
  }
}

extension SearchRequestRecord {
  fileprivate var json: JSONValue {
    .object([
      "id": optional(networkID),
      "service": .string(service),
      "kind": .string(kind.rawValue),
      "sentAt": secondsJSON(sentAt.seconds),
      "answeredAt": secondsJSON(answeredAt?.seconds),
      "request": .string(request),
      "latency": latency.map {
        .object([
          "total": secondsJSON($0.totalSeconds), "network": secondsJSON($0.networkSeconds),
          "service": secondsJSON($0.serviceSeconds),
        ])
      } ?? .null,
      "status": optional(status),
      "failure": optional(failure),
      "errorCode": optional(errorCode),
      "results": .array(
        results.map {
          .object([
            "id": optional($0.id), "label": optional($0.label),
            "coordinate": coordinateJSON($0.coordinate),
          ])
        }),
      "anomalies": .array(anomalies.map { .string($0.rawValue) }),
      "ncmb": ncmb?.json ?? .null,
      "threeWords": threeWords?.json ?? .null,
    ])
  }
}

extension NCMBStationPoint {
  fileprivate func json(_ extra: [String: JSONValue]) -> JSONValue {
    var members: [String: JSONValue] = [
      "name": optional(name), "latitude": .number(coordinate.latitude),
      "longitude": .number(coordinate.longitude), "distanceMeters": metresJSON(distanceMeters),
      "objectId": optional(objectId),
    ]
    for (key, value) in extra { members[key] = value }
    return .object(members)
  }
}

extension DatastoreQuery.Distance {
  fileprivate var json: JSONValue {
    switch self {
    case .kilometers(let v): .object(["unit": .string("kilometers"), "value": .number(v)])
    case .miles(let v): .object(["unit": .string("miles"), "value": .number(v)])
    case .radians(let v): .object(["unit": .string("radians"), "value": .number(v)])
    }
  }
}

extension NCMBSearchAnalysis {
  fileprivate var json: JSONValue {
    var near: JSONValue = .null
    if let centre {
      near = .object([
        "centre": coordinateJSON(centre), "maxDistance": maxDistance?.json ?? .null,
        "radiusMeters": metresJSON(radiusMeters),
      ])
    }
    var box: JSONValue = .null
    if let boxMeant {
      box = .object([
        "asSent": .object([
          "southwest": coordinateJSON(southwestAsSent),
          "northeast": coordinateJSON(northeastAsSent),
        ]),
        "meant": .object([
          "south": .number(boxMeant.south), "west": .number(boxMeant.west),
          "north": .number(boxMeant.north), "east": .number(boxMeant.east),
          "crossesAntimeridian": .bool(boxMeant.crossesAntimeridian),
        ]),
        "swappedLatitudes": .bool(swappedLatitudes),
        "swappedLongitudes": .bool(swappedLongitudes),
      ])
    }
    return .object([
      "className": .string(className),
      "field": .string(field),
      "limit": .number(Double(limit)),
      "skip": .number(Double(skip)),
      "near": near,
      "box": box,
      "returned": .array(
        zip(returned, returnedIsTrue).map { $0.json(["true": .bool($1)]) }),
      "truth": truth.map { points in
        .array(zip(points, truthReturned).map { $0.json(["returned": .bool($1)]) })
      } ?? .null,
      "truthNote": optional(truthNote),
      "missed": .array(missed.map { $0.json([:]) }),
      "extra": .array(extra.map { $0.json([:]) }),
      "recall": ratioJSON(recall),
      "recallWithinLimit": ratioJSON(recallWithinLimit),
      "precision": ratioJSON(precision),
      "lostToLimit": .number(Double(lostToLimit)),
      "lostToLimitNames": .array(lostToLimitNames.map(JSONValue.string)),
      "orderingInversions": .number(Double(orderingInversions)),
      "boundaryDisagreements": .array(
        boundaryDisagreements.map {
          .object([
            "name": .string($0.name), "latitude": .number($0.coordinate.latitude),
            "longitude": .number($0.coordinate.longitude),
            "geodesicMeters": metresJSON($0.geodesicMeters),
            "sphericalMeters": metresJSON($0.sphericalMeters),
            "withinGeodesic": .bool($0.withinGeodesic),
            "withinSpherical": .bool($0.withinSpherical),
          ])
        }),
      "datastoreCount": optional(datastoreCount),
    ])
  }
}

extension ThreeWordCheck {
  fileprivate var json: JSONValue {
    .object([
      "requestedPoint": coordinateJSON(requestedPoint),
      "requestedWords": optional(requestedWords),
      "returnedWords": optional(returnedWords),
      "returnedCoordinate": coordinateJSON(returnedCoordinate),
      "squareContainsPoint": optional(squareContainsPoint),
      "decodedMatchesResponse": optional(decodedMatchesResponse),
      "suggestionCount": optional(suggestionCount),
      "intendedWords": optional(intendedWords),
      "topIsIntended": optional(topIsIntended),
      "note": optional(note),
    ])
  }
}
