import FuzzSupport

// Lines of `geosim geodesic` standard input, answered as inverse and as direct problems, at a
// precision from 0 to 10 chosen by the input's length.
@_cdecl("LLVMFuzzerTestOneInput")
func test(_ start: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
  let data = Fuzz.data(start, count)
  let precision = ["-p", "\(count % 11)"]
  Fuzz.geosim(["geodesic"] + precision, input: data)
  Fuzz.geosim(["geodesic", "--direct"] + precision, input: data)
  return 0
}

Fuzz.main(test)
