// swift-tools-version: 6.0
import PackageDescription

let package = Package(
  name: "GeoSim",
  products: [
    .library(name: "Geo", targets: ["Geo"]),
    .executable(name: "geosim", targets: ["geosim"]),
  ],
  targets: [
    .systemLibrary(
      name: "CGEOS",
      pkgConfig: "geos",
      providers: [.apt(["libgeos-dev"])]
    ),
    .target(name: "Geo", dependencies: ["CGEOS"], linkerSettings: [.linkedLibrary("m")]),
    .executableTarget(name: "geosim", dependencies: ["Geo"]),
    .testTarget(name: "GeoTests", dependencies: ["Geo"], resources: [.copy("Fixtures")]),
  ],
  swiftLanguageModes: [.v6]
)
