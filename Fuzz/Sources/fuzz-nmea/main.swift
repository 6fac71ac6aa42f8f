import FuzzSupport

// A NMEA trace as `geosim trace inspect`, `trace convert` and a scenario's trace read it.
@_cdecl("LLVMFuzzerTestOneInput")
func test(_ start: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
  Fuzz.trace(Fuzz.data(start, count), format: "nmea", fileExtension: "nmea")
  return 0
}

Fuzz.main(test)
