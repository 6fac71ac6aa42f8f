import Cloud
import Device
import Foundation
import Geo
import JSON
import Replay
import SimKernel

/// The data of a replay's viewer page (`index.html` in the scenario's folder): one JSON document
/// with everything the page draws, already projected into the map's drawing units, so that the
/// page's script only looks things up by time.
///
/// What it holds (`docs/REPORTS.md`, "The replay viewer"): the true track (at most
/// ``trackLimit`` points, its segment breaks kept), every fix and every estimate the region
/// engine decided from, the fences with the phone's state and the true state over time, every
/// request drawn where it was sent, the GNSS outage areas and the times the true track was in
/// them, the offline windows, station and place names, the scenario's GeoJSON layers, the
/// shipped country borders near the map, the scenario's time zone offsets, and the event log
/// (at most ``eventLimit`` entries, each with its `events.jsonl` line).
struct ViewerData {
  /// The most true-track points drawn.
  static let trackLimit = 4_000
  /// The most events embedded; the page says when a log had more.
  static let eventLimit = 20_000

  /// One member of the document, as the page writes it.
  enum Member {
    /// A value, written as `JSONValue` writes it.
    case value(JSONValue)
    /// JSON text written as the data was made: the long lists of numbers (the track, the fixes,
    /// the estimates), which a `JSONValue` per number would cost more to make than to write.
    case text([UInt8])
    /// The event list, written from its lines.
    case events(EventList)
  }

  /// The document's members, by key.
  let members: [String: Member]

  /// The zone's offsets from UTC over the replay: one `{from, offset, abbreviation}` per span,
  /// `from` in virtual seconds, so that the page never asks the browser's own zone.
  static func zones(of zone: TimeZone, from start: Date, seconds end: Double) -> JSONValue {
    var out: [JSONValue] = []
    var from = start
    let last = start.addingTimeInterval(end)
    while true {
      let offset = zone.secondsFromGMT(for: from)
      out.append(
        .object([
          "from": Builder.r3(from.timeIntervalSince(start)),
          "offset": .number(Double(offset)),
          "abbreviation": .string(Builder.abbreviation(zone, at: from, offset: offset)),
        ]))
      guard let next = zone.nextDaylightSavingTimeTransition(after: from), next <= last,
        out.count < 1_000
      else { break }
      from = next
    }
    return .array(out)
  }

  /// The data of `run`'s viewer; `jsonLines`, when given, is its log as `events.jsonl` holds
  /// it, whose lines the event list takes instead of writing them again.
  init(
    run: ScenarioRun, report: ScenarioReport, borders: ViewerBorders,
    eventLimit: Int = Self.eventLimit, jsonLines: [UInt8]? = nil,
    resources: ReplayResources? = nil
  ) {
    members = Builder(
      run: run, report: report, borders: borders, eventLimit: eventLimit, jsonLines: jsonLines,
      resources: resources
    ).document()
  }

  /// Appends the document as compact JSON with its keys sorted: the bytes `JSONValue.jsonText`
  /// would make of it were every member a `JSONValue`.
  func write(to out: inout JSONBuffer) {
    out.append(UInt8(ascii: "{"))
    for (i, member) in members.sorted(by: { $0.key < $1.key }).enumerated() {
      if i > 0 { out.append(UInt8(ascii: ",")) }
      out.writeString(member.key)
      out.append(UInt8(ascii: ":"))
      switch member.value {
      case .value(let value): value.write(to: &out)
      case .text(let text): text.withUnsafeBufferPointer { out.append(contentsOf: $0) }
      case .events(let events): events.write(to: &out)
      }
    }
    out.append(UInt8(ascii: "}"))
  }
}

/// JSON text of numbers, objects and arrays of them, made straight into bytes: what a
/// `JSONValue` of them would write, without making one.
struct NumbersText: ~Copyable {
  private var out = JSONBuffer(capacity: 1 << 12)

  /// The text written.
  consuming func bytes() -> [UInt8] { out.bytes }

  /// Writes `n` (finite), as `JSONValue.number(n)` writes.
  mutating func number(_ n: Double) { out.writeNumber(n) }

  /// Writes `null`.
  mutating func null() { out.append("null") }

  /// Writes `[`, what `body` writes with a comma before each element after the first, and `]`.
  mutating func array<S: Sequence>(_ elements: S, _ body: (inout Self, S.Element) -> Void) {
    out.append(UInt8(ascii: "["))
    var first = true
    for element in elements {
      if !first { out.append(UInt8(ascii: ",")) }
      first = false
      body(&self, element)
    }
    out.append(UInt8(ascii: "]"))
  }

  /// Writes an array of numbers.
  mutating func numbers(_ values: [Double]) {
    array(values) { $0.number($1) }
  }

  /// Writes an object of numbers; its keys must be given in sorted order, as `JSONValue`
  /// writes an object's members.
  mutating func object(_ members: KeyValuePairs<StaticString, Double>) {
    raw("{")
    for (i, member) in members.enumerated() {
      key(member.key, first: i == 0)
      number(member.value)
    }
    raw("}")
  }

  /// Writes `"key":` for the next member of an object being written by hand.
  mutating func key(_ key: StaticString, first: Bool = false) {
    if !first { out.append(UInt8(ascii: ",")) }
    out.append(UInt8(ascii: "\""))
    out.append(key)
    out.append("\":")
  }

  /// Writes a brace or bracket (or any text of fixed bytes).
  mutating func raw(_ text: StaticString) { out.append(text) }
}

/// The entries a viewer embeds, each as `[t, source, event, line]`: its time in seconds to the
/// millisecond, its source's place in ``sources``, its event name and its `events.jsonl` line.
///
/// The lines are made once, one after the other in one buffer, and written from there as JSON
/// strings: a day's log embeds tens of thousands, and a `String` and a `JSONValue` each cost
/// more than the line.
struct EventList {
  /// The document's key for the list.
  static let key = "events"
  /// The sources, in order of their first entry.
  private(set) var sources: [String] = []
  private var items: [(time: Double, source: Int, event: String, end: Int)] = []
  /// The lines without their newlines, one after the other; an item's line ends at its `end`.
  private var lines: [UInt8] = []

  /// The list of `entries`. `jsonLines`, when given, is the JSON Lines text of the whole log
  /// the entries begin (its `events.jsonl`, as ``EventLog/writeJSONLine(_:to:)`` wrote it): the
  /// lines are taken from there instead of made again, unless it holds fewer lines.
  init(_ entries: ArraySlice<LogEntry>, jsonLines: [UInt8]? = nil) {
    var index: [String: Int] = [:]
    items.reserveCapacity(entries.count)
    for e in entries {
      let source = e.source
      let s: Int
      if let i = index[source] {
        s = i
      } else {
        s = sources.count
        index[source] = s
        sources.append(source)
      }
      items.append((Builder.seconds(e.time), s, e.event, 0))
    }
    if let jsonLines, Self.take(items.count, linesOf: jsonLines, into: &self) { return }
    var text = JSONBuffer(capacity: entries.count * 200)
    for (i, e) in zip(items.indices, entries) {
      EventLog.writeJSONLine(e, to: &text)
      text.removeLast(1)
      items[i].end = text.count
    }
    lines = text.bytes
  }

  /// Takes the first `count` lines of `text` as the items' lines; `false` (and nothing taken)
  /// when it holds fewer.
  private static func take(_ count: Int, linesOf text: [UInt8], into list: inout EventList)
    -> Bool
  {
    // The newlines first, then room for exactly the lines taken (a day's log holds more than
    // the list embeds).
    var newlines: [Int] = []
    newlines.reserveCapacity(count)
    var lines: [UInt8] = []
    var ends: [Int] = []
    text.withUnsafeBufferPointer { text in
      guard let base = text.baseAddress else { return }
      var start = 0
      while newlines.count < count, start < text.count,
        let newline = memchr(base + start, Int32(UInt8(ascii: "\n")), text.count - start)
      {
        newlines.append(UnsafePointer(newline.assumingMemoryBound(to: UInt8.self)) - base)
        start = newlines.last! + 1
      }
      guard newlines.count == count else { return }
      lines.reserveCapacity((newlines.last ?? 0) + 1 - count)
      ends.reserveCapacity(count)
      start = 0
      for newline in newlines {
        lines.append(contentsOf: UnsafeBufferPointer(rebasing: text[start..<newline]))
        ends.append(lines.count)
        start = newline + 1
      }
    }
    guard ends.count == count else { return false }
    for i in ends.indices { list.items[i].end = ends[i] }
    list.lines = lines
    return true
  }

  /// Appends the list, `[[t, source, event, line], …]`.
  func write(to out: inout JSONBuffer) {
    out.append(UInt8(ascii: "["))
    lines.withUnsafeBufferPointer { lines in
      var start = 0
      for (i, item) in items.enumerated() {
        if i > 0 { out.append(UInt8(ascii: ",")) }
        out.append(UInt8(ascii: "["))
        out.writeNumber(item.time)
        out.append(UInt8(ascii: ","))
        out.writeInteger(Int64(item.source))
        out.append(UInt8(ascii: ","))
        out.writeString(item.event)
        out.append(UInt8(ascii: ","))
        out.writeString(utf8: UnsafeBufferPointer(rebasing: lines[start..<item.end]))
        out.append(UInt8(ascii: "]"))
        start = item.end
      }
    }
    out.append(UInt8(ascii: "]"))
  }

  /// The first run of Japanese or Chinese script in the list, in its order (an entry's event
  /// name, then its line), as ``Builder/cjkSample(in:)`` finds one in a value.
  var cjkSample: String? {
    lines.withUnsafeBufferPointer { lines in
      var start = 0
      for item in items {
        defer { start = item.end }
        if let found = Builder.cjkSample(in: item.event) { return found }
        let line = UnsafeBufferPointer(rebasing: lines[start..<item.end])
        // The scripts looked for all have a lead byte of at least 0xE3.
        guard line.contains(where: { $0 >= 0xE3 }) else { continue }
        if let found = Builder.cjkSample(in: String(decoding: line, as: UTF8.self)) {
          return found
        }
      }
      return nil
    }
  }
}

/// Web Mercator fitted into a fixed drawing, keeping the aspect ratio.
struct ViewerProjection {
  static let width = 1_000.0
  static let height = 700.0
  private let scale: Double
  private let centerX: Double
  private let centerY: Double

  /// Mercator metres of a latitude and longitude (latitudes clamped to Web Mercator's range).
  static func mercator(_ latitude: Double, _ longitude: Double) -> (Double, Double) {
    let lat = min(max(latitude, -85.05), 85.05) * .pi / 180
    let r = WebMercator.earthRadius
    return (mercatorX(longitude), r * log(tan(.pi / 4 + lat / 2)))
  }

  /// The Mercator metres east of a longitude.
  private static func mercatorX(_ longitude: Double) -> Double {
    WebMercator.earthRadius * longitude * .pi / 180
  }

  /// A projection showing every point of `points` (latitude, longitude), with 8 % padding and
  /// at least 300 m across; the whole world between ±70° when there are none.
  init(fitting points: [(Double, Double)]) {
    let all = points.isEmpty ? [(-70.0, -180.0), (70.0, 180.0)] : points
    // The projection is monotonic in latitude and in longitude: the extremes of the degrees
    // give the extremes of the metres.
    var south = Double.infinity
    var north = -Double.infinity
    var west = Double.infinity
    var east = -Double.infinity
    for (lat, lon) in all {
      south = min(south, lat)
      north = max(north, lat)
      west = min(west, lon)
      east = max(east, lon)
    }
    let (minX, minY) = Self.mercator(south, west)
    let (maxX, maxY) = Self.mercator(north, east)
    let spanX = max(maxX - minX, 300) * 1.16
    let spanY = max(maxY - minY, 300) * 1.16
    scale = max(spanX / Self.width, spanY / Self.height)
    centerX = (minX + maxX) / 2
    centerY = (minY + maxY) / 2
  }

  /// The drawing's point of a latitude and longitude (y down).
  func point(_ latitude: Double, _ longitude: Double) -> (Double, Double) {
    let (x, y) = Self.mercator(latitude, longitude)
    return (
      Self.width / 2 + (x - centerX) / scale, Self.height / 2 - (y - centerY) / scale
    )
  }

  /// The drawing's x of a longitude: that of ``point(_:_:)`` at any latitude.
  func x(longitude: Double) -> Double {
    Self.width / 2 + (Self.mercatorX(longitude) - centerX) / scale
  }

  /// The drawing's point of a coordinate.
  func point(_ c: Coordinate) -> (Double, Double) { point(c.latitude, c.longitude) }

  /// The latitude and longitude drawn at a point (the inverse of ``point(_:_:)`` within Web
  /// Mercator's latitudes).
  func coordinate(x: Double, y: Double) -> (latitude: Double, longitude: Double) {
    let r = WebMercator.earthRadius
    let mx = (x - Self.width / 2) * scale + centerX
    let my = centerY - (y - Self.height / 2) * scale
    return (atan(sinh(my / r)) * 180 / .pi, mx / r * 180 / .pi)
  }

  /// Drawing units per metre on the ground at `latitude`.
  func unitsPerMetre(atLatitude latitude: Double) -> Double {
    1 / (scale * cos(min(abs(latitude), 85.05) * .pi / 180))
  }

  /// Ground metres per drawing unit at the drawing's centre.
  var metresPerUnitAtCentre: Double {
    let lat = atan(sinh(centerY / WebMercator.earthRadius))
    return scale * cos(lat)
  }
}

/// Border rings for the viewer, with their boxes side by side, and the boxes of groups of
/// rings: every viewer passes over the world's rings to find the few near its map.
struct ViewerBorders: Sendable {
  /// A least and greatest longitude and latitude.
  struct Box: Sendable {
    var west: Double
    var east: Double
    var south: Double
    var north: Double

    /// The box of `latitudes` and `longitudes` (which are not empty).
    init(_ latitudes: UnsafeBufferPointer<Double>, _ longitudes: UnsafeBufferPointer<Double>) {
      (west, east, south, north) = (longitudes[0], longitudes[0], latitudes[0], latitudes[0])
      for (lat, lon) in zip(latitudes, longitudes) {
        west = min(west, lon)
        east = max(east, lon)
        south = min(south, lat)
        north = max(north, lat)
      }
    }

    init(west: Double, east: Double, south: Double, north: Double) {
      (self.west, self.east, self.south, self.north) = (west, east, south, north)
    }

    /// The box around this one and `other`.
    func union(_ other: Box) -> Box {
      Box(
        west: min(west, other.west), east: max(east, other.east),
        south: min(south, other.south), north: max(north, other.north))
    }
  }

  /// Rings in a group (``groups``): the rings go by country, so a group lies in a few
  /// countries, and most groups miss any one map.
  static let groupSize = 32
  /// Vertices in a run, whose box is tested before its vertices are projected.
  static let runLength = 16

  let rings: [CountryBorderRing]
  /// The rings' boxes, in the rings' order.
  let boxes: [Box]
  /// The boxes of ``groupSize`` rings at a time, in order.
  let groups: [Box]

  init(_ rings: [CountryBorderRing]) {
    self.rings = rings
    let boxes = rings.map {
      Box(
        west: $0.longitudeRange.lowerBound, east: $0.longitudeRange.upperBound,
        south: $0.latitudeRange.lowerBound, north: $0.latitudeRange.upperBound)
    }
    self.boxes = boxes
    groups = stride(from: 0, to: boxes.count, by: Self.groupSize).map { start in
      boxes[start..<min(start + Self.groupSize, boxes.count)].dropFirst().reduce(boxes[start]) {
        $0.union($1)
      }
    }
  }

  private static let cached = Result { () throws(CloudError) -> ViewerBorders in
    ViewerBorders(try CountryBorderRing.bundled())
  }

  /// The shipped borders (``CountryBorderRing/bundled()``), boxed on first use and shared.
  static func bundled() throws(CloudError) -> ViewerBorders { try cached.get() }
}

extension ViewerProjection {
  /// The borders near the map as the text of a JSON string of SVG path data: rings whose box
  /// meets the frame grown by half its size on each side, their far vertices pulled in to twice
  /// the frame's size, simplified to about a unit of the drawing.
  func borders(_ borders: ViewerBorders) -> [UInt8] {
    let rings = borders.rings
    let w = Self.width
    let h = Self.height
    var d = JSONBuffer(capacity: 1 << 12)
    d.append(UInt8(ascii: "\""))
    // The projection is monotonic in latitude and in longitude, so a ring whose degrees miss
    // those of the grown frame (with two units to spare for rounding) is drawn outside it: it
    // is passed over without projecting anything (most of the world's are, for any one
    // frame). Beyond Web Mercator's latitudes everything is drawn at its edge: no limit there.
    let southWest = coordinate(x: -w / 2 - 2, y: h * 1.5 + 2)
    let northEast = coordinate(x: w * 1.5 + 2, y: -h / 2 - 2)
    let south = southWest.latitude <= -85.05 ? -Double.infinity : southWest.latitude
    let north = northEast.latitude >= 85.05 ? Double.infinity : northEast.latitude
    func meetsFrame(_ box: ViewerBorders.Box) -> Bool {
      box.east >= southWest.longitude && box.west <= northEast.longitude && box.north >= south
        && box.south <= north
    }
    // A vertex more than ten units below the drawing's 2h or above its -h is only ever
    // clamped to that edge, and counts as beyond it in every test below: it stands there as
    // ±∞ without its logarithm and tangent (the ring's extent test gives the same answer, as a
    // ring with a vertex beyond and less than a unit tall lies outside the grown frame).
    let farSouth = coordinate(x: 0, y: 2 * h + 10).latitude
    let farNorth = coordinate(x: 0, y: -h - 10).latitude
    let belowSouth = farSouth > -85 ? farSouth : -Double.infinity
    let aboveNorth = farNorth < 85 ? farNorth : Double.infinity
    func project(_ lat: Double, _ lon: Double) -> (Double, Double) {
      lat < belowSouth
        ? (x(longitude: lon), Double.infinity)
        : lat > aboveNorth ? (x(longitude: lon), -Double.infinity) : point(lat, lon)
    }
    // Far outside the frame only the side matters: a run of vertices beyond the same side
    // keeps its first and last, pulled in to the frame's edge.
    func zone(_ p: (Double, Double)) -> Int {
      (p.0 < -w ? 0 : p.0 > 2 * w ? 2 : 1) + 3 * (p.1 < -h ? 0 : p.1 > 2 * h ? 2 : 1)
    }
    // The least and greatest drawn x and y of a box's vertices: those of its corners, the
    // projection being monotonic (y grows southwards).
    func extent(_ box: ViewerBorders.Box) -> (
      minX: Double, maxX: Double, minY: Double, maxY: Double
    ) {
      let (minX, minY) = project(box.north, box.west)
      let (maxX, maxY) = project(box.south, box.east)
      return (minX, maxX, minY, maxY)
    }
    // The zone along an axis of the drawing `size` long (0 before -size, 2 past 2 size, 1
    // between) of every value from `low` to `high`, when that is one zone, with a margin far
    // wider than any rounding.
    func side(_ low: Double, _ high: Double, _ size: Double) -> Int? {
      let margin = 1e-6
      if high < -size - margin { return 0 }
      if low > 2 * size + margin { return 2 }
      if low > -size + margin && high < 2 * size - margin { return 1 }
      return nil
    }
    // The zone every vertex of a box lies in, when that is one zone and not the frame's.
    func farZone(_ e: (minX: Double, maxX: Double, minY: Double, maxY: Double)) -> Int? {
      guard let zx = side(e.minX, e.maxX, w), let zy = side(e.minY, e.maxY, h), zx + 3 * zy != 4
      else { return nil }
      return zx + 3 * zy
    }
    // Whether a box lies wholly beyond the frame's far edges by its degrees (a margin wider than
    // any rounding): only such a run of vertices can be left out, its drawn extent then tells.
    let far = (
      west: coordinate(x: -w, y: 0).longitude, east: coordinate(x: 2 * w, y: 0).longitude,
      south: coordinate(x: 0, y: 2 * h).latitude, north: coordinate(x: 0, y: -h).latitude
    )
    func beyond(_ box: ViewerBorders.Box) -> Bool {
      let margin = 1e-9
      return box.east < far.west - margin || box.west > far.east + margin
        || box.north < far.south - margin || box.south > far.north + margin
    }
    // Degrees of longitude per unit of the drawing: a ring two units wide or more is not
    // asked below whether it is less than one across.
    let unitDegrees = scale * 180 / (Double.pi * WebMercator.earthRadius)
    // One ring's points at a time, in buffers made once: a frame of the whole world draws
    // thousands of rings.
    var points: [(Double, Double)] = []
    var kept: [(Double, Double)] = []
    // Most rings are passed over on their group's box, the rest on their own, read one after
    // another.
    for (g, group) in borders.groups.enumerated() where meetsFrame(group) {
      let first = g * ViewerBorders.groupSize
      for r in first..<min(first + ViewerBorders.groupSize, rings.count) {
        let box = borders.boxes[r]
        guard meetsFrame(box) else { continue }
        // A ring less than a unit across (with a margin) is never drawn: its vertices are not
        // projected.
        if box.east - box.west < 2 * unitDegrees {
          let whole = extent(box)
          guard max(whole.maxX - whole.minX, whole.maxY - whole.minY) >= 1 - 1e-6 else {
            continue
          }
        }
        var minX = Double.infinity
        var maxX = -Double.infinity
        var minY = Double.infinity
        var maxY = -Double.infinity
        points.removeAll(keepingCapacity: true)
        rings[r].withVertices { latitudes, longitudes in
          points.reserveCapacity(latitudes.count)
          for start in stride(from: 0, to: latitudes.count, by: ViewerBorders.runLength) {
            let end = min(start + ViewerBorders.runLength, latitudes.count)
            // A run of three or more vertices all in one zone beyond the frame: the zone
            // filter below keeps at most its first and last, whose neighbours in the run are
            // in that zone too, so the others are left out here, unprojected, and count in the
            // ring's extent by the run's box. (Its degrees tell first, without a logarithm,
            // whether it can lie beyond.)
            let run = ViewerBorders.Box(
              UnsafeBufferPointer(rebasing: latitudes[start..<end]),
              UnsafeBufferPointer(rebasing: longitudes[start..<end]))
            let e = end - start >= 3 && beyond(run) ? extent(run) : nil
            if let e, farZone(e) != nil {
              minX = min(minX, e.minX)
              maxX = max(maxX, e.maxX)
              minY = min(minY, e.minY)
              maxY = max(maxY, e.maxY)
              points.append(project(latitudes[start], longitudes[start]))
              points.append(project(latitudes[end - 1], longitudes[end - 1]))
              continue
            }
            for i in start..<end {
              let p = project(latitudes[i], longitudes[i])
              minX = min(minX, p.0)
              maxX = max(maxX, p.0)
              minY = min(minY, p.1)
              maxY = max(maxY, p.1)
              points.append(p)
            }
          }
        }
        guard maxX >= -w / 2, minX <= w * 1.5, maxY >= -h / 2, minY <= h * 1.5,
          max(maxX - minX, maxY - minY) >= 1
        else { continue }
        kept.removeAll(keepingCapacity: true)
        kept.reserveCapacity(points.count)
        // Each point's zone once, with its neighbours' beside it.
        var before = -1
        var here = zone(points[0])
        for i in points.indices {
          let after = i < points.count - 1 ? zone(points[i + 1]) : -1
          defer { (before, here) = (here, after) }
          if here != 4, before == here, after == here { continue }
          let p = points[i]
          kept.append((min(max(p.0, -w), 2 * w), min(max(p.1, -h), 2 * h)))
        }
        SVGPathText.write(kept, closed: true, tolerance: 1.5, digits: 0, to: &d)
      }
    }
    d.append(UInt8(ascii: "\""))
    return d.bytes
  }
}

/// SVG path data written as bytes.
enum SVGPathText {
  /// Appends the SVG path through `points` to `out`: a move to the first point, a line to each
  /// point at least `tolerance` (across plus down) from the last one kept and, in an open path,
  /// to the last point; a closed path ends in `Z`, and is left out (`out` as it was) when it
  /// keeps fewer than three points. Coordinates are rounded to `digits` places (0 or 1).
  static func write(
    _ points: [(Double, Double)], closed: Bool, tolerance: Double, digits: Int,
    to out: inout JSONBuffer
  ) {
    guard let first = points.first else { return }
    let start = out.count
    func point(_ command: UInt8, _ p: (Double, Double)) {
      out.append(command)
      out.writeNumber(digits == 0 ? p.0.rounded() : (p.0 * 10).rounded() / 10)
      out.append(UInt8(ascii: " "))
      out.writeNumber(digits == 0 ? p.1.rounded() : (p.1 * 10).rounded() / 10)
    }
    point(UInt8(ascii: "M"), first)
    var last = first
    var kept = 1
    for i in points.indices.dropFirst() {
      let p = points[i]
      let isLast = i == points.count - 1
      guard abs(p.0 - last.0) + abs(p.1 - last.1) >= tolerance || (isLast && !closed) else {
        continue
      }
      point(UInt8(ascii: "L"), p)
      last = p
      kept += 1
    }
    if closed {
      guard kept >= 3 else { return out.removeLast(out.count - start) }
      out.append(UInt8(ascii: "Z"))
    }
  }
}

private struct Builder {
  // The events each reader of the log has cases for: the others are passed over without a
  // cast.
  static let requestEvents = LogEventTypes(NetworkEvent.self, GeocoderEvent.self)
  static let estimateEvents = LogEventTypes(RegionEvent.self, MonitorEvent.self)
  let run: ScenarioRun
  let report: ScenarioReport
  let borders: ViewerBorders
  let eventLimit: Int
  let jsonLines: [UInt8]?
  let resources: ReplayResources?

  var entries: [LogEntry] { run.log.entries }
  var scenario: Scenario { run.scenario }

  // MARK: Numbers

  /// `v` to two, three and six places, and a time in seconds to the millisecond.
  static func round2(_ v: Double) -> Double { (v * 100).rounded() / 100 }
  static func round3(_ v: Double) -> Double { (v * 1_000).rounded() / 1_000 }
  static func round6(_ v: Double) -> Double { (v * 1e6).rounded() / 1e6 }
  static func seconds(_ time: SimTime) -> Double { (time.seconds * 1_000).rounded() / 1_000 }

  static func r2(_ v: Double) -> JSONValue { .number(round2(v)) }
  static func r3(_ v: Double) -> JSONValue { .number(round3(v)) }
  static func r6(_ v: Double) -> JSONValue { .number(round6(v)) }
  /// The members `x` and `y` of a point, with room for `more` members (an object grown member
  /// by member would be copied to a larger table on the way).
  static func xy(_ p: (Double, Double), more: Int = 0) -> [String: JSONValue] {
    var o = [String: JSONValue](minimumCapacity: 2 + more)
    o["x"] = r2(p.0)
    o["y"] = r2(p.1)
    return o
  }
  static func t(_ time: SimTime) -> JSONValue { .number(seconds(time)) }

  /// An SVG path through `points`, leaving out points within `tolerance` of the last kept one.
  static func path(
    _ points: [(Double, Double)], closed: Bool, tolerance: Double, digits: Int = 1
  ) -> String? {
    var out = JSONBuffer(capacity: 16 + 12 * points.count)
    SVGPathText.write(points, closed: closed, tolerance: tolerance, digits: digits, to: &out)
    return out.isEmpty ? nil : String(decoding: out.bytes, as: UTF8.self)
  }

  static func num(_ v: Double) -> String { JSONText.number((v * 10).rounded() / 10) }

  // MARK: The document

  /// The document's members.
  func document() -> [String: ViewerData.Member] {
    let geofence = report.geofence
    let search = report.search
    let samples = run.world.trueSamples

    // What the frame must show.
    var frame: [(Double, Double)] = samples.map {
      ($0.coordinate.latitude, $0.coordinate.longitude)
    }
    let fixes = run.log.events(LocationEvent.self).compactMap { e, event -> (LogEntry, Location)? in
      if case .didUpdateLocations(_, let location) = event { return (e, location) }
      return nil
    }
    // An invalid fix (accuracy −1, at (0, 0)) is drawn where it says, but does not widen the
    // map to the Gulf of Guinea.
    frame += fixes.filter { $0.1.horizontalAccuracy >= 0 }.map {
      ($0.1.coordinate.latitude, $0.1.coordinate.longitude)
    }
    let estimates = entries.compactMap { e -> (LogEntry, Coordinate)? in
      guard Self.estimateEvents.contains(e) else { return nil }
      switch e.payload {
      case let r as RegionEvent:
        if case .decided(let d) = r { return (e, d.estimate) }
        if case .missed(let d) = r { return (e, d.estimate) }
      case let m as MonitorEvent:
        if case .decided(_, _, _, let estimate) = m { return (e, estimate) }
        if case .missed(_, _, _, let estimate) = m { return (e, estimate) }
      default: break
      }
      return nil
    }
    frame += estimates.map { ($0.1.latitude, $0.1.longitude) }
    for fence in geofence?.fences ?? [] {
      let dLat = fence.radius / 111_320
      let dLon = dLat / max(cos(fence.center.latitude * .pi / 180), 0.01)
      frame += [
        (fence.center.latitude - dLat, fence.center.longitude - dLon),
        (fence.center.latitude + dLat, fence.center.longitude + dLon),
      ]
    }
    let requests = self.requests(search: search)
    for r in requests { frame += r.extent }

    let projection = ViewerProjection(fitting: frame)
    let tolerance = 0.6

    var data = [String: JSONValue](minimumCapacity: 24)
    data["format"] = .string("geosim-viewer/1")
    data["scenario"] = scenarioMembers()
    let end = max(scenario.duration, entries.last?.time.seconds ?? 0)
    data["start"] = .number(0)
    data["end"] = Self.r3(end)
    data["zones"] = zones(until: end)
    data["map"] = .object([
      "width": .number(ViewerProjection.width), "height": .number(ViewerProjection.height),
      "metresPerUnit": .number(
        (projection.metresPerUnitAtCentre * 10_000).rounded() / 10_000),
    ])
    var text: [String: [UInt8]] = [:]
    text["track"] = track(samples, projection)
    var fixesText = NumbersText()
    fixesText.array(fixes) { out, fix in
      let (e, l) = fix
      let (x, y) = projection.point(l.coordinate)
      let r =
        max(0, l.horizontalAccuracy) * projection.unitsPerMetre(atLatitude: l.coordinate.latitude)
      out.object([
        "accuracy": Self.round2(l.horizontalAccuracy), "i": Double(e.sequence),
        "latitude": Self.round6(l.coordinate.latitude),
        "longitude": Self.round6(l.coordinate.longitude), "r": Self.round2(r),
        "t": Self.seconds(e.time), "x": Self.round2(x), "y": Self.round2(y),
      ])
    }
    text["fixes"] = fixesText.bytes()
    var estimatesText = NumbersText()
    estimatesText.array(estimates) { out, estimate in
      let (e, c) = estimate
      let (x, y) = projection.point(c)
      out.object([
        "i": Double(e.sequence), "latitude": Self.round6(c.latitude),
        "longitude": Self.round6(c.longitude), "t": Self.seconds(e.time), "x": Self.round2(x),
        "y": Self.round2(y),
      ])
    }
    text["estimates"] = estimatesText.bytes()
    data["fences"] = fences(geofence, samples: samples, projection: projection)
    data["requests"] = .array(requests.map { $0.json(projection) })
    data["areas"] = areas(projection)
    data["environment"] = environmentWindows(samples)
    data["offline"] = offlineWindows(end: end)
    data["places"] = places(projection)
    data["layers"] = layers(projection, tolerance: tolerance)
    text["borders"] = projection.borders(borders)
    let events = EventList(entries.prefix(eventLimit), jsonLines: jsonLines)
    data["sources"] = .array(events.sources.map(JSONValue.string))
    data["eventCount"] = .number(Double(entries.count))
    data["eventsEmbedded"] = .number(Double(min(entries.count, eventLimit)))
    // The first text in the order of the keys, the event list's in its place (the members
    // written as text hold only numbers).
    var sample = Self.cjkSample(inMembers: data)
    if sample.map({ EventList.key < $0.key }) ?? true, let text = events.cjkSample {
      sample = (EventList.key, text)
    }
    data["cjkSample"] = sample.map { .string($0.text) } ?? .null
    var members = data.mapValues(ViewerData.Member.value)
    for (key, bytes) in text { members[key] = .text(bytes) }
    members[EventList.key] = .events(events)
    return members
  }

  func scenarioMembers() -> JSONValue {
    .object([
      "name": .string(scenario.name), "description": .string(scenario.description),
      "app": .string(scenario.app.name),
      "variant": scenario.app.variant.map(JSONValue.string) ?? .null,
      "seed": .string(String(scenario.seed)),
      "start": .string(ScenarioReport.iso8601(scenario.start)),
      "startEpochMilliseconds": .number((scenario.start.timeIntervalSince1970 * 1_000).rounded()),
      "timeZone": .string(scenario.timeZone.identifier),
      "duration": .number(scenario.duration),
      "verdict": .string(report.summary.verdictLabel),
      "status": .string(report.status.rawValue),
    ])
  }

  func zones(until end: Double) -> JSONValue {
    let zone = scenario.timeZone
    let start = scenario.start
    guard let resources else { return ViewerData.zones(of: zone, from: start, seconds: end) }
    return resources.describe(.init(zone: zone.identifier, start: start, seconds: end)) {
      ViewerData.zones(of: zone, from: start, seconds: end)
    }
  }

  /// The zone's abbreviation at `date` (`JST`, `CEST`): the first short name, in a fixed list
  /// of English locales, that is not a bare offset; `UTC±HH:MM` when there is none (the system's
  /// own abbreviation is often only `GMT+9`).
  static func abbreviation(_ zone: TimeZone, at date: Date, offset: Int) -> String {
    let style: NSTimeZone.NameStyle =
      zone.isDaylightSavingTime(for: date) ? .shortDaylightSaving : .shortStandard
    for locale in ["en_US", "en_GB", "en_JP", "en_AU", "en_CA", "en_IN", "en_NZ", "en_IE", "en_ZA"]
    {
      if let name = zone.localizedName(for: style, locale: Locale(identifier: locale)),
        !name.hasPrefix("GMT"), !name.hasPrefix("UTC"), !name.contains(" ")
      {
        return name
      }
    }
    if offset == 0 { return "UTC" }
    let sign = offset < 0 ? "-" : "+"
    let minutes = abs(offset) / 60
    return String(format: "UTC%@%02d:%02d", sign, minutes / 60, minutes % 60)
  }

  // MARK: Track

  /// The true track, decimated to at most ``ViewerData/trackLimit`` points with every
  /// segment's ends kept, as JSON text: `{arrows, breaks, end, latitude, longitude, start, t,
  /// x, y}`. A segment breaks where the samples are more than 30 s, and ten times the usual
  /// step, apart.
  func track(_ samples: [TrajectorySample], _ projection: ViewerProjection) -> [UInt8] {
    var t: [Double] = []
    var x: [Double] = []
    var y: [Double] = []
    var lat: [Double] = []
    var lon: [Double] = []
    var breaks: [Double] = []
    var arrows: [(angle: Double, x: Double, y: Double)] = []
    if !samples.isEmpty {
      let steps = zip(samples.dropFirst(), samples).map { ($0.time - $1.time).seconds }.sorted()
      let usual = steps.isEmpty ? 1 : steps[steps.count / 2]
      let gap = max(30, usual * 10)
      var segments: [Range<Int>] = []
      var start = 0
      for i in 1..<max(samples.count, 1)
      where (samples[i].time - samples[i - 1].time).seconds > gap {
        segments.append(start..<i)
        start = i
      }
      segments.append(start..<samples.count)
      let budget = max(ViewerData.trackLimit - 2 * segments.count, segments.count)
      let step = max(1, Int((Double(samples.count) / Double(budget)).rounded(.up)))
      for segment in segments {
        if !t.isEmpty { breaks.append(Double(t.count)) }
        var picked = Array(stride(from: segment.lowerBound, to: segment.upperBound, by: step))
        if picked.last != segment.upperBound - 1 { picked.append(segment.upperBound - 1) }
        let points = picked.map { projection.point(samples[$0].coordinate) }
        for (i, p) in zip(picked, points) {
          t.append(Self.seconds(samples[i].time))
          x.append(Self.round2(p.0))
          y.append(Self.round2(p.1))
          lat.append(Self.round6(samples[i].coordinate.latitude))
          lon.append(Self.round6(samples[i].coordinate.longitude))
        }
        arrows += Self.arrows(points)
      }
    }
    var out = NumbersText()
    out.raw("{")
    out.key("arrows", first: true)
    out.array(arrows) { $0.object(["angle": $1.angle, "x": $1.x, "y": $1.y]) }
    out.key("breaks")
    out.numbers(breaks)
    // Where the track starts and ends: `{t, x, y}`, or null without samples.
    func point(_ key: StaticString, _ sample: TrajectorySample?, to out: inout NumbersText) {
      out.key(key)
      guard let sample else { return out.null() }
      let (x, y) = projection.point(sample.coordinate)
      out.object(["t": Self.seconds(sample.time), "x": Self.round2(x), "y": Self.round2(y)])
    }
    point("end", samples.last, to: &out)
    out.key("latitude")
    out.numbers(lat)
    out.key("longitude")
    out.numbers(lon)
    point("start", samples.first, to: &out)
    out.key("t")
    out.numbers(t)
    out.key("x")
    out.numbers(x)
    out.key("y")
    out.numbers(y)
    out.raw("}")
    return out.bytes()
  }

  /// Direction arrows at every eighth of a line's drawn length (none on a line under 20 units):
  /// the angle in whole degrees and the place to two places.
  static func arrows(_ points: [(Double, Double)]) -> [(angle: Double, x: Double, y: Double)] {
    var lengths = [0.0]
    for (a, b) in zip(points, points.dropFirst()) {
      lengths.append(lengths.last! + hypot(b.0 - a.0, b.1 - a.1))
    }
    guard let total = lengths.last, total >= 20 else { return [] }
    var out: [(angle: Double, x: Double, y: Double)] = []
    var i = 1
    for k in 1...7 {
      let target = total * Double(k) / 8
      while i < lengths.count - 1 && lengths[i] < target { i += 1 }
      let a = points[i - 1]
      let b = points[i]
      let f =
        lengths[i] > lengths[i - 1] ? (target - lengths[i - 1]) / (lengths[i] - lengths[i - 1]) : 0
      let angle = atan2(b.1 - a.1, b.0 - a.0) * 180 / .pi
      guard b.0 != a.0 || b.1 != a.1 else { continue }
      out.append(
        (angle.rounded(), round2(a.0 + (b.0 - a.0) * f), round2(a.1 + (b.1 - a.1) * f)))
    }
    return out
  }

  // MARK: Fences

  func fences(
    _ geofence: GeofenceReport?, samples: [TrajectorySample], projection: ViewerProjection
  ) -> JSONValue {
    guard let geofence else { return .array([]) }
    var seen: [String: Int] = [:]
    return .array(
      geofence.fences.enumerated().map { index, fence in
        let count = seen[fence.identifier, default: 0]
        seen[fence.identifier] = count + 1
        let id = count == 0 ? fence.identifier : "\(fence.identifier)#\(count + 1)"
        var o = Self.xy(projection.point(fence.center), more: 9)
        o["id"] = .string(id)
        o["identifier"] = .string(fence.identifier)
        o["kind"] = .string(fence.kind.rawValue)
        o["radius"] = Self.r2(fence.radius)
        o["r"] = Self.r2(
          fence.radius * projection.unitsPerMetre(atLatitude: fence.center.latitude))
        o["from"] = Self.t(fence.activeFrom)
        o["until"] = fence.activeUntil.map(Self.t) ?? .null
        o["states"] = phoneStates(of: fence)
        o["trueStates"] = trueStates(of: fence, samples: samples)
        return .object(o)
      })
  }

  /// What the phone believed: `[t, state, event]` from the fence's start, `unknown` until the
  /// region engine decides (or iOS reports) a state.
  func phoneStates(of fence: GeofenceReport.Fence) -> JSONValue {
    var out: [JSONValue] = [.array([Self.t(fence.activeFrom), .string("unknown"), .number(-1)])]
    for e in entries where e.time >= fence.activeFrom {
      if let until = fence.activeUntil, e.time > until { break }
      var state: String?
      switch (fence.kind, e.payload) {
      case (.region, let r as RegionEvent):
        switch r {
        case .decided(let d) where d.identifier == fence.identifier && d.request == nil:
          state = d.state.description
        case .didDetermineState(let id, let s) where id == fence.identifier:
          state = s.description
        case .didEnterRegion(let id, _) where id == fence.identifier: state = "inside"
        case .didExitRegion(let id, _) where id == fence.identifier: state = "outside"
        default: break
        }
      case (.notification, let r as RegionEvent):
        if case .decided(let d) = r, d.request == fence.identifier { state = d.state.description }
      case (.monitor, let m as MonitorEvent):
        switch m {
        case .decided(let monitor, let id, let s, _) where "\(monitor)/\(id)" == fence.identifier:
          state = Self.state(s)
        case .eventDelivered(let monitor, let id, let s, _)
        where "\(monitor)/\(id)" == fence.identifier:
          state = Self.state(s)
        default: break
        }
      default: break
      }
      if let state {
        out.append(.array([Self.t(e.time), .string(state), .number(Double(e.sequence))]))
      }
    }
    return .array(out)
  }

  static func state(_ s: ConditionState) -> String {
    switch s {
    case .satisfied: "inside"
    case .unsatisfied: "outside"
    default: "unknown"
    }
  }

  /// Where the true track was: `[t, inside]` at each change, by the haversine distance on a
  /// 6,371 km sphere (for drawing; the report's crossings are the geodesic truth).
  func trueStates(of fence: GeofenceReport.Fence, samples: [TrajectorySample]) -> JSONValue {
    var out: [JSONValue] = []
    var last: Bool?
    let lat0 = fence.center.latitude * .pi / 180
    let lon0 = fence.center.longitude * .pi / 180
    for s in samples {
      let lat = s.coordinate.latitude * .pi / 180
      let lon = s.coordinate.longitude * .pi / 180
      let h =
        pow(sin((lat - lat0) / 2), 2) + cos(lat) * cos(lat0) * pow(sin((lon - lon0) / 2), 2)
      let inside = 2 * 6_371_000 * asin(min(1, sqrt(h))) <= fence.radius
      if inside != last {
        out.append(.array([Self.t(s.time), .bool(inside)]))
        last = inside
      }
    }
    return .array(out)
  }

  // MARK: Requests

  /// One request as the viewer draws it.
  struct Request {
    var t: SimTime
    var sequence: Int
    var service: String
    var kind: String
    var label: String
    /// Where it was sent: a point, a circle (with its radius in metres) or a box's corners as
    /// sent (first the "southwest", then the "northeast").
    var point: (Double, Double)?
    var radius: Double?
    var corners: [(Double, Double)] = []
    var meant: CoordinateBounds?
    var note: String?
    var anomalies: [String] = []
    var results: [(name: String, lat: Double, lon: Double, isTrue: Bool?)] = []
    var missed: [(name: String, lat: Double, lon: Double)] = []

    var extent: [(Double, Double)] {
      var out: [(Double, Double)] = corners
      if let p = point {
        out.append(p)
        if let radius {
          let dLat = radius / 111_320
          let dLon = dLat / max(cos(p.0 * .pi / 180), 0.01)
          out += [(p.0 - dLat, p.1 - dLon), (p.0 + dLat, p.1 + dLon)]
        }
      }
      out += results.map { ($0.lat, $0.lon) }
      out += missed.map { ($0.lat, $0.lon) }
      return out
    }

    func json(_ projection: ViewerProjection) -> JSONValue {
      var o: [String: JSONValue] = [
        "t": Builder.t(t), "i": .number(Double(sequence)), "service": .string(service),
        "kind": .string(kind), "label": .string(label),
        "anomalies": .array(anomalies.map(JSONValue.string)),
        "note": note.map(JSONValue.string) ?? .null,
      ]
      if let p = point {
        let q = projection.point(p.0, p.1)
        o["x"] = Builder.r2(q.0)
        o["y"] = Builder.r2(q.1)
        o["latitude"] = .number(p.0)
        o["longitude"] = .number(p.1)
        if let radius {
          o["shape"] = .string("circle")
          o["r"] = Builder.r2(radius * projection.unitsPerMetre(atLatitude: p.0))
          o["radius"] = Builder.r2(radius)
        } else {
          o["shape"] = .string("point")
        }
      } else if corners.count == 2 {
        o["shape"] = .string("box")
        let (a, b) = (corners[0], corners[1])
        let ring = [(a.0, a.1), (a.0, b.1), (b.0, b.1), (b.0, a.1)]
        o["corners"] = .array(
          ring.map { c in
            let q = projection.point(c.0, c.1)
            return .array([Builder.r2(q.0), Builder.r2(q.1)])
          })
        o["sent"] = .array(
          corners.map { c in
            .object(["latitude": .number(c.0), "longitude": .number(c.1)])
          })
        if let m = meant {
          let sw = projection.point(m.south, m.west)
          let ne = projection.point(m.north, m.east)
          o["meant"] = .array([
            Builder.r2(sw.0), Builder.r2(ne.1), Builder.r2(ne.0), Builder.r2(sw.1),
          ])
        }
      } else {
        o["shape"] = .string("none")
      }
      o["results"] = .array(
        results.map { r in
          var item = Builder.xy(projection.point(r.lat, r.lon), more: 2)
          item["name"] = .string(r.name)
          item["true"] = r.isTrue.map(JSONValue.bool) ?? .null
          return .object(item)
        })
      o["missed"] = .array(
        missed.map { r in
          var item = Builder.xy(projection.point(r.lat, r.lon), more: 1)
          item["name"] = .string(r.name)
          return .object(item)
        })
      return .object(o)
    }
  }

  /// Every request the app sent (network requests and geocoder look-ups), in order, with its
  /// parameters as sent.
  func requests(search: SearchReport?) -> [Request] {
    let records = search?.requests ?? []
    var byID: [Int: SearchRequestRecord] = [:]
    for r in records { if let id = r.networkID { byID[id] = r } }
    var out: [Request] = []
    for e in entries where Self.requestEvents.contains(e) {
      switch e.payload {
      case let n as NetworkEvent:
        guard case .request(let id, let service, let http) = n else { continue }
        let record = byID[id]
        var r = Request(
          t: e.time, sequence: e.sequence, service: service,
          kind: record?.kind.rawValue ?? service,
          label: "#\(id) \(service) \(http.method) \(http.path)")
        r.anomalies = record?.anomalies.map(\.rawValue) ?? []
        switch service {
        case "weather":
          let lat = http.queryValue("lat")
          let lon = http.queryValue("lon")
          if let la = lat.flatMap(Double.init), let lo = lon.flatMap(Double.init), la.isFinite,
            lo.isFinite, (-90...90).contains(la), (-180...180).contains(lo)
          {
            r.point = (la, lo)
            if abs(la) < 0.01 && abs(lo) < 0.01 { r.anomalies.append("nearNullIsland") }
          } else {
            r.note = "lat=\(lat ?? "(none)"), lon=\(lon ?? "(none)"): not a position"
          }
          r.label = "#\(id) weather lat=\(lat ?? "?") lon=\(lon ?? "?")"
        case "threewords":
          let value = http.queryValue("coordinates") ?? http.queryValue("focus")
          let parts = value?.split(separator: ",").compactMap { Double($0) } ?? []
          if parts.count == 2, (-90...90).contains(parts[0]), (-180...180).contains(parts[1]) {
            r.point = (parts[0], parts[1])
          }
          for item in record?.results ?? [] {
            if let c = item.coordinate {
              r.results.append((item.label ?? "?", c.latitude, c.longitude, nil))
            }
          }
        default:
          if let a = record?.ncmb {
            if let centre = a.centre {
              r.point = (centre.latitude, centre.longitude)
              r.radius = a.radiusMeters
            } else if let sw = a.southwestAsSent, let ne = a.northeastAsSent {
              r.corners = [(sw.latitude, sw.longitude), (ne.latitude, ne.longitude)]
              r.meant = a.boxMeant
            }
            for (p, isTrue) in zip(a.returned, a.returnedIsTrue) {
              r.results.append(
                (p.name ?? "?", p.coordinate.latitude, p.coordinate.longitude, isTrue))
            }
            r.missed = a.missed.map {
              ($0.name ?? "?", $0.coordinate.latitude, $0.coordinate.longitude)
            }
          }
        }
        out.append(r)
      case let g as GeocoderEvent:
        guard case .request(let query) = g else { continue }
        var r = Request(
          t: e.time, sequence: e.sequence, service: "geocoder", kind: "geocoder.reverse",
          label: "geocoder")
        switch query {
        case .reverse(let c):
          r.point = (c.latitude, c.longitude)
          r.label = "geocoder reverse \(c.latitude),\(c.longitude)"
        case .forward(let text):
          r.kind = "geocoder.forward"
          r.label = "geocoder forward \"\(text)\""
          r.note = "a text search: no position sent"
        }
        out.append(r)
      default: continue
      }
    }
    return out
  }

  // MARK: Environment and network

  func areas(_ projection: ViewerProjection) -> JSONValue {
    .array(
      scenario.environment.areas.compactMap { area in
        var d = ""
        Self.forEachRing(area.polygon) { ring in
          if let p = Self.path(
            ring.map { projection.point($0.y, $0.x) }, closed: true, tolerance: 0.3)
          {
            d += p
          }
        }
        guard !d.isEmpty else { return nil }
        return .object(["kind": .string(area.kind.description), "d": .string(d)])
      })
  }

  static func forEachRing(_ g: Geometry, _ body: ([Position]) -> Void) {
    switch g {
    case .polygon(let p):
      body(p.exterior.positions)
      for h in p.holes { body(h.positions) }
    case .multiPolygon(let ps): for p in ps { forEachRing(.polygon(p), body) }
    case .geometryCollection(let gs): for g in gs { forEachRing(g, body) }
    default: break
    }
  }

  static func forEachLine(_ g: Geometry, _ body: ([Position]) -> Void) {
    switch g {
    case .lineString(let l): body(l.positions)
    case .multiLineString(let ls): for l in ls { body(l.positions) }
    case .geometryCollection(let gs): for g in gs { forEachLine(g, body) }
    default: break
    }
  }

  /// When the true track was in an area that degrades positioning: `[from, to, kind]`.
  func environmentWindows(_ samples: [TrajectorySample]) -> JSONValue {
    // The environment the world's sensor read, built once (GEOS) for the replay.
    guard let environment = run.world.sensorEnvironment else { return .array([]) }
    var out: [JSONValue] = []
    var current: (kind: EnvironmentKind, from: SimTime)?
    for s in samples {
      let kind = environment.kind(at: s.coordinate)
      if current?.kind == kind { continue }
      if let c = current, c.kind != .openSky {
        out.append(.array([Self.t(c.from), Self.t(s.time), .string(c.kind.description)]))
      }
      current = (kind, s.time)
    }
    if let c = current, c.kind != .openSky, let last = samples.last {
      out.append(
        .array([
          Self.t(c.from), Self.r3(max(last.time.seconds, scenario.duration)),
          .string(c.kind.description),
        ]))
    }
    return .array(out)
  }

  /// When the phone was offline, from the network's own log: `[from, to]`.
  func offlineWindows(end: Double) -> JSONValue {
    var out: [JSONValue] = []
    var from: SimTime?
    for (e, n) in run.log.events(NetworkEvent.self) {
      switch n {
      case .offline where from == nil: from = e.time
      case .online:
        if let f = from { out.append(.array([Self.t(f), Self.t(e.time)])) }
        from = nil
      default: break
      }
    }
    if let f = from { out.append(.array([Self.t(f), Self.r3(end)])) }
    return .array(out)
  }

  // MARK: Names and layers

  /// Stations of the datasets, the gazetteer's places (the built-in Tokyo ward offices when the
  /// scenario names no gazetteer) and named points of the layers, where they fall in the map.
  func places(_ projection: ViewerProjection) -> JSONValue {
    var out: [JSONValue] = []
    var seen = Set<String>()
    func add(_ name: String, _ lat: Double, _ lon: Double, _ kind: String) {
      let p = projection.point(lat, lon)
      guard (-50...ViewerProjection.width + 50).contains(p.0),
        (-50...ViewerProjection.height + 50).contains(p.1),
        seen.insert("\(name)|\(Self.num(p.0))|\(Self.num(p.1))").inserted
      else { return }
      var o = Self.xy(p, more: 2)
      o["name"] = .string(name)
      o["kind"] = .string(kind)
      out.append(.object(o))
    }
    for s in run.world.stations { add(s.name, s.point.latitude, s.point.longitude, "station") }
    if let url = scenario.gazetteer, let data = try? Data(contentsOf: url),
      let features = try? GeoJSON.features(from: data, file: url.lastPathComponent)
    {
      for f in features {
        if case .point(let p)? = f.geometry, case .string(let name)? = f.properties?["name"] {
          add(name, p.y, p.x, "place")
        }
      }
    } else if scenario.gazetteer == nil {
      for w in Gazetteer.tokyoWardOffices { add(w.name, w.latitude, w.longitude, "place") }
    }
    for layer in scenario.report.layers {
      for f in layer.features {
        if case .point(let p)? = f.geometry, case .string(let name)? = f.properties?["name"] {
          add(name, p.y, p.x, "layer")
        }
      }
    }
    return .array(out)
  }

  func layers(_ projection: ViewerProjection, tolerance: Double) -> JSONValue {
    .array(
      scenario.report.layers.map { layer in
        var lines = ""
        var fills = ""
        var points: [JSONValue] = []
        for f in layer.features {
          guard let g = f.geometry else { continue }
          Self.forEachLine(g) { line in
            if let p = Self.path(
              line.map { projection.point($0.y, $0.x) }, closed: false, tolerance: tolerance)
            {
              lines += p
            }
          }
          Self.forEachRing(g) { ring in
            if let p = Self.path(
              ring.map { projection.point($0.y, $0.x) }, closed: true, tolerance: tolerance)
            {
              fills += p
            }
          }
          var pointList: [Position] = []
          if case .point(let p) = g { pointList = [p] }
          if case .multiPoint(let ps) = g { pointList = ps }
          for p in pointList { points.append(.object(Self.xy(projection.point(p.y, p.x)))) }
        }
        return .object([
          "label": .string(layer.label), "file": .string(layer.file), "lines": .string(lines),
          "fills": .string(fills), "points": .array(points),
        ])
      })
  }

  // MARK: Events

  /// The first text in the data written in Japanese or Chinese script, if any, with the key of
  /// the member it is in: the least key of the members that hold one.
  static func cjkSample(inMembers members: [String: JSONValue]) -> (key: String, text: String)? {
    var first: (key: String, text: String)?
    for (key, value) in members where first.map({ key < $0.key }) ?? true {
      if let text = cjkSample(in: value) { first = (key, text) }
    }
    return first
  }

  /// The first text in `value` written in Japanese or Chinese script, if any: in an array in
  /// its order, in an object in the order of its keys.
  static func cjkSample(in value: JSONValue) -> String? {
    switch value {
    case .string(let s): return cjkSample(in: s)
    case .array(let a): return a.lazy.compactMap(cjkSample(in:)).first
    case .object(let o): return cjkSample(inMembers: o)?.text
    default: return nil
    }
  }

  /// The first run of Japanese or Chinese script in `s`, at most eight scalars, if any.
  static func cjkSample(in s: String) -> String? {
    func isCJK(_ s: Unicode.Scalar) -> Bool {
      switch s.value {
      case 0x3040...0x30FF, 0x3400...0x4DBF, 0x4E00...0x9FFF, 0xF900...0xFAFF, 0xFF66...0xFF9F:
        true
      default: false
      }
    }
    // Every script looked for is written in UTF-8 with a lead byte of at least 0xE3: most
    // strings (numbers as text, paths) are passed over with a scan of their bytes.
    let scalars = s.unicodeScalars
    let mayHold =
      s.utf8.withContiguousStorageIfAvailable { $0.contains { $0 >= 0xE3 } }
      ?? s.utf8.contains { $0 >= 0xE3 }
    guard mayHold, let i = scalars.firstIndex(where: isCJK) else { return nil }
    // A short run of the script, not a whole log line: at most eight scalars.
    return String(String.UnicodeScalarView(scalars[i...].prefix(8).prefix(while: isCJK)))
  }
}

/// The replay viewer of one replay: ``ViewerData`` in ``ViewerPage``.
struct ReplayViewer {
  /// The page's data.
  let data: ViewerData
  private let name: String
  private let description: String
  private let end: Double

  /// The viewer of `run`, with the analyses of its `report`; `jsonLines`, when given, is the
  /// run's log as its `events.jsonl` holds it; `resources` keep what other viewers of the
  /// process ask again (the time zone over the same span).
  ///
  /// - Throws: `CloudError` when the shipped country borders cannot be read.
  init(
    run: ScenarioRun, report: ScenarioReport, eventLimit: Int = ViewerData.eventLimit,
    jsonLines: [UInt8]? = nil, resources: ReplayResources? = nil
  ) throws {
    data = ViewerData(
      run: run, report: report, borders: try ViewerBorders.bundled(), eventLimit: eventLimit,
      jsonLines: jsonLines, resources: resources)
    name = run.scenario.name
    description = run.scenario.description
    end = max(run.scenario.duration, run.log.entries.last?.time.seconds ?? 0)
  }

  /// The page: one self-contained HTML file.
  func html() -> Data {
    ViewerPage.page(
      title: name, description: description, start: 0, end: (end * 1_000).rounded() / 1_000,
      writeData: data.write(to:))
  }
}
