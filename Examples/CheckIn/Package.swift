// swift-tools-version: 6.0
import PackageDescription

// A feature written for iOS, tested on Linux with GeoSim. `CheckIn` is the app's own code: it
// compiles in Xcode against CoreLocation, UserNotifications and UIKit, and here against
// GeoSimFrameworks, with the import swap at the top of each file as its only difference.
let package = Package(
  name: "CheckIn",
  // GeoSim's own floor on macOS (Synchronization's Mutex).
  platforms: [.macOS(.v15)],
  dependencies: [
    // In a project of your own, the same line with the path to your checkout of GeoSim.
    .package(name: "GeoSim", path: "../..")
  ],
  targets: [
    .target(
      name: "CheckIn",
      dependencies: [.product(name: "GeoSimFrameworks", package: "GeoSim")],
      // App targets are usually still in the Swift 5 language mode.
      swiftSettings: [.swiftLanguageMode(.v5)]),
    .target(
      name: "CheckInSimulation",
      dependencies: [
        "CheckIn",
        .product(name: "GeoSimFrameworks", package: "GeoSim"),
        .product(name: "Replay", package: "GeoSim"),
      ]),
    // The package's own command-line tool: `swift run checkin-sim replay Scenarios`.
    .executableTarget(
      name: "checkin-sim",
      dependencies: ["CheckInSimulation", .product(name: "GeoSimCLI", package: "GeoSim")]),
    .testTarget(
      name: "CheckInTests",
      dependencies: [
        "CheckInSimulation",
        .product(name: "GeoSimTesting", package: "GeoSim"),
      ]),
  ],
  swiftLanguageModes: [.v6]
)
