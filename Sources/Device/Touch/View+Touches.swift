import SimKernel

extension View {
  /// Replays a raw touch stream: each sample reaches the view's recognizers as a kernel event at
  /// its time.
  ///
  /// The whole stream is checked before anything is scheduled, continuing from any stream
  /// replayed earlier; it throws ``DeviceError`` naming the first bad sample by its index when
  /// times go backwards or lie before now, a point is not finite, a finger touches down outside
  /// the view (a finger may then leave the view: its touch stays with the view it began in
  /// [A]), touches down twice, or moves, lifts or is cancelled without being down.
  public func replay(_ samples: [TouchSample]) throws {
    var fingers = scheduledFingers
    var previous = lastScheduledTime ?? phone.simulation.now
    let now = phone.simulation.now
    for (i, sample) in samples.enumerated() {
      func fail(_ why: String) -> DeviceError {
        DeviceError(.invalidArgument, "touch \(i) (\(sample)): \(why)")
      }
      guard sample.time >= now else { throw fail("it is before now (\(now))") }
      guard sample.time >= previous else {
        throw fail("it is earlier than the touch before it (\(previous)); times must not decrease")
      }
      guard sample.point.isFinite else { throw fail("the point is not finite") }
      switch sample.phase {
      case .began:
        guard contains(sample.point) else {
          throw fail("it touches down outside the view (0...\(size.width), 0...\(size.height))")
        }
        guard fingers.insert(sample.finger).inserted else {
          throw fail("finger \(sample.finger) is already down")
        }
      case .moved:
        guard fingers.contains(sample.finger) else {
          throw fail("finger \(sample.finger) moves without touching down first")
        }
      case .ended, .cancelled:
        guard fingers.remove(sample.finger) != nil else {
          throw fail("finger \(sample.finger) lifts without touching down first")
        }
      }
      previous = sample.time
    }
    scheduledFingers = fingers
    lastScheduledTime = previous
    for sample in samples {
      try phone.simulation.schedule(at: sample.time) { [weak self] in self?.deliver(sample) }
    }
  }

  /// Hands one sample to the recognizers, in the order they were added.
  func deliver(_ sample: TouchSample) {
    phone.record(TouchEvent.touch(sample))
    touches[sample.finger] = sample.point
    let fingers = touches
    for recognizer in gestureRecognizers where recognizer.isTracking {
      recognizer.fingerCount = fingers.count
      switch sample.phase {
      case .began: recognizer.touchBegan(sample.finger, fingers: fingers)
      case .moved: recognizer.touchMoved(sample.finger, fingers: fingers)
      case .ended: recognizer.touchEnded(sample.finger, fingers: fingers)
      case .cancelled: recognizer.touchCancelled(sample.finger, fingers: fingers)
      }
    }
    if sample.phase == .ended || sample.phase == .cancelled {
      touches[sample.finger] = nil
      if touches.isEmpty { resetFinished() }
    }
  }

  /// Once every finger is up, recognizers that are done start afresh.
  func resetFinished() {
    for recognizer in gestureRecognizers where recognizer.pendingState == nil {
      switch recognizer.state {
      case .ended, .cancelled, .failed: recognizer.reset()
      default: break
      }
    }
  }

  /// Moves `recognizer` to `newState`, applying failure requirements and exclusion.
  func transition(_ recognizer: GestureRecognizer, to newState: GestureRecognizer.State) {
    let wasPossible = recognizer.state == .possible
    if wasPossible && (newState == .began || newState == .ended) {
      if recognizer.failureRequirements.contains(where: { isUnresolved($0) }) {
        recognizer.pendingState = newState
        logGesture(recognizer, waiting: true)
        return
      }
    }
    recognizer.state = newState
    if newState == .failed || newState == .cancelled || newState == .ended {
      recognizer.cancelTimer()
    }
    logGesture(recognizer, waiting: false)
    if newState == .failed {
      resolveDependents(of: recognizer, recognized: false)
    } else {
      if wasPossible && (newState == .began || newState == .ended) {
        exclude(by: recognizer)
      }
      recognizer.callTargets()
      if wasPossible { resolveDependents(of: recognizer, recognized: true) }
    }
    if touches.isEmpty && recognizer.state != .possible && recognizer.pendingState == nil
      && recognizer.state != .began && recognizer.state != .changed
    {
      recognizer.reset()
    }
  }

  private func isUnresolved(_ requirement: GestureRecognizer) -> Bool {
    requirement.view === self && requirement.isEnabled && requirement.state != .failed
  }

  /// Fails the other recognizers still possible, unless they may recognize simultaneously.
  private func exclude(by winner: GestureRecognizer) {
    for other in gestureRecognizers where other !== winner && other.state == .possible {
      if other.pendingState != nil { continue }
      if simultaneous(winner, other) { continue }
      if let tap = other as? TapGestureRecognizer, winner is TapGestureRecognizer,
        tap.isBetweenTaps
      {
        continue
      }
      transition(other, to: .failed)
    }
  }

  private func simultaneous(_ a: GestureRecognizer, _ b: GestureRecognizer) -> Bool {
    a.shouldRecognizeSimultaneously?(a, b) == true || b.shouldRecognizeSimultaneously?(b, a) == true
  }

  /// Lets recognizers waiting for `requirement` go: they fail if it recognized, and recognize
  /// if it failed and nothing else holds them.
  private func resolveDependents(of requirement: GestureRecognizer, recognized: Bool) {
    for waiting in gestureRecognizers
    where waiting.pendingState != nil
      && waiting.failureRequirements.contains(where: { $0 === requirement })
    {
      let pending = waiting.pendingState!
      if recognized {
        waiting.pendingState = nil
        transition(waiting, to: .failed)
      } else if !waiting.failureRequirements.contains(where: {
        $0 !== requirement && isUnresolved($0)
      }) {
        waiting.pendingState = nil
        transition(waiting, to: pending)
      }
    }
  }

  func logGesture(_ recognizer: GestureRecognizer, waiting: Bool) {
    let gesture = LoggedGesture(
      recognizer: recognizer.kind, recognizerName: recognizer.name, state: recognizer.state,
      location: recognizer.lastLocation)
    phone.record(waiting ? GestureEvent.waiting(gesture) : GestureEvent.changed(gesture))
  }
}
