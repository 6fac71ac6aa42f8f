// Written as for iOS: the import swap is this file's only difference from an Xcode target's.
#if canImport(CoreLocation)
  import CoreLocation
#else
  import GeoSimFrameworks
#endif

/// A run tracker written the way an iOS 18 app asks for location today: a `CLServiceSession`
/// for the authorization, `CLLocationUpdate.liveUpdates(.fitness)` for the fixes, and a
/// `CLBackgroundActivitySession` to keep tracking when the runner locks the phone.
@MainActor final class RunTracker {
  private(set) var locations: [CLLocation] = []
  private(set) var stationaryUpdates = 0
  private(set) var deniedUpdates = 0
  private(set) var requestsInProgress = 0
  private var session: CLServiceSession?
  private var background: CLBackgroundActivitySession?
  private var tracking: Task<Void, Never>?
  private var watching: Task<Void, Never>?

  func start(inBackgroundToo: Bool) {
    let session = CLServiceSession(authorization: .whenInUse)
    self.session = session
    if inBackgroundToo { background = CLBackgroundActivitySession() }
    watching = Task { @MainActor in
      do {
        for try await diagnostic in session.diagnostics
        where diagnostic.authorizationRequestInProgress {
          requestsInProgress += 1
        }
      } catch {}
    }
    tracking = Task { @MainActor in
      do {
        for try await update in CLLocationUpdate.liveUpdates(.fitness) {
          if let location = update.location { locations.append(location) }
          if update.isStationary { stationaryUpdates += 1 }
          if update.authorizationDenied { deniedUpdates += 1 }
        }
      } catch {}
    }
  }

  func stop() {
    tracking?.cancel()
    background?.invalidate()
    session?.invalidate()
  }
}

/// Starts the tracker when the app launches, as an app's scene would.
final class RunTrackerApp: NSObject {
  var tracker: RunTracker?

  init(inBackgroundToo: Bool) {
    super.init()
    DispatchQueue.main.async {
      MainActor.assumeIsolated {
        let tracker = RunTracker()
        self.tracker = tracker
        tracker.start(inBackgroundToo: inBackgroundToo)
      }
    }
  }
}
