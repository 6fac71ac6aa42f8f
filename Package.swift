// swift-tools-version: 6.0
import PackageDescription

let package = Package(
  name: "GeoSim",
  products: [
    .library(name: "Geo", targets: ["Geo"]),
    .library(name: "SimKernel", targets: ["SimKernel"]),
    .executable(name: "geosim", targets: ["geosim"]),
  ],
  targets: [
    .systemLibrary(
      name: "CGEOS",
      pkgConfig: "geos",
      providers: [.apt(["libgeos-dev"])]
    ),
    .target(name: "Geo", dependencies: ["CGEOS"], linkerSettings: [.linkedLibrary("m")]),
    .target(name: "SimKernel"),
    .executableTarget(name: "geosim", dependencies: ["Geo", "SimKernel"]),
    .testTarget(
      name: "GeoTests", dependencies: ["Geo", "SimKernel"], resources: [.copy("Fixtures")]),
    .testTarget(name: "SimKernelTests", dependencies: ["SimKernel"]),
    .testTarget(name: "geosimTests", dependencies: ["geosim"]),
  ],
  swiftLanguageModes: [.v6]
)
