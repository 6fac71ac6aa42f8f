import Device
import SimKernel

/// One update of a live-updates stream (`CLLocationUpdate`, iOS 17): a location, or none, and
/// the stream's state (the iOS 18 diagnostic properties).
///
/// The behaviour is the phone's (`Device.LiveUpdateStream`): the same sensor and
/// authorization as `CLLocationManager`, automatic pausing while the device is still, and
/// delivery in the background only while a ``CLBackgroundActivitySession`` is held.
public struct CLLocationUpdate: Sendable {
  /// The kind of positioning a stream asks for (`CLLocationUpdate.LiveConfiguration`).
  public typealias LiveConfiguration = Device.LiveConfiguration

  /// The user's location, if the update has one [A].
  public let location: CLLocation?
  /// Whether updates stopped because the device is stationary [A]; they resume when it moves.
  public let isStationary: Bool
  /// The same as ``isStationary`` (iOS 18).
  public var stationary: Bool { isStationary }
  /// The user denied the app location access (iOS 18).
  public let authorizationDenied: Bool
  /// Location Services are off for the whole device (iOS 18).
  public let authorizationDeniedGlobally: Bool
  /// A location prompt is on screen (iOS 18).
  public let authorizationRequestInProgress: Bool
  /// Location access is restricted (iOS 18).
  public let authorizationRestricted: Bool
  /// The app is not in use enough for its When In Use authorization (iOS 18).
  public let insufficientlyInUse: Bool
  /// No location is available: no fix for a while although one could come (iOS 18).
  public let locationUnavailable: Bool
  /// The app has approximate location only (iOS 18).
  public let accuracyLimited: Bool
  /// The app's Info.plist requires an explicit ``CLServiceSession`` and none is held (iOS 18).
  public let serviceSessionRequired: Bool

  init(_ update: LiveUpdate, in simulation: Simulation) {
    location = update.location.map { CLLocation($0, in: simulation) }
    isStationary = update.isStationary
    authorizationDenied = update.authorizationDenied
    authorizationDeniedGlobally = update.authorizationDeniedGlobally
    authorizationRequestInProgress = update.authorizationRequestInProgress
    authorizationRestricted = update.authorizationRestricted
    insufficientlyInUse = update.insufficientlyInUse
    locationUnavailable = update.locationUnavailable
    accuracyLimited = update.accuracyLimited
    serviceSessionRequired = update.serviceSessionRequired
  }

  /// The updates for `configuration`, as an asynchronous sequence [A]: iterating it starts a
  /// stream on the running app's phone (and an implicit When In Use service session, unless
  /// the app requires explicit ones); leaving the loop stops it.
  ///
  /// While the loop waits for the next update, the wait is listed among the app's pending
  /// work, named after the call's file and line.
  public static func liveUpdates(
    _ configuration: LiveConfiguration = .default,
    file: StaticString = #fileID, line: UInt = #line
  ) -> Updates {
    Updates(
      configuration: configuration,
      label: "CLLocationUpdate.liveUpdates(.\(configuration.rawValue)) at \(file):\(line)")
  }

  /// The asynchronous sequence of updates ``liveUpdates(_:file:line:)`` returns
  /// (`CLLocationUpdate.Updates`).
  public struct Updates: AsyncSequence, Sendable {
    /// The updates.
    public typealias Element = CLLocationUpdate
    let configuration: LiveConfiguration
    let label: String

    /// Starts a stream on the running app's phone.
    public func makeAsyncIterator() -> Iterator {
      Iterator(feed: LiveUpdatesFeed(configuration: configuration, label: label))
    }

    /// Waits for the stream's updates, one at a time.
    public struct Iterator: AsyncIteratorProtocol, Sendable {
      let feed: LiveUpdatesFeed

      /// The next update; `nil` once the task is cancelled or the app's process ended.
      public mutating func next() async throws -> CLLocationUpdate? {
        try await feed.next()
      }
    }
  }
}

/// The app's side of one live-updates stream: the updates not yet taken and the wait for the
/// next one.
final class LiveUpdatesFeed: @unchecked Sendable {
  // Unchecked: a world runs on one thread; the phone's run loop stops the process when its
  // work comes from any other.
  @Uncounted private var phone: Phone? = nil
  private let simulation: Simulation
  private var stream: LiveUpdateStream?
  private var buffer: [LiveUpdate] = []
  private var waiting:
    (continuation: CheckedContinuation<CLLocationUpdate?, any Error>, wait: AppWorkItem)?
  private var cancelled = false
  private let label: String

  init(configuration: CLLocationUpdate.LiveConfiguration, label: String) {
    let phone = Phone.requireCurrent(doing: label)
    self.phone = phone
    self.simulation = phone.simulation
    self.label = label
    stream = phone.startLiveUpdates(configuration) { [weak self] in self?.receive($0) }
  }

  deinit {
    // A phone that is gone took its streams with it.
    if phone != nil { stream?.stop() }
  }

  func next() async throws -> CLLocationUpdate? {
    if !buffer.isEmpty { return CLLocationUpdate(buffer.removeFirst(), in: simulation) }
    guard let phone, let stream, !stream.isStopped, !cancelled,
      !_Concurrency.Task.isCancelled
    else {
      await self.phone?.runLoop.closingTurn()
      return finish()
    }
    let wait = phone.runLoop.beginWaiting(label) { [self] in cancel() }
    return try await withTaskCancellationHandler {
      try await withCheckedThrowingContinuation { continuation in
        if cancelled {
          wait.cancel()
          continuation.resume(returning: nil)
        } else {
          waiting = (continuation, wait)
        }
      }
    } onCancel: {
      // Cancelling is app code, on the world's thread.
      self.cancel()
    }
  }

  private func receive(_ update: LiveUpdate) {
    guard let waiting else { return buffer.append(update) }
    self.waiting = nil
    waiting.wait.cancel()
    waiting.continuation.resume(returning: CLLocationUpdate(update, in: simulation))
  }

  private func cancel() {
    cancelled = true
    if let waiting {
      self.waiting = nil
      waiting.wait.cancel()
      waiting.continuation.resume(returning: nil)
    }
    if phone != nil { stream?.stop() }
  }

  /// The stream is over: it stops, and the sequence ends.
  private func finish() -> CLLocationUpdate? {
    if phone != nil { stream?.stop() }
    stream = nil
    return nil
  }
}
