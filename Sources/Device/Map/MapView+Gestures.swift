import Foundation
import Geo

extension MapView {
  /// Adds MapKit's own recognizers, before any of the app's: pan, pinch (which may act
  /// together) and a double tap that zooms in [A].
  func installMapGestures() {
    let doubleTap = TapGestureRecognizer { [unowned self] _ in self.doubleTapped() }
    doubleTap.numberOfTapsRequired = 2
    doubleTap.name = "map.doubleTap"
    let pan = PanGestureRecognizer { [unowned self] r in self.panned(r as! PanGestureRecognizer) }
    pan.name = "map.pan"
    let pinch = PinchGestureRecognizer { [unowned self] r in
      self.pinched(r as! PinchGestureRecognizer)
    }
    pinch.name = "map.pinch"
    // Weak: each recognizer keeps this closure, which must not keep the recognizers.
    let mapOwn: (GestureRecognizer, GestureRecognizer) -> Bool = { [weak pan, weak pinch] a, b in
      (a === pan && b === pinch) || (a === pinch && b === pan)
    }
    pan.shouldRecognizeSimultaneously = mapOwn
    pinch.shouldRecognizeSimultaneously = mapOwn
    for recognizer in [doubleTap, pan, pinch] { addGestureRecognizer(recognizer) }
    doubleTapGestureRecognizer = doubleTap
    panGestureRecognizer = pan
    pinchGestureRecognizer = pinch
  }

  /// Moves the camera so the map point `anchor` shows at view point `point`, at `scale`.
  func camera(placing anchor: MapPoint, at point: Point, scale: Double) -> MapCamera {
    let theta = camera.heading * Double.pi / 180
    let dx = point.x - size.width / 2
    let dy = point.y - size.height / 2
    let a = scale * cos(theta)
    let b = scale * sin(theta)
    let center = MapPoint(x: anchor.x - (a * dx - b * dy), y: anchor.y - (b * dx + a * dy))
    return
      (try? MapCamera(center: center, heading: camera.heading, mapPointsPerPoint: scale))
      ?? camera
  }

  /// The map follows the finger: the map point under the touch-down stays under the fingers'
  /// centroid [A].
  private func panned(_ pan: PanGestureRecognizer) {
    switch pan.state {
    case .began, .changed:
      let t = pan.translation(in: self)
      let last = panApplied
      let step = Point(x: t.x - last.x, y: t.y - last.y)
      panApplied = t
      let center = Point(x: size.width / 2 - step.x, y: size.height / 2 - step.y)
      setCamera(
        camera(
          placing: mapPoint(at: center), at: Point(x: size.width / 2, y: size.height / 2),
          scale: camera.mapPointsPerPoint), animated: false, reason: "pan")
    default:
      panApplied = Point(x: 0, y: 0)
    }
  }

  /// Zooms about the fingers' centroid, keeping the map point under it in place [A][?].
  private func pinched(_ pinch: PinchGestureRecognizer) {
    switch pinch.state {
    case .began:
      pinchStartScale = camera.mapPointsPerPoint
      fallthrough
    case .changed:
      let p = pinch.location(in: self)
      let anchor = mapPoint(at: p)
      setCamera(
        camera(placing: anchor, at: p, scale: pinchStartScale / pinch.scale), animated: false,
        reason: "pinch")
    default: break
    }
  }

  /// Zooms in one level (half the map points per point), animated, keeping the tapped map point
  /// under the finger [A][?].
  private func doubleTapped() {
    let p = doubleTapGestureRecognizer.location(in: self)
    setCamera(
      camera(placing: mapPoint(at: p), at: p, scale: camera.mapPointsPerPoint / 2),
      animated: true, reason: "doubleTap")
  }
}
