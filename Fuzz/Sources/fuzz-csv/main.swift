import FuzzSupport

// A CSV trace as `geosim trace inspect`, `trace convert` and a scenario's trace read it.
Fuzz.main { start, count in
  Fuzz.trace(Fuzz.data(start, count), format: "csv", fileExtension: "csv")
  return 0
}
