#if canImport(CoreLocation)
  import CoreLocation
  import UserNotifications
#else
  import GeoSimFrameworks
#endif

/// Checks the user in at their saved places: a notification on arrival, and the last
/// check-in remembered across launches.
///
/// Written as for iOS: notification permission first, then location permission from the main
/// queue (the permission callback comes on a background queue), one monitored circle per
/// place, and the manager created at every launch so that a relaunch for a region event gets
/// the event.
public final class CheckInService: NSObject, CLLocationManagerDelegate {
  /// A place the user checks in at.
  public struct Place {
    /// The place's name, also its region's identifier.
    public let name: String
    /// Where it is.
    public let latitude: CLLocationDegrees
    /// Where it is.
    public let longitude: CLLocationDegrees
    /// How far around it counts as arriving, in metres.
    public let radius: CLLocationDistance
  }

  /// The user's saved places.
  public static let places = [
    Place(name: "Office", latitude: 35.66210, longitude: 139.70400, radius: 150),
    Place(name: "Gym", latitude: 35.66640, longitude: 139.71120, radius: 150),
  ]
  static let lastCheckInKey = "lastCheckIn"

  let manager = CLLocationManager()
  let notifications = UNUserNotificationCenter.current()

  /// The place of the last check-in, from any launch.
  public var lastCheckIn: String? {
    UserDefaults.standard.string(forKey: Self.lastCheckInKey)
  }

  /// Asks for permissions, then monitors the places.
  public func start() {
    manager.delegate = self
    notifications.requestAuthorization(options: [.alert, .sound]) { granted, _ in
      guard granted else { return }
      DispatchQueue.main.async {
        self.manager.requestAlwaysAuthorization()
      }
    }
  }

  /// Once authorized, monitors every place not monitored yet.
  public func locationManagerDidChangeAuthorization(_ manager: CLLocationManager) {
    switch manager.authorizationStatus {
    case .authorizedAlways, .authorizedWhenInUse:
      guard CLLocationManager.isMonitoringAvailable(for: CLCircularRegion.self) else { return }
      for place in Self.places where !isMonitoring(place) {
        let region = CLCircularRegion(
          center: CLLocationCoordinate2D(latitude: place.latitude, longitude: place.longitude),
          radius: place.radius, identifier: place.name)
        region.notifyOnExit = false
        manager.startMonitoring(for: region)
      }
    default:
      break
    }
  }

  /// Checks in: a notification now, and the place remembered.
  public func locationManager(_ manager: CLLocationManager, didEnterRegion region: CLRegion) {
    let content = UNMutableNotificationContent()
    content.title = "Checked in"
    content.body = "Welcome to \(region.identifier)"
    content.sound = .default
    let request = UNNotificationRequest(
      identifier: "checkin.\(region.identifier)", content: content, trigger: nil)
    notifications.add(request) { error in
      if let error { print("check-in notification failed: \(error)") }
    }
    UserDefaults.standard.set(region.identifier, forKey: Self.lastCheckInKey)
  }

  /// A place cannot be watched (too many regions, no permission).
  public func locationManager(
    _ manager: CLLocationManager, monitoringDidFailFor region: CLRegion?, withError error: Error
  ) {
    print("cannot watch \(region?.identifier ?? "a place"): \(error)")
  }

  private func isMonitoring(_ place: Place) -> Bool {
    manager.monitoredRegions.contains { $0.identifier == place.name }
  }
}
