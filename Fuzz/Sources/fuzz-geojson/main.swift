import Device
import FuzzSupport
import Geo

// GeoJSON as `geosim trace inspect` and `trace convert` read a trace, and as a scenario's
// `gazetteer` is read (`GeoJSON.features`, then the gazetteer's places).
@_cdecl("LLVMFuzzerTestOneInput")
func test(_ start: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
  let data = Fuzz.data(start, count)
  Fuzz.trace(data, format: "geojson", fileExtension: "geojson")
  if let features = try? GeoJSON.features(from: data, file: "fuzz.geojson") {
    _ = try? Gazetteer(features: features, context: GEOSContext())
  }
  return 0
}

Fuzz.main(test)
