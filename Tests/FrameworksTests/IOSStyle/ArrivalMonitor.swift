// Written as for iOS 17: this file compiles unchanged against Apple's frameworks, with the
// import swap below as its only difference.
#if canImport(CoreLocation)
  import CoreLocation
  import UserNotifications
#else
  import GeoSimFrameworks
#endif

/// An arrival alarm written the way an iOS 17 developer writes one: a `CLMonitor` holds the
/// destination, a task iterates its events, and arriving posts a local notification.
final class ArrivalMonitor: NSObject, CLLocationManagerDelegate {
  static let monitorName = "arrivals"
  let manager = CLLocationManager()
  let destination: CLLocationCoordinate2D?
  let assumed: CLMonitor.Event.State
  private(set) var notes: [String] = []
  private(set) var monitor: CLMonitor?
  private var askedForNotifications = false

  /// Opens the monitor; with a `destination`, also adds it (a relaunched app passes none: the
  /// condition is still there).
  init(destination: CLLocationCoordinate2D?, assuming assumed: CLMonitor.Event.State = .unknown) {
    self.destination = destination
    self.assumed = assumed
    super.init()
    manager.delegate = self
    manager.requestAlwaysAuthorization()
    Task { await self.watch() }
  }

  func locationManagerDidChangeAuthorization(_ manager: CLLocationManager) {
    let status = manager.authorizationStatus
    guard status == .authorizedAlways || status == .authorizedWhenInUse, !askedForNotifications
    else { return }
    askedForNotifications = true
    UNUserNotificationCenter.current().requestAuthorization(options: [.alert, .sound]) { _, _ in }
  }

  private func watch() async {
    let monitor = await CLMonitor(ArrivalMonitor.monitorName)
    self.monitor = monitor
    if let destination {
      let condition = CLMonitor.CircularGeographicCondition(center: destination, radius: 200)
      await monitor.add(condition, identifier: "destination", assuming: assumed)
    }
    let identifiers = await monitor.identifiers
    notes.append("watching \(identifiers)")
    do {
      for try await event in await monitor.events {
        notes.append(describe(event))
        if event.state == .satisfied { arrive() }
      }
    } catch {
      notes.append("events failed")
    }
  }

  private func describe(_ event: CLMonitor.Event) -> String {
    var text = "\(event.identifier) \(name(of: event.state))"
    if event.authorizationDenied { text += " authorizationDenied" }
    if event.conditionLimitExceeded { text += " conditionLimitExceeded" }
    if event.conditionUnsupported { text += " conditionUnsupported" }
    if event.accuracyLimited { text += " accuracyLimited" }
    return text
  }

  private func name(of state: CLMonitor.Event.State) -> String {
    switch state {
    case .satisfied: return "satisfied"
    case .unsatisfied: return "unsatisfied"
    case .unmonitored: return "unmonitored"
    default: return "unknown"
    }
  }

  private func arrive() {
    let content = UNMutableNotificationContent()
    content.title = "Arrived"
    content.body = "You reached your destination."
    let request = UNNotificationRequest(identifier: "arrived", content: content, trigger: nil)
    UNUserNotificationCenter.current().add(request) { _ in }
  }

  /// The record of the destination, as the app would read it.
  func lastState() async -> String? {
    guard let record = await monitor?.record(for: "destination") else { return nil }
    return name(of: record.lastEvent.state)
  }
}
