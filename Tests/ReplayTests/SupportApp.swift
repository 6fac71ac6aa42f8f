import Device
import Foundation
import JSON
import Replay

/// A small app model of the kind a user plugs in: it asks for permission at launch, follows
/// the position, shows the number of fixes and the last one in a label, and drops a marker
/// where the map is tapped. `reset` clears the markers; the `title` field renames the label.
final class FixCounterApp: SimulatedApp, AppScreen, LocationManagerDelegate {
  private unowned var phone: Phone!
  private var manager: LocationManager!
  private var map: MapView!
  private var fixes = 0
  private var title = "fixes"
  private var markers: [PointAnnotation] = []
  let trapsOnReset: Bool

  init(trapsOnReset: Bool) { self.trapsOnReset = trapsOnReset }

  func didLaunch(on phone: Phone, reason: LaunchReason) {
    self.phone = phone
    map = try? MapView(phone: phone, size: Size(width: 400, height: 800))
    map.addGestureRecognizer(
      TapGestureRecognizer { [unowned self] gesture in
        guard let c = try? self.map.convert(gesture.location(in: self.map)) else { return }
        let marker = PointAnnotation(coordinate: c, title: "marker \(self.markers.count + 1)")
        self.markers.append(marker)
        self.map.addAnnotation(marker)
      })
    manager = LocationManager(phone: phone)
    manager.delegate = self
    manager.requestWhenInUseAuthorization()
  }

  func locationManagerDidChangeAuthorization(_ manager: LocationManager) {
    if manager.authorizationStatus == .authorizedWhenInUse { manager.startUpdatingLocation() }
  }

  func locationManager(_ manager: LocationManager, didUpdateLocations locations: [Location]) {
    fixes += locations.count
  }

  var mapView: MapView? { map }

  func enterText(_ text: String, in field: String) throws {
    guard field == "title" else {
      throw DeviceError(.invalidArgument, "the app has no text field called '\(field)'")
    }
    title = text
  }

  func tapButton(_ button: String) throws {
    guard button == "reset" else {
      throw DeviceError(.invalidArgument, "the app has no button called '\(button)'")
    }
    if trapsOnReset {
      let missing: Int? = nil
      _ = missing!
    }
    map.removeAnnotations(markers)
    markers.removeAll()
  }

  var observableState: JSONValue {
    .object([
      "label": .string("\(title): \(fixes)"),
      "fixes": .number(Double(fixes)),
      // Whether the screen is read with its own phone current, as Apple-named objects need.
      "readOnItsPhone": .bool(Phone.current === phone),
      "markers": .array(
        markers.map {
          .object([
            "title": .string($0.title ?? ""),
            "latitude": .number($0.coordinate.latitude),
            "longitude": .number($0.coordinate.longitude),
          ])
        }),
    ])
  }
}

extension AppCatalog {
  /// The catalog the tests use: the fix counter, in a `careful` and a `trapping` variant.
  static var testing: AppCatalog {
    var catalog = AppCatalog()
    catalog.register("FixCounter", variants: ["careful", "trapping"], events: ["fix"]) {
      context in
      guard case .object(let config) = context.configuration, config.isEmpty else {
        throw AppConfigurationError(path: "", "FixCounter takes no configuration")
      }
      let traps = context.variant == "trapping"
      return { FixCounterApp(trapsOnReset: traps) }
    }
    catalog.register("PlaceDiary", events: ["moved", "arrived", "departed"]) { _ in
      { PlaceDiaryApp() }
    }
    catalog.register("LiveWalker", variants: ["foregroundOnly", "background"]) { context in
      let keeps = context.variant == "background"
      return { LiveWalkerApp(keepsBackgroundSession: keeps) }
    }
    catalog.register("Spinner") { _ in { SpinnerApp() } }
    return catalog
  }
}

/// The folder holding the test scenarios.
let fixtures = Bundle.module.resourceURL!.appendingPathComponent("Fixtures")

/// Reads a scenario from text, as if it were the file `name` in the fixtures folder.
func scenario(_ text: String, name: String = "inline.scenario.json") throws -> Scenario {
  try Scenario(
    data: Data(text.utf8), file: fixtures.appendingPathComponent(name).path, folder: fixtures)
}

/// The shared data every test world uses, loaded once.
let resources = ReplayResources()

/// An app that, from 10 s after its launch, queues work on its main thread from that same
/// work, for ever: virtual time stops passing.
final class SpinnerApp: SimulatedApp {
  private(set) var spins = 0

  func didLaunch(on phone: Phone, reason: LaunchReason) {
    phone.runLoop.schedule(after: .seconds(10), "start spinning") { [unowned phone] in
      self.spin(on: phone)
    }
  }

  private func spin(on phone: Phone) {
    spins += 1
    phone.runLoop.enqueue("spin") { [unowned phone] in self.spin(on: phone) }
  }
}
