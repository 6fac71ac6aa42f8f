import Cloud
import Foundation
import Geo
import JSON
import Referee

/// A station in an NCMB search's comparison: returned by the service, or a true match.
public struct NCMBStationPoint: Hashable, Sendable {
  /// The object's `name` field (the station's name), if it has one.
  public let name: String?
  /// Where it is.
  public let coordinate: Coordinate
  /// NCMB's `objectId`, for returned objects (true matches come from the dataset and have none).
  public let objectId: String?
  /// For near queries, the geodesic (WGS84) distance from the query's centre in metres.
  public let distanceMeters: Double?

  /// A point from its parts.
  public init(name: String?, coordinate: Coordinate, objectId: String?, distanceMeters: Double?) {
    self.name = name
    self.coordinate = coordinate
    self.objectId = objectId
    self.distanceMeters = distanceMeters
  }
}

/// A station inside the requested distance by one measure and outside by the other: NCMB
/// converts distances to a central angle on a 6,371 km sphere, the truth is the WGS84 geodesic.
public struct NCMBBoundaryCase: Hashable, Sendable {
  /// The station's name.
  public let name: String
  /// Where it is.
  public let coordinate: Coordinate
  /// The geodesic distance from the centre, in metres.
  public let geodesicMeters: Double
  /// The great-circle distance on NCMB's 6,371 km sphere, in metres.
  public let sphericalMeters: Double
  /// Whether the geodesic distance is within the requested distance (in metres).
  public let withinGeodesic: Bool
  /// Whether NCMB's spherical test admits it (central angle within the requested one).
  public let withinSpherical: Bool
}

/// One NCMB geo query compared with the true result set, computed from the scenario's stations
/// without the datastore.
///
/// The truth: for a near query, every station of the class whose geodesic (WGS84) distance
/// from the centre is at most the requested distance (kilometres × 1000, miles × 1609.344,
/// radians × 6,371 km), nearest first; without a distance, every station. For a box, every
/// station inside ``boxMeant`` (edges included): the box spanned by the two corners whatever
/// their order — latitudes from the smaller to the larger, longitudes the short way round
/// (a span over 180° means the corners were swapped; a box across the antimeridian stays one),
/// as the referee's `NCMBBox` states it (apart from the datastore's own code). ``swappedLatitudes`` and ``swappedLongitudes`` say
/// whether the corners as sent were inverted.
///
/// This is also what an SVG map needs: the circle or the box as sent and as meant, the
/// returned points, the true points, and the missed and extra ones.
public struct NCMBSearchAnalysis: Sendable {
  /// The class searched.
  public let className: String
  /// The GeoPoint field searched.
  public let field: String
  /// The request's `limit` (NCMB's default 100 when not sent).
  public let limit: Int
  /// The request's `skip`.
  public let skip: Int
  /// Near queries: the centre.
  public let centre: Coordinate?
  /// Near queries: the distance limit as requested, if any.
  public let maxDistance: DatastoreQuery.Distance?
  /// Near queries: the requested distance in metres (see above), if any.
  public let radiusMeters: Double?
  /// Box queries: the first corner as sent (the "southwest" one).
  public let southwestAsSent: Coordinate?
  /// Box queries: the second corner as sent (the "northeast" one).
  public let northeastAsSent: Coordinate?
  /// Box queries: the box the user meant (see above).
  public let boxMeant: CoordinateBounds?
  /// Box queries: "southwest" was north of "northeast".
  public let swappedLatitudes: Bool
  /// Box queries: the eastward span from "southwest" to "northeast" exceeded 180°.
  public let swappedLongitudes: Bool
  /// What the service returned, in its order.
  public let returned: [NCMBStationPoint]
  /// Whether each returned point is a true match (parallel to ``returned``).
  public let returnedIsTrue: [Bool]
  /// The true matches (near: nearest first), or `nil` when they could not be computed
  /// (``truthNote`` says why).
  public let truth: [NCMBStationPoint]?
  /// Whether each true match was returned (parallel to ``truth``; empty without a truth).
  public let truthReturned: [Bool]
  /// Why ``truth`` is `nil`.
  public let truthNote: String?
  /// True matches that should have been in the page and were not returned: for near queries
  /// the true matches ranked `skip ..< skip + limit`; for boxes (whose page order is the
  /// service's) every true match not returned.
  public let missed: [NCMBStationPoint]
  /// Returned objects that are not true matches.
  public let extra: [NCMBStationPoint]
  /// Returned true matches over all true matches (`nil` when there are none).
  public let recall: Double?
  /// Returned true matches over the most the page could hold, `min(limit, truth − skip)`
  /// (`nil` when that is 0).
  public let recallWithinLimit: Double?
  /// Returned true matches over returned objects (`nil` when nothing was returned).
  public let precision: Double?
  /// True matches beyond `skip + limit`.
  public let lostToLimit: Int
  /// Near queries: the names of the true matches ranked past `skip + limit`.
  public let lostToLimitNames: [String]
  /// Near queries: pairs of returned objects (i before j) with j truly nearer than i.
  public let orderingInversions: Int
  /// Near queries with a distance: stations on which the spherical and geodesic tests
  /// disagree.
  public let boundaryDisagreements: [NCMBBoundaryCase]
  /// The datastore's own `count` of matches from its query log, when the entry was found.
  public let datastoreCount: Int?

  /// Whether the query was a near query.
  public var isNear: Bool { centre != nil }
}

extension NCMBSearchAnalysis {
  /// Metres in a statute mile.
  static let metresPerMile = 1_609.344

  /// The requested distance in metres.
  static func metres(_ distance: DatastoreQuery.Distance) -> Double {
    switch distance {
    case .kilometers(let km): max(0, km) * 1000
    case .miles(let miles): max(0, miles) * metresPerMile
    case .radians(let r): max(0, r) * NCMBSphere.radius
    }
  }

  /// The central angle NCMB tests the requested distance as (``NCMBSphere``).
  static func centralAngle(_ distance: DatastoreQuery.Distance) -> Double {
    switch distance {
    case .kilometers(let km): max(0, NCMBSphere.radians(kilometers: km))
    case .miles(let miles): max(0, NCMBSphere.radians(miles: miles))
    case .radians(let r): max(0, r)
    }
  }

  /// Compares one query's returned objects with the truth among `stations` (`nil`: the class's
  /// stations are unknown). Without an answer (`answered` false) the truth is still computed,
  /// but nothing is compared with it.
  init(
    query: DatastoreQuery, returned: [NCMBStationPoint], answered: Bool,
    stations: [StationRecord]?, datastoreCount: Int?
  ) {
    className = query.className
    limit = query.limit
    skip = query.skip
    self.datastoreCount = datastoreCount
    var centre: Coordinate?
    var maxDistance: DatastoreQuery.Distance?
    var box: NCMBBox?
    var southwest: Coordinate?
    var northeast: Coordinate?
    var swapped = (false, false)
    var field = "geo"
    switch query.geoConstraint {
    case .near(let f, let point, let distance)?:
      field = f
      centre = point.coordinate
      maxDistance = distance
    case .box(let f, let sw, let ne)?:
      field = f
      southwest = sw.coordinate
      northeast = ne.coordinate
      let meant = NCMBBox(
        southwestLatitude: sw.latitude, southwestLongitude: sw.longitude,
        northeastLatitude: ne.latitude, northeastLongitude: ne.longitude)
      box = meant
      swapped = (meant.swappedLatitudes, meant.swappedLongitudes)
    case nil:
      break
    }
    self.field = field
    self.centre = centre
    self.maxDistance = maxDistance
    radiusMeters = maxDistance.map(Self.metres)
    southwestAsSent = southwest
    northeastAsSent = northeast
    boxMeant = box?.bounds
    swappedLatitudes = swapped.0
    swappedLongitudes = swapped.1

    let geodesic = Geodesic.wgs84
    let distance: (Coordinate) -> Double? = { point in
      centre.map { geodesic.inverse(from: $0, to: point).distance }
    }
    let returnedPoints = returned.map {
      NCMBStationPoint(
        name: $0.name, coordinate: $0.coordinate, objectId: $0.objectId,
        distanceMeters: distance($0.coordinate))
    }
    self.returned = returnedPoints

    var inversions = 0
    if centre != nil {
      let d = returnedPoints.map { $0.distanceMeters ?? 0 }
      for i in d.indices {
        for j in d.indices where j > i && d[i] > d[j] { inversions += 1 }
      }
    }
    orderingInversions = inversions

    // The truth.
    var note: String?
    var candidates: [StationRecord]? = stations
    if stations == nil {
      note = "the stations of class \(query.className) are not known"
    } else if query.geoConstraint == nil {
      note = "the query has no geo condition"
      candidates = nil
    } else if let unsupported = query.fieldConstraints.first(where: { $0.op != "$eq" }) {
      note = "the condition \(unsupported.op) on \(unsupported.field) is not re-evaluated"
      candidates = nil
    }
    guard let candidates else {
      truth = nil
      truthNote = note
      truthReturned = []
      returnedIsTrue = Array(repeating: false, count: returnedPoints.count)
      missed = []
      extra = []
      recall = nil
      recallWithinLimit = nil
      precision = nil
      lostToLimit = 0
      lostToLimitNames = []
      boundaryDisagreements = []
      return
    }
    truthNote = nil
    let equalities = query.fieldConstraints
    let filtered = candidates.filter { station in
      equalities.allSatisfy { constraint in
        let value: JSONValue? =
          constraint.field == "name" ? .string(station.name) : station.extra[constraint.field]
        return value == constraint.value
      }
    }
    var truePoints: [NCMBStationPoint] = []
    var boundary: [NCMBBoundaryCase] = []
    if let centre {
      let radius = radiusMeters
      let angle = maxDistance.map(Self.centralAngle)
      for station in filtered {
        let point = station.point.coordinate
        let metres = geodesic.inverse(from: centre, to: point).distance
        let inside = radius.map { metres <= $0 } ?? true
        if let radius, let angle {
          let spherical = NCMBSphere.distance(from: centre, to: point)
          let insideSphere = NCMBSphere.contains(point, within: angle, of: centre)
          if insideSphere != inside {
            boundary.append(
              NCMBBoundaryCase(
                name: station.name, coordinate: point, geodesicMeters: metres,
                sphericalMeters: spherical, withinGeodesic: metres <= radius,
                withinSpherical: insideSphere))
          }
        }
        if inside {
          truePoints.append(
            NCMBStationPoint(
              name: station.name, coordinate: point, objectId: nil, distanceMeters: metres))
        }
      }
      truePoints = truePoints.enumerated().sorted { a, b in
        let (x, y) = (a.element.distanceMeters!, b.element.distanceMeters!)
        return x != y ? x < y : a.offset < b.offset
      }.map(\.element)
    } else if let box {
      for station in filtered where box.contains(station.point.coordinate) {
        truePoints.append(
          NCMBStationPoint(
            name: station.name, coordinate: station.point.coordinate, objectId: nil,
            distanceMeters: nil))
      }
    }
    truth = truePoints
    boundaryDisagreements = boundary

    // Match returned objects with true points: same name and position, each used once.
    var unmatched: [String: [Int]] = [:]
    for (i, point) in truePoints.enumerated() {
      unmatched[Self.key(point), default: []].append(i)
    }
    var isTrue: [Bool] = []
    var found = Set<Int>()
    for point in returnedPoints {
      let key = Self.key(point)
      if var indices = unmatched[key], !indices.isEmpty {
        found.insert(indices.removeFirst())
        unmatched[key] = indices
        isTrue.append(true)
      } else {
        isTrue.append(false)
      }
    }
    returnedIsTrue = isTrue
    truthReturned = truePoints.indices.map { found.contains($0) }
    extra = zip(returnedPoints, isTrue).filter { !$0.1 }.map(\.0)
    let total = truePoints.count
    let hits = found.count
    guard answered else {
      recall = nil
      recallWithinLimit = nil
      precision = nil
      missed = []
      lostToLimit = 0
      lostToLimitNames = []
      return
    }
    let pageEnd = min(total, skip + limit)
    lostToLimit = max(0, total - skip - limit)
    if centre != nil {
      let page = skip < pageEnd ? Array(skip..<pageEnd) : []
      missed = page.filter { !found.contains($0) }.map { truePoints[$0] }
      lostToLimitNames = truePoints.dropFirst(skip + limit).map { $0.name ?? "" }
    } else {
      missed = truePoints.indices.filter { !found.contains($0) }.map { truePoints[$0] }
      lostToLimitNames = []
    }
    recall = total == 0 ? nil : Double(hits) / Double(total)
    let capacity = min(limit, max(0, total - skip))
    recallWithinLimit = capacity == 0 ? nil : Double(hits) / Double(capacity)
    precision = returnedPoints.isEmpty ? nil : Double(hits) / Double(returnedPoints.count)
  }

  private static func key(_ point: NCMBStationPoint) -> String {
    "\(point.name ?? "")\u{1F}\(point.coordinate.latitude)\u{1F}\(point.coordinate.longitude)"
  }

  /// The anomalies this comparison shows.
  var anomalies: [SearchAnomaly] {
    var found: [SearchAnomaly] = []
    if swappedLatitudes || swappedLongitudes { found.append(.invertedBox) }
    guard truth != nil else { return found }
    if lostToLimit > 0 { found.append(.lostToLimit) }
    // For boxes the page is the service's choice: a miss counts only beyond what the limit
    // and skip explain.
    if isNear ? !missed.isEmpty : missed.count > lostToLimit + skip {
      found.append(.missedResults)
    }
    if !extra.isEmpty { found.append(.extraResults) }
    if orderingInversions > 0 { found.append(.outOfOrder) }
    if !boundaryDisagreements.isEmpty { found.append(.boundaryDisagreement) }
    return found
  }
}
