import Geo
import JSON

/// A square of the grid, by its edges in degrees (the east edge may be 180).
public struct ThreeWordSquare: Hashable, Sendable {
  /// The southern edge's latitude.
  public let south: Double
  /// The western edge's longitude.
  public let west: Double
  /// The northern edge's latitude.
  public let north: Double
  /// The eastern edge's longitude.
  public let east: Double

  /// Whether the point lies in the square (edges included).
  public func contains(_ point: Coordinate) -> Bool {
    south <= point.latitude && point.latitude <= north && west <= point.longitude
      && point.longitude <= east
  }

  /// `{"southwest": {"lng", "lat"}, "northeast": {"lng", "lat"}}`.
  public var json: JSONValue {
    .object([
      "southwest": .object(["lat": .number(south), "lng": .number(west)]),
      "northeast": .object(["lat": .number(north), "lng": .number(east)]),
    ])
  }
}

/// A three-word address with its square: what convert-to-3wa and convert-to-coordinates return.
public struct ThreeWordAddress: Hashable, Sendable {
  /// The words joined by dots, such as `index.home.raft`.
  public let words: String
  /// The square's centre.
  public let coordinates: Coordinate
  /// The square.
  public let square: ThreeWordSquare
  /// The name of the nearest town or city (GeoNames places of 15,000 inhabitants or more)
  /// within 100 km of the square's centre, in Japanese for `ja` addresses where known and
  /// otherwise in its local name in Latin letters; empty far from places, as with the real
  /// service. See ``ThreeWordGazetteer/nearestPlace(to:language:)``.
  public let nearestPlace: String
  /// The ISO 3166-1 alpha-2 code of the country containing the square's centre, or `ZZ` (the
  /// real service's "no country") at sea, in Antarctica and on islands too small for GeoSim's
  /// borders. See ``ThreeWordGazetteer/country(at:)``.
  public let country: String
  /// The language of the words.
  public let language: String

  /// The response body, shaped like the real service's.
  public var json: JSONValue {
    .object([
      "country": .string(country),
      "square": square.json,
      "nearestPlace": .string(nearestPlace),
      "coordinates": .object([
        "lat": .number(coordinates.latitude), "lng": .number(coordinates.longitude),
      ]),
      "words": .string(words),
      "language": .string(language),
    ])
  }
}

/// One line of a grid section, from `start` to `end`, in degrees.
public struct ThreeWordGridLine: Hashable, Sendable {
  /// The start's latitude and longitude.
  public let start: (lat: Double, lng: Double)
  /// The end's latitude and longitude.
  public let end: (lat: Double, lng: Double)

  /// Compares both ends.
  public static func == (a: ThreeWordGridLine, b: ThreeWordGridLine) -> Bool {
    a.start == b.start && a.end == b.end
  }

  /// Hashes both ends.
  public func hash(into hasher: inout Hasher) {
    hasher.combine(start.lat)
    hasher.combine(start.lng)
    hasher.combine(end.lat)
    hasher.combine(end.lng)
  }
}
