// Written as for iOS: this file compiles unchanged against Apple's frameworks, with the import
// swap below as its only difference.
#if canImport(CoreLocation)
  import CoreLocation
  import UserNotifications
#else
  import GeoSimFrameworks
#endif

/// Checks the user in at two places, the way a small iOS feature would: Always permission
/// asked from a main-queue block, notification permission once location is settled, a local
/// notification on every arrival, and the last place kept in the user's defaults for the next
/// launch.
final class CheckIn: NSObject, CLLocationManagerDelegate {
  static let lastPlaceKey = "lastCheckIn"
  let manager = CLLocationManager()
  let places: [CLCircularRegion]
  /// Where the user last checked in, as stored by an earlier launch.
  let previousPlace: String?
  private(set) var notes: [String] = []
  private var askedForNotifications = false

  init(places: [String: CLLocationCoordinate2D], radius: CLLocationDistance = 150) {
    self.places = places.keys.sorted().map { name in
      CLCircularRegion(center: places[name]!, radius: radius, identifier: name)
    }
    previousPlace = UserDefaults.standard.string(forKey: CheckIn.lastPlaceKey)
    super.init()
    manager.delegate = self
    DispatchQueue.main.async {
      self.manager.requestAlwaysAuthorization()
    }
  }

  func locationManagerDidChangeAuthorization(_ manager: CLLocationManager) {
    let status = manager.authorizationStatus
    guard status == .authorizedAlways || status == .authorizedWhenInUse else { return }
    for place in places { manager.startMonitoring(for: place) }
    guard !askedForNotifications else { return }
    askedForNotifications = true
    UNUserNotificationCenter.current().requestAuthorization(options: [.alert, .sound, .badge]) {
      granted, _ in
      DispatchQueue.main.async { self.notes.append(granted ? "may notify" : "may not notify") }
    }
  }

  func locationManager(_ manager: CLLocationManager, didEnterRegion region: CLRegion) {
    UserDefaults.standard.set(region.identifier, forKey: CheckIn.lastPlaceKey)
    let content = UNMutableNotificationContent()
    content.title = "Checked in"
    content.body = "You arrived at \(region.identifier)."
    content.sound = .default
    content.badge = 1
    content.userInfo = ["place": region.identifier]
    let request = UNNotificationRequest(
      identifier: "check-in." + region.identifier, content: content, trigger: nil)
    UNUserNotificationCenter.current().add(request) { error in
      DispatchQueue.main.async {
        self.notes.append(error == nil ? "checked in at \(region.identifier)" : "failed: \(error!)")
      }
    }
  }
}
