import Geo

/// Reads SUMO floating car data (`<fcd-export>`, written by `sumo --fcd-output`).
///
/// Mapping: each `<timestep time="t">` gives the time of the `<vehicle>` (and `<person>`)
/// elements inside it; each distinct `id` becomes one track named by the id, in order of first
/// appearance. The coordinate is `lon`/`lat` when the element has them, else `x`/`y` read as
/// longitude/latitude, which is what SUMO writes with `--fcd-output.geo`; a file in Cartesian
/// metres (any `x`/`y` outside longitude/latitude range) is refused with that advice. `speed` is
/// metres per second, `angle` the course in degrees clockwise from north, `z` the elevation.
///
/// SUMO times are seconds since the simulation's begin, not dates: they are kept as they are,
/// which reads as seconds after 1970-01-01T00:00:00Z. A trajectory made from the trace starts at
/// the instant it is given, so only the differences matter.
struct SUMOImporter: XMLHandler {
  static let root = "fcd-export"

  private var lines: LineCounter
  private var time: Double?
  private var order: [String] = []
  private var tracks: [String: [TracePoint]] = [:]
  private(set) var issues: [TraceIssue] = []
  private var inTimestep = false

  init(bytes: UnsafeBufferPointer<UInt8>) { lines = LineCounter(bytes) }

  mutating func start(_ element: String, _ attributes: XMLAttributes, offset: Int) throws {
    if element == "timestep" {
      inTimestep = true
      time = attributes.double("time")
      if time == nil {
        issues.append(
          TraceIssue(
            line: lines.line(of: offset),
            message: "timestep without a numeric time: its vehicles are skipped"))
      } else if !TracePoint.timeRange.contains(time!) {
        issues.append(
          TraceIssue(
            line: lines.line(of: offset),
            message: "timestep time \(TracePoint.outOfRange(attributes.string("time") ?? "")): "
              + "its vehicles are skipped"))
        time = nil
      }
      return
    }
    guard element == "vehicle" || element == "person" else { return }
    guard inTimestep else {
      // Its time would come from the timestep around it: there is none.
      issues.append(
        TraceIssue(
          line: lines.line(of: offset), message: "skipped a <\(element)> outside any <timestep>"))
      return
    }
    guard let time else { return }
    let line = lines.line(of: offset)
    guard let id = attributes.string("id") else {
      issues.append(TraceIssue(line: line, message: "skipped a \(element) without an id"))
      return
    }
    let longitude = attributes.double("lon") ?? attributes.double("x")
    let latitude = attributes.double("lat") ?? attributes.double("y")
    guard let longitude, let latitude else {
      issues.append(
        TraceIssue(line: line, message: "skipped \(element) '\(id)': expected numeric x and y"))
      return
    }
    guard abs(longitude) <= 180, abs(latitude) <= 90,
      let coordinate = try? Coordinate(latitude: latitude, longitude: longitude)
    else {
      throw XMLHandlerFailure(
        offset: offset,
        reason: "\(element) '\(id)' has x=\(longitude) y=\(latitude), outside longitude/latitude "
          + "range: expected geographic coordinates (export with sumo --fcd-output.geo)")
    }
    var course = attributes.double("angle")
    if let angle = course {
      course = angle.truncatingRemainder(dividingBy: 360)
      if course! < 0 { course! += 360 }
    }
    let point = TracePoint(
      time: time, coordinate: coordinate, elevation: attributes.double("z"),
      speed: attributes.double("speed"), course: course)
    if tracks[id] == nil { order.append(id) }
    tracks[id, default: []].append(point)
  }

  mutating func end(_ element: String, _ text: XMLText, offset: Int) throws {
    if element == "timestep" {
      time = nil
      inTimestep = false
    }
  }

  func trace(file: String?) throws -> Trace {
    guard !order.isEmpty else {
      throw TraceError(
        .noPoints, file: file, "expected <vehicle> elements inside <timestep>, found none")
    }
    return Trace(
      format: .sumo, tracks: order.map { TraceTrack(name: $0, points: tracks[$0]!) },
      skipped: issues)
  }
}
