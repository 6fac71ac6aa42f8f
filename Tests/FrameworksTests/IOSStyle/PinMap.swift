// Written as for iOS: this file compiles unchanged against Apple's frameworks, with the import
// swap below as its only difference. (In an app target the class would carry `@main`.)
#if canImport(UIKit)
  import UIKit
  import MapKit
  import CoreLocation
#else
  import GeoSimFrameworks
#endif

/// A small map app as an iOS developer writes it in the app delegate: it asks for location,
/// centres its map on the first fix and drops a pin there, and watches a place near home,
/// counting on iOS to relaunch it when the user arrives. It notes every lifecycle callback
/// with the application state it sees.
final class AppDelegate: UIResponder, UIApplicationDelegate, CLLocationManagerDelegate {
  let locationManager = CLLocationManager()
  let mapView = MKMapView(frame: CGRect(x: 0, y: 0, width: 390, height: 844))
  let home = CLCircularRegion(
    center: CLLocationCoordinate2D(latitude: 35.681236, longitude: 139.767125), radius: 150,
    identifier: "home")
  private(set) var notes: [String] = []
  private(set) var pin: MKPointAnnotation?
  private(set) var launchedWithOptions = false
  private(set) var launchedForLocation = false

  func application(
    _ application: UIApplication,
    willFinishLaunchingWithOptions launchOptions: [UIApplication.LaunchOptionsKey: Any]?
  ) -> Bool {
    note("willFinishLaunching", application)
    return true
  }

  func application(
    _ application: UIApplication,
    didFinishLaunchingWithOptions launchOptions: [UIApplication.LaunchOptionsKey: Any]?
  ) -> Bool {
    note("didFinishLaunching", application)
    launchedWithOptions = launchOptions != nil
    launchedForLocation = (launchOptions?[.location] as? NSNumber)?.boolValue == true
    mapView.showsUserLocation = true
    locationManager.delegate = self
    locationManager.desiredAccuracy = kCLLocationAccuracyBest
    if !launchedForLocation {
      locationManager.requestAlwaysAuthorization()
    }
    return true
  }

  func applicationDidBecomeActive(_ application: UIApplication) {
    note("didBecomeActive", application)
  }

  func applicationWillResignActive(_ application: UIApplication) {
    note("willResignActive", application)
  }

  func applicationDidEnterBackground(_ application: UIApplication) {
    note("didEnterBackground", application)
  }

  func applicationWillEnterForeground(_ application: UIApplication) {
    note("willEnterForeground", application)
  }

  func applicationWillTerminate(_ application: UIApplication) {
    note("willTerminate", application)
  }

  func locationManagerDidChangeAuthorization(_ manager: CLLocationManager) {
    let status = manager.authorizationStatus
    guard status == .authorizedAlways || status == .authorizedWhenInUse else { return }
    if UIApplication.shared.applicationState == .active {
      manager.startUpdatingLocation()
    }
    // Monitored regions outlive the process: register home once.
    if status == .authorizedAlways,
      !manager.monitoredRegions.contains(where: { $0.identifier == home.identifier })
    {
      manager.startMonitoring(for: home)
    }
  }

  func locationManager(_ manager: CLLocationManager, didUpdateLocations locations: [CLLocation]) {
    guard pin == nil, let fix = locations.last else { return }
    let region = MKCoordinateRegion(
      center: fix.coordinate, latitudinalMeters: 1_000, longitudinalMeters: 1_000)
    mapView.setRegion(region, animated: false)
    let annotation = MKPointAnnotation()
    annotation.coordinate = fix.coordinate
    annotation.title = "First fix"
    mapView.addAnnotation(annotation)
    pin = annotation
  }

  func locationManager(_ manager: CLLocationManager, didEnterRegion region: CLRegion) {
    note("didEnterRegion \(region.identifier)", UIApplication.shared)
  }

  private func note(_ event: String, _ application: UIApplication) {
    let state = application.applicationState
    let name = state == .active ? "active" : state == .inactive ? "inactive" : "background"
    notes.append("\(event) \(name)")
  }
}
