import Device
import Geo

/// What an ``MKMapView`` tells the app (`MKMapViewDelegate`).
///
/// The simulated map does not report its changes to the app, so none of Apple's delegate
/// methods is called: `mapView(_:regionWillChangeAnimated:)`,
/// `mapView(_:regionDidChangeAnimated:)`, `mapViewDidChangeVisibleRegion(_:)`,
/// `mapView(_:didUpdate:)` (the user location), selection, and every method about annotation
/// or overlay views (views are not modelled). An app that implements them compiles — they are
/// plain methods of its class — but they never run; read ``MKMapView/region`` or
/// ``MKMapView/userLocation`` where the app needs them instead.
public protocol MKMapViewDelegate: NSObjectProtocol {}

/// A map on the simulated phone's screen (`MKMapView`), as a model object: its camera, its
/// annotations and the user's dot, with Apple's names, over the phone's map
/// (`Device.MapView`: spherical Mercator on MapKit's 2²⁸-point world, MapKit's own pan,
/// pinch and double-tap zoom, every change in the event log with source `map`).
///
/// `MKMapView(frame:)` binds to the phone whose app runs on the calling thread. It is an
/// `NSObject`, not a `UIView`: there is no view hierarchy, layout or drawing, so its ``frame``
/// is fixed at creation and read as a position in the window. A frame with no area (which Auto
/// Layout would size later on iOS), and `MKMapView()`, give a full-screen map of 390 × 844
/// points [?] (an iPhone's portrait screen).
///
/// The map the scenario's touches reach: in an app run by ``ApplicationHost``, the screen shows
/// the `MKMapView` the app created most recently in its current process [?] (iOS shows the map
/// in the window's view hierarchy, which is not modelled), so the timeline's taps, drags and
/// pinches move this map's camera as MapKit's gestures would.
open class MKMapView: NSObject {
  /// The phone's map.
  let map: MapView
  private var boxes: [ObjectIdentifier: AnnotationBox] = [:]

  /// The map's position and size in the window's points; fixed at creation.
  public let frame: CGRect
  /// The map's own coordinate space: its size, at the origin.
  open var bounds: CGRect { CGRect(origin: .zero, size: frame.size) }
  /// Receives the map's events; the simulated map reports none (see ``MKMapViewDelegate``).
  open weak var delegate: (any MKMapViewDelegate)?

  /// The full screen's size, for maps without one: 390 × 844 points [?].
  static let screenSize = Size(width: 390, height: 844)

  /// A map at `frame` on the running app's phone, showing the whole world's width around
  /// (0°, 0°) until the app sets a region [?] (MapKit starts from a region of the device's
  /// country, which is not modelled).
  public init(frame: CGRect) {
    let phone = Phone.requireCurrent(doing: "MKMapView(frame:)")
    let width = Double(frame.size.width)
    let height = Double(frame.size.height)
    var size = Size(width: width, height: height)
    var origin = frame.origin
    if !(width.isFinite && height.isFinite && width > 0 && height > 0) {
      size = Self.screenSize
      if !(Double(origin.x).isFinite && Double(origin.y).isFinite) { origin = .zero }
    }
    // The size was checked above; the phone's map accepts any positive finite size.
    map = try! MapView(phone: phone, size: size)
    self.frame = CGRect(
      origin: origin, size: CGSize(width: CGFloat(size.width), height: CGFloat(size.height)))
    super.init()
    mapCreated(on: phone)
  }

  /// A full-screen map, 390 × 844 points [?].
  public override convenience init() {
    self.init(frame: .zero)
  }

  /// The phone's map that this one drives (GeoSim's own, not Apple's): the same camera,
  /// annotations and gestures. A GeoSim app model shows it as its screen's map
  /// (`Device.AppScreen.mapView`), and calls it for what MapKit has no name for, such as a
  /// camera at a tile zoom level (`Device.MapCamera`).
  public var deviceMap: MapView { map }

  // MARK: Region and camera

  /// The region the map shows (`region`): the smallest one enclosing the whole view. Setting it
  /// is ``setRegion(_:animated:)`` without animation.
  open var region: MKCoordinateRegion {
    get { MKCoordinateRegion(map.region) }
    set { setRegion(newValue, animated: false) }
  }

  /// Shows `region`, keeping the map's aspect ratio: the region's centre at the centre and the
  /// whole region visible, one dimension showing more [A]. An invalid region — an invalid
  /// centre, or a span negative, not a number or beyond 180° × 360° — is ignored and the map
  /// stays where it is (iOS raises `NSInvalidArgumentException` [A]).
  open func setRegion(_ region: MKCoordinateRegion, animated: Bool) {
    guard let region = region.deviceRegion else { return }
    map.setRegion(region, animated: animated)
  }

  /// The coordinate at the centre of the map. Setting it is ``setCenter(_:animated:)`` without
  /// animation.
  open var centerCoordinate: CLLocationCoordinate2D {
    get { CLLocationCoordinate2D(map.centerCoordinate) }
    set { setCenter(newValue, animated: false) }
  }

  /// Moves the centre to `coordinate`, keeping the zoom and the heading; an invalid coordinate
  /// is ignored.
  open func setCenter(_ coordinate: CLLocationCoordinate2D, animated: Bool) {
    guard let center = coordinate.coordinate else { return }
    map.setCenter(center, animated: animated)
  }

  /// The camera: centre, distance and heading, pitch 0 (see ``MKMapCamera``). Each read gives a
  /// new object; changing it changes nothing until it is assigned back. Setting it is
  /// ``setCamera(_:animated:)`` without animation.
  open var camera: MKMapCamera {
    get {
      let camera = map.camera
      return MKMapCamera(
        lookingAtCenter: CLLocationCoordinate2D(camera.centerCoordinate),
        fromDistance: MKMapCamera.distance(showing: camera, in: map.size), pitch: 0,
        heading: camera.heading)
    }
    set { setCamera(newValue, animated: false) }
  }

  /// Shows `camera` from straight above (its pitch dropped); the zoom is clamped between the
  /// closest the map allows and the whole world's width. A camera with an invalid centre or a
  /// distance or heading that is not a number is ignored.
  open func setCamera(_ camera: MKMapCamera, animated: Bool) {
    guard let target = camera.deviceCamera(in: map.size) else { return }
    try? map.setCamera(target, animated: animated)
  }

  /// Whether the user can pan the map (its pan gesture); default `true` [A].
  open var isScrollEnabled: Bool {
    get { map.panGestureRecognizer.isEnabled }
    set { map.panGestureRecognizer.isEnabled = newValue }
  }

  /// Whether the user can zoom the map (its pinch and double-tap gestures); default `true` [A].
  open var isZoomEnabled: Bool {
    get { map.pinchGestureRecognizer.isEnabled }
    set {
      map.pinchGestureRecognizer.isEnabled = newValue
      map.doubleTapGestureRecognizer.isEnabled = newValue
    }
  }

  // MARK: Converting

  /// The coordinate under `point` of `view`'s coordinate space — this map, another map, or the
  /// window for `nil` (`convert(_:toCoordinateFrom:)`).
  ///
  /// Points outside the map convert too; longitudes wrap across the antimeridian and
  /// latitudes beyond the map's edges clamp to ±85.0511°. A point that is not finite gives
  /// `kCLLocationCoordinate2DInvalid` [?].
  open func convert(_ point: CGPoint, toCoordinateFrom view: MKMapView?) -> CLLocationCoordinate2D {
    let from = view?.frame.origin ?? .zero
    let local = Point(
      x: Double(point.x) + Double(from.x) - Double(frame.origin.x),
      y: Double(point.y) + Double(from.y) - Double(frame.origin.y))
    guard let coordinate = try? map.convert(local) else { return kCLLocationCoordinate2DInvalid }
    return CLLocationCoordinate2D(coordinate)
  }

  /// The point of `view`'s coordinate space — this map, another map, or the window for `nil` —
  /// that shows `coordinate` (`convert(_:toPointTo:)`).
  ///
  /// Of the copies of the world, the one nearest the map's centre is used, so a coordinate just
  /// across the antimeridian lands next to it; the point may lie outside the map. An invalid
  /// coordinate gives a point whose components are not numbers [?].
  open func convert(_ coordinate: CLLocationCoordinate2D, toPointTo view: MKMapView?) -> CGPoint {
    guard let valid = coordinate.coordinate else { return CGPoint(x: CGFloat.nan, y: .nan) }
    let local = map.convert(valid)
    let to = view?.frame.origin ?? .zero
    return CGPoint(
      x: CGFloat(local.x + Double(frame.origin.x) - Double(to.x)),
      y: CGFloat(local.y + Double(frame.origin.y) - Double(to.y)))
  }

  // MARK: Annotations

  /// The annotations on the map, in the order they were added, with ``userLocation`` among
  /// them while ``showsUserLocation`` is on and the map has located the user: the app has
  /// location authorization and the phone a fix (at the place it was added [?]; see
  /// `MapView.annotations` in `Device`).
  open var annotations: [any MKAnnotation] {
    map.annotations.compactMap { annotation -> (any MKAnnotation)? in
      if let box = annotation as? AnnotationBox { return box.annotation }
      if annotation === map.userLocation { return userLocation }
      return nil
    }
  }

  /// Adds `annotation` at the end of ``annotations``; adding one already shown does nothing.
  open func addAnnotation(_ annotation: any MKAnnotation) {
    if annotation === userLocation { return map.addAnnotation(map.userLocation) }
    let key = ObjectIdentifier(annotation)
    let box = boxes[key] ?? AnnotationBox(annotation)
    boxes[key] = box
    map.addAnnotation(box)
  }

  /// Adds several annotations, in order.
  open func addAnnotations(_ annotations: [any MKAnnotation]) {
    for annotation in annotations { addAnnotation(annotation) }
  }

  /// Removes `annotation` (the same object); removing one not shown does nothing. Removing
  /// ``userLocation`` takes the dot off the map while ``showsUserLocation`` stays on [?].
  open func removeAnnotation(_ annotation: any MKAnnotation) {
    if annotation === userLocation { return map.removeAnnotation(map.userLocation) }
    guard let box = boxes.removeValue(forKey: ObjectIdentifier(annotation)) else { return }
    map.removeAnnotation(box)
  }

  /// Removes several annotations.
  open func removeAnnotations(_ annotations: [any MKAnnotation]) {
    for annotation in annotations { removeAnnotation(annotation) }
  }

  /// Whether the map shows the user's position: turning it on adds ``userLocation`` to
  /// ``annotations`` once the user is located, turning it off removes it [A]. Default `false`.
  open var showsUserLocation: Bool {
    get { map.showsUserLocation }
    set { map.showsUserLocation = newValue }
  }

  /// The user's dot, whether or not it is shown.
  public private(set) lazy var userLocation = MKUserLocation(
    map.userLocation, in: map.phone.simulation)

  // MARK: GeoSim

}
