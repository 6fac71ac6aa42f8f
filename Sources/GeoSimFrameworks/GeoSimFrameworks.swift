// The module re-exports Foundation, so that a file importing only this module (in place of
// CoreLocation, UserNotifications, MapKit and UIKit, which re-export Foundation on iOS) sees
// Foundation too — and sees this module's `DispatchQueue`, `Timer`, `Task`, `MainActor` and
// `UserDefaults` in place of the host's, which is what runs the app's code in virtual time.
@_exported import Foundation
