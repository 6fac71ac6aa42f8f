// swift-tools-version: 6.0
import PackageDescription

#if os(Linux)
  // libpq's header only: on Linux the library is loaded when the PostGIS backend is first used
  // (its pkg-config entry would link it, and the twenty libraries it links, into every process).
  let libpq = Target.systemLibrary(name: "CLibPQ", providers: [.apt(["libpq-dev"])])
#else
  let libpq = Target.systemLibrary(
    name: "CLibPQ", pkgConfig: "libpq", providers: [.brew(["libpq"])])
#endif

let package = Package(
  name: "GeoSim",
  // Synchronization's Mutex needs macOS 15; everything else builds on Linux and macOS alike.
  platforms: [.macOS(.v15)],
  products: [
    .library(name: "Geo", targets: ["Geo"]),
    .library(name: "SimKernel", targets: ["SimKernel"]),
    .library(name: "JSON", targets: ["JSON"]),
    .library(name: "Device", targets: ["Device"]),
    .library(name: "Cloud", targets: ["Cloud"]),
    .library(name: "Traces", targets: ["Traces"]),
    .library(name: "ReferenceApps", targets: ["ReferenceApps"]),
    .library(name: "Referee", targets: ["Referee"]),
    .library(name: "Replay", targets: ["Replay"]),
    .library(name: "ReferenceAppCatalog", targets: ["ReferenceAppCatalog"]),
    .library(name: "Reporting", targets: ["Reporting"]),
    .library(name: "GeoSimTesting", targets: ["GeoSimTesting"]),
    .library(name: "GeoSimFrameworks", targets: ["GeoSimFrameworks"]),
    .library(name: "GeoSimCLI", targets: ["GeoSimCLI"]),
    .executable(name: "geosim", targets: ["geosim"]),
  ],
  dependencies: [
    // The command line: per-command help, completion scripts and a man page.
    .package(url: "https://github.com/apple/swift-argument-parser.git", from: "1.5.0"),
    // `swift package generate-documentation` for the DocC catalogs.
    .package(url: "https://github.com/apple/swift-docc-plugin", from: "1.3.0"),
  ],
  targets: [
    .systemLibrary(
      name: "CGEOS",
      pkgConfig: "geos",
      providers: [.apt(["libgeos-dev"]), .brew(["geos"])]
    ),
    .systemLibrary(
      name: "CSQLite",
      pkgConfig: "sqlite3",
      providers: [.apt(["libsqlite3-dev"]), .brew(["sqlite"])]
    ),
    libpq,
    // Linux calls outside Swift's Glibc module (`renameat2`); empty elsewhere.
    .systemLibrary(name: "CLinux"),
    .target(name: "Errors"),
    .target(name: "JSON"),
    .target(name: "CSV"),
    .target(
      name: "Geo", dependencies: ["CGEOS", "Errors", "JSON"], linkerSettings: [.linkedLibrary("m")]),
    .target(name: "SimKernel", dependencies: ["Errors", "JSON"]),
    .target(name: "Device", dependencies: ["Errors", "Geo", "JSON", "SimKernel"]),
    // The three-word data's tables: parsed and indexed from the text files at build time by
    // ThreeWordTablesBuilder (through ThreeWordTablesPlugin) into a resource of Cloud.
    .target(name: "ThreeWordData", dependencies: ["Errors", "Geo", "JSON"]),
    .executableTarget(name: "ThreeWordTablesBuilder", dependencies: ["ThreeWordData"]),
    .plugin(
      name: "ThreeWordTablesPlugin", capability: .buildTool(),
      dependencies: ["ThreeWordTablesBuilder"]),
    .target(
      name: "Cloud",
      dependencies: [
        "CLibPQ", "CSQLite", "CSV", "Errors", "Geo", "JSON", "SimKernel", "ThreeWordData",
      ],
      resources: [.copy("Resources/languages"), .copy("Resources/places")],
      plugins: ["ThreeWordTablesPlugin"]),
    .target(name: "Traces", dependencies: ["CSV", "Errors", "Geo", "JSON"]),
    .target(name: "GeoSimFrameworks", dependencies: ["Device", "Geo", "JSON", "SimKernel"]),
    .target(
      name: "ReferenceApps",
      dependencies: ["Cloud", "Device", "Geo", "GeoSimFrameworks", "JSON", "SimKernel"]),
    .target(name: "Referee", dependencies: ["Geo", "SimKernel"]),
    .target(
      name: "Replay",
      dependencies: ["Cloud", "Device", "Errors", "Geo", "JSON", "Referee", "SimKernel", "Traces"]),
    .target(
      name: "Reporting",
      dependencies: [
        "CLinux", "CSV", "Cloud", "Device", "Errors", "Geo", "JSON", "Referee", "Replay",
        "SimKernel", "Traces",
      ]),
    .target(name: "ReferenceAppCatalog", dependencies: ["JSON", "ReferenceApps", "Replay"]),
    .target(
      name: "GeoSimTesting",
      dependencies: [
        "Device", "Geo", "JSON", "ReferenceAppCatalog", "Replay", "Reporting", "SimKernel",
        "Traces",
      ]),
    .target(
      name: "GeoSimCLI",
      dependencies: [
        "Cloud", "Device", "Errors", "Geo", "GeoSimFrameworks", "JSON", "ReferenceAppCatalog",
        "Referee", "Replay", "Reporting", "SimKernel", "ThreeWordData", "Traces",
        .product(name: "ArgumentParser", package: "swift-argument-parser"),
      ]),
    .executableTarget(name: "geosim", dependencies: ["GeoSimCLI", "ReferenceAppCatalog"]),
    .testTarget(
      name: "GeoTests", dependencies: ["Geo", "JSON", "SimKernel"],
      resources: [.copy("Fixtures")]),
    .testTarget(name: "JSONTests", dependencies: ["JSON"]),
    // The iOS-style code under test compiles in the language mode most app targets use.
    .testTarget(
      name: "FrameworksTests",
      dependencies: ["Device", "Geo", "GeoSimFrameworks", "Replay", "SimKernel"],
      swiftSettings: [.swiftLanguageMode(.v5)]),
    .testTarget(name: "CSVTests", dependencies: ["CSV"]),
    .testTarget(name: "SimKernelTests", dependencies: ["JSON", "SimKernel"]),
    .testTarget(name: "DeviceTests", dependencies: ["Device", "Geo", "JSON", "SimKernel"]),
    .testTarget(
      name: "CloudTests",
      dependencies: ["Cloud", "Geo", "JSON", "Referee", "SimKernel", "ThreeWordData"]),
    .testTarget(name: "RefereeTests", dependencies: ["Device", "Geo", "Referee", "SimKernel"]),
    .testTarget(
      name: "TracesTests", dependencies: ["Traces", "Geo", "JSON", "SimKernel"],
      resources: [.copy("Fixtures")]),
    .testTarget(
      name: "ReplayTests",
      dependencies: [
        "Cloud", "GeoSimTesting", "Replay", "Device", "Geo", "JSON", "SimKernel", "Traces",
      ],
      resources: [.copy("Fixtures")]),
    .testTarget(
      name: "geosimTests",
      dependencies: [
        "geosim", "GeoSimCLI", "GeoSimTesting", "JSON", "ReferenceAppCatalog", "Replay",
        "Reporting",
      ],
      // The scenario fixtures are read from the source tree, as a user's would be.
      exclude: ["Fixtures"]),
    .testTarget(name: "EndToEndTests", dependencies: ["GeoSimTesting"]),
    .testTarget(
      name: "ReportingTests",
      dependencies: [
        "Cloud", "Device", "Geo", "JSON", "ReferenceAppCatalog", "Replay", "Reporting", "SimKernel",
        "Traces",
      ],
      // Golden files are read from the source tree, so that re-recording writes them there.
      exclude: ["Golden"]),
    .testTarget(
      name: "ReferenceAppsTests",
      dependencies: ["ReferenceApps", "Cloud", "Device", "Geo", "JSON", "SimKernel"]),
  ],
  swiftLanguageModes: [.v6]
)
