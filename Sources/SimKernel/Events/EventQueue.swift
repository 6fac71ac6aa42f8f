/// The pending events of a simulation: a binary min-heap of plain-data entries ordered by
/// (time, priority, sequence), with per-event data in reusable slots.
///
/// Entries and slots live in manually managed buffers of plain values, and slots are recycled
/// through a free list, so in steady state scheduling and firing allocate nothing and touch no
/// reference counts or exclusivity checks. A cancelled event's slot is freed at once and its heap
/// entry, now stale (its generation no longer matches), is skipped when it surfaces.
final class EventQueue {
  struct Entry {
    var time: Int64
    var priority: Int32
    var slot: Int32
    var sequence: UInt64
    var generation: UInt32

    @inline(__always)
    func precedes(_ other: Entry) -> Bool {
      if time != other.time { return time < other.time }
      if priority != other.priority { return priority < other.priority }
      return sequence < other.sequence
    }
  }

  /// The plain-data part of a scheduled event. A handler of −1 means the event's closure is in
  /// `actions` at the same index.
  struct Slot {
    var generation: UInt32 = 0
    var handler: Int32 = -1
    var code: Int32 = 0
    var argument: Int64 = 0
  }

  private var heap: UnsafeMutablePointer<Entry>
  private var heapCount = 0
  private var heapCapacity: Int
  private var slots: UnsafeMutablePointer<Slot>
  private var slotCount = 0
  private var slotCapacity: Int
  private var freeSlots: UnsafeMutablePointer<Int32>
  private var freeCount = 0
  /// Closures of closure events, kept apart so the hot path moves no reference-counted values.
  private var actions: [(() throws -> Void)?] = []
  private var nextSequence: UInt64 = 0
  /// Events scheduled and neither fired nor cancelled.
  private(set) var pendingCount = 0

  init(capacity: Int = 1_024) {
    heapCapacity = capacity
    slotCapacity = capacity
    heap = .allocate(capacity: capacity)
    slots = .allocate(capacity: capacity)
    freeSlots = .allocate(capacity: capacity)
  }

  deinit {
    heap.deallocate()
    slots.deallocate()
    freeSlots.deallocate()
  }

  func push(
    time: Int64, priority: Int32, handler: Int32, code: Int32, argument: Int64,
    action: (() throws -> Void)?
  ) -> EventHandle {
    let slot: Int32
    if freeCount > 0 {
      freeCount -= 1
      slot = freeSlots[freeCount]
    } else {
      if slotCount == slotCapacity { growSlots() }
      slot = Int32(slotCount)
      (slots + slotCount).initialize(to: Slot())
      slotCount += 1
      actions.append(nil)
    }
    let generation = slots[Int(slot)].generation
    slots[Int(slot)] = Slot(
      generation: generation, handler: handler, code: code, argument: argument)
    if let action { actions[Int(slot)] = action }
    if heapCount == heapCapacity { growHeap() }
    heap[heapCount] = Entry(
      time: time, priority: priority, slot: slot, sequence: nextSequence, generation: generation)
    heapCount += 1
    nextSequence &+= 1
    siftUp(heapCount - 1)
    pendingCount += 1
    return EventHandle(slot: slot, generation: generation)
  }

  /// Cancels a pending event; returns whether it was pending.
  func cancel(_ handle: EventHandle) -> Bool {
    guard handle.slot >= 0, Int(handle.slot) < slotCount,
      slots[Int(handle.slot)].generation == handle.generation
    else { return false }
    release(handle.slot)
    pendingCount -= 1
    return true
  }

  /// The time of the earliest pending event, dropping stale entries on the way.
  func peekTime() -> Int64? {
    while heapCount > 0 {
      let top = heap[0]
      if slots[Int(top.slot)].generation == top.generation { return top.time }
      removeTop()
    }
    return nil
  }

  /// Removes the earliest pending event and returns its data and closure, if it has one (its
  /// slot is released).
  func pop() -> (time: Int64, slot: Slot, action: (() throws -> Void)?, handle: EventHandle)? {
    while heapCount > 0 {
      let top = heap[0]
      removeTop()
      let slot = slots[Int(top.slot)]
      guard slot.generation == top.generation else { continue }
      var action: (() throws -> Void)?
      if slot.handler < 0 { swap(&action, &actions[Int(top.slot)]) }
      release(top.slot)
      pendingCount -= 1
      return (top.time, slot, action, EventHandle(slot: top.slot, generation: top.generation))
    }
    return nil
  }

  private func release(_ slot: Int32) {
    slots[Int(slot)].generation &+= 1
    if slots[Int(slot)].handler < 0 { actions[Int(slot)] = nil }
    if freeCount == slotCapacity { growSlots() }
    freeSlots[freeCount] = slot
    freeCount += 1
  }

  private func removeTop() {
    heapCount -= 1
    if heapCount > 0 {
      heap[0] = heap[heapCount]
      siftDown(0)
    }
  }

  private func siftUp(_ start: Int) {
    var i = start
    let item = heap[i]
    while i > 0 {
      let parent = (i - 1) >> 1
      guard item.precedes(heap[parent]) else { break }
      heap[i] = heap[parent]
      i = parent
    }
    heap[i] = item
  }

  private func siftDown(_ start: Int) {
    let count = heapCount
    var i = start
    let item = heap[i]
    while true {
      var child = 2 * i + 1
      guard child < count else { break }
      if child + 1 < count && heap[child + 1].precedes(heap[child]) { child += 1 }
      guard heap[child].precedes(item) else { break }
      heap[i] = heap[child]
      i = child
    }
    heap[i] = item
  }

  private func growHeap() {
    heapCapacity *= 2
    heap = Self.moved(heap, count: heapCount, toCapacity: heapCapacity)
  }

  /// Grows the slot table and the free list together (the free list never holds more entries
  /// than there are slots).
  private func growSlots() {
    slotCapacity *= 2
    slots = Self.moved(slots, count: slotCount, toCapacity: slotCapacity)
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
}
