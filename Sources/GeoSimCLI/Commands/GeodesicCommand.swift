import ArgumentParser
import Foundation
import Geo

/// `geosim geodesic`: GeographicLib's GeodSolve over standard input, line by line.
struct GeodesicCommand: ToolCommand {
  static let configuration = CommandConfiguration(
    commandName: "geodesic",
    abstract: "WGS84 geodesic problems, like GeographicLib's GeodSolve.",
    discussion: """
      Reads lines "lat1 lon1 lat2 lon2" (decimal degrees) from standard input and prints \
      "azi1 azi2 s12"; with --direct reads "lat1 lon1 azi1 s12" and prints "lat2 lon2 azi2". \
      Angles in degrees (azimuths clockwise from north), distances in metres. A malformed line \
      is reported on standard error with its line number, the other lines are still answered, \
      and the exit code is 2.
      """)

  @Flag(help: "Solve the direct problem: from a point, an azimuth and a distance.")
  var direct = false

  @Option(
    name: .customShort("p"), parsing: .unconditional,
    help: ArgumentHelp(
      "Decimals of metres (angles get PREC + 5), 0 to 10.", valueName: "prec"))
  var precision = 3

  func validate() throws {
    guard (0...10).contains(precision) else {
      throw ValidationError("-p needs a whole number from 0 to 10, got \(precision)")
    }
  }

  func run(in tool: ToolContext) throws -> Int32 {
    var lineNumber = 0
    var failures = 0
    while let line = tool.terminal.readLine() {
      lineNumber += 1
      do {
        tool.terminal.write(try Self.answer(line, direct: direct, precision: precision) + "\n")
      } catch let error as LineError {
        tool.terminal.writeError("\(tool.name) geodesic: line \(lineNumber): \(error.message)\n")
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
