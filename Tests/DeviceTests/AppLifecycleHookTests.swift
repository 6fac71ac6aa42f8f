import Device
import Geo
import SimKernel
import Testing

/// An app that records which lifecycle callbacks the phone makes, with the state it is in.
private final class HookApp: SimulatedApp, LocationManagerDelegate {
  private weak var phone: Phone?
  private var manager: LocationManager?
  private(set) var calls: [String] = []
  let region: CircularRegion?

  init(region: CircularRegion?) {
    self.region = region
  }

  func didLaunch(on phone: Phone, reason: LaunchReason) {
    self.phone = phone
    note("launch:\(reason.rawValue)")
    let manager = LocationManager(phone: phone)
    manager.delegate = self
    manager.requestAlwaysAuthorization()
    if let region { manager.startMonitoring(for: region) }
    self.manager = manager
  }

  func willEnterForeground() { note("willEnterForeground") }
  func didEnterBackground() { note("didEnterBackground") }
  func didResumeInBackground() { note("didResumeInBackground") }
  func willTerminate() { note("willTerminate") }

  func locationManager(_ manager: LocationManager, didEnterRegion region: CircularRegion) {
    note("enter:\(region.identifier)")
  }
  func locationManager(_ manager: LocationManager, didExitRegion region: CircularRegion) {
    note("exit:\(region.identifier)")
  }

  private func note(_ call: String) {
    calls.append("\(call) (\(phone?.appState.rawValue ?? "-"))")
  }
}

@Suite("the app hears when it resumes in the background and when it is about to end")
struct AppLifecycleHookTests {
  private func phone(
    truth: @escaping (SimTime) -> Coordinate? = { _ in tokyoStation },
    region: CircularRegion? = nil
  ) -> (Phone, () -> HookApp?) {
    let simulation = Simulation(seed: 1)
    let phone = Phone(
      simulation: simulation, geos: GEOSContext(), sensor: ExactSensor(truth: truth),
      parameters: deterministic(),
      user: UserScript(answers: [.location: [.allowWhileUsing]], answerDelay: .zero))
    var latest: HookApp?
    phone.install {
      let app = HookApp(region: region)
      latest = app
      return app
    }
    return (phone, { latest })
  }

  @Test("a running app hears willTerminate before its process ends, in its state")
  func runningAppHearsWillTerminate() throws {
    let (phone, app) = phone()
    try phone.launchApp()
    try phone.simulation.run(until: .seconds(1))
    phone.terminateApp()
    #expect(app()?.calls == ["launch:user (foreground)", "willTerminate (foreground)"])

    try phone.launchApp()
    phone.sendAppToBackground()
    try phone.simulation.run(until: .seconds(3))
    phone.terminateApp()
    #expect(
      app()?.calls == [
        "launch:user (foreground)", "didEnterBackground (background)",
        "willTerminate (background)",
      ])
  }

  @Test("a suspended app ends without notice")
  func suspendedAppHearsNothing() throws {
    let (phone, app) = phone()
    try phone.launchApp()
    phone.sendAppToBackground()
    try phone.simulation.run(until: .seconds(10))
    #expect(phone.appState == .suspended)
    phone.terminateApp()
    #expect(app()?.calls == ["launch:user (foreground)", "didEnterBackground (background)"])
  }

  @Test("a suspended app woken for a region event hears didResumeInBackground first")
  func wokenAppHearsResume() throws {
    let (phone, app) = phone(
      truth: { t in offset(10 * t.seconds - 2_000) },
      region: CircularRegion(center: tokyoStation, radius: 300, identifier: "tokyo"))
    try phone.launchApp()
    try phone.simulation.run(until: .seconds(30))
    phone.sendAppToBackground()
    try phone.simulation.run(until: .seconds(100))
    #expect(phone.appState == .suspended)
    try phone.simulation.run(until: .seconds(600))
    // Woken twice, for the entry and for the exit (which comes minutes late), each heard after
    // the callback.
    #expect(
      app()?.calls == [
        "launch:user (foreground)", "didEnterBackground (background)",
        "didResumeInBackground (background)", "enter:tokyo (background)",
        "didResumeInBackground (background)", "exit:tokyo (background)",
      ])
  }
}
