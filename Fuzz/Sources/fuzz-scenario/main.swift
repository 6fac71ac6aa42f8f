import FuzzSupport

// A scenario document as `geosim validate` reads it and assembles its world, in a folder
// holding the files the project's scenarios and fixtures name (traces, datasets, gazetteers).
@_cdecl("LLVMFuzzerTestOneInput")
func test(_ start: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
  Fuzz.scenarioFiles
  let file = Fuzz.write(Fuzz.data(start, count), to: "fuzz.scenario.json")
  Fuzz.geosim(["validate", file])
  return 0
}

Fuzz.main(test)
