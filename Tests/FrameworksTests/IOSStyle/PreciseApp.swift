// Written as for iOS: the import swap is this file's only difference from an Xcode target's.
#if canImport(UIKit)
  import UIKit
  import CoreLocation
#else
  import GeoSimFrameworks
#endif

/// An app whose directions feature asks for precise location once, with the purpose key its
/// Info.plist declares.
final class PreciseAppDelegate: UIResponder, UIApplicationDelegate {
  var directions: PreciseDirections?

  func application(
    _ application: UIApplication,
    didFinishLaunchingWithOptions launchOptions: [UIApplication.LaunchOptionsKey: Any]?
  ) -> Bool {
    let directions = PreciseDirections(purposeKey: "directions")
    self.directions = directions
    directions.start()
    return true
  }
}
