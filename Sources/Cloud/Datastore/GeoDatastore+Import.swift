import Foundation
import JSON

/// A station to import: a name, a position and any other fields (such as `nameRomaji`).
public struct StationRecord: Hashable, Sendable {
  /// The station's name.
  public let name: String
  /// Where it is.
  public let point: GeoPoint
  /// Further fields, copied onto the object as they are.
  public let extra: [String: JSONValue]

  /// A station.
  public init(name: String, point: GeoPoint, extra: [String: JSONValue] = [:]) {
    self.name = name
    self.point = point
    self.extra = extra
  }
}

extension GeoDatastore {
  /// Creates one object per station in `className`, with `name`, the GeoPoint in
  /// `geoField` (the seed app's `geo`) and the extra fields; returns the objects.
  @discardableResult
  public func importStations(
    _ stations: [StationRecord], className: String = "Station", geoField: String = "geo"
  ) throws(NCMBError) -> [DatastoreObject] {
    var objects: [DatastoreObject] = []
    objects.reserveCapacity(stations.count)
    for station in stations {
      var fields = station.extra
      fields["name"] = .string(station.name)
      fields[geoField] = station.point.json
      objects.append(try create(className: className, fields: fields))
    }
    return objects
  }

  /// Reads a JSON array of `{"name":…,"latitude":…,"longitude":…}` (other members become
  /// extra fields). Errors are E400007 naming the file and the 1-based line of the bad entry,
  /// or E400001 when the text is not JSON at all.
  public static func stations(json text: String, file: String) throws(NCMBError) -> [StationRecord]
  {
    let value: JSONValue
    do { value = try JSONValue(parsing: Data(text.utf8)) } catch { throw .invalidJSON }
    guard case .array(let entries) = value else { throw .importError(file, line: 1) }
    let lines = entryLines(text)
    var stations: [StationRecord] = []
    for (i, entry) in entries.enumerated() {
      let line = i < lines.count ? lines[i] : 1
      guard case .object(var members) = entry, case .string(let name)? = members["name"],
        case .number(let latitude)? = members["latitude"],
        case .number(let longitude)? = members["longitude"],
        let point = try? GeoPoint(latitude: latitude, longitude: longitude)
      else { throw .importError(file, line: line) }
      for key in ["name", "latitude", "longitude"] { members[key] = nil }
      stations.append(StationRecord(name: name, point: point, extra: members))
    }
    return stations
  }

  /// Reads CSV with a header row naming at least `name`, `latitude` and `longitude` (other
  /// columns become string fields). Quoted fields may contain commas and doubled quotes.
  /// Errors are E400007 naming the file and the 1-based line.
  public static func stations(csv text: String, file: String) throws(NCMBError) -> [StationRecord] {
    var lines = text.split(
      omittingEmptySubsequences: false, whereSeparator: { $0 == "\n" || $0 == "\r\n" }
    ).map {
      $0.hasSuffix("\r") ? String($0.dropLast()) : String($0)
    }
    if lines.last == "" { lines.removeLast() }
    guard let header = lines.first, let columns = parseCSVLine(header),
      let nameColumn = columns.firstIndex(of: "name"),
      let latitudeColumn = columns.firstIndex(of: "latitude"),
      let longitudeColumn = columns.firstIndex(of: "longitude")
    else { throw .importError(file, line: 1) }
    var stations: [StationRecord] = []
    for (offset, line) in lines.enumerated().dropFirst() where !line.isEmpty {
      guard let cells = parseCSVLine(line), cells.count == columns.count,
        let latitude = Double(cells[latitudeColumn]),
        let longitude = Double(cells[longitudeColumn]),
        let point = try? GeoPoint(latitude: latitude, longitude: longitude),
        !cells[nameColumn].isEmpty
      else { throw .importError(file, line: offset + 1) }
      var extra: [String: JSONValue] = [:]
      for (column, cell) in zip(columns, cells)
      where ![nameColumn, latitudeColumn, longitudeColumn].contains(columns.firstIndex(of: column)!)
      {
        extra[column] = .string(cell)
      }
      stations.append(StationRecord(name: cells[nameColumn], point: point, extra: extra))
    }
    return stations
  }

  /// The 1-based line on which each top-level array element starts.
  private static func entryLines(_ text: String) -> [Int] {
    var lines: [Int] = []
    var line = 1
    var depth = 0
    var inString = false
    var escaped = false
    var expectingValue = false
    for c in text.utf8 {
      if c == UInt8(ascii: "\n") { line += 1 }
      if inString {
        if escaped {
          escaped = false
        } else if c == UInt8(ascii: "\\") {
          escaped = true
        } else if c == UInt8(ascii: "\"") {
          inString = false
        }
        continue
      }
      let isSpace = c == 0x20 || c == 0x0A || c == 0x09 || c == 0x0D
      if depth == 1 && expectingValue && !isSpace && c != UInt8(ascii: "]") {
        lines.append(line)
        expectingValue = false
      }
      switch c {
      case UInt8(ascii: "\""): inString = true
      case UInt8(ascii: "{"), UInt8(ascii: "["):
        depth += 1
        if depth == 1 { expectingValue = true }
      case UInt8(ascii: "}"), UInt8(ascii: "]"): depth -= 1
      case UInt8(ascii: ","): if depth == 1 { expectingValue = true }
      default: break
      }
    }
    return lines
  }

  /// The cells of one CSV line, or `nil` when its quotes do not balance.
  private static func parseCSVLine(_ line: String) -> [String]? {
    var cells: [String] = []
    var cell = ""
    var quoted = false
    var chars = Array(line)[...]
    while let c = chars.popFirst() {
      if quoted {
        if c == "\"" {
          if chars.first == "\"" {
            cell.append("\"")
            chars.removeFirst()
          } else {
            quoted = false
          }
        } else {
          cell.append(c)
        }
      } else if c == "\"" && cell.isEmpty {
        quoted = true
      } else if c == "," {
        cells.append(cell.trimmingCharacters(in: .whitespaces))
        cell = ""
      } else {
        cell.append(c)
      }
    }
    guard !quoted else { return nil }
    cells.append(cell.trimmingCharacters(in: .whitespaces))
    return cells
  }
}
