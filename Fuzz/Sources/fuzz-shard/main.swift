import FuzzSupport

// A sweep shard's `sweep.json` as `geosim merge` reads it, and the merged report it writes
// when the shard reads.
@_cdecl("LLVMFuzzerTestOneInput")
func test(_ start: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
  _ = Fuzz.write(Fuzz.data(start, count), to: "shard/sweep.json")
  Fuzz.geosim([
    "merge", Fuzz.scratch.appendingPathComponent("shard").path,
    "--out", Fuzz.scratch.appendingPathComponent("merged").path,
  ])
  return 0
}

Fuzz.main(test)
