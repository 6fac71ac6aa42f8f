import FuzzSupport

// Lines of `geosim geodesic` standard input, answered as inverse and as direct problems, at a
// precision from 0 to 10 chosen by the input's length.
Fuzz.main { start, count in
  let data = Fuzz.data(start, count)
  let precision = ["-p", "\(count % 11)"]
  Fuzz.geosim(["geodesic"] + precision, input: data)
  Fuzz.geosim(["geodesic", "--direct"] + precision, input: data)
  return 0
}
