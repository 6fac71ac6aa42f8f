import Device
import Foundation
import Geo
import SimKernel
import Testing

/// The long-press pin app of seed 002, as published: its handler ignores the recognizer's
/// state, removes `annotations[0]` as if it were its own pin, and geocodes every time.
@Suite struct PinAppScenarioTests {
  final class PinApp {
    let map: MapView
    let geocoder: Geocoder
    var addresses: [String] = []
    var failures: [GeocodeErrorCode] = []

    init(map: MapView, geocoder: Geocoder) {
      self.map = map
      self.geocoder = geocoder
      map.addGestureRecognizer(LongPressGestureRecognizer { [unowned self] in self.longTapped($0) })
    }

    func longTapped(_ gesture: GestureRecognizer) {
      let coordinate = try! map.convert(gesture.location(in: map))
      let pin = PointAnnotation(coordinate: coordinate, title: "ポイント")
      if !map.annotations.isEmpty { map.removeAnnotation(map.annotations[0]) }
      geocoder.reverseGeocodeLocation(
        Location(coordinate: coordinate, horizontalAccuracy: 0, timestamp: .zero)
      ) { [unowned self] placemarks, error in
        if let error { self.failures.append(error.code) }
        guard let p = placemarks?.first else { return }
        let subLocality = p.subLocality ?? ""
        let thoroughfare = p.thoroughfare ?? ""
        let placeName =
          !thoroughfare.contains(subLocality) ? subLocality + thoroughfare : thoroughfare
        self.addresses.append(
          (p.administrativeArea ?? "") + (p.locality ?? "") + placeName
            + (p.subThoroughfare ?? ""))
      }
      map.addAnnotation(pin)
    }
  }

  func run(showsUserLocation: Bool) throws -> (PinApp, Phone) {
    let (phone, map) = try makeMap()
    // The app's process must be running for its completion handlers to be called.
    phone.install { GeocoderTests.IdleApp() }
    try phone.launchApp()
    map.showsUserLocation = showsUserLocation
    let gazetteer = try Gazetteer(geoJSON: Data(nestedGazetteerJSON.utf8), context: phone.geos)
    let app = PinApp(
      map: map,
      geocoder: Geocoder(phone: phone, service: GeocodingService(gazetteer: gazetteer)))
    let marunouchi = map.convert(try Coordinate(latitude: 35.68, longitude: 139.76))
    try map.replay(Touches.longPress(at: marunouchi, time: .seconds(1), duration: .seconds(0.8)))
    try phone.simulation.run()
    return (app, phone)
  }

  @Test func theHandlerRunsOnBeganAndEndedSoTheFirstGeocodeIsCancelled() throws {
    let (app, _) = try run(showsUserLocation: false)
    // began at 1.5 s, ended at 1.8 s: the second request cancels the first, still in flight.
    #expect(app.failures == [.geocodeCanceled])
    #expect(app.addresses == ["東京都千代田区丸の内１丁目"])
    #expect(app.map.annotations.count == 1)
  }

  @Test func withTheUserLocationOnButNoPermissionAnnotationsZeroIsTheAppsPin() throws {
    let (app, phone) = try run(showsUserLocation: true)
    // The app never asks for location: the map cannot locate the user and shows no dot, so
    // began adds pin 1 and ended replaces it with pin 2.
    #expect(app.map.annotations.count == 1)
    #expect(!app.map.annotations.contains { $0 === app.map.userLocation })
    let removed = phone.simulation.log.entries(source: "map", event: "removeAnnotation")
    #expect(removed.map { $0["kind"] } == [.string("annotation")])
  }
}
