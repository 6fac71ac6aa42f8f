import Foundation
import Geo

extension Gazetteer {
  /// The 23 special wards of Tokyo and their ward offices, as (name, latitude, longitude).
  ///
  /// Provenance: the offices' street addresses as the wards publish them (千代田区九段南1-2-1,
  /// 中央区築地1-1-1, …), placed on the map to about ±300 m [?]; the positions are approximate
  /// and not surveyed.
  public static let tokyoWardOffices: [(name: String, latitude: Double, longitude: Double)] = [
    ("千代田区", 35.6940, 139.7536), ("中央区", 35.6706, 139.7720), ("港区", 35.6581, 139.7516),
    ("新宿区", 35.6938, 139.7035), ("文京区", 35.7081, 139.7522), ("台東区", 35.7126, 139.7799),
    ("墨田区", 35.7107, 139.8016), ("江東区", 35.6727, 139.8170), ("品川区", 35.6092, 139.7303),
    ("目黒区", 35.6415, 139.6982), ("大田区", 35.5613, 139.7161), ("世田谷区", 35.6465, 139.6533),
    ("渋谷区", 35.6640, 139.6982), ("中野区", 35.7074, 139.6638), ("杉並区", 35.6995, 139.6365),
    ("豊島区", 35.7263, 139.7166), ("北区", 35.7528, 139.7337), ("荒川区", 35.7361, 139.7834),
    ("板橋区", 35.7512, 139.7094), ("練馬区", 35.7356, 139.6517), ("足立区", 35.7750, 139.8045),
    ("葛飾区", 35.7434, 139.8472), ("江戸川区", 35.7067, 139.8683),
  ]

  /// A default gazetteer of central Tokyo, *approximate*: each ward is the Voronoi cell of its
  /// office among the 23 offices (``tokyoWardOffices``), clipped to the offices' convex hull
  /// widened by 2 km; that area is also 東京都, 日本 (JP).
  ///
  /// Built with GEOS (`GEOSContext.voronoiCells(of:clippedTo:)`) in a local equirectangular
  /// frame (longitudes scaled by cos 35.7°) so that "nearest office" is measured in metres, not
  /// degrees. Real ward borders follow rivers and streets, so points near a border can get the
  /// neighbouring ward — Tokyo Station, in 千代田区 丸の内, is nearer the 中央区 office and comes
  /// out in 中央区 — and the bay shore within 2 km of the hull counts as land. No district
  /// (subLocality) or chōme (thoroughfare) data is included; scenarios needing them load their
  /// own GeoJSON with ``init(geoJSON:context:)``.
  public static func centralTokyo(context: GEOSContext) throws -> Gazetteer {
    try Gazetteer(features: centralTokyoFeatures(context: context), context: context)
  }

  /// The features of ``centralTokyo(context:)``: the area of 東京都 first, then one cell per
  /// ward in the order of ``tokyoWardOffices``.
  ///
  /// They are plain values and the same whatever `context` computes them, so a process that
  /// assembles many worlds computes them once and builds each world's gazetteer from them with
  /// ``init(features:context:)``, in the world's own context.
  ///
  /// - Complexity: the Voronoi diagram and its clipping take a few milliseconds, some ten times
  ///   what building the gazetteer from the features takes.
  public static func centralTokyoFeatures(context: GEOSContext) throws -> [GeoJSONFeature] {
    let scale = cos(35.7 * Double.pi / 180)
    let sites = tokyoWardOffices.map { Position(x: $0.longitude * scale, y: $0.latitude) }
    let widen = 2_000 / 111_320.0  // 2 km in degrees of latitude
    let area = try context.buffer(context.convexHull(.multiPoint(sites)), distance: widen)
    let cells = try context.voronoiCells(of: sites, clippedTo: area)
    let unproject = { (p: Position) in Position(x: p.x / scale, y: p.y) }
    var features = [
      GeoJSONFeature(
        geometry: area.mapPositions(unproject),
        properties: [
          "administrativeArea": .string("東京都"), "country": .string("日本"),
          "isoCountryCode": .string("JP"),
        ])
    ]
    for (ward, cell) in zip(tokyoWardOffices, cells) {
      features.append(
        GeoJSONFeature(
          geometry: cell.mapPositions(unproject),
          properties: ["locality": .string(ward.name)]))
    }
    return features
  }
}
