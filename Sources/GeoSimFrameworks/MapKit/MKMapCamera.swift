import Device
import Geo

/// A viewpoint above the map (`MKMapCamera`): where it looks, from how far, and which way is up.
///
/// The simulated map is flat and top-down (`Device.MapCamera`): it has a centre, a heading
/// and a scale, but no pitch. A camera read from ``MKMapView/camera`` has pitch 0 and its
/// ``centerCoordinateDistance`` is the height that shows what the map shows; a camera given to
/// the map is shown from straight above at that distance, its pitch dropped, as a map that
/// cannot tilt shows it [?].
///
/// The distance and the map's scale are related through MapKit's field of view, which Apple
/// does not document: 30° across the view's longer side, as developers have measured it [3P]
/// (so a portrait map 844 points tall seen from `d` metres shows `2 d tan 15°` metres from top
/// to bottom).
open class MKMapCamera: NSObject, NSCopying {
  /// The coordinate at the centre of the map.
  open var centerCoordinate: CLLocationCoordinate2D
  /// The distance in metres from the camera to ``centerCoordinate``, along the line of sight.
  open var centerCoordinateDistance: CLLocationDistance
  /// The compass direction at the top of the map, in degrees clockwise from true north.
  open var heading: CLLocationDirection
  /// The camera's tilt from straight down towards the horizon, in degrees; the simulated map
  /// always shows 0.
  open var pitch: CGFloat

  /// The camera's height above the map in metres: ``centerCoordinateDistance`` × cos(pitch);
  /// setting it keeps the pitch and changes the distance.
  open var altitude: CLLocationDistance {
    get { centerCoordinateDistance * cos(Double(pitch) * Double.pi / 180) }
    set {
      let c = cos(Double(pitch) * Double.pi / 180)
      centerCoordinateDistance = c > 0 ? newValue / c : newValue
    }
  }

  /// A camera over (0°, 0°) at distance 0, heading north, looking straight down.
  public override init() {
    centerCoordinate = CLLocationCoordinate2D()
    centerCoordinateDistance = 0
    heading = 0
    pitch = 0
    super.init()
  }

  /// A camera looking at `centerCoordinate` from `distance` metres, tilted by `pitch` degrees,
  /// with `heading` at the top.
  public convenience init(
    lookingAtCenter centerCoordinate: CLLocationCoordinate2D,
    fromDistance distance: CLLocationDistance, pitch: CGFloat, heading: CLLocationDirection
  ) {
    self.init()
    self.centerCoordinate = centerCoordinate
    self.centerCoordinateDistance = distance
    self.pitch = pitch
    self.heading = heading
  }

  /// A camera with the same values.
  open func copy(with zone: NSZone? = nil) -> Any {
    MKMapCamera(
      lookingAtCenter: centerCoordinate, fromDistance: centerCoordinateDistance, pitch: pitch,
      heading: heading)
  }

  /// "MKMapCamera(center, distance m, heading °, pitch °)".
  open override var description: String {
    "MKMapCamera(\(centerCoordinate.latitude), \(centerCoordinate.longitude), "
      + "\(centerCoordinateDistance) m, heading \(heading)°, pitch \(pitch)°)"
  }

  // MARK: The phone's camera

  /// MapKit's field of view across the view's longer side: 30° [3P].
  static let aperture = 30.0

  /// The metres the camera must be from the ground to show `camera` in a view of `size`.
  static func distance(showing camera: MapCamera, in size: Size) -> CLLocationDistance {
    let longer = max(size.width, size.height)
    let meters =
      longer * camera.mapPointsPerPoint
      * WebMercator.metersPerMapPoint(atLatitude: camera.centerCoordinate.latitude)
    return meters / (2 * tan(aperture / 2 * Double.pi / 180))
  }

  /// This camera as the phone's flat camera for a view of `size`, if its values are usable:
  /// a valid centre, a finite distance and heading. A distance of 0 or less asks for the
  /// closest zoom.
  func deviceCamera(in size: Size) -> MapCamera? {
    guard let center = centerCoordinate.coordinate, centerCoordinateDistance.isFinite,
      heading.isFinite
    else { return nil }
    let longer = max(size.width, size.height)
    let meters = 2 * centerCoordinateDistance * tan(Self.aperture / 2 * Double.pi / 180)
    let scale = meters / (longer * WebMercator.metersPerMapPoint(atLatitude: center.latitude))
    return try? MapCamera(
      centerCoordinate: center, heading: heading,
      mapPointsPerPoint: scale > 0 ? scale : .leastNormalMagnitude)
  }
}
