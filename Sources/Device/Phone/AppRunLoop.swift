import SimKernel

/// The app's main thread in virtual time: the work its code queues — main-queue blocks, timers,
/// sleeping tasks, awaited framework answers — run as kernel events of the world that owns the
/// phone, in the order they were queued, and only while the app's process runs.
///
/// Work follows the process as on iOS: while the app is suspended it waits, and runs when the
/// app runs again; when the process ends it is gone (the log records how much, as
/// `app`/`workDropped`). What is still queued when a run ends is listed by ``pendingWork``, so
/// nothing the app asked for disappears without a trace.
///
/// A run loop belongs to its phone's thread: work queued from any other thread is a
/// programming error that stops the process with a message saying so.
///
/// When the world is over, ``shutDown()`` releases the app's Swift tasks: a task suspended in a
/// wait (a stream's next element, a sleep, a framework answer) holds the objects it uses, and
/// they hold the phone, so a task that is never resumed keeps the whole world in memory.
public final class AppRunLoop {
  /// The phone owns its run loop, so it outlives it (and its simulation and process too: no
  /// reference counting on the path every queued job takes).
  private unowned(unsafe) let phone: Phone
  private unowned(unsafe) let simulation: Simulation
  private unowned(unsafe) let process: AppProcess
  /// Timers, sleeps and waits: the work that can be cancelled (``AppWorkItem``), until it runs,
  /// is cancelled or ends with the process; a timer or a sleep that came due stays here, as
  /// `queued`, until it runs.
  private var items: [Int: PendingAppWork] = [:]
  /// How each open wait or sleep ends if the run ends first.
  private var endings: [Int: () -> Void] = [:]
  /// The work queued to run, by ticket (`ready[0]` has ticket `readyBase`); each has a kernel
  /// event at the instant it was queued, which carries its ticket.
  private var ready: [ReadyWork] = []
  private var readyBase = 0
  /// The first entry of `ready` that may still run.
  private var readyHead = 0
  /// Queued work whose turn came while its process was not running or after it had ended: it
  /// never runs while the world runs, and waits, listed, for the end of the process or of the
  /// world, as the other queued work does.
  private var stranded: [ReadyWork] = []
  /// The handler of the queued work's kernel events, made on first use, and its identifier.
  private var readyEvents: ReadyEvents?
  private var readyHandler: HandlerID?
  /// What ended processes left behind — their queued code and the endings of their waits —
  /// kept for ``shutDown()``: it never runs while the world runs.
  private var leftBehind: [() -> Void] = []
  /// The work of the shut-down run loop, run at once in order; `nil` while the world runs.
  private var closing: [() -> Void]?
  private var nextItem = 0
  private var isClosing = false
  private var closingRuns = 0
  /// The executor that runs Swift concurrency jobs of the app (its main actor and its tasks).
  public private(set) lazy var executor = AppExecutor(runLoop: self)

  /// How many pieces of work ``shutDown()`` runs at most: an app whose tasks keep starting
  /// new work after the end (a loop that sleeps and starts again) is left there.
  public static let closingBudget = 100_000

  init(phone: Phone) {
    self.phone = phone
    self.simulation = phone.simulation
    self.process = phone.process
  }

  /// The phone this run loop belongs to.
  public var owner: Phone { phone }

  /// Whether ``shutDown()`` ran: the world is over.
  public var isShutDown: Bool { closing != nil }

  /// Runs `body` in the app at the current instant, after everything already queued (a
  /// `DispatchQueue.main.async`).
  ///
  /// - Parameters:
  ///   - label: what the work is, for ``pendingWork`` (the code's file and line).
  ///   - body: the work.
  public func enqueue(_ label: String, _ body: @escaping () -> Void) {
    if closing != nil { return close(body) }
    queue(.code(body), label)
  }

  /// Queues a Swift concurrency job as ``enqueue(_:_:)`` queues code, without wrapping it.
  fileprivate func enqueue(_ job: UnownedJob) {
    if closing != nil { return close(Self.code(.job(job), executor)) }
    queue(.job(job), "a Swift task")
  }

  private func queue(_ body: ReadyWork.Body, _ label: String) {
    Phone.requireCurrent(phone, doing: label)
    nextItem += 1
    let now = simulation.now
    makeReady(
      ReadyWork(
        item: nextItem, work: PendingAppWork(kind: .queued, label: label, queuedAt: now, due: now),
        generation: process.generation, body: body))
  }

  /// Adds `work` to the queue, with its kernel event at the current instant (the call into the
  /// app that runs it when its turn comes).
  private func makeReady(_ work: ReadyWork) {
    let ticket = readyBase + ready.count
    ready.append(work)
    let handler = readyHandler ?? makeReadyEvents()
    checkedScheduling {
      try simulation.schedule(
        at: simulation.now, handler: handler, code: 0, argument: Int64(ticket))
    }
  }

  private func makeReadyEvents() -> HandlerID {
    let events = simulation.register { ReadyEvents(self, id: $0) }
    readyEvents = events
    readyHandler = events.id
    return events.id
  }

  /// The turn of the work with `ticket` came: as for any call into the app, it runs now, or when
  /// a suspended app next runs; queued for another launch of the app than the one running, or
  /// while none runs, it is stranded.
  fileprivate func turnCame(_ ticket: Int, process: AppProcess) {
    guard let index = index(ofReady: ticket) else { return }
    guard ready[index].generation == process.generation, process.state != .notRunning else {
      stranded.append(ready[index])
      return consume(index)
    }
    if process.state == .suspended {
      process.deliverToApp { [unowned(unsafe) self] in self.runReady(ticket) }
    } else {
      runReady(ticket)
    }
  }

  /// The index in `ready` of the work with `ticket`, if it is still to run.
  private func index(ofReady ticket: Int) -> Int? {
    let index = ticket - readyBase
    guard index >= readyHead, index < ready.count, ready[index].body != nil else { return nil }
    return index
  }

  /// Takes the work at `index` off the queue; the queue forgets what is done at its front.
  private func consume(_ index: Int) {
    ready[index].body = nil
    while readyHead < ready.count, ready[readyHead].body == nil { readyHead += 1 }
    if readyHead == ready.count {
      readyBase += ready.count
      ready.removeAll(keepingCapacity: true)
      readyHead = 0
    }
  }

  private func runReady(_ ticket: Int) {
    guard let index = index(ofReady: ticket) else { return }
    let entry = ready[index]
    consume(index)
    // A timer or a sleep that came due runs unless it was cancelled since.
    if entry.work == nil, items.removeValue(forKey: entry.item) == nil { return }
    switch entry.body {
    case .code(let body)?: body()
    case .job(let job)?:
      job.runSynchronously(
        isolatedTo: executor.asUnownedSerialExecutor(),
        taskExecutor: executor.asUnownedTaskExecutor())
    case nil: break
    }
  }

  /// The queued work that has not run, stranded or not, as code: each with its item (a timer
  /// or a sleep that came due only if it is still in `items`).
  private func readyCode() -> [(item: Int, body: () -> Void)] {
    (stranded + ready[readyHead...]).compactMap { entry in
      guard let body = entry.body, entry.work != nil || items[entry.item] != nil else {
        return nil
      }
      return (entry.item, Self.code(body, executor))
    }
  }

  private static func code(_ body: ReadyWork.Body, _ executor: AppExecutor) -> () -> Void {
    switch body {
    case .code(let code): return code
    case .job(let job):
      return {
        job.runSynchronously(
          isolatedTo: executor.asUnownedSerialExecutor(),
          taskExecutor: executor.asUnownedTaskExecutor())
      }
    }
  }

  /// Forgets every piece of queued work: their events find nothing to run.
  private func clearReady() {
    readyBase += ready.count
    ready.removeAll()
    readyHead = 0
    stranded.removeAll()
  }

  /// Runs `body` in the app after `delay` (a timer or a sleep), unless cancelled first.
  ///
  /// - Parameters:
  ///   - delay: the delay; `nil` means never (a deadline past the simulation's calendar), so
  ///     the work stays pending for the rest of the run.
  ///   - kind: what kind of work waits.
  ///   - label: what the work is, for ``pendingWork``.
  ///   - end: for a task's sleep, what ends it if the run ends first (as if its time had
  ///     passed); a timer has none, and never fires after the run.
  ///   - body: the work.
  /// - Returns: a handle that cancels the work.
  @discardableResult
  public func schedule(
    after delay: SimDuration?, kind: PendingAppWork.Kind = .timer, _ label: String,
    endedBy end: (() -> Void)? = nil, _ body: @escaping () -> Void
  ) -> AppWorkItem {
    if closing != nil {
      if let end { close(end) }
      // Item 0 is never registered: the handle is of work that is not pending.
      return AppWorkItem(runLoop: self, item: 0, event: nil)
    }
    let due = delay.flatMap(Self.instant(after: simulation.now))
    let item = register(kind, label, due: due)
    endings[item] = end
    var handle: EventHandle?
    if let due {
      handle = checkedScheduling {
        try simulation.schedule(at: due) { [unowned(unsafe) self] in
          // Due: the same piece of work now waits its turn on the main thread.
          guard self.items[item] != nil else { return }
          self.items[item]?.kind = .queued
          self.endings[item] = nil
          self.makeReady(
            ReadyWork(
              item: item, work: nil, generation: self.process.generation,
              body: .code(body)))
        }
      }
    }
    return AppWorkItem(runLoop: self, item: item, event: handle)
  }

  /// Marks the start of a wait for an answer the system will give later (an awaited framework
  /// call); ``AppWorkItem/cancel()`` ends it. A wait still open when the run ends is listed
  /// in ``pendingWork``.
  ///
  /// - Parameters:
  ///   - label: what the wait is, for ``pendingWork``.
  ///   - end: what answers the wait in the system's place if the run ends first, so that the
  ///     waiting task can finish (``shutDown()``): a stream ends, a request gets an answer that
  ///     changes nothing. It must do nothing if the wait was answered already.
  public func beginWaiting(_ label: String, endedBy end: @escaping () -> Void) -> AppWorkItem {
    if closing != nil {
      close(end)
      return AppWorkItem(runLoop: self, item: 0, event: nil)
    }
    let item = register(.waiting, label, due: nil)
    endings[item] = end
    return AppWorkItem(runLoop: self, item: item, event: nil)
  }

  /// Everything the app queued that has not run: in the order it was queued.
  public var pendingWork: [PendingAppWork] {
    var all = items.map { (item: $0.key, work: $0.value) }
    for entry in stranded + ready[readyHead...] where entry.body != nil {
      if let work = entry.work { all.append((entry.item, work)) }
    }
    return all.sorted { $0.item < $1.item }.map(\.work)
  }

  /// What is left of the app's work when its process or the world ends, in the order it was
  /// queued: queued code, and how open waits and sleeps end.
  private func remainingCode() -> [() -> Void] {
    var all = readyCode()
    for (item, end) in endings { all.append((item, end)) }
    return all.sorted { $0.item < $1.item }.map(\.body)
  }

  /// The process ended: its queued work ended with it. Its tasks stay where they are until
  /// ``shutDown()``: a process that is gone runs no code while the world runs.
  func processEnded() {
    let queued = (stranded + ready[readyHead...]).filter { $0.body != nil && $0.work != nil }
      .count
    let count = items.count + queued
    guard count > 0 else { return }
    leftBehind += remainingCode()
    items.removeAll()
    endings.removeAll()
    clearReady()
    phone.record(AppLifecycleEvent.workDropped(count: count))
  }

  /// The world is over: every task of the app is released.
  ///
  /// Each wait still open — of this process or of one that ended — is answered as its
  /// `endedBy` says (a stream ends, a sleep ends as if its time had passed, a request gets an
  /// answer that changes nothing); queued work, including what a suspended app had not run
  /// yet, runs. Then everything this starts runs at once, in order, until nothing is left or
  /// ``closingBudget`` pieces ran: a wait begun now is answered at its next turn, a sleep ends
  /// then too, a timer never fires. The app's tasks are not cancelled — iOS never cancels them when it
  /// ends a process, and code such as `try! await Task.sleep(…)` would trap. Nothing of this
  /// is logged, and no virtual time passes. Call it once, on the world's thread with the phone
  /// current, after the run's results are read: ``pendingWork`` is empty afterwards.
  public func shutDown() {
    guard closing == nil else { return }
    let work = leftBehind + remainingCode()
    leftBehind.removeAll()
    items.removeAll()
    endings.removeAll()
    clearReady()
    closing = work
    runClosingWork()
  }

  private func close(_ body: @escaping () -> Void) {
    closing?.append(body)
    if !isClosing { runClosingWork() }
  }

  /// Runs the shut-down run loop's work in order, including what it adds as it runs.
  private func runClosingWork() {
    isClosing = true
    var next = 0
    while closingRuns < Self.closingBudget, let count = closing?.count, next < count {
      let body = closing![next]
      next += 1
      closingRuns += 1
      body()
    }
    closing = []
    isClosing = false
  }

  fileprivate func isPending(_ item: Int) -> Bool { items[item] != nil }

  fileprivate func finish(_ item: Int, event: EventHandle?) {
    guard items.removeValue(forKey: item) != nil else { return }
    endings[item] = nil
    if let event { simulation.cancel(event) }
  }

  private func register(_ kind: PendingAppWork.Kind, _ label: String, due: SimTime?) -> Int {
    Phone.requireCurrent(phone, doing: label)
    nextItem += 1
    items[nextItem] = PendingAppWork(
      kind: kind, label: label, queuedAt: simulation.now, due: due)
    return nextItem
  }

  /// The instant `delay` after `now`, or `nil` if it is past the last representable instant.
  private static func instant(after now: SimTime) -> (SimDuration) -> SimTime? {
    { delay in
      let (sum, overflow) = now.nanoseconds.addingReportingOverflow(max(delay.nanoseconds, 0))
      return overflow ? nil : SimTime(nanoseconds: sum)
    }
  }

  /// `seconds` as a delay: negative ones are due at once (as Dispatch runs a past deadline at
  /// once), and `nil` for one too long for the simulation's calendar (about 292 years) or not
  /// a number.
  public static func delay(seconds: Double) -> SimDuration? {
    guard !seconds.isNaN else { return nil }
    guard seconds > 0 else { return .zero }
    guard seconds < 9.2e9 else { return nil }
    return .seconds(seconds)
  }
}

/// Receives the kernel events of an ``AppRunLoop``'s queued work. The run loop owns it, and it
/// leaves the kernel when the run loop goes; it reaches the run loop only while the phone's
/// process lasts (a run loop kept past its phone finds nothing to run).
private final class ReadyEvents: SimulationEventHandler {
  private unowned(unsafe) let runLoop: AppRunLoop
  private let process: Uncounted<AppProcess>
  private let simulation: Simulation
  let id: HandlerID

  init(_ runLoop: AppRunLoop, id: HandlerID) {
    self.runLoop = runLoop
    self.process = Uncounted(runLoop.owner.process)
    self.simulation = runLoop.owner.simulation
    self.id = id
  }

  deinit { simulation.unregister(id) }

  func handle(_ event: FiredEvent, in simulation: Simulation) {
    guard let process = process.value else { return }
    runLoop.turnCame(Int(event.argument), process: process)
  }
}

/// A piece of work queued to run on an ``AppRunLoop``.
private struct ReadyWork {
  /// What runs: code, or a Swift concurrency job (run on the app's executor).
  enum Body {
    case code(() -> Void)
    case job(UnownedJob)
  }

  /// The number the run loop gave the work, in the order it was queued.
  let item: Int
  /// The queued work as ``AppRunLoop/pendingWork`` lists it; `nil` for a timer or a sleep
  /// that came due, which the run loop's items hold (and cancelling takes off).
  let work: PendingAppWork?
  /// The launch of the app it was queued for.
  let generation: Int
  /// `nil` once it ran or was dropped.
  var body: Body?
}

/// Work the app queued that has not run yet.
public struct PendingAppWork: Hashable, Sendable, CustomStringConvertible {
  /// A description of queued work.
  public init(kind: Kind, label: String, queuedAt: SimTime, due: SimTime?) {
    self.kind = kind
    self.label = label
    self.queuedAt = queuedAt
    self.due = due
  }

  /// What kind of work it is.
  public enum Kind: String, Hashable, Sendable, CaseIterable {
    /// Queued to run at once (a main-queue block, a task's next step), waiting for its turn or
    /// for the app to run again.
    case queued
    /// Due at a later instant (a timer, `asyncAfter`).
    case timer
    /// A task sleeping until a later instant (`Task.sleep`).
    case sleep
    /// Awaiting an answer from the system (a location, a permission, a geocode).
    case waiting
  }

  /// What kind of work it is.
  public var kind: Kind
  /// What the work is: the code's file and line, and the API.
  public var label: String
  /// When it was queued.
  public var queuedAt: SimTime
  /// When it is due, if it has a deadline.
  public var due: SimTime?

  /// "timer DispatchQueue.main.asyncAfter at CheckIn.swift:12, queued at 12 s, due at 600 s".
  public var description: String {
    var text = "\(kind.rawValue) \(label), queued at \(queuedAt.seconds) s"
    if let due { text += ", due at \(due.seconds) s" }
    return text
  }
}

/// A handle on queued work: cancelling it takes it off the run loop.
public struct AppWorkItem {
  fileprivate unowned(unsafe) let runLoop: AppRunLoop
  fileprivate let item: Int
  fileprivate let event: EventHandle?

  /// Takes the work off the run loop if it has not run; does nothing otherwise.
  public func cancel() {
    runLoop.finish(item, event: event)
  }

  /// Whether the work is still waiting: it has not run, was not cancelled, and did not end
  /// with the app's process. An answer to a wait that is no longer pending belongs to a
  /// process that is gone, and must be dropped.
  public var isPending: Bool { runLoop.isPending(item) }
}

/// Runs the app's Swift concurrency jobs on its run loop: the executor of the app's main actor
/// and the preferred executor of its tasks, so that `await`, `Task { }` and `@MainActor` code run
/// in virtual time, one job at a time, in a deterministic order.
public final class AppExecutor: SerialExecutor, TaskExecutor, @unchecked Sendable {
  // Unchecked: a world runs on one thread; `AppRunLoop` stops the process if a job is queued
  // from any other.
  private unowned(unsafe) let runLoop: AppRunLoop

  init(runLoop: AppRunLoop) {
    self.runLoop = runLoop
  }

  /// Queues `job` on the app's run loop.
  public func enqueue(_ job: consuming ExecutorJob) {
    runLoop.enqueue(UnownedJob(job))
  }

  /// This executor as a serial executor reference.
  public func asUnownedSerialExecutor() -> UnownedSerialExecutor {
    UnownedSerialExecutor(ordinary: self)
  }

  /// This executor as a task executor reference.
  public func asUnownedTaskExecutor() -> UnownedTaskExecutor {
    UnownedTaskExecutor(ordinary: self)
  }

  /// Stops the process unless the calling thread is running this executor's world.
  public func checkIsolated() {
    Phone.requireCurrent(runLoop.owner, doing: "code isolated to the app's main actor")
  }
}
