// swift-tools-version: 6.0
import PackageDescription

// GeoSim's libFuzzer targets: one executable per reader, each feeding its input to the entry
// point `geosim` uses on a file. A package of its own, depending on GeoSim by path, so that
// GeoSim's manifest, products and `swift build` know nothing of it. Built (by `scripts/fuzz`,
// `make fuzz`) with
//
//   swift build -c release -Xswiftc -sanitize=fuzzer,address -Xswiftc -use-ld=lld
//
// `-sanitize=fuzzer` instruments every module for coverage and links the toolchain's own
// libFuzzer (`libclang_rt.fuzzer` ships with the Swift toolchain on Linux). Each target is a
// `main.swift` that hands libFuzzer's driver (`LLVMFuzzerRunDriver`) its one-input function:
// the usual shape, a library-mode file exporting `LLVMFuzzerTestOneInput` and libFuzzer's own
// `main`, does not link with SwiftPM, which links an executable's `main` to the entry point
// `<module>_main` that only a `main.swift` has (ld: undefined symbol 'fuzz_gpx_main').
let fuzzTargets = [
  "fuzz-gpx", "fuzz-sumo", "fuzz-nmea", "fuzz-geojson", "fuzz-csv", "fuzz-dataset",
  "fuzz-scenario", "fuzz-shard", "fuzz-geodesic",
]

let package = Package(
  name: "GeoSimFuzz",
  platforms: [.macOS(.v15)],
  dependencies: [.package(name: "GeoSim", path: "..")],
  targets: [
    .systemLibrary(name: "CFuzzer"),
    .target(
      name: "FuzzSupport",
      dependencies: [
        .product(name: "GeoSimCLI", package: "GeoSim"),
        .product(name: "ReferenceAppCatalog", package: "GeoSim"),
        .product(name: "Replay", package: "GeoSim"),
        .product(name: "Traces", package: "GeoSim"), "CFuzzer",
      ]),
  ]
    + fuzzTargets.map { name in
      .executableTarget(
        name: name,
        dependencies: [
          "FuzzSupport",
          .product(name: "Cloud", package: "GeoSim"),
          .product(name: "Device", package: "GeoSim"),
          .product(name: "Geo", package: "GeoSim"),
        ])
    },
  swiftLanguageModes: [.v6]
)
