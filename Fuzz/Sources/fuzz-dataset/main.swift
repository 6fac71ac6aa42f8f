import Cloud
import Foundation
import FuzzSupport

// A scenario's dataset as the replay loads it (`World`): the text as UTF-8, read as a JSON
// array of stations and as CSV, and each list imported into a datastore.
@_cdecl("LLVMFuzzerTestOneInput")
func test(_ start: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
  guard let text = String(data: Fuzz.data(start, count), encoding: .utf8) else { return 0 }
  if let stations = try? GeoDatastore.stations(json: text, file: "fuzz-dataset.json") {
    _ = try? GeoDatastore(seed: 1).importStations(stations)
  }
  if let stations = try? GeoDatastore.stations(csv: text, file: "fuzz-dataset.csv") {
    _ = try? GeoDatastore(seed: 1).importStations(stations)
  }
  return 0
}

Fuzz.main(test)
