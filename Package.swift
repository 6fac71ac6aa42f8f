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
    .executable(name: "geosim", targets: ["geosim"]),
  ],
  targets: [
    .systemLibrary(
      name: "CGEOS",
      pkgConfig: "geos",
      providers: [.apt(["libgeos-dev"])]
    ),
    .target(name: "JSON"),
    .target(
      name: "Geo", dependencies: ["CGEOS", "JSON"], linkerSettings: [.linkedLibrary("m")]),
    .target(name: "SimKernel", dependencies: ["JSON"]),
    .target(name: "Device", dependencies: ["Geo", "SimKernel"]),
    .target(
      name: "Cloud", dependencies: ["Geo", "JSON", "SimKernel"],
      resources: [.copy("Resources/languages")]),
    .executableTarget(
      name: "geosim", dependencies: ["Cloud", "Device", "Geo", "JSON", "SimKernel"]),
    .testTarget(
      name: "GeoTests", dependencies: ["Geo", "JSON", "SimKernel"],
      resources: [.copy("Fixtures")]),
    .testTarget(name: "SimKernelTests", dependencies: ["SimKernel"]),
    .testTarget(name: "DeviceTests", dependencies: ["Device", "Geo", "SimKernel"]),
    .testTarget(name: "CloudTests", dependencies: ["Cloud", "Geo", "JSON", "SimKernel"]),
    .testTarget(name: "geosimTests", dependencies: ["geosim"]),
  ],
  swiftLanguageModes: [.v6]
)
