import Foundation
import Geo
import SimKernel

/// A simulated map on the phone's screen, like `MKMapView`: a flat, top-down spherical-Mercator
/// view with a camera, annotations and MapKit's own gestures.
///
/// Geometry follows MapKit: the world is 2²⁸ map points wide and
/// `x = (λ+180)/360·W`, `y = (½ − ln tan(π/4+φ/2)/2π)·W` [A][3P]; the camera's heading turns
/// the map under the screen. ``convert(_:)-(Point)`` and ``convert(_:)-(Coordinate)`` use a
/// transform computed once per camera change. Points east of the antimeridian and west of it
/// both land on screen when the view straddles it.
///
/// Every visible change — camera, annotations, the user-location dot — is recorded in the event
/// log with source `"map"`. Animated camera changes advance in frames that are kernel events.
///
/// The map carries MapKit's built-in recognizers (pan, pinch, double-tap zoom; see
/// ``panGestureRecognizer``), added before any of the app's, so on the same touch they decide
/// first.
public final class MapView: View {
  /// The current camera.
  public private(set) var camera: MapCamera
  /// How long an animated camera change lasts; 0.25 s [?] (UIKit's customary animation length,
  /// not documented for MapKit).
  public var animationDuration = SimDuration.milliseconds(250)
  /// The interval between the frames of an animated camera change; 1/60 s, the display's
  /// refresh [?].
  public var animationFrameInterval = SimDuration(nanoseconds: 16_666_667)
  /// The closest zoom allowed, in map points per point: 0.25, about tile zoom 22 [?].
  public var minimumMapPointsPerPoint = 0.25

  private(set) var transform: CameraTransform
  private var userLocationAnnotation: UserLocation?
  private var items: [any Annotation] = []
  private var animation: EventHandle?
  /// The pan translation already applied to the camera.
  var panApplied = Point(x: 0, y: 0)
  /// The camera's scale when the current pinch began.
  var pinchStartScale = 1.0

  /// The map's own pan recognizer, which moves the camera with the finger [A].
  public internal(set) var panGestureRecognizer: PanGestureRecognizer!
  /// The map's own pinch recognizer, which zooms about the fingers [A].
  public internal(set) var pinchGestureRecognizer: PinchGestureRecognizer!
  /// The map's own double-tap recognizer, which zooms in one level at the tap [A].
  public internal(set) var doubleTapGestureRecognizer: TapGestureRecognizer!

  /// A map of `size` on `phone`'s screen showing `region`; without one it shows the whole
  /// world's width around (0°, 0°).
  ///
  /// Throws ``DeviceError`` unless the size is positive and finite.
  public init(phone: Phone, size: Size, region: CoordinateRegion? = nil) throws {
    let whole = MapPoint.worldSize / size.width
    let initial = try MapCamera(
      center: MapPoint(x: MapPoint.worldSize / 2, y: MapPoint.worldSize / 2),
      mapPointsPerPoint: whole.isFinite && whole > 0 ? whole : 1)
    camera = initial
    transform = CameraTransform(camera: initial, size: size)
    try super.init(phone: phone, size: size)
    installMapGestures()
    if let region {
      setCamera(cameraThatFits(region), animated: false, reason: "init")
    } else {
      logCamera(reason: "init")
    }
  }

  // MARK: Conversions

  /// The coordinate under a point of the view, like `convert(_:toCoordinateFrom:)`.
  ///
  /// Points outside the view convert too. Longitudes wrap into [−180, 180); beyond the top or
  /// bottom of the world the latitude clamps to ±85.0511°, where MapKit's map ends [A]. Throws
  /// ``DeviceError`` for a non-finite point.
  @inline(__always)
  public func convert(_ point: Point) throws -> Coordinate {
    let m = transform.mapPoint(point)
    guard m.x.isFinite, m.y.isFinite else {
      throw DeviceError(.invalidArgument, "cannot convert the non-finite point \(point)")
    }
    return try CameraTransform.coordinate(x: m.x, y: m.y)
  }

  /// The point of the view showing a coordinate, like `convert(_:toPointTo:)`.
  ///
  /// Uses the copy of the world nearest the centre, so a coordinate just across the
  /// antimeridian from the centre lands next to it. The result may lie outside the view.
  @inline(__always)
  public func convert(_ coordinate: Coordinate) -> Point {
    let m = MapPoint(coordinate)
    return transform.viewPoint(x: m.x, y: m.y)
  }

  /// The map point under a point of the view, with `x` unwrapped (it may leave [0, 2²⁸)).
  public func mapPoint(at point: Point) -> MapPoint {
    let m = transform.mapPoint(point)
    return MapPoint(x: m.x, y: m.y)
  }

  // MARK: Camera

  /// The coordinate at the centre of the view.
  public var centerCoordinate: Coordinate { camera.centerCoordinate }

  /// The map-point width the view shows along its own horizontal axis.
  public var visibleMapWidth: Double { camera.mapPointsPerPoint * size.width }

  /// The smallest region enclosing everything the view shows, like `MKMapView.region`.
  ///
  /// Centred on ``centerCoordinate``; the latitude delta spans the highest and lowest visible
  /// point (in Mercator the centre is not midway between them, so `center ± span/2` is slightly
  /// off the view's edges, as with MapKit's `MKCoordinateRegionForMapRect` [?]), the longitude delta the most western and eastern (at most 360°). With heading 0 its
  /// corners are the view's corners; with any other heading they are not (see
  /// ``visibleCorners``) [A].
  public var region: CoordinateRegion {
    let corners = [
      Point(x: 0, y: 0), Point(x: size.width, y: 0), Point(x: size.width, y: size.height),
      Point(x: 0, y: size.height),
    ].map(transform.mapPoint)
    let xs = corners.map(\.x)
    let ys = corners.map(\.y)
    let w = MapPoint.worldSize
    let top = min(max(ys.min()!, 0), w)
    let bottom = min(max(ys.max()!, 0), w)
    let north = atan(sinh((0.5 - top / w) * 2 * Double.pi)) * 180 / Double.pi
    let south = atan(sinh((0.5 - bottom / w) * 2 * Double.pi)) * 180 / Double.pi
    let longitudeDelta = min(360, (xs.max()! - xs.min()!) / w * 360)
    // Both deltas are within their domains by construction.
    let span = try! CoordinateSpan(
      latitudeDelta: min(180, north - south), longitudeDelta: longitudeDelta)
    return CoordinateRegion(center: centerCoordinate, span: span)
  }

  /// The coordinates at the view's corners: top-left, top-right, bottom-right, bottom-left.
  ///
  /// With heading 0 the top-left is the north-west corner and the bottom-right the south-east
  /// one. With any other heading these are *not* the SW/NE corners of a box — a region query
  /// built from two of them (as one of the seed apps does with its taps) covers a different
  /// area [A].
  public var visibleCorners: [Coordinate] {
    [
      Point(x: 0, y: 0), Point(x: size.width, y: 0), Point(x: size.width, y: size.height),
      Point(x: 0, y: size.height),
    ].map { try! convert($0) }
  }

  /// Shows `region`, like `setRegion(_:animated:)`.
  ///
  /// As MapKit does, the view keeps its aspect ratio, so it shows the region's centre at the
  /// centre and zooms so that the whole region fits (one dimension shows more) [A]; the heading
  /// is kept and the fit is computed for the unrotated region [?]. The scale is clamped to
  /// ``minimumMapPointsPerPoint`` and to the whole world's width; MapKit does not snap to tile
  /// zoom levels here either [?]. Animated changes last ``animationDuration``.
  public func setRegion(_ region: CoordinateRegion, animated: Bool) {
    setCamera(cameraThatFits(region), animated: animated, reason: "setRegion")
  }

  /// Moves the centre to `coordinate` without changing zoom or heading, like
  /// `setCenter(_:animated:)`.
  public func setCenter(_ coordinate: Coordinate, animated: Bool) {
    var target = camera
    target.center = MapPoint(coordinate)
    setCamera(target, animated: animated, reason: "setCenter")
  }

  /// Shows `camera`, like `setCamera(_:animated:)`; the scale is clamped as for
  /// ``setRegion(_:animated:)``.
  ///
  /// A camera's fields can be edited freely, so they are checked again here: throws
  /// ``DeviceError`` for a non-finite centre or heading or a scale that is not a positive
  /// finite number; the heading is normalized into [0, 360).
  public func setCamera(_ camera: MapCamera, animated: Bool) throws {
    let checked = try MapCamera(
      center: camera.center, heading: camera.heading, mapPointsPerPoint: camera.mapPointsPerPoint)
    setCamera(checked, animated: animated, reason: "setCamera")
  }

  func setCamera(_ target: MapCamera, animated: Bool, reason: String) {
    let target = clamped(target)
    if let animation {
      phone.simulation.cancel(animation)
      self.animation = nil
    }
    guard animated, animationDuration > .zero else {
      apply(target, reason: reason, animated: false)
      return
    }
    let start = camera
    let startTime = phone.simulation.now
    let duration = animationDuration
    phone.record(
      MapEvent.cameraAnimationBegan(reason: reason, duration: duration, target: target))
    func frame() {
      let elapsed = phone.simulation.now - startTime
      let t = min(1, elapsed.seconds / duration.seconds)
      apply(
        t >= 1 ? target : MapView.interpolate(start, target, t), reason: reason, animated: true)
      if t < 1 {
        let next = min(
          phone.simulation.now + animationFrameInterval, startTime + duration)
        animation = checkedScheduling { try phone.simulation.schedule(at: next) { frame() } }
      } else {
        animation = nil
      }
    }
    animation = checkedScheduling {
      try phone.simulation.schedule(
        at: min(startTime + animationFrameInterval, startTime + duration)
      ) { frame() }
    }
  }

  private func apply(_ target: MapCamera, reason: String, animated: Bool) {
    camera = target
    transform = CameraTransform(camera: target, size: size)
    logCamera(reason: reason, animated: animated)
  }

  private func logCamera(reason: String, animated: Bool = false) {
    phone.record(
      MapEvent.camera(reason: reason, animated: animated, camera: camera, span: region.span))
  }

  /// Straight in map points (the short way round the world), geometric in scale, the short
  /// way round in heading.
  static func interpolate(_ a: MapCamera, _ b: MapCamera, _ t: Double) -> MapCamera {
    let w = MapPoint.worldSize
    var dx = b.center.x - a.center.x
    if dx > w / 2 { dx -= w } else if dx < -w / 2 { dx += w }
    var dh = b.heading - a.heading
    if dh > 180 { dh -= 360 } else if dh < -180 { dh += 360 }
    let scale = a.mapPointsPerPoint * pow(b.mapPointsPerPoint / a.mapPointsPerPoint, t)
    return
      (try? MapCamera(
        center: MapPoint(
          x: a.center.x + dx * t, y: a.center.y + (b.center.y - a.center.y) * t),
        heading: a.heading + dh * t, mapPointsPerPoint: scale)) ?? b
  }

  private func clamped(_ target: MapCamera) -> MapCamera {
    var result = target
    let maximum = MapPoint.worldSize / size.width
    result.mapPointsPerPoint = min(
      max(target.mapPointsPerPoint, minimumMapPointsPerPoint),
      max(maximum, minimumMapPointsPerPoint))
    return result
  }

  func cameraThatFits(_ region: CoordinateRegion) -> MapCamera {
    let w = MapPoint.worldSize
    let lat = region.center.latitude
    let half = region.span.latitudeDelta / 2
    let north = MapPoint(try! Coordinate(latitude: min(90, lat + half), longitude: 0)).y
    let south = MapPoint(try! Coordinate(latitude: max(-90, lat - half), longitude: 0)).y
    let width = region.span.longitudeDelta / 360 * w
    let height = south - north
    let scale = max(width / size.width, height / size.height)
    return clamped(
      (try? MapCamera(
        centerCoordinate: region.center, heading: camera.heading,
        mapPointsPerPoint: scale > 0 ? scale : minimumMapPointsPerPoint)) ?? camera)
  }

  // MARK: Annotations

  /// The annotations on the map in the order they were added, the user-location annotation
  /// included while ``showsUserLocation`` is on and the map has located the user.
  ///
  /// The map finds the user through Core Location [A] (`showsUserLocation`), which gives no
  /// location to an app without When In Use or Always authorization [A]
  /// (`requestWhenInUseAuthorization()`: "You must call this method … before you can receive
  /// location-related information"); so without authorization, or before the phone's first
  /// fix, there is no dot and ``userLocation`` is not in this array [?] (Apple does not say
  /// when the annotation joins it). GeoSim keeps it where it was inserted — when
  /// ``showsUserLocation`` was turned on — so an app that turns it on before dropping pins
  /// finds it at index 0 once the user is located [?].
  public var annotations: [any Annotation] {
    guard let index = items.firstIndex(where: { $0 is UserLocation }), !isUserLocated else {
      return items
    }
    var shown = items
    shown.remove(at: index)
    return shown
  }

  /// Whether the map has the user's position to show: the app may use location and the phone
  /// has a fix.
  private var isUserLocated: Bool {
    phone.authorization.isAuthorized && userLocation.location != nil
  }

  /// The user-location annotation, like `MKMapView.userLocation`.
  public private(set) lazy var userLocation = UserLocation(phone: phone)

  /// Whether the map shows the user's position; turning it on adds ``userLocation`` to
  /// ``annotations`` (shown there once the user is located), turning it off removes it [A].
  public var showsUserLocation = false {
    didSet {
      guard showsUserLocation != oldValue else { return }
      // Logged only while the dot can be seen: not at (0°, 0°) for an unlocated user.
      if showsUserLocation {
        items.append(userLocation)
        if isUserLocated { logAnnotation(added: true, userLocation, index: items.count - 1) }
      } else if let index = items.firstIndex(where: { $0 === userLocation }) {
        let wasShown = isUserLocated
        items.remove(at: index)
        if wasShown { logAnnotation(added: false, userLocation, index: index) }
      }
    }
  }

  /// Adds an annotation at the end of ``annotations``; adding one already shown does nothing.
  public func addAnnotation(_ annotation: any Annotation) {
    guard !items.contains(where: { $0 === annotation }) else { return }
    items.append(annotation)
    logAnnotation(added: true, annotation, index: items.count - 1)
  }

  /// Adds several annotations in order.
  public func addAnnotations(_ annotations: [any Annotation]) {
    for annotation in annotations { addAnnotation(annotation) }
  }

  /// Removes an annotation (the same instance); removing one not shown does nothing.
  ///
  /// Removing ``userLocation`` this way takes the dot off the map, as on iOS, while
  /// ``showsUserLocation`` stays on [?].
  public func removeAnnotation(_ annotation: any Annotation) {
    guard let index = items.firstIndex(where: { $0 === annotation }) else { return }
    items.remove(at: index)
    logAnnotation(added: false, annotation, index: index)
  }

  /// Removes several annotations.
  public func removeAnnotations(_ annotations: [any Annotation]) {
    for annotation in annotations { removeAnnotation(annotation) }
  }

  private func logAnnotation(added: Bool, _ annotation: any Annotation, index: Int) {
    let logged = LoggedAnnotation(
      isUserLocation: annotation is UserLocation, title: annotation.title,
      coordinate: annotation.coordinate, index: index, count: items.count)
    phone.record(added ? MapEvent.addAnnotation(logged) : MapEvent.removeAnnotation(logged))
  }
}
