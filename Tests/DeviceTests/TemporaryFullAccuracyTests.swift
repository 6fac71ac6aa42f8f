import Device
import SimKernel
import Testing

/// `requestTemporaryFullAccuracyAuthorization(withPurposeKey:completion:)` on the phone: a
/// one-time prompt for the session while the app has approximate location.
@Suite struct TemporaryFullAccuracyTests {
  /// What a request's completion got, and when.
  final class Completions {
    var items: [(time: SimTime, error: LocationErrorCode?)] = []
  }

  /// A launched phone whose user allows While Using and has Precise Location off.
  func approximatePhone(
    answers: [PromptAnswer] = [], configure: @escaping (LocationManager) -> Void = { _ in }
  ) throws -> (Phone, () -> RecordingApp?) {
    let (phone, _, app) = makePhone(
      user: UserScript(answers: [.location: [.allowWhileUsing], .temporaryFullAccuracy: answers]),
      configure: {
        $0.requestWhenInUseAuthorization()
        configure($0)
      })
    phone.setPreciseLocation(false)
    try phone.launchApp()
    try phone.simulation.run(until: .seconds(5))
    #expect(app()!.manager.authorizationStatus == .authorizedWhenInUse)
    #expect(app()!.manager.accuracyAuthorization == .reducedAccuracy)
    return (phone, app)
  }

  func request(
    _ key: String, on manager: LocationManager, into completions: Completions
  ) {
    manager.requestTemporaryFullAccuracyAuthorization(purposeKey: key) { [phone = manager.phone] in
      completions.items.append((phone.simulation.now, $0?.code))
    }
  }

  func outcomes(_ phone: Phone) -> [TemporaryFullAccuracyOutcome] {
    phone.simulation.log.events(AuthorizationEvent.self).compactMap {
      if case .temporaryFullAccuracy(_, let outcome) = $0.event { return outcome }
      return nil
    }
  }

  @Test func allowGrantsFullAccuracyAndTheCompletionFollowsTheAnswer() throws {
    let (phone, app) = try approximatePhone(answers: [.allow])
    let completions = Completions()
    request("navigation", on: app()!.manager, into: completions)
    #expect(completions.items.isEmpty)
    try phone.simulation.run(until: .seconds(10))
    #expect(app()!.manager.accuracyAuthorization == .fullAccuracy)
    #expect(completions.items.map(\.error) == [nil])
    #expect(completions.items.first?.time == .seconds(7), "after the user's 2 s")
    #expect(outcomes(phone) == [.prompted])
    #expect(
      phone.simulation.log.events(PromptEvent.self).map(\.event).suffix(2) == [
        .shown(.temporaryFullAccuracy), .answered(.temporaryFullAccuracy, .allow),
      ])
    // The delegate hears the accuracy change, as for any change [A].
    #expect(app()!.names.suffix(2) == ["auth:authorizedWhenInUse", "auth:authorizedWhenInUse"])
    #expect(
      phone.simulation.log.events(AuthorizationEvent.self).last?.event
        == .changed(status: .authorizedWhenInUse, accuracy: .fullAccuracy))
  }

  @Test func dontAllowKeepsApproximateLocationAndStillCompletesWithoutAnError() throws {
    let (phone, app) = try approximatePhone(answers: [.dontAllow])
    let completions = Completions()
    request("navigation", on: app()!.manager, into: completions)
    try phone.simulation.run(until: .seconds(10))
    #expect(app()!.manager.accuracyAuthorization == .reducedAccuracy)
    #expect(completions.items.map(\.error) == [nil])
  }

  @Test func withFullAccuracyAlreadyItCompletesAtOnceButNotInsideTheCall() throws {
    let (phone, _, app) = makePhone(
      user: UserScript(answers: [.location: [.allowWhileUsing]]),
      configure: { $0.requestWhenInUseAuthorization() })
    try phone.launchApp()
    try phone.simulation.run(until: .seconds(5))
    let completions = Completions()
    request("navigation", on: app()!.manager, into: completions)
    #expect(completions.items.isEmpty)
    try phone.simulation.run(until: .seconds(6))
    #expect(completions.items.map(\.time) == [.seconds(5)])
    #expect(completions.items.map(\.error) == [nil])
    #expect(outcomes(phone) == [.alreadyFullAccuracy])
    #expect(phone.simulation.log.entries(source: "prompt", event: "shown").count == 1)
  }

  @Test func aPurposeKeyTheInfoPlistDoesNotDeclareFailsWithPromptDeclined() throws {
    let (phone, app) = try approximatePhone(answers: [.allow])
    let completions = Completions()
    request("coffee", on: app()!.manager, into: completions)
    try phone.simulation.run(until: .seconds(10))
    #expect(completions.items.map(\.error) == [.promptDeclined])
    #expect(outcomes(phone) == [.unknownPurposeKey])
    #expect(app()!.manager.accuracyAuthorization == .reducedAccuracy)
  }

  @Test func anUnauthorizedAppOrOneInTheBackgroundGetsNoPrompt() throws {
    let (phone, app) = try approximatePhone(answers: [.allow])
    let completions = Completions()
    phone.sendAppToBackground()
    request("navigation", on: app()!.manager, into: completions)
    try phone.simulation.run(until: .seconds(6))
    phone.bringAppToForeground()
    phone.setLocationSetting(.never)
    try phone.simulation.run(until: .seconds(7))
    request("navigation", on: app()!.manager, into: completions)
    try phone.simulation.run(until: .seconds(10))
    #expect(completions.items.map(\.error) == [.promptDeclined, .promptDeclined])
    #expect(outcomes(phone) == [.notShown, .notAuthorized])
    #expect(
      phone.simulation.log.events(PromptEvent.self).map(\.event).last
        == .notShown(.temporaryFullAccuracy))
  }

  @Test func theGrantEndsWhenTheAppIsSuspendedAndTheAppHearsItWhenItRunsAgain() throws {
    let (phone, app) = try approximatePhone(answers: [.allow])
    request("navigation", on: app()!.manager, into: Completions())
    try phone.simulation.run(until: .seconds(10))
    #expect(app()!.manager.accuracyAuthorization == .fullAccuracy)
    phone.sendAppToBackground()
    try phone.simulation.run(until: .seconds(12))
    // Still in the grace period: still in use.
    #expect(app()!.manager.accuracyAuthorization == .fullAccuracy)
    try phone.simulation.run(until: .seconds(30))
    #expect(phone.appState == .suspended)
    #expect(app()!.manager.accuracyAuthorization == .reducedAccuracy)
    let heard = app()!.names.count
    phone.bringAppToForeground()
    try phone.simulation.run(until: .seconds(31))
    #expect(app()!.names.count == heard + 1)
  }

  @Test func backgroundLocationUpdatesPostponeTheExpiry() throws {
    let (phone, app) = try approximatePhone(
      answers: [.allow],
      configure: {
        $0.allowsBackgroundLocationUpdates = true
        $0.pausesLocationUpdatesAutomatically = false
        $0.startUpdatingLocation()
      })
    request("navigation", on: app()!.manager, into: Completions())
    phone.sendAppToBackground()
    try phone.simulation.run(until: .seconds(600))
    #expect(phone.appState == .background)
    #expect(app()!.manager.accuracyAuthorization == .fullAccuracy)
    app()!.manager.stopUpdatingLocation()
    try phone.simulation.run(until: .seconds(601))
    #expect(phone.appState == .suspended)
    #expect(app()!.manager.accuracyAuthorization == .reducedAccuracy)
  }

  @Test func aRelaunchStartsWithApproximateLocationAgain() throws {
    let (phone, app) = try approximatePhone(answers: [.allow])
    request("navigation", on: app()!.manager, into: Completions())
    try phone.simulation.run(until: .seconds(10))
    phone.terminateApp()
    try phone.launchApp()
    try phone.simulation.run(until: .seconds(11))
    #expect(app()!.manager.accuracyAuthorization == .reducedAccuracy)
  }

  @Test func regionMonitoringWorksDuringTheGrant() throws {
    let (phone, app) = try approximatePhone(answers: [.allow])
    let region = CircularRegion(center: tokyoStation, radius: 200, identifier: "station")
    app()!.manager.startMonitoring(for: region)
    try phone.simulation.run(until: .seconds(6))
    #expect(app()!.names.last == "monitoringFailed:station:regionMonitoringFailure")
    request("navigation", on: app()!.manager, into: Completions())
    try phone.simulation.run(until: .seconds(10))
    app()!.manager.startMonitoring(for: region)
    try phone.simulation.run(until: .seconds(11))
    #expect(app()!.manager.monitoredRegions.map(\.identifier) == ["station"])
  }

  @Test func turningPreciseLocationOffInSettingsEndsTheGrant() throws {
    let (phone, app) = try approximatePhone(answers: [.allow])
    request("navigation", on: app()!.manager, into: Completions())
    try phone.simulation.run(until: .seconds(10))
    phone.setPreciseLocation(false)
    try phone.simulation.run(until: .seconds(11))
    #expect(app()!.manager.accuracyAuthorization == .reducedAccuracy)
  }

  @Test func theTemporaryPromptTakesOnlyItsOwnAnswers() throws {
    let (phone, app) = try approximatePhone()
    request("navigation", on: app()!.manager, into: Completions())
    #expect(throws: DeviceError.self) { try phone.answerPrompt(.allowOnce) }
    try phone.answerPrompt(.allow)
    try phone.simulation.run(until: .seconds(6))
    #expect(app()!.manager.accuracyAuthorization == .fullAccuracy)
    #expect(PromptAnswer.allow.isValid(for: .temporaryFullAccuracy))
    #expect(!PromptAnswer.keepWhileUsing.isValid(for: .temporaryFullAccuracy))
  }
}
