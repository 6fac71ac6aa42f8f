import CGEOS

/// GEOS's sort-tile-recursive R-tree over planar envelopes: bulk-loaded, then queried.
///
/// Use it for extended items (gazetteer polygons, fences, road segments) whose envelopes are
/// queried by envelope. For geographic *points* and exact k-nearest by geodesic distance use
/// ``PointIndex``, which is faster for that job and handles the poles and the antimeridian.
/// The tree holds its ``GEOSContext`` and must stay on that context's thread.
public final class STRtree<Element> {
  private let context: GEOSContext
  private let tree: OpaquePointer
  private let elements: [Element]
  private let envelopes: [Envelope]

  /// Bulk-loads the tree.
  ///
  /// - Parameters:
  ///   - items: each item's envelope and the element a query returns for it.
  ///   - nodeCapacity: children per node; GEOS recommends 10 and needs at least 2.
  ///   - context: the GEOS context the tree is built in and queried on.
  /// - Complexity: O(*n* log *n*).
  public init(
    _ items: [(envelope: Envelope, element: Element)], nodeCapacity: Int = 10,
    context: GEOSContext
  ) throws {
    guard nodeCapacity >= 2 else {
      throw GeoError(.invalidArgument, "nodeCapacity must be ≥ 2, got \(nodeCapacity)")
    }
    let handle = context.handle
    self.context = context
    self.tree = try context.check(GEOSSTRtree_create_r(handle, nodeCapacity), "creating a tree")
    self.elements = items.map(\.element)
    self.envelopes = items.map(\.envelope)
    for (index, envelope) in envelopes.enumerated() {
      // The tree copies the envelope, so the temporary geometry can go at once.
      let g = try context.check(makeRectangle(envelope), "creating an envelope")
      GEOSSTRtree_insert_r(handle, tree, g, Self.itemPointer(index))
      GEOSGeom_destroy_r(handle, g)
    }
  }

  deinit {
    GEOSSTRtree_destroy_r(context.handle, tree)
  }

  /// The number of items.
  public var count: Int { elements.count }

  /// The elements whose envelopes intersect `envelope`, in insertion order.
  ///
  /// - Complexity: O(log *n* + *k*) for *k* results.
  public func query(_ envelope: Envelope) throws -> [Element] {
    let g = try context.check(makeRectangle(envelope), "creating an envelope")
    defer { GEOSGeom_destroy_r(context.handle, g) }
    let hits = IndexCollector()
    let callback: GEOSQueryCallback = { item, userdata in
      guard let userdata else { return }
      Unmanaged<IndexCollector>.fromOpaque(userdata).takeUnretainedValue().indices.append(
        Int(bitPattern: item) - 1)
    }
    withExtendedLifetime(hits) {
      GEOSSTRtree_query_r(
        context.handle, tree, g, callback, Unmanaged.passUnretained(hits).toOpaque())
    }
    return hits.indices.sorted().map { elements[$0] }
  }

  /// The element nearest to `position` by planar distance to its envelope, or `nil` when the
  /// tree is empty. Ties go to whichever GEOS meets first.
  public func nearest(to position: Position) throws -> Element? {
    try nearest(to: position) { [envelopes] index in
      let e = envelopes[index]
      let dx = max(e.minX - position.x, 0, position.x - e.maxX)
      let dy = max(e.minY - position.y, 0, position.y - e.maxY)
      return (dx * dx + dy * dy).squareRoot()
    }
  }

  /// The element nearest to `position` by a caller-given distance, or `nil` when the tree is
  /// empty.
  ///
  /// The search prunes with planar envelope distances, so `distance(i)` for item `i` must never
  /// be smaller than the planar distance from `position` to that item's envelope — true for the
  /// exact planar distance to the item's geometry, false for metres against degrees. For
  /// geodesic nearest neighbours use ``PointIndex``.
  public func nearest(to position: Position, distance: (Int) -> Double) throws -> Element? {
    guard !elements.isEmpty else { return nil }
    let query = try context.check(
      GEOSGeom_createPointFromXY_r(context.handle, position.x, position.y), "creating a point")
    defer { GEOSGeom_destroy_r(context.handle, query) }
    return try withoutActuallyEscaping(distance) { distance in
      let box = DistanceBox(distance)
      let callback: GEOSDistanceCallback = { item1, item2, result, userdata in
        guard let userdata, let result else { return 0 }
        let box = Unmanaged<DistanceBox>.fromOpaque(userdata).takeUnretainedValue()
        // One side is the tree's item, the other the query's sentinel pointer.
        let item = Int(bitPattern: item1) == queryItem ? item2 : item1
        result.pointee = box.distance(Int(bitPattern: item) - 1)
        return 1
      }
      let found = withExtendedLifetime(box) {
        GEOSSTRtree_nearest_generic_r(
          context.handle, tree, UnsafeRawPointer(bitPattern: queryItem), query, callback,
          Unmanaged.passUnretained(box).toOpaque())
      }
      guard let found else { throw context.failure("nearest") }
      return elements[Int(bitPattern: found) - 1]
    }
  }

  private func makeRectangle(_ e: Envelope) -> OpaquePointer? {
    if e.minX == e.maxX && e.minY == e.maxY {
      return GEOSGeom_createPointFromXY_r(context.handle, e.minX, e.minY)
    }
    return GEOSGeom_createRectangle_r(context.handle, e.minX, e.minY, e.maxX, e.maxY)
  }

  private static func itemPointer(_ index: Int) -> UnsafeMutableRawPointer? {
    UnsafeMutableRawPointer(bitPattern: index + 1)
  }
}

/// The pointer value standing for the query in GEOS's nearest search: never an item's (items
/// are 1…n).
private let queryItem = Int.max

private final class IndexCollector {
  var indices: [Int] = []
}

private final class DistanceBox {
  let distance: (Int) -> Double
  init(_ distance: @escaping (Int) -> Double) { self.distance = distance }
}
