import Device
import Foundation
import Geo
import SimKernel
import Testing

/// A bare phone and a 390×844-point map on it.
func makeMap(
  center: Coordinate = tokyoStation, latitudeDelta: Double = 0.065, longitudeDelta: Double = 0.065
) throws -> (phone: Phone, map: MapView) {
  let phone = Phone(simulation: Simulation(seed: 1), geos: GEOSContext(), sensor: nil)
  let region = try CoordinateRegion(
    center: center, latitudeDelta: latitudeDelta, longitudeDelta: longitudeDelta)
  let map = try MapView(phone: phone, size: Size(width: 390, height: 844), region: region)
  return (phone, map)
}

/// The closed-form MapKit map point of a coordinate (FIDELITY: x = (λ+180)/360·W,
/// y = (½ − ln tan(π/4+φ/2)/2π)·W), written out independently of `MapPoint`.
func closedFormMapPoint(_ c: Coordinate) -> (x: Double, y: Double) {
  let w = 268_435_456.0
  let phi = c.latitude * Double.pi / 180
  return (
    (c.longitude + 180) / 360 * w, (0.5 - log(tan(Double.pi / 4 + phi / 2)) / (2 * Double.pi)) * w
  )
}

/// The closed-form view point of a coordinate for a camera: offset from the centre in map points
/// (the short way round the world), turned by −heading, divided by the scale.
func closedFormViewPoint(_ c: Coordinate, camera: MapCamera, size: Size) -> Point {
  let w = 268_435_456.0
  let m = closedFormMapPoint(c)
  let o = closedFormMapPoint(camera.centerCoordinate)
  var dx = m.x - o.x
  dx -= (dx / w).rounded() * w
  let dy = m.y - o.y
  let t = camera.heading * Double.pi / 180
  let s = camera.mapPointsPerPoint
  return Point(
    x: size.width / 2 + (dx * cos(t) + dy * sin(t)) / s,
    y: size.height / 2 + (-dx * sin(t) + dy * cos(t)) / s)
}

@Suite struct MapViewGeometryTests {
  @Test(arguments: [
    (35.681236, 139.767125, 0.0, 8.0),  // Tokyo, street level, north up
    (35.681236, 139.767125, 37.5, 64.0),  // rotated
    (-33.8688, 151.2093, 200.0, 0.5),  // Sydney, close zoom, south up
    (64.1466, -21.9426, 315.0, 4_096.0),  // Reykjavík, city-wide zoom
    (0.0, 179.999, 90.0, 16.0),  // just west of the antimeridian
    (-16.5, -179.9, 0.0, 2_048.0),  // Fiji, straddling it
  ])
  func pointCoordinateRoundTripsMatchTheClosedFormMercator(
    latitude: Double, longitude: Double, heading: Double, scale: Double
  ) throws {
    let (phone, map) = try makeMap()
    // The map holds its phone unowned, as the phone owns the app that owns the map.
    defer { withExtendedLifetime(phone) {} }
    let center = try Coordinate(latitude: latitude, longitude: longitude)
    try map.setCamera(
      try MapCamera(centerCoordinate: center, heading: heading, mapPointsPerPoint: scale),
      animated: false)
    for (x, y) in [(0.0, 0.0), (195, 422), (390, 844), (12.5, 700), (380, 30)] {
      let p = Point(x: x, y: y)
      let c = try map.convert(p)
      let expected = closedFormViewPoint(c, camera: map.camera, size: map.size)
      #expect(abs(expected.x - x) < 1e-4 && abs(expected.y - y) < 1e-4, "\(p) → \(c)")
      let back = map.convert(c)
      #expect(back.distance(to: p) < 1e-4, "\(p) → \(c) → \(back)")
    }
  }

  @Test func theCentreOfTheViewIsTheCameraCentreAndNorthIsUpAtHeadingZero() throws {
    let (phone, map) = try makeMap()
    // The map holds its phone unowned, as the phone owns the app that owns the map.
    defer { withExtendedLifetime(phone) {} }
    let c = try map.convert(Point(x: 195, y: 422))
    #expect(abs(c.latitude - tokyoStation.latitude) < 1e-9)
    #expect(abs(c.longitude - tokyoStation.longitude) < 1e-9)
    let top = try map.convert(Point(x: 195, y: 0))
    let right = try map.convert(Point(x: 390, y: 422))
    #expect(top.latitude > c.latitude && abs(top.longitude - c.longitude) < 1e-12)
    #expect(right.longitude > c.longitude)
  }

  @Test func headingNinetyPutsEastAtTheTopOfTheScreen() throws {
    let (phone, map) = try makeMap()
    // The map holds its phone unowned, as the phone owns the app that owns the map.
    defer { withExtendedLifetime(phone) {} }
    var camera = map.camera
    camera.heading = 90
    try map.setCamera(camera, animated: false)
    let c = try map.convert(Point(x: 195, y: 422))
    let top = try map.convert(Point(x: 195, y: 100))
    #expect(top.longitude > c.longitude && abs(top.latitude - c.latitude) < 1e-9)
  }

  @Test func aViewAcrossTheAntimeridianShowsBothSidesNextToEachOther() throws {
    let (phone, map) = try makeMap(
      center: try Coordinate(latitude: -17, longitude: 179.99), latitudeDelta: 0.1,
      longitudeDelta: 0.1)
    // The map holds its phone unowned, as the phone owns the app that owns the map.
    defer { withExtendedLifetime(phone) {} }
    let west = try Coordinate(latitude: -17, longitude: 179.98)
    let east = try Coordinate(latitude: -17, longitude: -179.98)
    let pw = map.convert(west)
    let pe = map.convert(east)
    #expect(pw.x < 195 && pe.x > 195 && pe.x < 390)
    let right = try map.convert(Point(x: 390, y: 422))
    #expect(right.longitude < -179.9, "the right edge wraps to the western hemisphere")
    let r = map.region
    #expect(abs(r.span.longitudeDelta - 0.1) < 1e-9)
  }

  @Test func setRegionFitsTheWholeRegionKeepingTheAspectRatio() throws {
    let (phone, map) = try makeMap()
    // The map holds its phone unowned, as the phone owns the app that owns the map.
    defer { withExtendedLifetime(phone) {} }
    let r = map.region
    // The view is taller than wide: the longitude delta fits exactly, latitude shows more.
    #expect(abs(r.span.longitudeDelta - 0.065) < 1e-9)
    #expect(r.span.latitudeDelta > 0.065)
    #expect(abs(map.visibleMapWidth - 0.065 / 360 * MapPoint.worldSize) < 1e-6)
  }

  @Test func withAHeadingTheVisibleCornersAreNotSouthWestAndNorthEast() throws {
    let (phone, map) = try makeMap()
    // The map holds its phone unowned, as the phone owns the app that owns the map.
    defer { withExtendedLifetime(phone) {} }
    var camera = map.camera
    camera.heading = 180
    try map.setCamera(camera, animated: false)
    let corners = map.visibleCorners
    // Upside down, the top-left corner is the south-east one.
    #expect(corners[0].latitude < tokyoStation.latitude)
    #expect(corners[0].longitude > tokyoStation.longitude)
    // The enclosing region spans the corners' extremes.
    let r = map.region
    let latitudes = corners.map(\.latitude)
    #expect(abs(latitudes.max()! - latitudes.min()! - r.span.latitudeDelta) < 1e-9)
  }

  @Test(arguments: [
    (-0.01, 0.01, "latitudeDelta -0.01 is negative"),
    (0.01, -1, "longitudeDelta -1.0 is negative"),
    (Double.nan, 0.01, "latitudeDelta nan is not a finite number"),
    (180.5, 0.01, "latitudeDelta 180.5 exceeds 180"),
    (1, 400, "longitudeDelta 400.0 exceeds 360"),
  ])
  func invalidSpansAreRejectedNamingTheDelta(lat: Double, lon: Double, message: String) throws {
    let error = #expect(throws: DeviceError.self) {
      try CoordinateSpan(latitudeDelta: lat, longitudeDelta: lon)
    }
    #expect(error?.code == .invalidArgument)
    #expect(error?.message.contains(message) == true, "\(error?.message ?? "")")
  }

  @Test func anEditedCameraWithANegativeScaleIsRejected() throws {
    let (phone, map) = try makeMap()
    // The map holds its phone unowned, as the phone owns the app that owns the map.
    defer { withExtendedLifetime(phone) {} }
    var camera = map.camera
    camera.mapPointsPerPoint = -2
    let error = #expect(throws: DeviceError.self) { try map.setCamera(camera, animated: false) }
    #expect(error?.message.contains("not a positive finite number") == true)
    camera.mapPointsPerPoint = 2
    camera.heading = -30
    try map.setCamera(camera, animated: false)
    #expect(map.camera.heading == 330)
  }

  @Test func aNonFinitePointCannotBeConverted() throws {
    let (phone, map) = try makeMap()
    // The map holds its phone unowned, as the phone owns the app that owns the map.
    defer { withExtendedLifetime(phone) {} }
    #expect(throws: DeviceError.self) { try map.convert(Point(x: .nan, y: 1)) }
  }
}

@Suite struct MapViewCameraTests {
  @Test func anAnimatedSetCenterMovesInFramesAndArrivesAfterAQuarterSecond() throws {
    let (phone, map) = try makeMap()
    let target = offset(1_000)
    map.setCenter(target, animated: true)
    #expect(map.centerCoordinate.longitude < tokyoStation.longitude + 1e-9)
    try phone.simulation.run(until: .seconds(0.1))
    let midway = map.centerCoordinate.longitude
    #expect(midway > tokyoStation.longitude && midway < target.longitude)
    try phone.simulation.run(until: .seconds(0.25))
    #expect(abs(map.centerCoordinate.longitude - target.longitude) < 1e-9)
    let frames = phone.simulation.log.entries(source: "map", event: "camera").filter {
      $0["animated"] == .bool(true)
    }
    #expect(frames.count == 15)
    #expect(frames.last?.time == .seconds(0.25))
  }

  @Test func everyCameraChangeIsLogged() throws {
    let (phone, map) = try makeMap()
    map.setCenter(offset(500), animated: false)
    let entries = phone.simulation.log.entries(source: "map", event: "camera")
    #expect(entries.map { $0["reason"] } == [.string("init"), .string("setCenter")])
  }
}

@Suite struct MapAnnotationTests {
  @Test func annotationsKeepInsertionOrderAndLogEveryChange() throws {
    let (phone, map) = try makeMap()
    let a = PointAnnotation(coordinate: tokyoStation, title: "A")
    let b = PointAnnotation(coordinate: offset(100), title: "B")
    map.addAnnotations([a, b])
    map.addAnnotation(a)
    #expect(map.annotations.map(\.title) == ["A", "B"])
    map.removeAnnotation(a)
    #expect(map.annotations.map(\.title) == ["B"])
    let events = phone.simulation.log.entries(source: "map").map(\.event)
    #expect(events == ["camera", "addAnnotation", "addAnnotation", "removeAnnotation"])
  }

  /// A phone whose app has While Using and one fix at Tokyo Station, with a map on it.
  func locatedMap() throws -> (phone: Phone, map: MapView) {
    let (phone, _, app) = makePhone(
      user: UserScript(answers: [.location: [.allowWhileUsing]]),
      configure: { $0.requestWhenInUseAuthorization() })
    try phone.launchApp()
    try phone.simulation.run(until: .seconds(3))
    app()!.manager.startUpdatingLocation()
    try phone.simulation.run(until: .seconds(5))
    let region = try CoordinateRegion(
      center: tokyoStation, latitudeDelta: 0.065, longitudeDelta: 0.065)
    return (phone, try MapView(phone: phone, size: Size(width: 390, height: 844), region: region))
  }

  @Test func theUserLocationIsAnAnnotationWhileShownAndLocated() throws {
    let (phone, map) = try locatedMap()
    // The map holds its phone unowned, as the phone owns the app that owns the map.
    defer { withExtendedLifetime(phone) {} }
    map.showsUserLocation = true
    let pin = PointAnnotation(coordinate: tokyoStation, title: "ポイント")
    map.addAnnotation(pin)
    #expect(map.annotations.count == 2)
    #expect(map.annotations[0] === map.userLocation)
    #expect(map.userLocation.coordinate == tokyoStation)
    // The seed app's "remove annotations[0], it must be my pin" removes the blue dot instead.
    map.removeAnnotation(map.annotations[0])
    #expect(map.annotations.count == 1 && map.annotations[0] === pin)
    map.showsUserLocation = false
    map.showsUserLocation = true
    #expect(map.annotations.last === map.userLocation)
    map.showsUserLocation = false
    #expect(!map.annotations.contains { $0 === map.userLocation })
  }

  @Test func withoutLocationAuthorizationShowsUserLocationShowsNoDot() throws {
    let (phone, map) = try makeMap()
    defer { withExtendedLifetime(phone) {} }
    map.showsUserLocation = true
    // No authorization, no fix: Core Location gives the map nothing to show, not (0°, 0°).
    #expect(map.annotations.isEmpty)
    let pin = PointAnnotation(coordinate: tokyoStation, title: "ポイント")
    map.addAnnotation(pin)
    #expect(map.annotations.count == 1 && map.annotations[0] === pin)
    // So "remove annotations[0]" removes the app's own pin.
    map.removeAnnotation(map.annotations[0])
    #expect(map.annotations.isEmpty)
  }
}
