// swift-tools-version: 6.0
import PackageDescription

let package = Package(
  name: "GeoSim",
  products: [
    .library(name: "Geo", targets: ["Geo"]),
    .library(name: "SimKernel", targets: ["SimKernel"]),
    .library(name: "JSON", targets: ["JSON"]),
    .library(name: "Device", targets: ["Device"]),
    .library(name: "Cloud", targets: ["Cloud"]),
    .library(name: "Traces", targets: ["Traces"]),
    .executable(name: "geosim", targets: ["geosim"]),
  ],
  targets: [
    .systemLibrary(
      name: "CGEOS",
      pkgConfig: "geos",
      providers: [.apt(["libgeos-dev"])]
    ),
    .systemLibrary(
      name: "CSQLite",
      pkgConfig: "sqlite3",
      providers: [.apt(["libsqlite3-dev"])]
    ),
    .target(name: "JSON"),
    .target(
      name: "Geo", dependencies: ["CGEOS", "JSON"], linkerSettings: [.linkedLibrary("m")]),
    .target(name: "SimKernel", dependencies: ["JSON"]),
    .target(name: "Device", dependencies: ["Geo", "JSON", "SimKernel"]),
    .target(
      name: "Cloud", dependencies: ["CSQLite", "Geo", "JSON", "SimKernel"],
      resources: [.copy("Resources/languages"), .copy("Resources/places")]),
    .target(name: "Traces", dependencies: ["Device", "Geo", "JSON", "SimKernel"]),
    .executableTarget(
      name: "geosim", dependencies: ["Cloud", "Device", "Geo", "JSON", "SimKernel", "Traces"]),
    .testTarget(
      name: "GeoTests", dependencies: ["Geo", "JSON", "SimKernel"],
      resources: [.copy("Fixtures")]),
    .testTarget(name: "SimKernelTests", dependencies: ["SimKernel"]),
    .testTarget(name: "DeviceTests", dependencies: ["Device", "Geo", "SimKernel"]),
    .testTarget(name: "CloudTests", dependencies: ["Cloud", "Geo", "JSON", "SimKernel"]),
    .testTarget(
      name: "TracesTests", dependencies: ["Traces", "Device", "Geo", "SimKernel"],
      resources: [.copy("Fixtures")]),
    .testTarget(name: "geosimTests", dependencies: ["geosim"]),
  ],
  swiftLanguageModes: [.v6]
)
