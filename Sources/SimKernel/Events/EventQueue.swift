/// The pending events of a simulation: an implicit 4-ary min-heap of 24-byte entries ordered by
/// (time, priority, sequence), with per-event data in reusable slots.
///
/// An entry's priority and insertion sequence are packed into one `UInt64` key, so the heap
/// orders entries by one (`Int64`, `UInt64`) comparison, as a minimal heap of (time, sequence)
/// pairs does. Four children per node halve the heap's depth; the hold model pops the root and
/// sinks the last entry to the bottom, so fewer, wider levels mean fewer moves and cache misses.
///
/// Entries and slots live in manually managed buffers (a slot of plain values, with a closure
/// event's closure beside it), and slots are recycled through a free list, so in steady state
/// scheduling and firing allocate nothing and touch no reference counts or exclusivity checks
/// beyond a closure's own. The slot table is touched once per event, when it fires (its data is
/// needed to dispatch it), and the same slot is the first one reused. A
/// cancelled event's slot is freed at once and its heap entry, now stale (its generation no
/// longer matches), is skipped when it surfaces.
///
/// The sequence is 32 bits wide; when it runs out, the pending entries are renumbered in their
/// order (stale ones dropped), which keeps the order and costs O(*n* log *n*) once every 2³²
/// events scheduled.
final class EventQueue {
  struct Entry {
    var time: Int64
    /// The priority, offset to unsigned, in the high 32 bits; the sequence in the low 32.
    var key: UInt64
    var slot: UInt32
    var generation: UInt32

    @inline(__always)
    func precedes(_ other: Entry) -> Bool {
      time < other.time || (time == other.time && key < other.key)
    }

    /// (time, key) as one unsigned 128-bit number (the time's sign bit flipped).
    @inline(__always)
    var order: UInt128 {
      UInt128(UInt64(bitPattern: time) ^ (1 << 63)) << 64 | UInt128(key)
    }

    /// ``precedes(_:)`` as one comparison of 128-bit numbers, which compiles without a branch.
    @inline(__always)
    func precedesWithoutBranch(_ other: Entry) -> Bool {
      order < other.order
    }
  }

  /// The plain-data part of a scheduled event. A handler of −1 means the event has a closure,
  /// beside it in its ``Record``.
  struct Slot {
    var generation: UInt32 = 0
    var handler: Int32 = -1
    var code: Int32 = 0
    var argument: Int64 = 0
  }

  /// A closure event's closure. Held in a struct of its own so that the buffer (generic over
  /// its element) stores the closure as it is: a bare function type there would be stored in
  /// its most general form, a conversion thunk allocated for every event scheduled.
  struct Action {
    let body: () throws -> Void
  }

  /// A slot and the closure of a closure event in it (`nil` when the slot is free or holds a
  /// handler event), side by side: firing a closure event reads one place in the table, one
  /// cache miss in a large queue instead of two. The slot is read on its own, as plain data.
  struct Record {
    var slot = Slot()
    var action: Action?
  }

  private static let arity = 4
  /// The most entries ``removeTop()`` sinks through without branches by default: 3 MiB of
  /// them. On a host with 2 MiB of L2 cache a core, sinking without branches took 142 ns an
  /// event at 100,000 pending against 205 ns with them, was level at 200,000 and 400,000, and
  /// was 5 % slower at 1,000,000 (`geosim bench kernel`, handler events).
  static let defaultBranchlessLimit = 1 << 17

  private var heap: UnsafeMutablePointer<Entry>
  private var heapCount = 0
  private var heapCapacity: Int
  private var records: UnsafeMutablePointer<Record>
  private var slotCount = 0
  private var slotCapacity: Int
  private var freeSlots: UnsafeMutablePointer<UInt32>
  private var freeCount = 0
  private var nextSequence: UInt64 = 0
  /// One past the last sequence number handed out before renumbering: 2³², smaller in tests.
  private let sequenceLimit: UInt64
  /// The most entries sunk without branches: ``defaultBranchlessLimit``, smaller in tests.
  private let branchlessLimit: Int
  /// Events scheduled and neither fired nor cancelled.
  private(set) var pendingCount = 0

  init(
    capacity: Int = 1_024, sequenceLimit: UInt64 = 1 << 32,
    branchlessLimit: Int = defaultBranchlessLimit
  ) {
    precondition(capacity > 0 && sequenceLimit > 1 && sequenceLimit <= 1 << 32)
    heapCapacity = capacity
    slotCapacity = capacity
    self.sequenceLimit = sequenceLimit
    self.branchlessLimit = branchlessLimit
    heap = .allocate(capacity: capacity)
    records = .allocate(capacity: capacity)
    freeSlots = .allocate(capacity: capacity)
  }

  deinit {
    heap.deallocate()
    freeSlots.deallocate()
    records.deinitialize(count: slotCount)
    records.deallocate()
  }

  @inline(__always)
  static func key(priority: Int32, sequence: UInt64) -> UInt64 {
    UInt64(UInt32(bitPattern: priority) ^ 0x8000_0000) << 32 | sequence
  }

  func push(
    time: Int64, priority: Int32, handler: Int32, code: Int32, argument: Int64,
    action: consuming (() throws -> Void)?
  ) -> EventHandle {
    let slot: UInt32
    if freeCount > 0 {
      freeCount -= 1
      slot = freeSlots[freeCount]
    } else {
      if slotCount == slotCapacity { growSlots() }
      slot = UInt32(slotCount)
      (records + slotCount).initialize(to: Record())
      slotCount += 1
    }
    let generation = records[Int(slot)].slot.generation
    records[Int(slot)].slot = Slot(
      generation: generation, handler: handler, code: code, argument: argument)
    if let action = consume action { records[Int(slot)].action = Action(body: action) }
    if nextSequence == sequenceLimit { renumber() }
    if heapCount == heapCapacity { growHeap() }
    siftUp(
      Entry(
        time: time, key: Self.key(priority: priority, sequence: nextSequence), slot: slot,
        generation: generation),
      from: heapCount)
    heapCount += 1
    nextSequence += 1
    pendingCount += 1
    return EventHandle(slot: Int32(bitPattern: slot), generation: generation)
  }

  /// Cancels a pending event; returns whether it was pending.
  func cancel(_ handle: EventHandle) -> Bool {
    guard handle.slot >= 0, Int(handle.slot) < slotCount,
      records[Int(handle.slot)].slot.generation == handle.generation
    else { return false }
    let slot = UInt32(bitPattern: handle.slot)
    if records[Int(slot)].slot.handler < 0 { records[Int(slot)].action = nil }
    release(slot)
    pendingCount -= 1
    return true
  }

  /// The time of the earliest pending event, dropping stale entries on the way.
  func peekTime() -> Int64? {
    while heapCount > 0 {
      let top = heap[0]
      if records[Int(top.slot)].slot.generation == top.generation { return top.time }
      removeTop()
    }
    return nil
  }

  /// Removes the earliest pending event and returns its data and closure, if it has one (its
  /// slot is released).
  @inline(__always)
  func pop() -> (time: Int64, slot: Slot, action: (() throws -> Void)?, handle: EventHandle)? {
    while heapCount > 0 {
      let top = heap[0]
      // The slot is read before the heap is repaired, so that fetching it (a cache miss in a
      // large queue) overlaps the sinking.
      let slot = records[Int(top.slot)].slot
      removeTop()
      guard slot.generation == top.generation else { continue }
      var action: (() throws -> Void)?
      if slot.handler < 0 {
        action = records[Int(top.slot)].action.take()?.body
      }
      release(top.slot)
      pendingCount -= 1
      return (
        top.time, slot, action,
        EventHandle(slot: Int32(bitPattern: top.slot), generation: top.generation)
      )
    }
    return nil
  }

  /// Frees a slot whose closure, if it had one, is already gone.
  @inline(__always)
  private func release(_ slot: UInt32) {
    records[Int(slot)].slot.generation &+= 1
    freeSlots[freeCount] = slot
    freeCount += 1
  }

  @inline(__always)
  private func removeTop() {
    heapCount -= 1
    guard heapCount > 0 else { return }
    // A heap that fits in the caches sinks faster choosing children without branches (they
    // mispredict half the time); a larger one faster with them, as the processor then loads
    // the next level while it checks this one (measured by `geosim bench kernel`).
    if heapCount <= branchlessLimit {
      siftDown(heap[heapCount], from: 0, branchless: true)
    } else {
      siftDown(heap[heapCount], from: 0, branchless: false)
    }
  }

  /// Places `item` at the hole `start` or above it.
  @inline(__always)
  private func siftUp(_ item: Entry, from start: Int) {
    var i = start
    while i > 0 {
      let parent = (i &- 1) / Self.arity
      guard item.precedes(heap[parent]) else { break }
      heap[i] = heap[parent]
      i = parent
    }
    heap[i] = item
  }

  /// Places `item` at the hole `start` or below it.
  @inline(__always)
  private func siftDown(_ item: Entry, from start: Int, branchless: Bool) {
    @inline(__always) func before(_ a: Entry, _ b: Entry) -> Bool {
      branchless ? a.precedesWithoutBranch(b) : a.precedes(b)
    }
    let count = heapCount
    var i = start
    while true {
      let first = Self.arity &* i &+ 1
      var best: Int
      if first &+ 3 < count {
        // All four children exist: a two-round tournament.
        let a = before(heap[first &+ 1], heap[first]) ? first &+ 1 : first
        let b = before(heap[first &+ 3], heap[first &+ 2]) ? first &+ 3 : first &+ 2
        best = before(heap[b], heap[a]) ? b : a
      } else {
        guard first < count else { break }
        best = first
        var child = first &+ 1
        while child < count {
          if before(heap[child], heap[best]) { best = child }
          child &+= 1
        }
      }
      guard before(heap[best], item) else { break }
      heap[i] = heap[best]
      i = best
    }
    heap[i] = item
  }

  /// Gives the pending entries the sequence numbers 0, 1, 2, … in their order, dropping stale
  /// entries; a sorted array is a heap.
  private func renumber() {
    var kept = 0
    for i in 0..<heapCount where records[Int(heap[i].slot)].slot.generation == heap[i].generation {
      heap[kept] = heap[i]
      kept += 1
    }
    heapCount = kept
    var entries = UnsafeMutableBufferPointer(start: heap, count: heapCount)
    entries.sort { $0.precedes($1) }
    for i in entries.indices {
      entries[i].key = entries[i].key & 0xFFFF_FFFF_0000_0000 | UInt64(i)
    }
    precondition(
      UInt64(heapCount) < sequenceLimit, "more events pending than sequence numbers")
    nextSequence = UInt64(heapCount)
  }

  private func growHeap() {
    heapCapacity *= 2
    heap = Self.moved(heap, count: heapCount, toCapacity: heapCapacity)
  }

  /// Grows the slot table and the free list together (the free list never holds more entries
  /// than there are slots).
  private func growSlots() {
    slotCapacity *= 2
    records = Self.moved(records, count: slotCount, toCapacity: slotCapacity)
    freeSlots = Self.moved(freeSlots, count: freeCount, toCapacity: slotCapacity)
  }

  private static func moved<T>(
    _ old: UnsafeMutablePointer<T>, count: Int, toCapacity capacity: Int
  ) -> UnsafeMutablePointer<T> {
    let bigger = UnsafeMutablePointer<T>.allocate(capacity: capacity)
    bigger.moveInitialize(from: old, count: count)
    old.deallocate()
    return bigger
  }

  /// Checks the queue's invariants and returns the first one broken: the heap order, every
  /// entry naming a slot in use, the pending count matching the live entries, the free list
  /// holding each free slot once and no closure kept for a free slot.
  func invariantViolation() -> String? {
    for i in 1..<max(heapCount, 1) where heap[i].precedes(heap[(i - 1) / Self.arity]) {
      return "entry \(i) precedes its parent"
    }
    var live = 0
    var liveSlots = Set<UInt32>()
    for i in 0..<heapCount {
      let entry = heap[i]
      guard Int(entry.slot) < slotCount else { return "entry \(i) names slot \(entry.slot)" }
      guard entry.key & 0xFFFF_FFFF < nextSequence else {
        return "entry \(i) has a sequence not yet handed out"
      }
      if records[Int(entry.slot)].slot.generation == entry.generation {
        live += 1
        guard liveSlots.insert(entry.slot).inserted else {
          return "slot \(entry.slot) is live in two entries"
        }
      }
    }
    guard live == pendingCount else { return "\(live) live entries, \(pendingCount) pending" }
    let free = Set((0..<freeCount).map { freeSlots[$0] })
    guard free.count == freeCount else { return "a slot is free twice" }
    guard free.isDisjoint(with: liveSlots) else { return "a live slot is free" }
    guard free.count + liveSlots.count == slotCount else {
      return "\(slotCount - free.count - liveSlots.count) slots are neither free nor live"
    }
    for slot in free where records[Int(slot)].action != nil {
      return "free slot \(slot) keeps a closure"
    }
    return nil
  }
}
