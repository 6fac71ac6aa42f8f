import FuzzSupport

// A scenario document as `geosim validate` reads it and assembles its world, in a folder
// holding the files the project's scenarios and fixtures name (traces, datasets, gazetteers).
Fuzz.main { start, count in
  Fuzz.scenarioFiles
  let file = Fuzz.write(Fuzz.data(start, count), to: "fuzz.scenario.json")
  Fuzz.geosim(["validate", file])
  return 0
}
