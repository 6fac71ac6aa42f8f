import Foundation
import Geo

/// `geosim geodesic`: GeographicLib's GeodSolve over standard input, line by line.
enum GeodesicCommand {
  static func run(_ args: inout Arguments, _ terminal: Terminal) throws -> Int32 {
    let direct = args.flag("--direct")
    var precision = 3
    if let text = try args.option("-p") {
      guard let value = Int(text), (0...10).contains(value) else {
        throw UsageError("geosim geodesic: -p needs a whole number from 0 to 10, got '\(text)'")
      }
      precision = value
    }
    try args.finish()
    var lineNumber = 0
    var failures = 0
    while let line = terminal.readLine() {
      lineNumber += 1
      do {
        terminal.write(try answer(line, direct: direct, precision: precision) + "\n")
      } catch let error as LineError {
        terminal.writeError("geosim geodesic: line \(lineNumber): \(error.message)\n")
        failures += 1
      }
    }
    return failures == 0 ? 0 : 2
  }

  struct LineError: Error {
    let message: String
  }

  /// The answer to one input line, or a ``LineError`` naming what was expected.
  static func answer(_ line: String, direct: Bool, precision: Int) throws -> String {
    let fields = line.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "," })
    let layout = direct ? "lat1 lon1 azi1 s12" : "lat1 lon1 lat2 lon2"
    guard fields.count == 4 else {
      throw LineError(message: "expected 4 numbers \"\(layout)\", got \(fields.count) fields")
    }
    let names = layout.split(separator: " ")
    let values = try zip(fields, names).map { field, name in
      guard let value = Double(field), value.isFinite else {
        throw LineError(message: "\(name) '\(field)' is not a finite number")
      }
      return value
    }
    let angle = "%.\(precision + 5)f"
    let metres = "%.\(precision)f"
    do {
      let from = try Coordinate(latitude: values[0], longitude: values[1])
      if direct {
        let result = try Geodesic.wgs84.direct(from: from, azimuth: values[2], distance: values[3])
        return String(
          format: "\(angle) \(angle) \(angle)", result.coordinate.latitude + 0,
          result.coordinate.longitude + 0, result.finalAzimuth + 0)
      }
      let to = try Coordinate(latitude: values[2], longitude: values[3])
      let result = Geodesic.wgs84.inverse(from: from, to: to)
      return String(
        format: "\(angle) \(angle) \(metres)", result.initialAzimuth + 0, result.finalAzimuth + 0,
        result.distance + 0)
    } catch let error as GeoError {
      throw LineError(message: error.message)
    }
  }
}
