import Device
import Foundation
import Geo
import JSON
import SimKernel

extension Coordinate {
  /// `{"latitude": …, "longitude": …}`.
  var json: JSONValue {
    .object(["latitude": .number(latitude), "longitude": .number(longitude)])
  }

  /// `latitude` and `longitude` log fields, with an optional prefix (`"southwestLatitude"`).
  func logFields(prefix: String = "") -> [LogField] {
    if prefix.isEmpty {
      return [LogField("latitude", .double(latitude)), LogField("longitude", .double(longitude))]
    }
    return [
      LogField("\(prefix)Latitude", .double(latitude)),
      LogField("\(prefix)Longitude", .double(longitude)),
    ]
  }
}

extension Annotation {
  /// `{"title": …, "latitude": …, "longitude": …}`.
  var markerJSON: JSONValue {
    .object([
      "title": title.map(JSONValue.string) ?? .null,
      "latitude": .number(coordinate.latitude), "longitude": .number(coordinate.longitude),
    ])
  }
}

extension MapView {
  /// The camera's centre as `{"latitude", "longitude"}`, with the zoom level.
  var cameraJSON: JSONValue {
    let c = centerCoordinate
    return .object([
      "latitude": .number(c.latitude), "longitude": .number(c.longitude),
      "zoom": .number(camera.zoomLevel),
    ])
  }
}

/// Map points per screen point at a Google Maps / tile zoom level: MapKit's world is 2²⁸ map
/// points, a tile world 256 · 2^zoom points, so the scale is 2^(20 − zoom).
func mapPointsPerPoint(zoom: Double) -> Double {
  pow(2, 20 - zoom)
}
