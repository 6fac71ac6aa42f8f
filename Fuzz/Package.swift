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
// `main.swift` that exports `LLVMFuzzerTestOneInput` and hands it to libFuzzer's driver
// (`LLVMFuzzerRunDriver`). The usual shape, a `-parse-as-library` file and libFuzzer's own
// `main`, does not link in a release build: SwiftPM links an executable's `main` to the
// entry point `<module>_main`, which only a `main.swift` has (ld: undefined symbol
// 'fuzz_gpx_main'); and a debug build needs the exported `LLVMFuzzerTestOneInput` besides
// (lld: undefined symbol), so the targets have both. Release, as users run geosim: a clean
// build here took 595 s against about 2 minutes for debug, and then ran some 12 times as many
// inputs a second.
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
