import Geo
import JSON

/// A datastore query shaped like the NCMB Swift SDK's `NCMBQuery`, and the REST request it
/// stands for.
///
/// ```swift
/// var query = DatastoreQuery.getQuery(className: "Station")
/// query.where(field: "geo", nearGeoPoint: point, withinKilometers: 3.0)
/// let result = try datastore.find(query)
/// ```
///
/// ``restJSON`` is the request as NCMB's REST API takes it
/// (`{"where":{"geo":{"$nearSphere":{…},"$maxDistanceInKilometers":3}},"limit":100}`), and
/// ``init(className:restJSON:)`` reads it back, so a logged request can be replayed. As in the
/// SDK, ``limit`` and ``skip`` are checked by the service when the query runs.
public struct DatastoreQuery: Hashable, Sendable {
  /// A distance limit in the unit the caller chose (kept so the JSON round-trips).
  public enum Distance: Hashable, Sendable {
    /// `$maxDistanceInKilometers`: radians = km / 6371.
    case kilometers(Double)
    /// `$maxDistanceInMiles`: radians = mi / 3959.
    case miles(Double)
    /// `$maxDistanceInRadians`.
    case radians(Double)

    /// The central angle in radians (Parse's conversion: km/6371, mi/3959).
    public var radians: Double {
      switch self {
      case .kilometers(let km): km / 6371
      case .miles(let mi): mi / 3959
      case .radians(let r): r
      }
    }

    var jsonKey: String {
      switch self {
      case .kilometers: "$maxDistanceInKilometers"
      case .miles: "$maxDistanceInMiles"
      case .radians: "$maxDistanceInRadians"
      }
    }

    var value: Double {
      switch self {
      case .kilometers(let v), .miles(let v), .radians(let v): v
      }
    }
  }

  /// The geo condition of a query; NCMB allows one.
  public enum GeoConstraint: Hashable, Sendable {
    /// `$nearSphere`, optionally with `$maxDistanceIn…`: nearest first.
    case near(field: String, point: GeoPoint, maxDistance: Distance?)
    /// `$within.$box` with the corners as given (see ``BoxNormalization``).
    case box(field: String, southwest: GeoPoint, northeast: GeoPoint)
  }

  /// A comparison on a plain field: equality or `$gt/$gte/$lt/$lte`.
  public struct FieldConstraint: Hashable, Sendable {
    /// The field compared.
    public let field: String
    /// `$eq` (written as the bare value), `$gt`, `$gte`, `$lt` or `$lte`.
    public let op: String
    /// The value compared with.
    public let value: JSONValue
  }

  /// The class searched.
  public let className: String
  /// The geo condition, if any.
  public private(set) var geoConstraint: GeoConstraint?
  /// The plain-field conditions, all of which must hold.
  public private(set) var fieldConstraints: [FieldConstraint] = []
  /// The most objects returned: NCMB accepts 1…1000; the default is 100.
  public var limit = 100
  /// How many matching objects to pass over first; NCMB accepts ≥ 0.
  public var skip = 0
  /// Sort keys, `-` for descending (`["-createDate"]`); empty means the service's default.
  public var order: [String] = []

  /// An empty query on a class, as `NCMBQuery.getQuery(className:)`.
  public static func getQuery(className: String) -> DatastoreQuery {
    DatastoreQuery(className: className)
  }

  /// An empty query on a class.
  public init(className: String) { self.className = className }

  /// Objects whose `field` is nearest `nearGeoPoint` first (`$nearSphere`).
  public mutating func `where`(field: String, nearGeoPoint point: GeoPoint) {
    geoConstraint = .near(field: field, point: point, maxDistance: nil)
  }

  /// `$nearSphere` within a distance in kilometres.
  public mutating func `where`(
    field: String, nearGeoPoint point: GeoPoint, withinKilometers km: Double
  ) {
    geoConstraint = .near(field: field, point: point, maxDistance: .kilometers(km))
  }

  /// `$nearSphere` within a distance in miles.
  public mutating func `where`(
    field: String, nearGeoPoint point: GeoPoint, withinMiles miles: Double
  ) {
    geoConstraint = .near(field: field, point: point, maxDistance: .miles(miles))
  }

  /// `$nearSphere` within a central angle in radians.
  public mutating func `where`(
    field: String, nearGeoPoint point: GeoPoint, withinRadians radians: Double
  ) {
    geoConstraint = .near(field: field, point: point, maxDistance: .radians(radians))
  }

  /// `$within.$box`: objects whose `field` lies in the box between two corners.
  public mutating func `where`(
    field: String, withinGeoBoxFromSouthwest southwest: GeoPoint, toNortheast northeast: GeoPoint
  ) {
    geoConstraint = .box(field: field, southwest: southwest, northeast: northeast)
  }

  /// Objects whose `field` equals `value`.
  public mutating func `where`(field: String, equalTo value: JSONValue) {
    fieldConstraints.append(FieldConstraint(field: field, op: "$eq", value: value))
  }

  /// Objects whose `field` is greater than `value` (`$gt`), as the SDK's method.
  public mutating func `where`(field: String, greaterThan value: JSONValue) {
    fieldConstraints.append(FieldConstraint(field: field, op: "$gt", value: value))
  }

  /// Objects whose `field` is at least `value` (`$gte`).
  public mutating func `where`(field: String, greaterThanOrEqualTo value: JSONValue) {
    fieldConstraints.append(FieldConstraint(field: field, op: "$gte", value: value))
  }

  /// Objects whose `field` is less than `value` (`$lt`).
  public mutating func `where`(field: String, lessThan value: JSONValue) {
    fieldConstraints.append(FieldConstraint(field: field, op: "$lt", value: value))
  }

  /// Objects whose `field` is at most `value` (`$lte`).
  public mutating func `where`(field: String, lessThanOrEqualTo value: JSONValue) {
    fieldConstraints.append(FieldConstraint(field: field, op: "$lte", value: value))
  }

  /// Objects whose `field` compares with `value` by `op`: `$gt`, `$gte`, `$lt` or `$lte`.
  public mutating func `where`(field: String, comparison op: String, _ value: JSONValue)
    throws(NCMBError)
  {
    guard ["$gt", "$gte", "$lt", "$lte"].contains(op) else { throw .invalidFormat("where") }
    fieldConstraints.append(FieldConstraint(field: field, op: op, value: value))
  }
}

// MARK: - REST JSON

extension DatastoreQuery {
  /// The `where` parameter of the REST request.
  public var whereJSON: JSONValue {
    var members: [String: JSONValue] = [:]
    for constraint in fieldConstraints {
      if constraint.op == "$eq" {
        members[constraint.field] = constraint.value
      } else {
        var ops: [String: JSONValue] = [:]
        if case .object(let existing)? = members[constraint.field] { ops = existing }
        ops[constraint.op] = constraint.value
        members[constraint.field] = .object(ops)
      }
    }
    switch geoConstraint {
    case .near(let field, let point, let maxDistance)?:
      var ops: [String: JSONValue] = ["$nearSphere": point.json]
      if let maxDistance { ops[maxDistance.jsonKey] = .number(maxDistance.value) }
      members[field] = .object(ops)
    case .box(let field, let southwest, let northeast)?:
      members[field] = .object([
        "$within": .object(["$box": .array([southwest.json, northeast.json])])
      ])
    case nil:
      break
    }
    return .object(members)
  }

  /// The whole request: `where`, `limit`, `skip` and `order` (when not the defaults).
  public var restJSON: JSONValue {
    var members: [String: JSONValue] = ["where": whereJSON, "limit": .number(Double(limit))]
    if skip != 0 { members["skip"] = .number(Double(skip)) }
    if !order.isEmpty { members["order"] = .string(order.joined(separator: ",")) }
    return .object(members)
  }

  /// Reads a REST request back (`where`, `limit`, `skip`, `order`; `count` is ignored, as it
  /// selects the operation rather than the objects).
  ///
  /// Throws the service's errors: E400001 for JSON that is not an object, E400002 for a
  /// parameter of the wrong type, E400004 for an unknown operator, E403006 for a bad
  /// GeoPoint. Range checks on `limit` and `skip` happen when the query runs.
  public init(className: String, restJSON json: JSONValue) throws(NCMBError) {
    self.init(className: className)
    guard case .object(let members) = json else { throw .invalidJSON }
    if let limit = members["limit"] {
      guard case .number(let n) = limit, n == n.rounded(), abs(n) < 1e15 else {
        throw .invalidType("limit")
      }
      self.limit = Int(n)
    }
    if let skip = members["skip"] {
      guard case .number(let n) = skip, n == n.rounded(), abs(n) < 1e15 else {
        throw .invalidType("skip")
      }
      self.skip = Int(n)
    }
    if let order = members["order"] {
      guard case .string(let s) = order else { throw .invalidType("order") }
      self.order = s.split(separator: ",").map(String.init)
    }
    guard let conditions = members["where"] else { return }
    guard case .object(let fields) = conditions else { throw .invalidType("where") }
    for (field, condition) in fields.sorted(by: { $0.key < $1.key }) {
      try read(field: field, condition: condition)
    }
  }

  private mutating func read(field: String, condition: JSONValue) throws(NCMBError) {
    guard case .object(let ops) = condition, !GeoPoint.isTagged(condition),
      ops.keys.contains(where: { $0.hasPrefix("$") })
    else {
      self.where(field: field, equalTo: condition)
      return
    }
    if let near = ops["$nearSphere"] {
      let point = try GeoPoint(json: near)
      let units: [(String, (Double) -> Distance)] = [
        ("$maxDistanceInKilometers", Distance.kilometers),
        ("$maxDistanceInMiles", Distance.miles), ("$maxDistanceInRadians", Distance.radians),
        ("$maxDistance", Distance.radians),
      ]
      var maxDistance: Distance?
      for (key, make) in units {
        guard let value = ops[key] else { continue }
        guard case .number(let n) = value else { throw .invalidType(key) }
        maxDistance = make(n)
      }
      geoConstraint = .near(field: field, point: point, maxDistance: maxDistance)
      return
    }
    if let within = ops["$within"] {
      guard case .object(let shape) = within, case .array(let corners)? = shape["$box"],
        corners.count == 2
      else { throw .invalidFormat("$within") }
      geoConstraint = .box(
        field: field, southwest: try GeoPoint(json: corners[0]),
        northeast: try GeoPoint(json: corners[1]))
      return
    }
    for (op, value) in ops.sorted(by: { $0.key < $1.key }) {
      if op == "$eq" {
        self.where(field: field, equalTo: value)
      } else {
        try self.where(field: field, comparison: op, value)
      }
    }
  }
}
