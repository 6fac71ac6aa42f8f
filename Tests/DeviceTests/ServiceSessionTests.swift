import Device
import SimKernel
import Testing

/// `CLServiceSession` on the phone: a declared authorization goal whose prompts go through the
/// one authorization state, and whose diagnostics say how the state differs from the goal.
@Suite struct ServiceSessionTests {
  /// Everything observers of a session heard, with the virtual time.
  final class Heard {
    var diagnostics: [(time: SimTime, names: [String])] = []
    var ended = false
  }

  func observe(_ session: ServiceSession, on phone: Phone) -> Heard {
    let heard = Heard()
    _ = session.observe(
      { [unowned phone] in heard.diagnostics.append((phone.simulation.now, $0.names)) },
      ended: { heard.ended = true })
    return heard
  }

  func prompts(_ phone: Phone) -> [PromptEvent] {
    phone.simulation.log.events(PromptEvent.self).map(\.event)
  }

  @Test func aWhenInUseSessionPromptsFromNotDeterminedAndReportsTheRequest() throws {
    let (phone, _) = livePhone(start: false)
    try phone.launchApp()
    let session = phone.makeServiceSession(authorization: .whenInUse)
    let heard = observe(session, on: phone)
    #expect(prompts(phone) == [.shown(.location)], "at once, in the foreground")
    try phone.simulation.run(until: .seconds(5))
    #expect(phone.authorizationStatus == .authorizedWhenInUse)
    #expect(heard.diagnostics.map(\.names) == [["authorizationRequestInProgress"], []])
    #expect(heard.diagnostics.last?.time == .seconds(2))
  }

  @Test func noPromptInTheBackgroundButOnceTheAppIsInTheForeground() throws {
    let (phone, _) = livePhone(start: false)
    try phone.launchApp()
    phone.sendAppToBackground()
    let session = phone.makeServiceSession(authorization: .whenInUse)
    try phone.simulation.run(until: .seconds(1))
    #expect(prompts(phone).isEmpty)
    phone.bringAppToForeground()
    #expect(prompts(phone) == [.shown(.location)])
    session.invalidate()
  }

  @Test func anAlwaysSessionShowsTheUpgradePromptAndReportsKeepingWhileUsing() throws {
    let (phone, _) = livePhone(
      user: UserScript(answers: [.alwaysUpgrade: [.keepWhileUsing]]), start: false)
    phone.setLocationSetting(.whileUsing)
    try phone.launchApp()
    let session = phone.makeServiceSession(authorization: .always)
    let heard = observe(session, on: phone)
    #expect(prompts(phone) == [.shown(.alwaysUpgrade)])
    try phone.simulation.run(until: .seconds(5))
    #expect(prompts(phone).last == .answered(.alwaysUpgrade, .keepWhileUsing))
    #expect(heard.diagnostics.last?.names == ["alwaysAuthorizationDenied"])
  }

  @Test func anAlwaysSessionFromNotDeterminedAsksAsRequestAlwaysDoes() throws {
    let (phone, _) = livePhone(start: false)
    try phone.launchApp()
    let session = phone.makeServiceSession(authorization: .always)
    try phone.simulation.run(until: .seconds(5))
    #expect(phone.authorizationStatus == .authorizedAlways, "provisional Always [3P]")
    session.invalidate()
  }

  @Test func aFullAccuracyKeyAsksForTemporaryFullAccuracyOnceAuthorized() throws {
    let plist = InfoPlist(locationTemporaryUsageDescriptionDictionary: ["run": "Track your run."])
    let (phone, _) = livePhone(
      user: UserScript(answers: [.location: [.allowWhileUsing], .temporaryFullAccuracy: [.allow]]),
      infoPlist: plist, start: false)
    phone.setPreciseLocation(false)
    try phone.launchApp()
    let session = phone.makeServiceSession(authorization: .whenInUse, fullAccuracyPurposeKey: "run")
    try phone.simulation.run(until: .seconds(10))
    #expect(
      prompts(phone) == [
        .shown(.location), .answered(.location, .allowWhileUsing),
        .shown(.temporaryFullAccuracy), .answered(.temporaryFullAccuracy, .allow),
      ])
    #expect(phone.runningApp.map { _ in phone.authorizationStatus } == .authorizedWhenInUse)
    #expect(session.diagnostic == ServiceSessionDiagnostic())
  }

  @Test func aRefusedFullAccuracyKeyIsReported() throws {
    let plist = InfoPlist(locationTemporaryUsageDescriptionDictionary: ["run": "Track your run."])
    let (phone, _) = livePhone(
      user: UserScript(answers: [.temporaryFullAccuracy: [.dontAllow]]), infoPlist: plist,
      start: false)
    phone.setLocationSetting(.whileUsing)
    phone.setPreciseLocation(false)
    try phone.launchApp()
    let session = phone.makeServiceSession(authorization: .whenInUse, fullAccuracyPurposeKey: "run")
    try phone.simulation.run(until: .seconds(10))
    #expect(session.diagnostic.fullAccuracyDenied)
  }

  @Test func aDeniedAppsSessionSaysSoAndThenInUseMatters() throws {
    let (phone, _) = livePhone(start: false)
    phone.setLocationSetting(.whileUsing)
    try phone.launchApp()
    let session = phone.makeServiceSession(authorization: .whenInUse)
    let heard = observe(session, on: phone)
    phone.sendAppToBackground()
    try phone.simulation.run(until: .seconds(1))
    #expect(heard.diagnostics.last?.names == ["insufficientlyInUse"])
    phone.bringAppToForeground()
    phone.setLocationSetting(.never)
    try phone.simulation.run(until: .seconds(2))
    #expect(heard.diagnostics.last?.names == ["authorizationDenied"])
    phone.setRestricted(true)
    try phone.simulation.run(until: .seconds(3))
    #expect(heard.diagnostics.last?.names == ["authorizationRestricted"])
    let logged = phone.simulation.log.events(LiveLocationEvent.self).map(\.event)
    #expect(
      logged.contains(.serviceSessionDiagnostic(session: 1, diagnostics: ["authorizationDenied"])))
  }

  @Test func invalidatingEndsTheObserversAndAsksNothingMore() throws {
    let (phone, _) = livePhone(start: false)
    try phone.launchApp()
    phone.sendAppToBackground()
    let session = phone.makeServiceSession(authorization: .whenInUse)
    let heard = observe(session, on: phone)
    session.invalidate()
    phone.bringAppToForeground()
    try phone.simulation.run(until: .seconds(1))
    #expect(heard.ended)
    #expect(prompts(phone).isEmpty)
    #expect(
      phone.simulation.log.events(LiveLocationEvent.self).map(\.event).last
        == .serviceSessionInvalidated(session: 1))
  }
}
