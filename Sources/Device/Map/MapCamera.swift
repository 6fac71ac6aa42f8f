import Foundation
import Geo

/// What a map view looks at, without altitude or pitch: a centre, a heading and a scale.
///
/// Like `MKMapCamera` reduced to a flat, top-down view. The scale is ``mapPointsPerPoint``: how
/// many MapKit map points (2²⁸ across the world [A]) one screen point covers, so the visible
/// map-point width of a view is `mapPointsPerPoint × width`. ``zoomLevel`` states the same
/// scale as the familiar tile zoom: at zoom *z* a 256-point tile holds the world / 2^*z* [A][3P].
public struct MapCamera: Hashable, Sendable, CustomStringConvertible {
  /// The map point at the centre of the view.
  public var center: MapPoint
  /// The compass direction at the top of the screen, in degrees clockwise from north, in
  /// [0, 360).
  public var heading: Double
  /// Map points per screen point; larger values show more of the world.
  public var mapPointsPerPoint: Double

  /// A camera over `centerCoordinate`.
  ///
  /// Throws ``DeviceError`` unless `heading` is finite and `mapPointsPerPoint` is a positive
  /// finite number.
  public init(centerCoordinate: Coordinate, heading: Double = 0, mapPointsPerPoint: Double) throws {
    try self.init(
      center: MapPoint(centerCoordinate), heading: heading, mapPointsPerPoint: mapPointsPerPoint)
  }

  /// A camera over a map point, whose `x` wraps around the world.
  public init(center: MapPoint, heading: Double = 0, mapPointsPerPoint: Double) throws {
    guard center.x.isFinite, center.y.isFinite else {
      throw DeviceError(.invalidArgument, "camera centre \(center) is not finite")
    }
    guard heading.isFinite else {
      throw DeviceError(.invalidArgument, "camera heading \(heading) is not a finite number")
    }
    guard mapPointsPerPoint.isFinite, mapPointsPerPoint > 0 else {
      throw DeviceError(
        .invalidArgument,
        "camera scale \(mapPointsPerPoint) map points per point is not a positive finite number")
    }
    let w = MapPoint.worldSize
    self.center = MapPoint(
      x: center.x - (center.x / w).rounded(.down) * w, y: min(max(center.y, 0), w))
    let h = heading.truncatingRemainder(dividingBy: 360)
    self.heading = h < 0 ? h + 360 : h
    self.mapPointsPerPoint = mapPointsPerPoint
  }

  /// The coordinate at the centre of the view.
  public var centerCoordinate: Coordinate {
    // A wrapped, clamped map point always has a coordinate.
    (try? WebMercator.coordinate(of: center)) ?? (try! Coordinate(latitude: 0, longitude: 0))
  }

  /// The tile zoom level of this scale: `20 − log₂(mapPointsPerPoint)`, since a 256-point tile
  /// at zoom *z* covers 2²⁸ / 2^*z* map points [3P].
  public var zoomLevel: Double { 20 - log2(mapPointsPerPoint) }

  /// The camera as `centre heading scale`.
  public var description: String {
    "camera(\(centerCoordinate), heading \(heading)°, \(mapPointsPerPoint) mp/pt)"
  }
}

/// The affine map between a view's points and unwrapped map points for one camera, computed
/// once per camera change so conversions cost a few multiplications.
///
/// View → map: `m = c + R(θ)·s·(p − half)`, where `R(θ)` turns the screen's up towards the
/// heading; map → view is its inverse, taking the world copy nearest the centre so points
/// across the antimeridian land on screen.
struct CameraTransform {
  let cx: Double
  let cy: Double
  let halfWidth: Double
  let halfHeight: Double
  /// `s cos θ` and `s sin θ`.
  let a: Double
  let b: Double
  /// `a / s²` and `b / s²`, for the inverse.
  let ia: Double
  let ib: Double

  init(camera: MapCamera, size: Size) {
    cx = camera.center.x
    cy = camera.center.y
    halfWidth = size.width / 2
    halfHeight = size.height / 2
    let theta = camera.heading * (Double.pi / 180)
    let s = camera.mapPointsPerPoint
    // Exact values at the right angles keep heading 0 free of rounding noise.
    let (cosT, sinT): (Double, Double) =
      switch camera.heading {
      case 0: (1, 0)
      case 90: (0, 1)
      case 180: (-1, 0)
      case 270: (0, -1)
      default: (cos(theta), sin(theta))
      }
    a = s * cosT
    b = s * sinT
    ia = cosT / s
    ib = sinT / s
  }

  /// The unwrapped map point under a view point.
  @inline(__always)
  func mapPoint(_ p: Point) -> (x: Double, y: Double) {
    let dx = p.x - halfWidth
    let dy = p.y - halfHeight
    return (cx + a * dx - b * dy, cy + b * dx + a * dy)
  }

  /// The view point of a map point, using the copy of the world nearest the centre.
  @inline(__always)
  func viewPoint(x: Double, y: Double) -> Point {
    let w = MapPoint.worldSize
    var dx = x - cx
    if dx > w / 2 {
      dx -= w
    } else if dx < -w / 2 {
      dx += w
    }
    let dy = y - cy
    return Point(x: halfWidth + ia * dx + ib * dy, y: halfHeight - ib * dx + ia * dy)
  }

  /// The coordinate of an unwrapped map point; `y` beyond the world's edge clamps to
  /// ±85.0511° (the map ends there [A]).
  @inline(__always)
  static func coordinate(x: Double, y: Double) throws -> Coordinate {
    let w = MapPoint.worldSize
    let yc = min(max(y, 0), w)
    let latitude = atan(sinh((0.5 - yc / w) * (2 * Double.pi))) * (180 / Double.pi)
    return try Coordinate(latitude: latitude, longitude: x / w * 360 - 180)
  }
}
