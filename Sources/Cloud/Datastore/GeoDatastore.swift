import Foundation
import Geo
import JSON
import SimKernel

/// The answer to ``GeoDatastore/find(_:)``: the objects (capped by `limit`), the total count
/// of matches, and how an inverted box was read.
public struct DatastoreResult: Hashable, Sendable {
  /// The matching objects after `skip` and `limit`, in the query's order.
  public let objects: [DatastoreObject]
  /// Every matching object, regardless of `skip` and `limit` (NCMB's `count`).
  public let count: Int
  /// For box queries, which corner corrections were applied (see ``BoxNormalization``).
  public let boxNormalization: BoxNormalization?
}

/// An offline stand-in for the NCMB datastore (shut down on 2024-03-31): classes of objects
/// with JSON fields and GeoPoints, and the SDK's geo queries, with NCMB's errors.
///
/// Object ids come from a seeded generator, and dates from the simulation's clock (or
/// `SimTime.zero` without one), so a world replays identically. Each GeoPoint field that a
/// query names gets a ``SpatialBackend``, rebuilt lazily after the class changes. When a
/// `Simulation` is attached, every query is logged as source `"ncmb"`, event `"query"`, with
/// the REST `where` JSON, the counts and an `invertedBox` flag.
///
/// A datastore belongs to one world and one thread, like the `Simulation` it reads.
public final class GeoDatastore {
  /// The sphere's radius in metres: 6,371 km, Parse's and NCMB's `km / 6371` conversion.
  public static let earthRadius = 6_371_000.0

  /// The backend kind used for GeoPoint fields; changing it drops the built indexes, which
  /// the next query rebuilds with the new kind (so one dataset can be timed on each).
  public var backendKind: SpatialBackendKind {
    didSet { for store in classes.values { store.indexes = [:] } }
  }
  /// The wall-clock date of `SimTime.zero`, for the REST dates.
  public let epoch: Date
  private let simulation: Simulation?
  private var random: SplitMix64
  private var classes: [String: ClassStore] = [:]

  /// An empty datastore.
  ///
  /// - Parameters:
  ///   - seed: fixes the sequence of object ids.
  ///   - backend: the spatial index for GeoPoint fields; GEOS's STRtree by default.
  ///   - simulation: the world whose clock dates objects and whose log records queries.
  public init(
    seed: UInt64 = 0, backend: SpatialBackendKind = .inMemory, simulation: Simulation? = nil
  ) {
    self.backendKind = backend
    self.simulation = simulation
    self.epoch = simulation?.epoch ?? Date(timeIntervalSince1970: 0)
    self.random = SplitMix64(seed: seed)
  }

  private var now: SimTime { simulation?.now ?? .zero }

  // MARK: Objects

  /// Creates an object; throws E403006 for a bad GeoPoint, E400002 for a reserved field name.
  @discardableResult
  public func create(className: String, fields: [String: JSONValue]) throws(NCMBError)
    -> DatastoreObject
  {
    try GeoDatastore.validate(fields)
    let store = self.store(className)
    var id = nextObjectId()
    while store.slots[id] != nil { id = nextObjectId() }
    let object = DatastoreObject(
      className: className, objectId: id, createDate: now, updateDate: now, fields: fields)
    store.slots[id] = store.objects.count
    store.objects.append(object)
    store.version += 1
    return object
  }

  /// Merges `fields` into an object (a JSON `null` deletes a field); E404001 if it is absent.
  @discardableResult
  public func update(className: String, objectId: String, fields: [String: JSONValue])
    throws(NCMBError) -> DatastoreObject
  {
    try GeoDatastore.validate(fields)
    guard let store = classes[className], let slot = store.slots[objectId],
      var object = store.objects[slot]
    else { throw .noData }
    for (name, value) in fields { object.fields[name] = value == .null ? nil : value }
    object.updateDate = now
    store.objects[slot] = object
    store.version += 1
    return object
  }

  /// Deletes an object; E404001 if it is absent.
  public func delete(className: String, objectId: String) throws(NCMBError) {
    guard let store = classes[className], let slot = store.slots[objectId] else {
      throw .noData
    }
    store.objects[slot] = nil
    store.slots[objectId] = nil
    store.version += 1
  }

  /// The object with the given id; E404001 if it is absent.
  public func get(className: String, objectId: String) throws(NCMBError) -> DatastoreObject {
    guard let store = classes[className], let slot = store.slots[objectId],
      let object = store.objects[slot]
    else { throw .noData }
    return object
  }

  /// Builds (or brings up to date) the index of a GeoPoint field now rather than at the next
  /// query.
  ///
  /// A query whose backend fails answers NCMB's E500001, as the service would; this throws
  /// the backend's own error instead, such as a ``CloudError`` with code
  /// ``CloudErrorCode/database`` naming the database and what was expected, so that a server
  /// that cannot be reached is reported before anything runs.
  public func prepareIndex(className: String, field: String) throws {
    _ = try classes[className]?.index(field, kind: backendKind)
  }

  /// The number of objects in a class.
  public func objectCount(className: String) -> Int { classes[className]?.slots.count ?? 0 }

  private static func validate(_ fields: [String: JSONValue]) throws(NCMBError) {
    for (name, value) in fields {
      if DatastoreObject.reservedFields.contains(name) { throw .invalidType(name) }
      if GeoPoint.isTagged(value) { _ = try GeoPoint(json: value) }
    }
  }

  private func store(_ className: String) -> ClassStore {
    if let store = classes[className] { return store }
    let store = ClassStore(className: className)
    classes[className] = store
    return store
  }

  /// 16 characters from [0-9A-Za-z], like NCMB's ids, from the seeded generator.
  private func nextObjectId() -> String {
    let alphabet = Array("0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz")
    var id = ""
    for _ in 0..<16 { id.append(alphabet[Int(random.next() % 62)]) }
    return id
  }

  // MARK: Queries

  /// Runs a query as `NCMBQuery.find`: matching objects after `skip`, at most `limit`, with
  /// the total in ``DatastoreResult/count``.
  ///
  /// Near queries return nearest first, box and plain queries newest first (by createDate),
  /// unless ``DatastoreQuery/order`` is set, which takes precedence (as in Parse). Throws
  /// E400005 for a limit outside 1…1000 or a negative skip.
  public func find(_ query: DatastoreQuery) throws(NCMBError) -> DatastoreResult {
    guard (1...1000).contains(query.limit) else { throw .notValidValue("limit") }
    guard query.skip >= 0 else { throw .notValidValue("skip") }
    let (matches, normalization) = try match(query)
    let page = matches.dropFirst(query.skip).prefix(query.limit)
    let store = classes[query.className]
    let objects = page.map { store!.objects[$0]! }
    if let simulation {
      simulation.log.record(
        DatastoreEvent.query(
          className: query.className, where: query.whereJSON, limit: query.limit,
          skip: query.skip, count: matches.count, returned: objects.count,
          invertedBox: normalization?.isInverted ?? false),
        at: simulation.now)
    }
    return DatastoreResult(
      objects: objects, count: matches.count, boxNormalization: normalization)
  }

  /// The number of matches, as `NCMBQuery.count`.
  public func count(_ query: DatastoreQuery) throws(NCMBError) -> Int {
    try find(query).count
  }

  /// The REST response: `{"results":[…]}`, plus `"count"` when asked, or the error body.
  public func respond(className: String, restJSON: JSONValue, withCount: Bool = false)
    -> JSONValue
  {
    do {
      let result = try find(DatastoreQuery(className: className, restJSON: restJSON))
      var body: [String: JSONValue] = [
        "results": .array(result.objects.map { $0.json(epoch: epoch) })
      ]
      if withCount { body["count"] = .number(Double(result.count)) }
      return .object(body)
    } catch {
      return error.body
    }
  }

  /// The slots of every match, in result order, before skip and limit.
  private func match(_ query: DatastoreQuery) throws(NCMBError) -> ([Int], BoxNormalization?) {
    guard let store = classes[query.className] else { return ([], nil) }
    let filter = query.fieldConstraints
    func passes(_ slot: Int) -> Bool {
      let object = store.objects[slot]!
      return filter.allSatisfy { FieldComparison.holds($0, object.fields[$0.field]) }
    }
    var slots: [Int]
    var normalization: BoxNormalization?
    var byDistance = false
    do {
      switch query.geoConstraint {
      case .near(let field, let point, let maxDistance)?:
        let index = try store.index(field, kind: backendKind)
        let hits: [SpatialHit]
        if let maxDistance {
          hits = try index.backend.within(
            distance: max(0, maxDistance.radians) * GeoDatastore.earthRadius,
            of: point.coordinate)
        } else if filter.isEmpty && query.order.isEmpty {
          // Without other conditions only the first skip + limit can be returned; the
          // total is every object with the field.
          let k = query.skip + query.limit
          let nearest = index.rows.isEmpty ? [] : try index.backend.nearest(k, to: point.coordinate)
          let firstRows = nearest.map { index.rows[$0.row] }
          return (firstRows + Array(repeating: -1, count: index.rows.count - firstRows.count), nil)
        } else {
          hits = try index.backend.within(distance: .infinity, of: point.coordinate)
        }
        slots = hits.map { index.rows[$0.row] }
        byDistance = true
      case .box(let field, let southwest, let northeast)?:
        let (bounds, applied) = BoxNormalization.bounds(southwest: southwest, northeast: northeast)
        normalization = applied
        let index = try store.index(field, kind: backendKind)
        slots = try index.backend.rows(in: bounds).map { index.rows[$0] }
      case nil:
        slots = store.objects.indices.filter { store.objects[$0] != nil }
      }
    } catch let error as NCMBError {
      throw error
    } catch {
      throw .internalFailure
    }
    if !filter.isEmpty { slots = slots.filter(passes) }
    if !query.order.isEmpty {
      let keys = query.order
      slots = stableSorted(slots) { a, b in
        FieldComparison.orderedBefore(store.objects[a]!, store.objects[b]!, keys: keys)
      }
    } else if !byDistance {
      // NCMB's normal order: newest first; objects created at the same instant, last first.
      // Each object's date is read once, not in every comparison.
      var keyed = slots.map { (date: store.objects[$0]!.createDate, slot: $0) }
      keyed.sort { a, b in a.date != b.date ? a.date > b.date : a.slot > b.slot }
      slots = keyed.map(\.slot)
    }
    return (slots, normalization)
  }

  private func stableSorted(_ slots: [Int], by before: (Int, Int) -> Bool) -> [Int] {
    slots.enumerated().sorted { a, b in
      if before(a.element, b.element) { return true }
      if before(b.element, a.element) { return false }
      return a.offset < b.offset
    }.map(\.element)
  }
}

/// One class's objects and the spatial indexes of its GeoPoint fields.
final class ClassStore {
  let className: String
  init(className: String) { self.className = className }
  /// Objects by slot; deleted objects leave `nil`.
  var objects: [DatastoreObject?] = []
  var slots: [String: Int] = [:]
  /// Incremented by every change, so stale indexes can be rebuilt.
  var version = 0
  var indexes: [String: FieldIndex] = [:]

  /// The up-to-date index of a GeoPoint field.
  func index(_ field: String, kind: SpatialBackendKind) throws -> FieldIndex {
    if let index = indexes[field], index.version == version { return index }
    let backend = try indexes[field]?.backend ?? kind.make(className: className, field: field)
    var rows: [Int] = []
    var points: [Coordinate] = []
    for (slot, object) in objects.enumerated() {
      guard let point = object?.geoPoint(field) else { continue }
      rows.append(slot)
      points.append(point.coordinate)
    }
    try backend.load(points)
    let index = FieldIndex(backend: backend, rows: rows, version: version)
    indexes[field] = index
    return index
  }
}

/// A backend and the slot of each of its rows.
struct FieldIndex {
  let backend: any SpatialBackend
  let rows: [Int]
  let version: Int
}
