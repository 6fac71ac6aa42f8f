import CSV
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
  /// extra fields); `file` names the text in errors.
  ///
  /// The text is read by `JSONDocument`, strictly (no trailing commas, duplicate keys, leading
  /// zeros or comments).
  ///
  /// - Throws: ``CloudError`` with code ``CloudErrorCode/invalidData`` whose message names the
  ///   file, line, column and JSON path and what was expected:
  ///   `stations.json:3:17: [2].latitude: expected a number, found a string`.
  public static func stations(json text: String, file: String) throws(CloudError)
    -> [StationRecord]
  {
    let document: JSONDocument
    do {
      document = try JSONDocument(parsing: Data(text.utf8))
    } catch {
      throw CloudError(.invalidData, error.message(in: file))
    }
    func problem(_ path: JSONPath, _ what: String) -> CloudError {
      CloudError(.invalidData, "\(document.place(of: path, in: file)): \(what)")
    }
    guard case .array(let entries) = document.root else {
      throw problem(.root, "expected an array of stations, found \(document.root.typeName)")
    }
    var stations: [StationRecord] = []
    stations.reserveCapacity(entries.count)
    for (i, entry) in entries.enumerated() {
      let path = JSONPath.root.appending(index: i)
      guard case .object(var members) = entry else {
        throw problem(
          path,
          "expected a station object with name, latitude and longitude, found \(entry.typeName)")
      }
      guard let nameValue = members["name"] else { throw problem(path, "missing \"name\"") }
      guard case .string(let name) = nameValue else {
        throw problem(
          path.appending(key: "name"), "expected a string, found \(nameValue.typeName)")
      }
      var degrees: [Double] = []
      for (key, bound) in [("latitude", 90.0), ("longitude", 180.0)] {
        guard let value = members[key] else { throw problem(path, "missing \"\(key)\"") }
        guard case .number(let number) = value else {
          throw problem(path.appending(key: key), "expected a number, found \(value.typeName)")
        }
        guard abs(number) <= bound else {
          throw problem(
            path.appending(key: key),
            "\(JSONText.number(number)) is outside -\(Int(bound))...\(Int(bound))")
        }
        degrees.append(number)
      }
      guard let point = try? GeoPoint(latitude: degrees[0], longitude: degrees[1]) else {
        throw problem(path, "expected a latitude in -90...90 and a longitude in -180...180")
      }
      for key in ["name", "latitude", "longitude"] { members[key] = nil }
      stations.append(StationRecord(name: name, point: point, extra: members))
    }
    return stations
  }

  /// Reads CSV with a header row naming at least `name`, `latitude` and `longitude` (other
  /// columns become string fields); `file` names the text in errors.
  ///
  /// The text is read by `CSVReader` (RFC 4180): the delimiter is whichever of comma, semicolon
  /// and tab the header uses most; fields may be double-quoted, holding delimiters, `""` for a
  /// quote and line breaks; blank lines are skipped. Spaces around a cell are not part of it.
  ///
  /// - Throws: ``CloudError`` with code ``CloudErrorCode/invalidData`` whose message names the
  ///   file, the line on which the bad record starts and what was expected:
  ///   `stations.csv:4: latitude: expected a number in -90...90, found 'north'`; a quote that is
  ///   never closed names the line and column where it opens.
  public static func stations(csv text: String, file: String) throws(CloudError)
    -> [StationRecord]
  {
    var reader = CSVReader(text)
    do {
      return try stations(&reader, file: file)
    } catch let error as CSVSyntaxError {
      throw CloudError(.invalidData, error.message(in: file))
    } catch let error as CloudError {
      throw error
    } catch {
      throw CloudError(.invalidData, "\(file): \(error)")
    }
  }

  private static func stations(_ reader: inout CSVReader, file: String) throws -> [StationRecord] {
    let header = try reader.next()
    let columns = header?.fields.map { $0.trimmingCharacters(in: .whitespaces) } ?? []
    guard let nameColumn = columns.firstIndex(of: "name"),
      let latitudeColumn = columns.firstIndex(of: "latitude"),
      let longitudeColumn = columns.firstIndex(of: "longitude")
    else {
      throw CloudError(
        .invalidData,
        "\(file):\(header?.line ?? 1): expected a header row naming name, latitude and "
          + "longitude, found: \(columns.joined(separator: ", "))")
    }
    var stations: [StationRecord] = []
    while let record = try reader.next() {
      func problem(_ what: String) -> CloudError {
        CloudError(.invalidData, "\(file):\(record.line): \(what)")
      }
      let cells = record.fields.map { $0.trimmingCharacters(in: .whitespaces) }
      guard cells.count == columns.count else {
        throw problem("expected \(columns.count) cells as in the header, found \(cells.count)")
      }
      guard !cells[nameColumn].isEmpty else { throw problem("name: expected a name, found none") }
      var degrees: [Double] = []
      for (column, bound) in [(latitudeColumn, 90.0), (longitudeColumn, 180.0)] {
        guard let number = Double(cells[column]), abs(number) <= bound else {
          throw problem(
            "\(columns[column]): expected a number in -\(Int(bound))...\(Int(bound)), found "
              + "'\(cells[column])'")
        }
        degrees.append(number)
      }
      guard let point = try? GeoPoint(latitude: degrees[0], longitude: degrees[1]) else {
        throw problem("expected a latitude in -90...90 and a longitude in -180...180")
      }
      var extra: [String: JSONValue] = [:]
      for (index, (column, cell)) in zip(columns, cells).enumerated()
      where ![nameColumn, latitudeColumn, longitudeColumn].contains(index) {
        extra[column] = .string(cell)
      }
      stations.append(StationRecord(name: cells[nameColumn], point: point, extra: extra))
    }
    return stations
  }
}
