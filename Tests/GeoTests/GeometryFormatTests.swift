import Foundation
import JSON
import SimKernel
import Testing

@testable import Geo

@Suite struct GeometryFormatTests {
  let geos = GEOSContext()

  static let wktSamples = [
    "POINT (139.767125 35.681236)",
    "POINT Z (1 2 3)",
    "LINESTRING (0 0, 1 1, 2 0.5)",
    "LINESTRING EMPTY",
    "POLYGON ((0 0, 10 0, 10 10, 0 10, 0 0), (2 2, 2 4, 4 4, 4 2, 2 2))",
    "POLYGON EMPTY",
    "MULTIPOINT ((0 0), (1 1))",
    "MULTILINESTRING ((0 0, 1 1), (2 2, 3 3))",
    "MULTIPOLYGON (((0 0, 1 0, 1 1, 0 0)), ((5 5, 6 5, 6 6, 5 5)))",
    "GEOMETRYCOLLECTION (POINT (1 2), LINESTRING (0 0, 1 1))",
    "GEOMETRYCOLLECTION EMPTY",
    "MULTIPOINT EMPTY",
  ]

  @Test(arguments: wktSamples)
  func wktRoundTripIsExact(wkt: String) throws {
    let geometry = try geos.geometry(fromWKT: wkt)
    #expect(geometry.wkt == wkt)
    #expect(try geos.geometry(fromWKT: geometry.wkt) == geometry)
  }

  @Test func pointEmptyIsReadAsAnEmptyMultiPoint() throws {
    #expect(try geos.geometry(fromWKT: "POINT EMPTY") == .multiPoint([]))
  }

  @Test(arguments: wktSamples)
  func wkbRoundTripPreservesTheGeometry(wkt: String) throws {
    let geometry = try geos.geometry(fromWKT: wkt)
    #expect(try geos.geometry(fromWKB: geos.wkb(geometry)) == geometry)
  }

  @Test func wkbIsLittleEndianISO() throws {
    let bytes = try geos.wkb(.point(Position(x: 1, y: 2, z: 3)))
    #expect(bytes[0] == 1)  // NDR
    #expect(bytes[1..<5] == [0xE9, 0x03, 0, 0])  // 1001 = Point Z in ISO WKB
  }

  @Test func randomCoordinatesSurviveEveryFormatBitForBit() throws {
    var random = SplitMix64(seed: 7)
    for _ in 0..<200 {
      let positions = (0..<5).map { _ in
        Position(x: random.double(in: -180...180), y: random.double(in: -90...90))
      }
      let line = Geometry.lineString(try LineString(positions))
      #expect(try geos.geometry(fromWKT: line.wkt) == line)
      #expect(try geos.geometry(fromWKB: geos.wkb(line)) == line)
      #expect(try GeoJSON.geometry(from: Data(GeoJSON.text(line).utf8)) == line)
    }
  }

  @Test(arguments: [
    ("POINT (1)", "Expected number"),
    ("LINESTRING (0 0, 1 1", "Expected word but encountered end of stream"),
    ("POLYGON ((0 0, 1 0, 1 1, 0 1))", "closed linestring"),
    ("CIRCLE (0 0, 1)", "Unknown type"),
    ("", "end of stream"),
  ])
  func invalidWKTThrowsWithGEOSMessage(wkt: String, fragment: String) {
    #expect {
      try geos.geometry(fromWKT: wkt)
    } throws: { error in
      let e = error as! GeoError
      return e.code == .invalidFormat && e.message.contains(fragment)
    }
  }

  @Test func truncatedWKBThrows() throws {
    let bytes = try geos.wkb(.lineString(LineString([Position(x: 0, y: 0), Position(x: 1, y: 1)])))
    #expect(throws: GeoError.self) { try geos.geometry(fromWKB: Array(bytes.dropLast(3))) }
    #expect(throws: GeoError.self) { try geos.geometry(fromWKB: [9, 9, 9]) }
    #expect(throws: GeoError.self) { try geos.geometry(fromWKB: []) }
  }

  @Test func contextKeepsWorkingAfterAnError() throws {
    _ = try? geos.geometry(fromWKT: "POINT (")
    #expect(try geos.geometry(fromWKT: "POINT (1 2)") == .point(Position(x: 1, y: 2)))
  }

  @Test func nonFiniteCoordinatesAreRejectedBeforeReachingGEOS() {
    #expect(throws: GeoError.self) { try geos.wkb(.point(Position(x: .nan, y: 0))) }
    #expect(throws: GeoError.self) {
      try LineString([Position(x: 0, y: 0), Position(x: .infinity, y: 0)])
    }
  }

  @Test func structuralRulesAreEnforcedByInitialisers() {
    #expect(throws: GeoError.self) { try LineString([Position(x: 0, y: 0)]) }
    #expect(throws: GeoError.self) {
      try LinearRing([Position(x: 0, y: 0), Position(x: 1, y: 0), Position(x: 0, y: 0)])
    }
    #expect(throws: GeoError.self) {
      try LinearRing([
        Position(x: 0, y: 0), Position(x: 1, y: 0), Position(x: 1, y: 1), Position(x: 0, y: 1),
      ])
    }
    #expect(throws: GeoError.self) {
      try Polygon(exterior: LinearRing([]), holes: [LinearRing([])])
    }
  }
}

@Suite struct GeoJSONTests {
  let geos = GEOSContext()

  @Test(arguments: GeometryFormatTests.wktSamples.filter { !$0.contains("Z") })
  func geometryRoundTripsThroughGeoJSON(wkt: String) throws {
    let geometry = try geos.geometry(fromWKT: wkt)
    let text = GeoJSON.text(geometry)
    #expect(try GeoJSON.geometry(from: Data(text.utf8)) == geometry)
  }

  @Test func writesRFC7946Winding() throws {
    let clockwise = Geometry.polygon(
      try Polygon(rings: [
        [
          Position(x: 0, y: 0), Position(x: 0, y: 10), Position(x: 10, y: 10),
          Position(x: 10, y: 0), Position(x: 0, y: 0),
        ]
      ]))
    #expect(
      GeoJSON.text(clockwise)
        == #"{"coordinates":[[[0,0],[10,0],[10,10],[0,10],[0,0]]],"type":"Polygon"}"#)
  }

  @Test func readsFeatureCollectionsWithPropertiesAndIds() throws {
    let text = #"""
      {"type": "FeatureCollection", "features": [
        {"type": "Feature", "id": 7, "geometry": {"type": "Point", "coordinates": [139.7, 35.6, 40]},
         "properties": {"name": "東京", "line": ["JY", "JK"], "open": true, "extra": null}},
        {"type": "Feature", "geometry": null, "properties": null}
      ], "bbox": [0, 0, 1, 1]}
      """#
    let features = try GeoJSON.features(from: Data(text.utf8))
    #expect(features.count == 2)
    #expect(features[0].id == .number(7))
    #expect(features[0].geometry == .point(Position(x: 139.7, y: 35.6, z: 40)))
    #expect(features[0].properties?["name"] == .string("東京"))
    #expect(features[0].properties?["line"] == .array([.string("JY"), .string("JK")]))
    #expect(features[0].properties?["open"] == .bool(true))
    #expect(features[1].geometry == nil)
    let again = try GeoJSON.features(from: Data(GeoJSON.text(features).utf8))
    #expect(again == features)
  }

  @Test(arguments: [
    (#"{"type": "Point", "coordinates": [200, 0]}"#, "coordinates[0]: longitude 200.0"),
    (#"{"type": "Point", "coordinates": [0, -91]}"#, "coordinates[1]: latitude -91.0"),
    (#"{"type": "Point", "coordinates": [0]}"#, "coordinates: a position needs 2 or 3"),
    (#"{"type": "Point", "coordinates": [0, "1"]}"#, "coordinates[1]: expected a number"),
    (#"{"type": "Point"}"#, "<GeoJSON>:1:1: (root): a Point needs a \"coordinates\""),
    (#"{"coordinates": [0, 0]}"#, "missing \"type\""),
    (
      #"{"type": "Circle", "coordinates": [0, 0]}"#,
      "<GeoJSON>:1:10: type: expected a geometry type"
    ),
    (#"{"type": "LineString", "coordinates": [[0, 0]]}"#, "coordinates: a line string needs"),
    (
      #"{"type": "Polygon", "coordinates": [[[0, 0], [1, 0], [1, 1], [0, 1]]]}"#,
      "coordinates[0]: a linear ring must be closed"
    ),
    (
      #"{"type": "GeometryCollection", "geometries": [{"type": "Point", "coordinates": [0, 0]}, {"type": "Point", "coordinates": [0, 100]}]}"#,
      "geometries[1].coordinates[1]: latitude"
    ),
    (
      #"{"type": "FeatureCollection", "features": [{"type": "Feature", "geometry": null}, {"type": "Feature", "properties": {}}]}"#,
      "features[1]: a Feature needs a \"geometry\""
    ),
    (
      #"{"type": "FeatureCollection", "features": [{"type": "Feature", "geometry": null, "properties": 3}]}"#,
      "features[0].properties: expected an object or null"
    ),
    (#"{"type": "FeatureCollection"}"#, "features: missing"),
    (#"[1, 2]"#, "<GeoJSON>:1:1: (root): expected an object"),
    (
      #"{"type": "Point", "coordinates": [0, 0]"#,
      "<GeoJSON>:1:40: expected ',' or '}', found the end"
    ),
  ])
  func invalidGeoJSONNamesThePathInsideTheDocument(json: String, fragment: String) {
    #expect {
      try GeoJSON.features(from: Data(json.utf8))
    } throws: { error in
      let e = error as! GeoError
      return e.code == .invalidFormat && e.message.contains(fragment)
    }
  }

  @Test(arguments: [
    (
      "{\"type\": \"Point\",\n \"coordinates\": [139.7, 35.6],\n}",
      "areas.geojson:3:1: expected a member name after ',' (trailing commas are not allowed), "
        + "found '}'"
    ),
    (
      "{\"type\": \"Point\",\n \"coordinates\": [139.7, 35.6],\n \"type\": \"Point\"}",
      "areas.geojson:3:2: duplicate key \"type\" in an object (first at line 1, column 2)"
    ),
    (
      "{\"type\": \"Point\",\n \"coordinates\": [139.7, 035.61]}",
      "areas.geojson:2:26: expected '.', 'e' or the end of the number after a leading 0, found '3' "
        + "(leading zeros are not allowed)"
    ),
    (
      "{\"type\": \"FeatureCollection\", \"features\": [\n  {\"type\": \"Feature\", \"properties\": {},\n"
        + "   \"geometry\": {\"type\": \"Point\", \"coordinates\": [139.7, \"35.6\"]}}]}",
      "areas.geojson:3:57: features[0].geometry.coordinates[1]: expected a number, got a string"
    ),
  ])
  func problemsInAGeoJSONFileNameTheFileLineColumnAndPath(json: String, message: String) {
    #expect {
      try GeoJSON.features(from: Data(json.utf8), file: "areas.geojson")
    } throws: { error in
      (error as? GeoError)?.message == message
    }
  }

  @Test func geometryReaderAcceptsAFeature() throws {
    let text =
      #"{"type":"Feature","geometry":{"type":"Point","coordinates":[1,2]},"properties":{}}"#
    #expect(try GeoJSON.geometry(from: Data(text.utf8)) == .point(Position(x: 1, y: 2)))
  }
}
