import Foundation
import Geo
import JSON

/// The address data behind the simulated geocoder: areas (polygons) naming address components,
/// and named places (points), read from GeoJSON.
///
/// Each Polygon or MultiPolygon feature's `properties` name some of ``Placemark``'s components
/// (`administrativeArea`, `locality`, `subLocality`, `thoroughfare`, `subThoroughfare`, `name`,
/// `postalCode`, `country`, `isoCountryCode`); other properties are ignored. A prefecture, a
/// ward and a chōme are three features, nested. Point features are named places, for forward
/// geocoding. Coordinates are longitude, latitude (RFC 7946) and are treated as planar.
///
/// Reverse geocoding finds every area covering the coordinate (its boundary included) with an
/// STRtree over the areas' envelopes and prepared polygons, then takes each component from the
/// smallest covering area that names it; equal areas go to the feature listed first [?] (so a
/// point on a shared border belongs to the area listed first).
public final class Gazetteer {
  private struct Area {
    let components: [(name: String, value: String)]
    let prepared: PreparedGeometry
    let size: Double
    let order: Int
  }

  /// A named place: a point with address components, like a landmark.
  public struct Place: Hashable, Sendable {
    /// The place's address; its ``Placemark/name`` is what forward geocoding matches.
    public let placemark: Placemark
  }

  private let areas: [Area]
  private let tree: STRtree<Int>?
  /// The named places, in file order.
  public let places: [Place]

  /// The number of areas.
  public var areaCount: Int { areas.count }

  /// Reads a gazetteer from GeoJSON text (a FeatureCollection).
  ///
  /// Throws ``DeviceError`` naming the place in the input: GeoJSON syntax and geometry errors
  /// come with their path (`features[3].geometry.coordinates[0][4]: …`); a feature without
  /// geometry or of another type, a component that is not a non-empty string, or a feature
  /// naming no component is reported as `features[i]…`.
  public convenience init(geoJSON data: Data, context: GEOSContext) throws {
    let features: [GeoJSONFeature]
    do {
      features = try GeoJSON.features(from: data)
    } catch let error as GeoError {
      throw DeviceError(.invalidArgument, "gazetteer GeoJSON: \(error.message)")
    }
    try self.init(features: features, context: context)
  }

  /// Builds a gazetteer from features; see ``init(geoJSON:context:)`` for what they hold.
  public init(features: [GeoJSONFeature], context: GEOSContext) throws {
    var areas: [Area] = []
    var places: [Place] = []
    for (i, feature) in features.enumerated() {
      let at = "gazetteer GeoJSON: features[\(i)]"
      var components: [(name: String, value: String)] = []
      for name in Placemark.componentNames {
        guard let value = feature.properties?[name] else { continue }
        switch value {
        case .string(let s) where !s.isEmpty: components.append((name, s))
        case .null: continue
        default:
          throw DeviceError(
            .invalidArgument, "\(at).properties.\(name): expected a non-empty string, got \(value)")
        }
      }
      guard !components.isEmpty else {
        throw DeviceError(
          .invalidArgument,
          "\(at).properties: names no address component (expected some of "
            + Placemark.componentNames.joined(separator: ", ") + ")")
      }
      switch feature.geometry {
      case .polygon, .multiPolygon:
        let geometry = feature.geometry!
        let prepared: PreparedGeometry
        do {
          prepared = try PreparedGeometry(geometry, context: context)
        } catch let error as GeoError {
          throw DeviceError(.invalidArgument, "\(at).geometry: \(error.message)")
        }
        areas.append(
          Area(
            components: components, prepared: prepared, size: Gazetteer.planarArea(geometry),
            order: i))
      case .point(let p):
        var placemark = Placemark(
          coordinate: try Coordinate(latitude: p.y, longitude: p.x))
        for (name, value) in components { placemark[component: name] = value }
        places.append(Place(placemark: placemark))
      case nil:
        throw DeviceError(
          .invalidArgument, "\(at).geometry: is null; expected a Polygon, MultiPolygon or Point")
      case let other?:
        throw DeviceError(
          .invalidArgument,
          "\(at).geometry: is a \(other.typeName); expected a Polygon, MultiPolygon or Point")
      }
    }
    self.areas = areas
    self.places = places
    self.tree =
      areas.isEmpty
      ? nil
      : try STRtree(
        areas.enumerated().map { (index, area) in (area.prepared.geometry.envelope!, index) },
        context: context)
  }

  /// The address at `coordinate`, or `nil` when no area covers it (open sea).
  ///
  /// - Complexity: O(log *n* + *k* log *v*) for *k* areas whose envelopes hold the point, of
  ///   *v* vertices each.
  public func placemark(at coordinate: Coordinate) throws -> Placemark? {
    guard let tree else { return nil }
    let p = Position(x: coordinate.longitude, y: coordinate.latitude)
    let candidates = try tree.query(
      Envelope(minX: p.x, minY: p.y, maxX: p.x, maxY: p.y))
    var covering: [Area] = []
    for index in candidates where try areas[index].prepared.covers(p) {
      covering.append(areas[index])
    }
    guard !covering.isEmpty else { return nil }
    // Most specific first: the smallest area, then the one listed first.
    covering.sort { ($0.size, $0.order) < ($1.size, $1.order) }
    var placemark = Placemark(coordinate: coordinate)
    for area in covering {
      for (name, value) in area.components where placemark[component: name] == nil {
        placemark[component: name] = value
      }
    }
    if placemark.name == nil {
      // CoreLocation names a reverse-geocoded point by its most specific address part [3P].
      placemark.name =
        placemark.thoroughfare.map { $0 + (placemark.subThoroughfare ?? "") }
        ?? placemark.subLocality ?? placemark.locality ?? placemark.administrativeArea
    }
    return placemark
  }

  /// The named places whose name contains `text`, in file order (the start of forward
  /// geocoding).
  public func places(matching text: String) -> [Placemark] {
    let needle = text.trimmingCharacters(in: .whitespaces)
    guard !needle.isEmpty else { return [] }
    return places.map(\.placemark).filter { $0.name?.contains(needle) == true }
  }

  /// The shoelace area in square degrees: only compared between areas, to find the most
  /// specific.
  static func planarArea(_ geometry: Geometry) -> Double {
    func ring(_ r: LinearRing) -> Double {
      let ps = r.positions
      guard ps.count > 2 else { return 0 }
      var sum = 0.0
      for i in 0..<(ps.count - 1) { sum += ps[i].x * ps[i + 1].y - ps[i + 1].x * ps[i].y }
      return abs(sum) / 2
    }
    func polygon(_ p: Polygon) -> Double {
      guard !p.isEmpty else { return 0 }
      return ring(p.exterior) - p.holes.map(ring).reduce(0, +)
    }
    switch geometry {
    case .polygon(let p): return polygon(p)
    case .multiPolygon(let ps): return ps.map(polygon).reduce(0, +)
    default: return 0
    }
  }
}
