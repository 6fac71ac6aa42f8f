import Cloud
import Device
import Foundation
import Geo
import SimKernel

/// The figures of one replay: a map of what happened against the truth, and the distribution of
/// the latencies it measured. Both are plain SVG, readable without GeoSim.
enum ScenarioFigures {
  static let trueTrace = "#555555"
  static let fenceColor = "#1f77b4"
  static let crossingColor = "#2ca02c"
  static let triggerColor = "#d62728"
  static let believedColor = "#ff9896"
  static let searchColor = "#9467bd"
  static let returnedColor = "#17becf"
  static let missedColor = "#ff7f0e"

  /// A map: the true trace, fences, true crossings, triggers (with where the phone believed it
  /// was), NCMB search circles and boxes, returned stations and the true ones they missed.
  ///
  /// Requests are drawn as sent: an NCMB box with its two corners marked as the app sent them
  /// (first the "southwest", then the "northeast", joined when they are inverted), and every
  /// weather request at its `lat` and `lon`, (0, 0) included, the frame widened to hold it.
  static func map(
    title: String, trueSamples: [TrajectorySample], geofence: GeofenceReport?,
    search: SearchReport?, weatherRequests: [WeatherRequestPoint] = []
  ) -> String {
    var frame = MapFrame()
    let trace = decimate(trueSamples.map(\.coordinate), to: 2_000)
    for item in trace { frame.include(item) }
    let fences = geofence?.fences ?? []
    let fenceRings = fences.map { ring(center: $0.center, radius: $0.radius) }
    for item in fenceRings.joined() { frame.include(item) }
    for item in geofence?.crossings ?? [] { frame.include(item.coordinate) }
    for o in geofence?.observations ?? [] {
      frame.include(o.truePosition)
      if let b = o.believedPosition { frame.include(b) }
    }
    let searches = search?.ncmbSearches.map(\.analysis) ?? []
    var searchShapes: [[Coordinate]] = []
    for s in searches {
      if let centre = s.centre, let r = s.radiusMeters {
        searchShapes.append(ring(center: centre, radius: r))
      } else if let box = s.boxMeant {
        let corners = [
          (box.south, box.west), (box.south, box.east), (box.north, box.east),
          (box.north, box.west), (box.south, box.west),
        ]
        searchShapes.append(
          corners.compactMap { try? Coordinate(latitude: $0.0, longitude: $0.1) })
      }
      for item in s.returned { frame.include(item.coordinate) }
      for item in s.missed { frame.include(item.coordinate) }
    }
    for item in searchShapes.joined() { frame.include(item) }
    for s in searches {
      if let sw = s.southwestAsSent, let ne = s.northeastAsSent {
        frame.include(sw)
        frame.include(ne)
      }
    }
    for w in weatherRequests { frame.include(w.coordinate) }

    var svg = SVGDocument(width: frame.width, height: frame.height, title: title)
    svg.text(frame.width / 2, 22, title, size: 15, anchor: "middle", weight: "bold")
    guard frame.hasContent else {
      svg.text(frame.width / 2, frame.height / 2, "nothing to draw", anchor: "middle")
      return svg.text
    }
    frame.drawAxes(&svg)
    for shape in searchShapes {
      svg.polyline(
        shape.map(frame.point), stroke: searchColor, width: 1.5, fill: searchColor, closed: true,
        dash: "6 3", opacity: 0.08)
    }
    for (fence, shape) in zip(fences, fenceRings) {
      svg.polyline(
        shape.map(frame.point), stroke: fenceColor, width: 1.5, fill: fenceColor, closed: true,
        opacity: 0.1)
      let label = frame.point(fence.center)
      svg.text(label.0, label.1, fence.identifier, size: 10, anchor: "middle", fill: fenceColor)
    }
    svg.polyline(trace.map(frame.point), stroke: trueTrace, width: 2)
    // The ends of the trace, so that a phone that stays put is on the map too.
    if let first = trace.first, let last = trace.last {
      let a = frame.point(first)
      let b = frame.point(last)
      svg.circle(
        b.0, b.1, r: 4, fill: "#ffffff", stroke: trueTrace, width: 2, title: "end of the true trace"
      )
      svg.circle(a.0, a.1, r: 4, fill: trueTrace, title: "start of the true trace")
    }
    for s in searches {
      guard let sw = s.southwestAsSent, let ne = s.northeastAsSent else { continue }
      let a = frame.point(sw)
      let b = frame.point(ne)
      let inverted = s.swappedLatitudes || s.swappedLongitudes
      if inverted { svg.line(a.0, a.1, b.0, b.1, stroke: triggerColor, width: 1.5) }
      let colour = inverted ? triggerColor : searchColor
      svg.circle(a.0, a.1, r: 4, fill: colour, title: "\"southwest\" corner as sent")
      svg.circle(b.0, b.1, r: 4, fill: colour, title: "\"northeast\" corner as sent")
      svg.text(a.0 + 6, a.1 - 6, "SW as sent", size: 10, fill: colour)
      svg.text(b.0 + 6, b.1 - 6, "NE as sent", size: 10, fill: colour)
    }
    for w in weatherRequests {
      let p = frame.point(w.coordinate)
      svg.circle(
        p.0, p.1, r: 5, fill: searchColor, stroke: "#ffffff",
        title: "weather request at \(seconds(w.time)): lat=\(w.latitude), lon=\(w.longitude)")
      svg.text(
        p.0 + 8, p.1 + 4, "weather lat=\(w.latitude) lon=\(w.longitude)", size: 10,
        fill: searchColor)
    }
    for s in searches {
      for point in s.missed {
        let p = frame.point(point.coordinate)
        svg.circle(
          p.0, p.1, r: 5, fill: "none", stroke: missedColor, width: 2,
          title: "missed: \(point.name ?? "?")")
      }
      for (point, isTrue) in zip(s.returned, s.returnedIsTrue) {
        let p = frame.point(point.coordinate)
        svg.circle(
          p.0, p.1, r: 4, fill: isTrue ? returnedColor : missedColor,
          title: "\(isTrue ? "returned" : "returned, not true"): \(point.name ?? "?")")
      }
    }
    for c in geofence?.crossings ?? [] {
      let p = frame.point(c.coordinate)
      svg.circle(
        p.0, p.1, r: 5, fill: crossingColor, stroke: "#ffffff",
        title: "true \(c.direction.rawValue) at \(seconds(c.time.seconds))")
    }
    for o in geofence?.observations ?? [] {
      let p = frame.point(o.truePosition)
      if let b = o.believedPosition {
        let q = frame.point(b)
        svg.line(p.0, p.1, q.0, q.1, stroke: believedColor, dash: "3 2")
        svg.circle(q.0, q.1, r: 3, fill: believedColor, title: "believed position")
      }
      svg.circle(
        p.0, p.1, r: 5, fill: triggerColor, stroke: "#ffffff",
        title: "\(o.event) at \(seconds(o.time.seconds)) (\(o.outcome.rawValue))")
    }
    var legend: [(String, String)] = trace.isEmpty ? [] : [(trueTrace, "true trace")]
    if !fences.isEmpty {
      legend += [
        (fenceColor, "fence"), (crossingColor, "true crossing"),
        (triggerColor, "trigger (true position)"), (believedColor, "believed position"),
      ]
    }
    if !weatherRequests.isEmpty { legend.append((searchColor, "weather request as sent")) }
    if !searches.isEmpty {
      legend += [
        (searchColor, "search area"), (returnedColor, "returned, true"),
        (missedColor, "missed or not true"),
      ]
    }
    svg.legend(legend, x: frame.width - 200, y: 36)
    return svg.text
  }

  /// A histogram of the replay's latencies: geofence triggers after the true crossing, and
  /// search answers after the request.
  static func latencies(title: String, geofence: GeofenceReport?, search: SearchReport?)
    -> String
  {
    let fence = (geofence?.observations ?? []).compactMap(\.latency)
    let searches = (search?.requests ?? []).compactMap { $0.latency?.totalSeconds }
    let width = 720.0
    let height = 360.0
    let left = 64.0
    let right = 24.0
    let top = 48.0
    let bottom = 56.0
    var svg = SVGDocument(width: width, height: height, title: title)
    svg.text(width / 2, 24, title, size: 15, anchor: "middle", weight: "bold")
    let all = fence + searches
    guard let lo = all.min(), let hi = all.max() else {
      svg.text(width / 2, height / 2, "no latencies recorded", anchor: "middle")
      return svg.text
    }
    let low = min(0, lo)
    let high = hi > low ? hi : low + 1
    let bins = 20
    let binWidth = (high - low) / Double(bins)
    func counts(_ values: [Double]) -> [Int] {
      var c = [Int](repeating: 0, count: bins)
      for v in values { c[min(bins - 1, max(0, Int((v - low) / binWidth)))] += 1 }
      return c
    }
    let fenceCounts = counts(fence)
    let searchCounts = counts(searches)
    let tallest = max(1, zip(fenceCounts, searchCounts).map { $0 + $1 }.max() ?? 1)
    // Head room above the tallest bar keeps the legend clear of the bars.
    let maxCount = Int((Double(tallest) * 1.4).rounded(.up))
    let plotWidth = width - left - right
    let plotHeight = height - top - bottom
    func x(_ v: Double) -> Double { left + (v - low) / (high - low) * plotWidth }
    func y(_ c: Double) -> Double { top + plotHeight - c / Double(maxCount) * plotHeight }
    for tick in niceTicks(0, Double(maxCount), count: 4) where tick == tick.rounded() {
      svg.line(left, y(tick), width - right, y(tick), stroke: "#dddddd")
      svg.text(left - 6, y(tick) + 4, Markup.number(tick), size: 11, anchor: "end")
    }
    for tick in niceTicks(low, high, count: 6) {
      svg.line(x(tick), top + plotHeight, x(tick), top + plotHeight + 4, stroke: "#333333")
      svg.text(x(tick), top + plotHeight + 18, Markup.number(tick), size: 11, anchor: "middle")
    }
    for i in 0..<bins {
      let x0 = x(low + Double(i) * binWidth) + 1
      let w = plotWidth / Double(bins) - 2
      let f = Double(fenceCounts[i])
      let s = Double(searchCounts[i])
      let range =
        "\(seconds(low + Double(i) * binWidth))–\(seconds(low + Double(i + 1) * binWidth))"
      if f > 0 {
        svg.rect(
          x0, y(f), w, y(0) - y(f), fill: triggerColor,
          title: "\(Int(f)) geofence trigger(s), \(range)")
      }
      if s > 0 {
        svg.rect(
          x0, y(f + s), w, y(f) - y(f + s), fill: searchColor,
          title: "\(Int(s)) search answer(s), \(range)")
      }
    }
    svg.line(left, top + plotHeight, width - right, top + plotHeight, stroke: "#333333")
    svg.line(left, top, left, top + plotHeight, stroke: "#333333")
    svg.text(left + plotWidth / 2, height - 14, "latency (s)", size: 12, anchor: "middle")
    svg.text(16, top + plotHeight / 2, "count", size: 12, anchor: "middle", rotate: -90)
    svg.legend(
      [
        (triggerColor, "geofence trigger after true crossing"),
        (searchColor, "search answer after request"),
      ], x: width - right - 280, y: top)
    return svg.text
  }

  /// A circle of `radius` metres around `center`, as 72 points on the ellipsoid.
  static func ring(center: Coordinate, radius: Double) -> [Coordinate] {
    (0...72).compactMap { i in
      try? Geodesic.wgs84.direct(from: center, azimuth: Double(i) * 5, distance: radius)
        .coordinate
    }
  }

  /// At most `limit` points, evenly taken, the last one kept.
  static func decimate(_ points: [Coordinate], to limit: Int) -> [Coordinate] {
    guard points.count > limit else { return points }
    let step = Double(points.count - 1) / Double(limit - 1)
    return (0..<limit).map { points[Int((Double($0) * step).rounded())] }
  }

  static func seconds(_ s: Double) -> String { "\(Markup.number(s)) s" }
}

/// A weather request where it was sent: its `lat` and `lon` as the app wrote them, and the
/// position they name.
struct WeatherRequestPoint {
  /// When it was sent, in seconds.
  let time: Double
  /// The `lat` parameter as sent.
  let latitude: String
  /// The `lon` parameter as sent.
  let longitude: String
  /// The position the parameters name.
  let coordinate: Coordinate

  /// The events read for requests: the others are passed over without a cast.
  private static let networkEvents = LogEventTypes(NetworkEvent.self)

  /// The weather requests of `events` whose parameters name a position.
  static func all(in events: [LogEntry]) -> [WeatherRequestPoint] {
    events.compactMap { e in
      guard networkEvents.contains(e),
        case .request(_, "weather", let http)? = e.payload as? NetworkEvent,
        let lat = http.queryValue("lat"), let lon = http.queryValue("lon"),
        let la = Double(lat), let lo = Double(lon),
        let c = try? Coordinate(latitude: la, longitude: lo)
      else { return nil }
      return WeatherRequestPoint(time: e.time.seconds, latitude: lat, longitude: lon, coordinate: c)
    }
  }
}

/// Fits coordinates into the drawing with Web Mercator, keeping the aspect ratio.
struct MapFrame {
  let width = 900.0
  let height = 680.0
  let margin = (left: 78.0, right: 24.0, top: 40.0, bottom: 52.0)
  private var minX = Double.infinity
  private var maxX = -Double.infinity
  private var minY = Double.infinity
  private var maxY = -Double.infinity

  var hasContent: Bool { minX.isFinite }

  mutating func include(_ c: Coordinate) {
    let p = WebMercator.position(of: c)
    minX = min(minX, p.x)
    maxX = max(maxX, p.x)
    minY = min(minY, p.y)
    maxY = max(maxY, p.y)
  }

  /// The square metres per drawing unit, with 5 % padding and at least 200 m across.
  private var scale: (Double, Double, Double) {
    let spanX = max(maxX - minX, 200) * 1.1
    let spanY = max(maxY - minY, 200) * 1.1
    let plotW = width - margin.left - margin.right
    let plotH = height - margin.top - margin.bottom
    let s = max(spanX / plotW, spanY / plotH)
    return (s, (minX + maxX) / 2, (minY + maxY) / 2)
  }

  func point(_ c: Coordinate) -> (Double, Double) {
    let p = WebMercator.position(of: c)
    let (s, cx, cy) = scale
    let centerX = margin.left + (width - margin.left - margin.right) / 2
    let centerY = margin.top + (height - margin.top - margin.bottom) / 2
    return (centerX + (p.x - cx) / s, centerY - (p.y - cy) / s)
  }

  /// Longitude and latitude ticks with labels, and a scale bar.
  func drawAxes(_ svg: inout SVGDocument) {
    let (s, cx, cy) = scale
    let plotW = width - margin.left - margin.right
    let plotH = height - margin.top - margin.bottom
    let x0 = cx - plotW / 2 * s
    let y0 = cy - plotH / 2 * s
    guard let sw = try? WebMercator.coordinate(of: Position(x: x0, y: y0)),
      let ne = try? WebMercator.coordinate(of: Position(x: x0 + plotW * s, y: y0 + plotH * s))
    else { return }
    let bottom = margin.top + plotH
    svg.rect(margin.left, margin.top, plotW, plotH, fill: "none", stroke: "#999999")
    let east = ne.longitude < sw.longitude ? ne.longitude + 360 : ne.longitude
    for lon in niceTicks(sw.longitude, east, count: 6) {
      guard let c = try? Coordinate(latitude: sw.latitude, longitude: lon) else { continue }
      let x = point(c).0
      svg.line(x, margin.top, x, bottom, stroke: "#eeeeee")
      svg.text(x, bottom + 16, Self.label(lon), size: 10, anchor: "middle")
    }
    for lat in niceTicks(sw.latitude, ne.latitude, count: 6) {
      guard let c = try? Coordinate(latitude: lat, longitude: sw.longitude) else { continue }
      let y = point(c).1
      svg.line(margin.left, y, margin.left + plotW, y, stroke: "#eeeeee")
      svg.text(margin.left - 6, y + 4, Self.label(lat), size: 10, anchor: "end")
    }
    svg.text(margin.left + plotW / 2, height - 12, "longitude (°)", size: 12, anchor: "middle")
    svg.text(18, margin.top + plotH / 2, "latitude (°)", size: 12, anchor: "middle", rotate: -90)
    // Scale bar: Web Mercator metres shrink by cos(latitude) on the ground.
    let groundPerUnit = s * cos(((sw.latitude + ne.latitude) / 2) * .pi / 180)
    let target = groundPerUnit * plotW / 5
    let magnitude = pow(10, log10(target).rounded(.down))
    let bar = [5.0, 2, 1].map { $0 * magnitude }.first { $0 <= target } ?? magnitude
    let barUnits = bar / groundPerUnit
    let bx = margin.left + 12
    let by = bottom - 14
    svg.line(bx, by, bx + barUnits, by, stroke: "#333333", width: 2)
    svg.text(
      bx + barUnits / 2, by - 5,
      bar >= 1_000 ? "\(Markup.number(bar / 1_000)) km" : "\(Markup.number(bar)) m",
      size: 10, anchor: "middle")
  }

  /// `degrees` as "%.4f" prints it, without trailing zeros or a trailing point.
  static func label(_ degrees: Double) -> String {
    var text = Markup.fixed(degrees, decimals: 4) ?? String(format: "%.4f", degrees)
    guard text.utf8.contains(UInt8(ascii: ".")) else { return text }
    while text.hasSuffix("0") { text.removeLast() }
    if text.hasSuffix(".") { text.removeLast() }
    return text
  }
}
