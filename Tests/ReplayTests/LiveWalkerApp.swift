import Device
import JSON
import Replay

/// A walking app written against the phone's iOS 17 and 18 location clients, as an iOS 18 app
/// uses `CLServiceSession`, `CLBackgroundActivitySession` and
/// `CLLocationUpdate.liveUpdates(.fitness)`: it declares When In Use at launch, keeps a
/// background activity session in the `background` variant, and counts its updates.
final class LiveWalkerApp: SimulatedApp, AppScreen {
  private let keepsBackgroundSession: Bool
  private var session: ServiceSession?
  private var background: BackgroundActivitySession?
  private var stream: LiveUpdateStream?
  private var fixes = 0
  private var stationary = 0
  private var insufficientlyInUse = 0

  init(keepsBackgroundSession: Bool) {
    self.keepsBackgroundSession = keepsBackgroundSession
  }

  func didLaunch(on phone: Phone, reason: LaunchReason) {
    session = phone.makeServiceSession(authorization: .whenInUse)
    if keepsBackgroundSession { background = phone.startBackgroundActivitySession() }
    stream = phone.startLiveUpdates(.fitness) { [unowned self] update in
      if update.location != nil { self.fixes += 1 }
      if update.isStationary { self.stationary += 1 }
      if update.insufficientlyInUse { self.insufficientlyInUse += 1 }
    }
  }

  var mapView: MapView? { nil }

  var observableState: JSONValue {
    .object([
      "fixes": .number(Double(fixes)),
      "stationaryUpdates": .number(Double(stationary)),
      "insufficientlyInUseUpdates": .number(Double(insufficientlyInUse)),
    ])
  }
}
