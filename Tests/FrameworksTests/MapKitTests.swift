import Device
import Foundation
import Geo
import SimKernel
import Testing

@testable import GeoSimFrameworks

@Suite("MapKit's names over the simulated map")
struct MapKitTests {
  static let tokyo = CLLocationCoordinate2D(latitude: 35.681236, longitude: 139.767125)
  static let shinjuku = CLLocationCoordinate2D(latitude: 35.689592, longitude: 139.700413)
  static let world = 268_435_456.0

  /// Runs `body` with a phone current, as app code runs; the app itself is not launched.
  func onPhone<T>(_ body: (TestWorld) throws -> T) rethrows -> T {
    let world = TestWorld { NSObject() }
    return try world.phone.makeCurrent { try body(world) }
  }

  /// A world with a full-screen map showing 1 km around Tokyo Station, made in that world.
  func tokyoMap() -> (TestWorld, MKMapView) {
    let world = TestWorld { NSObject() }
    let map = world.phone.makeCurrent { () -> MKMapView in
      let map = MKMapView(frame: CGRect(x: 0, y: 0, width: 390, height: 844))
      map.region = MKCoordinateRegion(
        center: Self.tokyo, latitudinalMeters: 1_000, longitudinalMeters: 1_000)
      return map
    }
    return (world, map)
  }

  func close(_ a: Double, _ b: Double, within tolerance: Double) -> Bool {
    abs(a - b) <= tolerance
  }

  // MARK: Map points

  @Test("map points are Apple's spherical Mercator on a 2²⁸-point world")
  func mapPoints() {
    let origin = MKMapPoint(CLLocationCoordinate2D(latitude: 0, longitude: 0))
    #expect(origin.x == Self.world / 2)
    #expect(origin.y == Self.world / 2)
    // The antimeridian is x = 0 and the map's top edge, ≈ 85.0511° N, is y = 0 [A].
    let corner = MKMapPoint(CLLocationCoordinate2D(latitude: 85.051_128_779_806_6, longitude: -180))
    #expect(close(corner.x, 0, within: 1e-6))
    #expect(close(corner.y, 0, within: 1e-3))
    let tokyo = MKMapPoint(Self.tokyo)
    let phone = MapPoint(try! Coordinate(latitude: 35.681236, longitude: 139.767125))
    #expect(tokyo.x == phone.x)
    #expect(tokyo.y == phone.y)
    #expect(close(tokyo.coordinate.latitude, Self.tokyo.latitude, within: 1e-9))
    #expect(close(tokyo.coordinate.longitude, Self.tokyo.longitude, within: 1e-9))
    // x wraps around the world; y beyond the map clamps to its edge.
    let wrapped = MKMapPoint(x: tokyo.x + Self.world, y: tokyo.y).coordinate
    #expect(close(wrapped.longitude, Self.tokyo.longitude, within: 1e-9))
    #expect(close(MKMapPoint(x: 0, y: -1_000).coordinate.latitude, 85.0511, within: 1e-4))
    #expect(!CLLocationCoordinate2DIsValid(MKMapPoint(x: .nan, y: 0).coordinate))
    #expect(MKMapPoint(CLLocationCoordinate2D(latitude: 91, longitude: 0)).x.isNaN)
  }

  @Test(
    "map points per metre are the world's width over the equator's length, shrinking with cos φ")
  func pointsPerMeter() {
    let equator = MKMapPointsPerMeterAtLatitude(0)
    #expect(close(equator, Self.world / (2 * Double.pi * 6_378_137), within: 1e-9))
    #expect(close(MKMetersPerMapPointAtLatitude(0), 0.1493, within: 1e-4))
    #expect(close(MKMapPointsPerMeterAtLatitude(60), 2 * equator, within: 1e-9))
    #expect(
      close(MKMetersPerMapPointAtLatitude(35) * MKMapPointsPerMeterAtLatitude(35), 1, within: 1e-12)
    )
  }

  @Test("the distance between map points is the geodesic between their coordinates")
  func mapPointDistance() {
    let a = MKMapPoint(Self.tokyo)
    let b = MKMapPoint(Self.shinjuku)
    let geodesic = Geodesic.wgs84.inverse(
      from: try! Coordinate(latitude: Self.tokyo.latitude, longitude: Self.tokyo.longitude),
      to: try! Coordinate(latitude: Self.shinjuku.latitude, longitude: Self.shinjuku.longitude)
    ).distance
    #expect(close(a.distance(to: b), geodesic, within: 1e-3))
    #expect(close(a.distance(to: b), 6_070, within: 50))
    #expect(a.distance(to: MKMapPoint(x: .infinity, y: 0)).isNaN)
  }

  // MARK: Regions

  @Test("a region in metres spans that many metres along its meridian and its parallel")
  func regionInMeters() throws {
    let region = MKCoordinateRegion(
      center: Self.tokyo, latitudinalMeters: 1_000, longitudinalMeters: 2_000)
    let c = Self.tokyo
    let south = try Coordinate(
      latitude: c.latitude - region.span.latitudeDelta / 2, longitude: c.longitude)
    let north = try Coordinate(
      latitude: c.latitude + region.span.latitudeDelta / 2, longitude: c.longitude)
    #expect(close(Geodesic.wgs84.inverse(from: south, to: north).distance, 1_000, within: 1e-6))
    let west = try Coordinate(
      latitude: c.latitude, longitude: c.longitude - region.span.longitudeDelta / 2)
    let east = try Coordinate(
      latitude: c.latitude, longitude: c.longitude + region.span.longitudeDelta / 2)
    // The geodesic is a hair shorter than the parallel's arc.
    #expect(close(Geodesic.wgs84.inverse(from: west, to: east).distance, 2_000, within: 0.01))
    // About 111 km per degree of latitude and 111 km · cos φ per degree of longitude [A].
    #expect(close(region.span.latitudeDelta, 1 / 111.0, within: 1e-4))
    #expect(close(region.span.longitudeDelta, 2 / (111.3 * cos(35.68 * .pi / 180)), within: 1e-4))
    #expect(region.center.latitude == c.latitude)
  }

  @Test("a region in metres stops at the pole, and bad distances make regions the map ignores")
  func regionInMetersEdges() throws {
    let polar = MKCoordinateRegion(
      center: CLLocationCoordinate2D(latitude: 89.9, longitude: 0), latitudinalMeters: 100_000,
      longitudinalMeters: 100_000)
    // 50 km north passes the pole, 11 km away: the region's north edge is the pole itself.
    let south = try Geodesic.wgs84.direct(
      from: Coordinate(latitude: 89.9, longitude: 0), azimuth: 180, distance: 50_000)
    #expect(close(polar.span.latitudeDelta, 90 - south.coordinate.latitude, within: 1e-9))
    #expect(polar.span.longitudeDelta == 360)
    let negative = MKCoordinateRegion(
      center: Self.tokyo, latitudinalMeters: -1_000, longitudinalMeters: -1_000)
    #expect(negative.span.latitudeDelta < 0)
    #expect(negative.span.longitudeDelta < 0)
    let invalid = MKCoordinateRegion(
      center: kCLLocationCoordinate2DInvalid, latitudinalMeters: 1_000, longitudinalMeters: 1_000)
    #expect(invalid.span.latitudeDelta.isNaN)
    onPhone { _ in
      let map = MKMapView(frame: CGRect(x: 0, y: 0, width: 390, height: 844))
      map.setRegion(
        MKCoordinateRegion(center: Self.tokyo, latitudinalMeters: 1_000, longitudinalMeters: 1_000),
        animated: false)
      let before = map.region
      map.setRegion(negative, animated: false)
      map.setRegion(invalid, animated: false)
      map.setRegion(
        MKCoordinateRegion(
          center: Self.tokyo, span: MKCoordinateSpan(latitudeDelta: 200, longitudeDelta: 1)),
        animated: false)
      #expect(map.region.center.latitude == before.center.latitude)
      #expect(map.region.span.latitudeDelta == before.span.latitudeDelta)
    }
  }

  @Test("setRegion shows what the phone's map shows for the same region, and region reads it back")
  func regionMatchesTheDevice() throws {
    try onPhone { world in
      let map = MKMapView(frame: CGRect(x: 0, y: 0, width: 390, height: 844))
      let wanted = MKCoordinateRegion(
        center: Self.tokyo, span: MKCoordinateSpan(latitudeDelta: 0.05, longitudeDelta: 0.05))
      map.setRegion(wanted, animated: false)
      let device = try MapView(
        phone: world.phone, size: Size(width: 390, height: 844),
        region: CoordinateRegion(
          center: Coordinate(latitude: Self.tokyo.latitude, longitude: Self.tokyo.longitude),
          latitudeDelta: 0.05, longitudeDelta: 0.05))
      #expect(map.region.center.latitude == device.region.center.latitude)
      #expect(map.region.center.longitude == device.region.center.longitude)
      #expect(map.region.span.latitudeDelta == device.region.span.latitudeDelta)
      #expect(map.region.span.longitudeDelta == device.region.span.longitudeDelta)
      // The map keeps its aspect ratio: the narrow side shows the whole 0.05°, the tall one more.
      #expect(close(map.region.span.longitudeDelta, 0.05, within: 1e-9))
      #expect(map.region.span.latitudeDelta > 0.05)
      #expect(close(map.centerCoordinate.latitude, Self.tokyo.latitude, within: 1e-9))
      // Setting the property is setRegion without animation.
      map.region = MKCoordinateRegion(
        center: Self.shinjuku, span: MKCoordinateSpan(latitudeDelta: 0.01, longitudeDelta: 0.01))
      #expect(close(map.centerCoordinate.longitude, Self.shinjuku.longitude, within: 1e-9))
    }
  }

  @Test("an animated region change reaches its target in the phone's animation frames")
  func animatedRegion() throws {
    let world = TestWorld { NSObject() }
    let map = world.phone.makeCurrent {
      MKMapView(frame: CGRect(x: 0, y: 0, width: 390, height: 844))
    }
    world.phone.makeCurrent {
      map.setRegion(
        MKCoordinateRegion(center: Self.tokyo, latitudinalMeters: 1_000, longitudinalMeters: 1_000),
        animated: true)
    }
    // The animation has not moved the camera yet at its first instant.
    #expect(!close(map.centerCoordinate.latitude, Self.tokyo.latitude, within: 1e-3))
    try world.run(until: 1)
    #expect(close(map.centerCoordinate.latitude, Self.tokyo.latitude, within: 1e-9))
    #expect(world.logNames.contains("map.cameraAnimationBegan"))
  }

  @Test("setCenter moves the centre and keeps the zoom; an invalid centre is ignored")
  func setCenter() {
    onPhone { _ in
      let map = MKMapView()
      map.region = MKCoordinateRegion(
        center: Self.tokyo, latitudinalMeters: 2_000, longitudinalMeters: 2_000)
      let span = map.region.span
      map.setCenter(Self.shinjuku, animated: false)
      #expect(close(map.centerCoordinate.latitude, Self.shinjuku.latitude, within: 1e-9))
      #expect(close(map.centerCoordinate.longitude, Self.shinjuku.longitude, within: 1e-9))
      #expect(close(map.region.span.longitudeDelta, span.longitudeDelta, within: 1e-12))
      map.centerCoordinate = kCLLocationCoordinate2DInvalid
      #expect(close(map.centerCoordinate.latitude, Self.shinjuku.latitude, within: 1e-9))
    }
  }

  // MARK: Converting

  @Test("point → coordinate → point and coordinate → point → coordinate round trip, with a heading")
  func convertRoundTrips() {
    onPhone { _ in
      let map = MKMapView(frame: CGRect(x: 0, y: 0, width: 390, height: 844))
      map.camera = MKMapCamera(
        lookingAtCenter: Self.tokyo, fromDistance: 3_000, pitch: 0, heading: 30)
      for point in [
        CGPoint(x: 0, y: 0), CGPoint(x: 195, y: 422), CGPoint(x: 390, y: 844),
        CGPoint(x: 12.5, y: 700), CGPoint(x: -100, y: 1_000),
      ] {
        let coordinate = map.convert(point, toCoordinateFrom: map)
        let back = map.convert(coordinate, toPointTo: map)
        #expect(close(Double(back.x), Double(point.x), within: 1e-6))
        #expect(close(Double(back.y), Double(point.y), within: 1e-6))
      }
      for coordinate in [Self.tokyo, Self.shinjuku] {
        let point = map.convert(coordinate, toPointTo: map)
        let back = map.convert(point, toCoordinateFrom: map)
        #expect(close(back.latitude, coordinate.latitude, within: 1e-9))
        #expect(close(back.longitude, coordinate.longitude, within: 1e-9))
      }
      // The centre of the view shows the centre coordinate.
      let centre = map.convert(CGPoint(x: 195, y: 422), toCoordinateFrom: map)
      #expect(close(centre.latitude, Self.tokyo.latitude, within: 1e-9))
    }
  }

  @Test("points of the window (nil) and of another map are moved by the maps' origins")
  func convertBetweenSpaces() {
    onPhone { _ in
      let map = MKMapView(frame: CGRect(x: 20, y: 100, width: 300, height: 300))
      let other = MKMapView(frame: CGRect(x: 0, y: 50, width: 100, height: 100))
      map.region = MKCoordinateRegion(
        center: Self.tokyo, latitudinalMeters: 1_000, longitudinalMeters: 1_000)
      let topLeft = map.convert(CGPoint(x: 0, y: 0), toCoordinateFrom: map)
      let fromWindow = map.convert(CGPoint(x: 20, y: 100), toCoordinateFrom: nil)
      let fromOther = map.convert(CGPoint(x: 20, y: 50), toCoordinateFrom: other)
      #expect(topLeft.latitude == fromWindow.latitude && topLeft.longitude == fromWindow.longitude)
      #expect(topLeft.latitude == fromOther.latitude && topLeft.longitude == fromOther.longitude)
      let inWindow = map.convert(Self.tokyo, toPointTo: nil)
      #expect(close(Double(inWindow.x), 20 + 150, within: 1e-6))
      #expect(close(Double(inWindow.y), 100 + 150, within: 1e-6))
    }
  }

  @Test("what cannot be converted gives Apple's invalid values instead of stopping")
  func convertInvalid() {
    onPhone { _ in
      let map = MKMapView()
      let coordinate = map.convert(CGPoint(x: CGFloat.nan, y: 0), toCoordinateFrom: map)
      #expect(!CLLocationCoordinate2DIsValid(coordinate))
      let point = map.convert(kCLLocationCoordinate2DInvalid, toPointTo: map)
      #expect(point.x.isNaN && point.y.isNaN)
    }
  }

  // MARK: Camera

  @Test("the camera's distance is the height that shows the map's extent through a 30° aperture")
  func cameraDistance() {
    onPhone { _ in
      let map = MKMapView(frame: CGRect(x: 0, y: 0, width: 390, height: 844))
      // 1 km north–south fills the 844-point height; 100 m east–west fits easily.
      map.region = MKCoordinateRegion(
        center: Self.tokyo, latitudinalMeters: 1_000, longitudinalMeters: 100)
      let camera = map.camera
      let expected = 1_000 / (2 * tan(15 * Double.pi / 180))
      #expect(abs(camera.centerCoordinateDistance - expected) / expected < 0.005)
      #expect(camera.pitch == 0)
      #expect(camera.heading == 0)
      #expect(close(camera.centerCoordinate.latitude, Self.tokyo.latitude, within: 1e-9))
    }
  }

  @Test("a camera set on the map reads back with its centre, distance and heading, and no pitch")
  func cameraRoundTrip() {
    onPhone { _ in
      let map = MKMapView()
      let camera = MKMapCamera(
        lookingAtCenter: Self.shinjuku, fromDistance: 2_500, pitch: 45, heading: 400)
      #expect(close(camera.altitude, 2_500 * cos(Double.pi / 4), within: 1e-9))
      map.setCamera(camera, animated: false)
      let read = map.camera
      #expect(close(read.centerCoordinateDistance, 2_500, within: 1e-6))
      #expect(close(read.heading, 40, within: 1e-9))
      #expect(read.pitch == 0)
      #expect(read.altitude == read.centerCoordinateDistance)
      #expect(close(read.centerCoordinate.longitude, Self.shinjuku.longitude, within: 1e-9))
      // Each read is a new object: changing it leaves the map alone until it is assigned.
      read.heading = 90
      #expect(close(map.camera.heading, 40, within: 1e-9))
      map.camera = read
      #expect(close(map.camera.heading, 90, within: 1e-9))
      let copy = read.copy() as? MKMapCamera
      #expect(copy?.heading == 90 && copy !== read)
      // Unusable cameras are ignored.
      let broken = MKMapCamera(
        lookingAtCenter: Self.tokyo, fromDistance: .nan, pitch: 0, heading: 0)
      map.camera = broken
      #expect(close(map.camera.centerCoordinate.longitude, Self.shinjuku.longitude, within: 1e-9))
    }
  }

  @Test("the phone's map under an MKMapView is the one it drives, both ways")
  func deviceMapIsTheMapItDrives() throws {
    try onPhone { world in
      let map = MKMapView(frame: CGRect(x: 0, y: 0, width: 300, height: 600))
      let device = map.deviceMap
      #expect(device.size == Size(width: 300, height: 600))
      map.setCenter(Self.tokyo, animated: false)
      #expect(close(device.centerCoordinate.longitude, Self.tokyo.longitude, within: 1e-9))
      // A camera at a tile zoom level, which MapKit has no name for, set on the phone's map.
      let camera = try MapCamera(
        centerCoordinate: Coordinate(
          latitude: Self.shinjuku.latitude, longitude: Self.shinjuku.longitude),
        mapPointsPerPoint: 8)
      try device.setCamera(camera, animated: false)
      #expect(device.camera.zoomLevel == 17)
      #expect(close(map.centerCoordinate.longitude, Self.shinjuku.longitude, within: 1e-9))
      map.addAnnotation(MKPointAnnotation(coordinate: Self.tokyo, title: "Tokyo", subtitle: nil))
      #expect(device.annotations.map(\.title) == ["Tokyo"])
    }
  }

  // MARK: Annotations

  @Test("annotations are the same objects, in order, and the phone's map logs and shows them")
  func annotations() throws {
    try onPhone { world in
      let map = MKMapView()
      let first = MKPointAnnotation()
      first.coordinate = Self.tokyo
      first.title = "Tokyo"
      let second = MKPointAnnotation(coordinate: Self.shinjuku, title: "Shinjuku", subtitle: "JR")
      map.addAnnotation(first)
      map.addAnnotations([second, first])
      #expect(map.annotations.count == 2)
      #expect(map.annotations[0] === first)
      #expect(map.annotations[1] === second)
      #expect(map.annotations[1].subtitle == "JR")
      let added = world.simulation.log.entries(source: "map", event: "addAnnotation")
      #expect(added.map { $0["title"] } == [.string("Tokyo"), .string("Shinjuku")])
      // The phone's map reads the annotation itself: moving it moves the pin.
      first.coordinate = Self.shinjuku
      let shown = try #require(map.map.annotations.first)
      #expect(close(shown.coordinate.latitude, Self.shinjuku.latitude, within: 1e-12))
      map.removeAnnotation(first)
      map.removeAnnotation(first)
      #expect(map.annotations.count == 1)
      #expect(map.annotations[0] === second)
      map.removeAnnotations(map.annotations)
      #expect(map.annotations.isEmpty)
    }
  }

  @Test("an annotation class of the app's own, with no titles, is shown untitled")
  func ownAnnotationClass() {
    final class Station: NSObject, MKAnnotation {
      let coordinate: CLLocationCoordinate2D
      init(_ coordinate: CLLocationCoordinate2D) { self.coordinate = coordinate }
    }
    onPhone { world in
      let map = MKMapView()
      map.addAnnotation(Station(Self.tokyo))
      #expect(map.annotations.first?.title == nil)
      #expect(map.annotations.first is Station)
      let added = world.simulation.log.entries(source: "map", event: "addAnnotation")
      #expect(added.first?["title"] == .null)
    }
  }

  @Test("the user's dot joins the annotations only once the map has located the user")
  func userLocation() {
    onPhone { world in
      let map = MKMapView()
      #expect(map.userLocation.location == nil)
      #expect(!CLLocationCoordinate2DIsValid(map.userLocation.coordinate))
      #expect(map.userLocation.title == "My Location")
      map.showsUserLocation = true
      let pin = MKPointAnnotation(coordinate: Self.tokyo)
      map.addAnnotation(pin)
      // No location permission, no fix: no dot, so annotations[0] is the app's own pin.
      #expect(map.annotations.count == 1)
      #expect(map.annotations[0] === pin)
      map.removeAnnotation(map.annotations[0])
      #expect(map.annotations.isEmpty)
      #expect(map.showsUserLocation)
      let removed = world.simulation.log.entries(source: "map", event: "removeAnnotation")
      #expect(removed.first?["kind"] == .string("annotation"))
      map.showsUserLocation = false
      #expect(map.annotations.isEmpty)
    }
  }

  // MARK: Gestures

  @Test("a drag pans the map unless scrolling is off; zooming can be turned off too")
  func gestures() throws {
    let (world, map) = tokyoMap()
    #expect(map.isScrollEnabled && map.isZoomEnabled)
    map.isScrollEnabled = false
    try map.map.replay(
      Touches.drag(
        along: [Point(x: 100, y: 400), Point(x: 300, y: 400)], time: world.simulation.now,
        duration: .seconds(0.5)))
    try world.run(until: 1)
    #expect(close(map.centerCoordinate.longitude, Self.tokyo.longitude, within: 1e-12))
    map.isScrollEnabled = true
    try map.map.replay(
      Touches.drag(
        along: [Point(x: 100, y: 400), Point(x: 300, y: 400)], time: world.simulation.now,
        duration: .seconds(0.5)))
    try world.run(until: 2)
    // Dragging to the right brings what was west into view: the centre moves west.
    #expect(map.centerCoordinate.longitude < Self.tokyo.longitude - 1e-4)
    map.isZoomEnabled = false
    #expect(!map.map.pinchGestureRecognizer.isEnabled)
    #expect(!map.map.doubleTapGestureRecognizer.isEnabled)
  }

  @Test("the phone's map under an MKMapView shows its pins, and its recognizers hear the touches")
  func deviceMapRecognizers() throws {
    let (world, map) = tokyoMap()
    let phoneMap = map.deviceMap
    #expect(phoneMap.size == Size(width: 390, height: 844))
    map.addAnnotation(
      MKPointAnnotation(coordinate: Self.shinjuku, title: "Shinjuku", subtitle: nil))
    #expect(phoneMap.annotations.map(\.title) == ["Shinjuku"])
    // A GeoSim app model's own recognizer on the phone's map: the tapped point, converted by
    // MapKit's names, is the coordinate under the finger.
    var tapped: CLLocationCoordinate2D?
    // The map owns its recognizers, so the recognizer holds the maps unowned, as an app does.
    phoneMap.addGestureRecognizer(
      TapGestureRecognizer { [unowned phoneMap, unowned map] recognizer in
        guard recognizer.state == .ended else { return }
        let point = recognizer.location(in: phoneMap)
        tapped = map.convert(CGPoint(x: point.x, y: point.y), toCoordinateFrom: map)
      })
    let target = try Coordinate(
      latitude: Self.tokyo.latitude + 0.001, longitude: Self.tokyo.longitude)
    try phoneMap.replay(Touches.tap(at: phoneMap.convert(target), time: world.simulation.now))
    try world.run(until: 1)
    let coordinate = try #require(tapped)
    #expect(close(coordinate.latitude, target.latitude, within: 1e-9))
    #expect(close(coordinate.longitude, target.longitude, within: 1e-9))
  }
}
