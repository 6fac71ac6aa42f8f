import Device
import Foundation
import Geo
import Testing

/// A GeoJSON polygon feature for the box [west, east] × [south, north].
func boxFeature(_ west: Double, _ south: Double, _ east: Double, _ north: Double, _ props: String)
  -> String
{
  """
  {"type":"Feature","properties":{\(props)},"geometry":{"type":"Polygon","coordinates":[[\
  [\(west),\(south)],[\(east),\(south)],[\(east),\(north)],[\(west),\(north)],[\(west),\(south)]]]}}
  """
}

/// A made-up, nested gazetteer: a prefecture, a ward inside it and two chōme sharing an edge at
/// longitude 139.765, plus a named place.
let nestedGazetteerJSON = """
  {"type":"FeatureCollection","features":[
  \(boxFeature(139.70, 35.65, 139.80, 35.72,
    #""administrativeArea":"東京都","country":"日本","isoCountryCode":"JP""#)),
  \(boxFeature(139.74, 35.67, 139.78, 35.70, #""locality":"千代田区""#)),
  \(boxFeature(139.755, 35.675, 139.765, 35.685,
    #""subLocality":"丸の内","thoroughfare":"丸の内１丁目","postalCode":"100-0005""#)),
  \(boxFeature(139.765, 35.675, 139.775, 35.685,
    #""subLocality":"丸の内","thoroughfare":"丸の内２丁目""#)),
  {"type":"Feature","properties":{"name":"東京駅","locality":"千代田区"},
   "geometry":{"type":"Point","coordinates":[139.767125,35.681236]}}
  ]}
  """

@Suite struct GazetteerTests {
  let gazetteer = try! Gazetteer(
    geoJSON: Data(nestedGazetteerJSON.utf8), context: GEOSContext())

  func at(_ latitude: Double, _ longitude: Double) throws -> Placemark? {
    try gazetteer.placemark(at: Coordinate(latitude: latitude, longitude: longitude))
  }

  @Test func aPointInsideNestedAreasTakesEachComponentFromTheMostSpecific() throws {
    let p = try #require(try at(35.68, 139.76))
    #expect(p.administrativeArea == "東京都" && p.locality == "千代田区")
    #expect(p.subLocality == "丸の内" && p.thoroughfare == "丸の内１丁目")
    #expect(p.postalCode == "100-0005" && p.country == "日本" && p.isoCountryCode == "JP")
    #expect(p.name == "丸の内１丁目")
    // The seed app's address formatting.
    let placeName =
      !p.thoroughfare!.contains(p.subLocality!) ? p.subLocality! + p.thoroughfare! : p.thoroughfare!
    #expect(
      p.administrativeArea! + p.locality! + placeName + (p.subThoroughfare ?? "")
        == "東京都千代田区丸の内１丁目")
  }

  @Test func aPointOnASharedBorderBelongsToTheAreaListedFirst() throws {
    let p = try #require(try at(35.68, 139.765))
    #expect(p.thoroughfare == "丸の内１丁目")
  }

  @Test func aPointOnTheOuterBoundaryIsCovered() throws {
    let p = try #require(try at(35.65, 139.75))
    #expect(p.administrativeArea == "東京都" && p.locality == nil)
    #expect(p.name == "東京都")
  }

  @Test func aPointInTheWardOutsideEveryChomeHasNoThoroughfare() throws {
    let p = try #require(try at(35.69, 139.745))
    #expect(p.locality == "千代田区" && p.thoroughfare == nil && p.name == "千代田区")
  }

  @Test func aPointOutsideEveryAreaHasNoPlacemark() throws {
    #expect(try at(35.5, 139.9) == nil)
  }

  @Test func namedPlacesAreFoundByName() {
    #expect(gazetteer.places(matching: "東京駅").map(\.locality) == ["千代田区"])
    #expect(gazetteer.places(matching: "大阪").isEmpty)
  }

  @Test(arguments: [
    (
      #"{"type":"FeatureCollection","features":[\#(boxFeature(0, 0, 1, 1, #""locality":7"#))]}"#,
      "features[0].properties.locality: expected a non-empty string"
    ),
    (
      #"{"type":"FeatureCollection","features":[\#(boxFeature(0, 0, 1, 1, #""colour":"red""#))]}"#,
      "features[0].properties: names no address component"
    ),
    (
      #"{"type":"FeatureCollection","features":[{"type":"Feature","properties":{"locality":"x"},"geometry":{"type":"LineString","coordinates":[[0,0],[1,1]]}}]}"#,
      "features[0].geometry: is a LineString"
    ),
    (
      #"{"type":"FeatureCollection","features":[{"type":"Feature","properties":{"locality":"x"},"geometry":{"type":"Polygon","coordinates":[[[0,0],[1,0],[1,1]]]}}]}"#,
      "features[0].geometry.coordinates[0]"
    ),
  ])
  func malformedGazetteersAreRejectedNamingThePlace(json: String, message: String) {
    let error = #expect(throws: DeviceError.self) {
      try Gazetteer(geoJSON: Data(json.utf8), context: GEOSContext())
    }
    #expect(error?.message.contains(message) == true, "\(error?.message ?? "")")
  }
}

@Suite struct CentralTokyoGazetteerTests {
  let gazetteer = try! Gazetteer.centralTokyo(context: GEOSContext())

  @Test func everyWardOfficeLiesInItsOwnWard() throws {
    for office in Gazetteer.tokyoWardOffices {
      let p = try gazetteer.placemark(
        at: Coordinate(latitude: office.latitude, longitude: office.longitude))
      #expect(p?.locality == office.name)
      #expect(p?.administrativeArea == "東京都" && p?.isoCountryCode == "JP")
    }
  }

  @Test func theWardsTileTheAreaAndTheBayIsOpenSea() throws {
    #expect(gazetteer.areaCount == 24)
    #expect(try gazetteer.placemark(at: Coordinate(latitude: 35.68, longitude: 139.73)) != nil)
    #expect(try gazetteer.placemark(at: Coordinate(latitude: 35.45, longitude: 139.90)) == nil)
  }

  @Test func tokyoStationComesOutInChuoBecauseBordersAreApproximate() throws {
    let p = try gazetteer.placemark(at: tokyoStation)
    #expect(p?.locality == "中央区")
  }
}
