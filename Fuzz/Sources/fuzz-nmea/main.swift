import FuzzSupport

// A NMEA trace as `geosim trace inspect`, `trace convert` and a scenario's trace read it.
Fuzz.main { start, count in
  Fuzz.trace(Fuzz.data(start, count), format: "nmea", fileExtension: "nmea")
  return 0
}
