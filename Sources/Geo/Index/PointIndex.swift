import Foundation

/// One answer of a ``PointIndex`` query: an indexed element, where it is and how far away.
public struct Neighbor<Element> {
  /// The element stored with the point.
  public let element: Element
  /// The point's coordinate.
  public let coordinate: Coordinate
  /// The query metric's distance in metres from the query coordinate to ``coordinate``.
  public let distance: Double

  @usableFromInline
  init(element: Element, coordinate: Coordinate, distance: Double) {
    self.element = element
    self.coordinate = coordinate
    self.distance = distance
  }
}

extension Neighbor: Sendable where Element: Sendable {}
extension Neighbor: Equatable where Element: Equatable {}
extension Neighbor: Hashable where Element: Hashable {}

/// An immutable spatial index over geographic points, answering exact k-nearest, radius and
/// box queries.
///
/// The index is bulk-loaded once and never changes, so it can be shared freely between tasks.
/// Each point is stored as a unit vector `(cos φ cos λ, cos φ sin λ, sin φ)` in an implicit
/// k-d tree built by median splits along the widest axis, with 8 to 16 points per leaf and a
/// 3D bounding box for every node. Working in 3D avoids every special case at the poles and the
/// antimeridian.
///
/// Distance queries take a ``DistanceMetric``; the tree bounds each node's distance by the
/// chord from the query's unit vector to the node's box, scaled by the metric's
/// ``DistanceMetric/lowerBoundRadius``, and calls the (possibly expensive) metric only on points
/// whose bound could still make the answer. Results are exact for the metric given: the same
/// as comparing the query with every point, with equal distances ordered by insertion.
public struct PointIndex<Element>: Sendable where Element: Sendable {
  // The public members are inlinable so callers specialize the per-element work (copying
  // elements into results) for their `Element`; the search itself is non-generic and lives in
  // `PointTree`.
  @usableFromInline let tree: PointTree
  /// The elements in insertion order.
  @usableFromInline let elements: [Element]

  /// Builds an index over the given points; an element's insertion index is its position in
  /// `items`.
  ///
  /// Points may repeat; queries order equal distances by insertion index.
  ///
  /// - Complexity: O(n log n) time and O(n) memory for n items.
  @inlinable
  public init(_ items: [(coordinate: Coordinate, element: Element)]) {
    tree = PointTree(items.map(\.coordinate))
    elements = items.map(\.element)
  }

  /// An index built before (its ``layout``) over the same points in the same order, without
  /// building it again; `nil` when the layout is not one of `points.count` points.
  package init?(
    layout: PointIndexLayout, points: (Int) -> Coordinate, elements: [Element]
  ) {
    guard elements.count == layout.indices.count,
      let tree = PointTree(layout: layout, points: points)
    else { return nil }
    self.tree = tree
    self.elements = elements
  }

  /// The tree, as flat tables to store and to build the same index again from.
  package var layout: PointIndexLayout {
    PointIndexLayout(
      vectors: tree.vectors, indices: tree.indices, boxes: tree.boxes, leafStarts: tree.leafStarts)
  }

  /// The number of indexed points.
  public var count: Int { elements.count }

  /// The `k` points nearest to a coordinate under a metric, nearest first.
  ///
  /// Equal distances are ordered by insertion index, so results are deterministic. Returns
  /// every point when `k` exceeds ``count``, and nothing for an empty index. Throws
  /// ``GeoError`` with code ``GeoErrorCode/invalidArgument`` when `k < 1`.
  ///
  /// The search visits nodes and points best-first by their chord lower bound and evaluates
  /// the metric only on points whose bound beats the current k-th distance, so a tight
  /// ``DistanceMetric/lowerBoundRadius`` keeps evaluations close to `k`. It allocates nothing
  /// but the result for small `k`.
  ///
  /// - Complexity: O(log n + k log k) expected for well-spread points and a tight metric bound;
  ///   O(n log n) in the worst case (a bound of 0 or all points at one distance).
  @inlinable
  public func nearest(to coordinate: Coordinate, k: Int = 1, metric: DistanceMetric) throws
    -> [Neighbor<Element>]
  {
    try PointTree.validate(k: k)
    var result: [Neighbor<Element>] = []
    tree.nearest(to: coordinate, k: k, metric: metric) { candidates in
      result.reserveCapacity(candidates.count)
      for candidate in candidates {
        result.append(neighbor(candidate))
      }
    }
    return result
  }

  /// Every point within `radius` metres of a coordinate under a metric, nearest first.
  ///
  /// A point at exactly `radius` is included. Equal distances are ordered by insertion index.
  /// Throws ``GeoError`` with code ``GeoErrorCode/invalidArgument`` unless `radius` is a
  /// number ≥ 0 (infinity returns every point).
  ///
  /// - Complexity: O(√n + m log m) expected for m results among well-spread points.
  @inlinable
  public func within(radius: Double, of coordinate: Coordinate, metric: DistanceMetric) throws
    -> [Neighbor<Element>]
  {
    try PointTree.validate(radius: radius)
    let candidates = tree.within(radius: radius, of: coordinate, metric: metric)
    return candidates.map(neighbor)
  }

  /// The elements of every point inside a latitude–longitude box, in insertion order.
  ///
  /// Edges count as inside; see ``CoordinateBounds`` for boxes crossing the antimeridian.
  ///
  /// - Complexity: O(√n + m log m) expected for m results among well-spread points.
  @inlinable
  public func elements(in bounds: CoordinateBounds) -> [Element] {
    tree.indices(in: bounds).map { elements[Int($0)] }
  }

  @inlinable
  func neighbor(_ candidate: PointTree.Candidate) -> Neighbor<Element> {
    Neighbor(
      element: elements[Int(candidate.index)],
      coordinate: tree.coordinates[Int(candidate.slot)],
      distance: candidate.distance)
  }
}

// MARK: - Tree

/// The geometry of a ``PointIndex``: an implicit k-d tree over unit vectors.
///
/// Node 0 is the root and node `i` has children `2i + 1` and `2i + 2`; every leaf sits at
/// depth ``depth``, so the leaves are nodes `leafCount − 1 ..< 2 leafCount − 1`. Points are
/// stored in tree order ("slots"), leaf `j` owning slots `leafStarts[j] ..< leafStarts[j + 1]`.
@usableFromInline
final class PointTree: Sendable {
  /// A point that may be part of an answer.
  @usableFromInline
  struct Candidate {
    @usableFromInline var distance: Double
    /// The insertion index.
    @usableFromInline var index: Int32
    /// The slot in tree order.
    @usableFromInline var slot: Int32

    /// Whether `self` comes before `other`: nearer, or equally near and inserted earlier.
    @inline(__always)
    func precedes(_ other: Candidate) -> Bool {
      distance < other.distance || (distance == other.distance && index < other.index)
    }
  }

  /// Throws unless `k ≥ 1`.
  @usableFromInline
  static func validate(k: Int) throws {
    guard k >= 1 else {
      throw GeoError(.invalidArgument, "k must be at least 1, got \(k)")
    }
  }

  /// Throws unless `radius` is a number ≥ 0.
  @usableFromInline
  static func validate(radius: Double) throws {
    guard radius >= 0 else {
      throw GeoError(.invalidArgument, "radius must be a number ≥ 0, got \(radius)")
    }
  }

  /// The most points a leaf holds; leaves hold more than half as many.
  static let maximumLeafSize = 16

  let count: Int
  let depth: Int
  let leafCount: Int
  /// Unit vectors in tree order, three values per slot.
  let vectors: [Double]
  /// Coordinates in tree order.
  @usableFromInline let coordinates: [Coordinate]
  /// Insertion indices in tree order.
  let indices: [Int32]
  /// Per node, the bounding box `minX, minY, minZ, maxX, maxY, maxZ` of its unit vectors.
  let boxes: [Double]
  /// The first slot of each leaf, followed by `count`.
  let leafStarts: [Int32]

  @usableFromInline
  init(_ points: [Coordinate]) {
    let n = points.count
    precondition(n < Int(Int32.max), "a PointIndex holds fewer than \(Int32.max) points")
    var depth = 0
    while (n + (1 << depth) - 1) >> depth > PointTree.maximumLeafSize { depth += 1 }
    let leafCount = 1 << depth
    let nodeCount = 2 * leafCount - 1

    var work: [BuildPoint] = []
    work.reserveCapacity(n)
    for (index, point) in points.enumerated() {
      let v = unitVector(point)
      work.append(BuildPoint(x: v.x, y: v.y, z: v.z, index: Int32(index)))
    }
    var boxes = [Double](repeating: 0, count: 6 * nodeCount)
    var leafStarts = [Int32](repeating: Int32(n), count: leafCount + 1)
    work.withUnsafeMutableBufferPointer { work in
      boxes.withUnsafeMutableBufferPointer { boxes in
        leafStarts.withUnsafeMutableBufferPointer { leafStarts in
          let builder = Builder(
            work: work, boxes: boxes, leafStarts: leafStarts, depth: depth)
          builder.build(node: 0, lower: 0, upper: n, level: 0)
        }
      }
    }

    var vectors: [Double] = []
    vectors.reserveCapacity(3 * n)
    for point in work {
      vectors.append(point.x)
      vectors.append(point.y)
      vectors.append(point.z)
    }
    self.count = n
    self.depth = depth
    self.leafCount = leafCount
    self.vectors = vectors
    self.coordinates = work.map { points[Int($0.index)] }
    self.indices = work.map(\.index)
    self.boxes = boxes
    self.leafStarts = leafStarts
  }

  /// The tree of `layout` over `points(0)`, `points(1)`, …, or `nil` when the layout does not
  /// fit together: its order a permutation of the points, a box for every node, leaves from
  /// the first slot to the last in order. (Boxes that do not hold their points cannot make a
  /// query read out of bounds; the tables they come from carry a checksum.)
  init?(layout: PointIndexLayout, points: (Int) -> Coordinate) {
    let n = layout.indices.count
    guard n < Int(Int32.max) else { return nil }
    var depth = 0
    while (n + (1 << depth) - 1) >> depth > PointTree.maximumLeafSize { depth += 1 }
    let leafCount = 1 << depth
    guard layout.vectors.count == 3 * n, layout.boxes.count == 6 * (2 * leafCount - 1),
      layout.leafStarts.count == leafCount + 1, layout.leafStarts.first == 0,
      layout.leafStarts.last == Int32(n),
      zip(layout.leafStarts, layout.leafStarts.dropFirst()).allSatisfy({ $0 <= $1 })
    else { return nil }
    var seen = [Bool](repeating: false, count: n)
    for index in layout.indices {
      guard index >= 0, Int(index) < n, !seen[Int(index)] else { return nil }
      seen[Int(index)] = true
    }
    count = n
    self.depth = depth
    self.leafCount = leafCount
    vectors = layout.vectors
    coordinates = layout.indices.map { points(Int($0)) }
    indices = layout.indices
    boxes = layout.boxes
    leafStarts = layout.leafStarts
  }

  // MARK: Queries

  /// Calls `body` with the `min(k, count)` nearest points, nearest first.
  @usableFromInline
  func nearest(
    to query: Coordinate, k: Int, metric: DistanceMetric,
    _ body: (UnsafeBufferPointer<Candidate>) -> Void
  ) {
    let wanted = min(k, count)
    guard wanted > 0 else {
      body(UnsafeBufferPointer(start: nil, count: 0))
      return
    }
    let q = unitVector(query)
    let distance = metric.distance
    let boundRadius = metric.lowerBoundRadius
    withView { tree in
      withUnsafeTemporaryAllocation(of: Candidate.self, capacity: wanted) { best in
        withUnsafeTemporaryAllocation(
          of: SearchHeap.Entry.self, capacity: SearchHeap.inlineCapacity
        ) { storage in
          var heap = SearchHeap(storage: storage)
          var found = 0
          // Points whose squared chord exceeds `limit` cannot enter the answer.
          var limit = Double.infinity
          heap.push(key: tree.boxDistanceSquared(node: 0, to: q), id: 0)
          while let entry = heap.popMin() {
            if entry.key > limit { break }
            if entry.id < 0 {
              let slot = Int(~entry.id)
              let candidate = Candidate(
                distance: distance(query, tree.coordinates[slot]), index: tree.indices[slot],
                slot: Int32(slot))
              var position: Int
              if found < wanted {
                position = found
                found += 1
              } else if candidate.precedes(best[wanted - 1]) {
                position = wanted - 1
              } else {
                continue
              }
              while position > 0 && candidate.precedes(best[position - 1]) {
                best[position] = best[position - 1]
                position -= 1
              }
              best[position] = candidate
              if found == wanted {
                limit = chordLimitSquared(distance: best[wanted - 1].distance, boundRadius)
              }
              continue
            }
            // Descend towards the nearer child, leaving the farther one for later.
            var node = Int(entry.id)
            var reachedLeaf = true
            while node < tree.firstLeaf {
              let left = 2 * node + 1
              let leftKey = tree.boxDistanceSquared(node: left, to: q)
              let rightKey = tree.boxDistanceSquared(node: left + 1, to: q)
              let (near, nearKey, far, farKey) =
                leftKey <= rightKey
                ? (left, leftKey, left + 1, rightKey) : (left + 1, rightKey, left, leftKey)
              if farKey <= limit { heap.push(key: farKey, id: Int32(far)) }
              guard nearKey <= limit else {
                reachedLeaf = false
                break
              }
              node = near
            }
            guard reachedLeaf else { continue }
            let leaf = node - tree.firstLeaf
            for slot in Int(tree.leafStarts[leaf])..<Int(tree.leafStarts[leaf + 1]) {
              let key = tree.chordSquared(slot: slot, to: q)
              if key <= limit { heap.push(key: key, id: ~Int32(slot)) }
            }
          }
          body(UnsafeBufferPointer(start: best.baseAddress, count: found))
        }
      }
    }
  }

  /// Every point within `radius` of the query, nearest first.
  @usableFromInline
  func within(radius: Double, of query: Coordinate, metric: DistanceMetric) -> [Candidate] {
    guard count > 0 else { return [] }
    let q = unitVector(query)
    let distance = metric.distance
    let limit = chordLimitSquared(distance: radius, metric.lowerBoundRadius)
    var result: [Candidate] = []
    withView { tree in
      tree.forEachLeaf(where: { tree.boxDistanceSquared(node: $0, to: q) <= limit }) { leaf in
        for slot in Int(tree.leafStarts[leaf])..<Int(tree.leafStarts[leaf + 1])
        where tree.chordSquared(slot: slot, to: q) <= limit {
          let d = distance(query, tree.coordinates[slot])
          if d <= radius {
            result.append(Candidate(distance: d, index: tree.indices[slot], slot: Int32(slot)))
          }
        }
      }
    }
    result.sort { $0.precedes($1) }
    return result
  }

  /// The insertion indices of every point inside the box, ascending.
  @usableFromInline
  func indices(in bounds: CoordinateBounds) -> [Int32] {
    guard count > 0 else { return [] }
    let region = BoundsRegion(bounds)
    var result: [Int32] = []
    withView { tree in
      tree.forEachLeaf(where: { region.mayIntersect(tree.box(node: $0)) }) { leaf in
        for slot in Int(tree.leafStarts[leaf])..<Int(tree.leafStarts[leaf + 1])
        where bounds.contains(tree.coordinates[slot]) {
          result.append(tree.indices[slot])
        }
      }
    }
    result.sort()
    return result
  }

  /// Calls `body` with unchecked views of the tree's arrays.
  private func withView<R>(_ body: (View) -> R) -> R {
    vectors.withUnsafeBufferPointer { vectors in
      boxes.withUnsafeBufferPointer { boxes in
        coordinates.withUnsafeBufferPointer { coordinates in
          indices.withUnsafeBufferPointer { indices in
            leafStarts.withUnsafeBufferPointer { leafStarts in
              body(
                View(
                  vectors: vectors, boxes: boxes, coordinates: coordinates, indices: indices,
                  leafStarts: leafStarts, firstLeaf: leafCount - 1, depth: depth))
            }
          }
        }
      }
    }
  }

  /// The tree's arrays as buffers, valid only inside ``withView(_:)``.
  private struct View {
    let vectors: UnsafeBufferPointer<Double>
    let boxes: UnsafeBufferPointer<Double>
    let coordinates: UnsafeBufferPointer<Coordinate>
    let indices: UnsafeBufferPointer<Int32>
    let leafStarts: UnsafeBufferPointer<Int32>
    let firstLeaf: Int
    let depth: Int

    @inline(__always)
    func chordSquared(slot: Int, to q: UnitVector) -> Double {
      let dx = vectors[3 * slot] - q.x
      let dy = vectors[3 * slot + 1] - q.y
      let dz = vectors[3 * slot + 2] - q.z
      return dx * dx + dy * dy + dz * dz
    }

    /// The squared Euclidean distance from `q` to the node's box (0 inside it).
    @inline(__always)
    func boxDistanceSquared(node: Int, to q: UnitVector) -> Double {
      let b = 6 * node
      let dx = max(boxes[b] - q.x, 0, q.x - boxes[b + 3])
      let dy = max(boxes[b + 1] - q.y, 0, q.y - boxes[b + 4])
      let dz = max(boxes[b + 2] - q.z, 0, q.z - boxes[b + 5])
      return dx * dx + dy * dy + dz * dz
    }

    @inline(__always)
    func box(node: Int) -> Box {
      let b = 6 * node
      return Box(
        minX: boxes[b], minY: boxes[b + 1], minZ: boxes[b + 2], maxX: boxes[b + 3],
        maxY: boxes[b + 4], maxZ: boxes[b + 5])
    }

    /// Calls `body` with every leaf whose ancestors and itself pass `include`, depth first.
    @inline(__always)
    func forEachLeaf(where include: (Int) -> Bool, _ body: (Int) -> Void) {
      withUnsafeTemporaryAllocation(of: Int.self, capacity: depth + 2) { stack in
        stack[0] = 0
        var top = 1
        while top > 0 {
          top -= 1
          let node = stack[top]
          guard include(node) else { continue }
          if node >= firstLeaf {
            body(node - firstLeaf)
          } else {
            stack[top] = 2 * node + 2
            stack[top + 1] = 2 * node + 1
            top += 2
          }
        }
      }
    }
  }
}

// MARK: - Geometry helpers

/// The squared chord beyond which a point is farther than `distance` under a metric whose
/// lower-bound radius is `radius`, relaxed to absorb rounding in the chord and the metric.
@inline(__always)
func chordLimitSquared(distance: Double, _ radius: Double) -> Double {
  guard radius > 0 else { return .infinity }
  let chord = (distance / radius + 1e-12) / (1 - 1e-9)
  return chord * chord
}

/// An axis-aligned box in 3D.
struct Box {
  var minX: Double
  var minY: Double
  var minZ: Double
  var maxX: Double
  var maxY: Double
  var maxZ: Double
}

/// A ``CoordinateBounds`` as conservative tests on 3D boxes.
///
/// Latitude maps monotonically to `z = sin φ`, so the latitude band is a slab in `z`. The
/// longitude span is a wedge around the `z` axis, split into at most two convex wedges of at
/// most 180°; a box is outside a convex wedge when it lies wholly beyond one of the wedge's two
/// bounding half-planes. The tests only reject boxes that certainly miss the region, with a
/// margin for rounding; points are checked exactly afterwards.
struct BoundsRegion {
  /// A convex wedge around the `z` axis: the half-planes `n · (x, y) ≥ 0` for two normals.
  struct Wedge {
    var n1x: Double
    var n1y: Double
    var n2x: Double
    var n2y: Double

    /// The wedge from longitude `west` running `width ≤ 180` degrees east.
    init(west: Double, width: Double) {
      let a = west * (Double.pi / 180)
      let b = (west + width) * (Double.pi / 180)
      // cross(u(a), v) ≥ 0 and cross(v, u(b)) ≥ 0, with u(θ) = (cos θ, sin θ).
      (n1x, n1y, n2x, n2y) = (-sin(a), cos(a), sin(b), -cos(b))
    }

    /// Whether the box may reach into the wedge.
    @inline(__always)
    func mayIntersect(_ box: Box) -> Bool {
      BoundsRegion.maximum(n1x, n1y, over: box) >= -BoundsRegion.margin
        && BoundsRegion.maximum(n2x, n2y, over: box) >= -BoundsRegion.margin
    }
  }

  static let margin = 1e-12

  let minZ: Double
  let maxZ: Double
  /// The longitude span as two wedges (the same one twice when it spans at most 180°), or
  /// `nil` when it spans every longitude.
  let wedges: (Wedge, Wedge)?

  init(_ bounds: CoordinateBounds) {
    let radiansPerDegree = Double.pi / 180
    minZ = sin(bounds.south * radiansPerDegree) - BoundsRegion.margin
    maxZ = sin(bounds.north * radiansPerDegree) + BoundsRegion.margin
    let span = bounds.longitudeSpan
    if span >= 360 {
      wedges = nil
    } else if span <= 180 {
      let wedge = Wedge(west: bounds.west, width: span)
      wedges = (wedge, wedge)
    } else {
      wedges = (
        Wedge(west: bounds.west, width: span / 2),
        Wedge(west: bounds.west + span / 2, width: span / 2)
      )
    }
  }

  /// Whether some point of the box may lie in the region (false only if it certainly does not).
  @inline(__always)
  func mayIntersect(_ box: Box) -> Bool {
    if box.maxZ < minZ || box.minZ > maxZ { return false }
    guard let (first, second) = wedges else { return true }
    return first.mayIntersect(box) || second.mayIntersect(box)
  }

  /// The largest value of `nx · x + ny · y` over the box.
  @inline(__always)
  static func maximum(_ nx: Double, _ ny: Double, over box: Box) -> Double {
    nx * (nx >= 0 ? box.maxX : box.minX) + ny * (ny >= 0 ? box.maxY : box.minY)
  }
}

// MARK: - Search heap

/// A binary min-heap of tree nodes and points keyed by squared chord, starting in caller
/// storage and moving to the heap only if it outgrows it.
private struct SearchHeap: ~Copyable {
  /// A node (`id ≥ 0`) or a point (`id = ~slot`) with its squared-chord lower bound.
  struct Entry {
    var key: Double
    var id: Int32
  }

  /// Entries kept in caller storage before spilling to the heap (1 KiB).
  static let inlineCapacity = 64

  private var base: UnsafeMutablePointer<Entry>
  private var capacity: Int
  private var owned = false
  private(set) var count = 0

  init(storage: UnsafeMutableBufferPointer<Entry>) {
    base = storage.baseAddress!
    capacity = storage.count
  }

  deinit {
    if owned { base.deallocate() }
  }

  mutating func push(key: Double, id: Int32) {
    if count == capacity { grow() }
    var hole = count
    count += 1
    while hole > 0 {
      let parent = (hole - 1) / 2
      if base[parent].key <= key { break }
      base[hole] = base[parent]
      hole = parent
    }
    base[hole] = Entry(key: key, id: id)
  }

  mutating func popMin() -> Entry? {
    guard count > 0 else { return nil }
    let top = base[0]
    count -= 1
    if count > 0 {
      let last = base[count]
      var hole = 0
      while true {
        var child = 2 * hole + 1
        if child >= count { break }
        if child + 1 < count && base[child + 1].key < base[child].key { child += 1 }
        if last.key <= base[child].key { break }
        base[hole] = base[child]
        hole = child
      }
      base[hole] = last
    }
    return top
  }

  private mutating func grow() {
    let newCapacity = 2 * capacity
    let newBase = UnsafeMutablePointer<Entry>.allocate(capacity: newCapacity)
    newBase.update(from: base, count: count)
    if owned { base.deallocate() }
    base = newBase
    capacity = newCapacity
    owned = true
  }
}

// MARK: - Build

/// A point during construction: its unit vector and insertion index.
private struct BuildPoint {
  var x: Double
  var y: Double
  var z: Double
  var index: Int32
}

/// Builds the implicit tree in place: each node's box, then a median split on its widest axis.
private struct Builder {
  let work: UnsafeMutableBufferPointer<BuildPoint>
  let boxes: UnsafeMutableBufferPointer<Double>
  let leafStarts: UnsafeMutableBufferPointer<Int32>
  let depth: Int

  func build(node: Int, lower: Int, upper: Int, level: Int) {
    var minX = Double.infinity
    var minY = Double.infinity
    var minZ = Double.infinity
    var maxX = -Double.infinity
    var maxY = -Double.infinity
    var maxZ = -Double.infinity
    for i in lower..<upper {
      let p = work[i]
      minX = min(minX, p.x)
      minY = min(minY, p.y)
      minZ = min(minZ, p.z)
      maxX = max(maxX, p.x)
      maxY = max(maxY, p.y)
      maxZ = max(maxZ, p.z)
    }
    let b = 6 * node
    boxes[b] = minX
    boxes[b + 1] = minY
    boxes[b + 2] = minZ
    boxes[b + 3] = maxX
    boxes[b + 4] = maxY
    boxes[b + 5] = maxZ
    if level == depth {
      leafStarts[node - ((1 << depth) - 1)] = Int32(lower)
      return
    }
    let middle = lower + (upper - lower) / 2
    let spreadX = maxX - minX
    let spreadY = maxY - minY
    let spreadZ = maxZ - minZ
    if spreadX >= spreadY && spreadX >= spreadZ {
      work.select(middle, in: lower..<upper) { $0.x }
    } else if spreadY >= spreadZ {
      work.select(middle, in: lower..<upper) { $0.y }
    } else {
      work.select(middle, in: lower..<upper) { $0.z }
    }
    build(node: 2 * node + 1, lower: lower, upper: middle, level: level + 1)
    build(node: 2 * node + 2, lower: middle, upper: upper, level: level + 1)
  }
}

/// A ``PointIndex``'s tree as flat tables, in tree order: to store an index and to read it back
/// without building it again (`PointIndex(layout:points:elements:)`).
package struct PointIndexLayout: Equatable, Sendable {
  /// The points' unit vectors, three values per slot.
  package var vectors: [Double]
  /// The insertion index of each slot's point.
  package var indices: [Int32]
  /// Per node (the root first, then level by level), its box `minX, minY, minZ, maxX, maxY,
  /// maxZ`.
  package var boxes: [Double]
  /// The first slot of each leaf, followed by the number of points.
  package var leafStarts: [Int32]

  package init(vectors: [Double], indices: [Int32], boxes: [Double], leafStarts: [Int32]) {
    self.vectors = vectors
    self.indices = indices
    self.boxes = boxes
    self.leafStarts = leafStarts
  }
}
