// Written as for iOS: the import swap is this file's only difference from an Xcode target's.
#if canImport(CoreLocation)
  import CoreLocation
#else
  import GeoSimFrameworks
#endif

/// A main-actor view model that refreshes in the background the way current iOS code does:
/// a task on the main actor, child tasks with `async let` and a task group, a hop with
/// `MainActor.run`, a cancellable periodic refresh with `Task.sleep`.
@MainActor final class Refresher {
  private(set) var log: [String] = []
  private var refreshing: Task<Void, Never>?

  func start() {
    refreshing = Task { @MainActor in
      var round = 0
      while !Task.isCancelled {
        round += 1
        async let weather = Self.fetch("weather", after: 2)
        async let stations = Self.fetch("stations", after: 1)
        let both = await [weather, stations]
        let extra = await withTaskGroup(of: String.self) { group in
          for name in ["a", "b", "c"] { group.addTask { await Self.fetch(name, after: 0.5) } }
          var names: [String] = []
          for await name in group { names.append(name) }
          return names.sorted()
        }
        log.append("round \(round): \(both.joined(separator: "+")) \(extra.joined())")
        do {
          try await Task.sleep(for: .seconds(60))
        } catch {
          log.append("cancelled in round \(round)")
        }
      }
    }
  }

  func stop() {
    refreshing?.cancel()
  }

  nonisolated static func fetch(_ name: String, after seconds: Double) async -> String {
    try? await Task.sleep(for: .seconds(seconds))
    return await MainActor.run { name }
  }
}

/// Starts the refresher from a main-queue block and stops it from a timer, as an app would.
final class RefresherApp: NSObject {
  var refresher: Refresher?

  override init() {
    super.init()
    DispatchQueue.main.async {
      MainActor.assumeIsolated {
        let refresher = Refresher()
        self.refresher = refresher
        refresher.start()
      }
    }
    Timer.scheduledTimer(withTimeInterval: 150, repeats: false) { _ in
      MainActor.assumeIsolated { self.refresher?.stop() }
    }
  }
}
