import Device
import SimKernel
import Testing

@Suite struct AuthorizationTests {
  @Test func theDelegateHearsTheStatusWhenTheManagerIsCreated() throws {
    let (phone, _, app) = makePhone()
    try phone.launchApp()
    try phone.simulation.run(until: .seconds(1))
    #expect(app()!.names == ["auth:notDetermined"])
  }

  @Test func allowWhileUsingAnsweredAfterTheUsersDelayAuthorizesWhenInUse() throws {
    let (phone, _, app) = makePhone(
      user: UserScript(answers: [.location: [.allowWhileUsing]], answerDelay: .seconds(3)),
      configure: { $0.requestWhenInUseAuthorization() })
    try phone.launchApp()
    try phone.simulation.run(until: .seconds(10))
    let events = app()!.events
    #expect(events.map(\.what) == ["auth:notDetermined", "auth:authorizedWhenInUse"])
    #expect(events[1].time == .seconds(3))
  }

  @Test func anUnansweredPromptLeavesTheStatusUndeterminedUntilTheTimelineAnswers() throws {
    let (phone, _, app) = makePhone(configure: { $0.requestWhenInUseAuthorization() })
    try phone.launchApp()
    try phone.simulation.run(until: .seconds(60))
    #expect(app()!.manager.authorizationStatus == .notDetermined)
    try phone.answerPrompt(.dontAllow)
    try phone.simulation.run(until: .seconds(61))
    #expect(app()!.manager.authorizationStatus == .denied)
    #expect(throws: DeviceError.self) { try phone.answerPrompt(.allowOnce) }
  }

  @Test func aPromptAppearsOnlyFromNotDeterminedAndInTheForeground() throws {
    let (phone, _, app) = makePhone(
      user: UserScript(answers: [.location: [.dontAllow, .allowOnce]]))
    try phone.launchApp()
    app()!.manager.requestWhenInUseAuthorization()
    try phone.simulation.run(until: .seconds(5))
    #expect(app()!.manager.authorizationStatus == .denied)
    app()!.manager.requestWhenInUseAuthorization()
    try phone.simulation.run(until: .seconds(10))
    // The second request shows nothing: the queued allowOnce is never used.
    #expect(phone.simulation.log.entries(source: "prompt", event: "shown").count == 1)
    #expect(app()!.manager.authorizationStatus == .denied)
  }

  @Test func answeringWhileUsingToAnAlwaysRequestGivesProvisionalAlways() throws {
    let (phone, _, app) = makePhone(
      user: UserScript(answers: [.location: [.allowWhileUsing]]),
      configure: { $0.requestAlwaysAuthorization() })
    try phone.launchApp()
    try phone.simulation.run(until: .seconds(5))
    #expect(app()!.manager.authorizationStatus == .authorizedAlways)
  }

  @Test func theAlwaysUpgradePromptIsShownOnlyOnce() throws {
    let (phone, _, app) = makePhone(
      user: UserScript(answers: [.location: [.allowWhileUsing], .alwaysUpgrade: [.keepWhileUsing]]))
    try phone.launchApp()
    app()!.manager.requestWhenInUseAuthorization()
    try phone.simulation.run(until: .seconds(5))
    app()!.manager.requestAlwaysAuthorization()
    try phone.simulation.run(until: .seconds(10))
    #expect(app()!.manager.authorizationStatus == .authorizedWhenInUse)
    app()!.manager.requestAlwaysAuthorization()
    try phone.simulation.run(until: .seconds(15))
    #expect(phone.simulation.log.entries(source: "prompt", event: "shown").count == 2)
  }

  @Test func allowOnceExpiresWhenTheAppIsSuspended() throws {
    let (phone, _, app) = makePhone(
      user: UserScript(answers: [.location: [.allowOnce]]),
      configure: { $0.requestWhenInUseAuthorization() })
    try phone.launchApp()
    try phone.simulation.run(until: .seconds(5))
    #expect(app()!.manager.authorizationStatus == .authorizedWhenInUse)
    phone.sendAppToBackground()
    try phone.simulation.run(until: .seconds(20))
    #expect(phone.appState == .suspended)
    #expect(app()!.manager.authorizationStatus == .notDetermined)
    // The change is told to the app when it runs again, not while it is suspended.
    #expect(app()!.names.last == "auth:authorizedWhenInUse")
    phone.bringAppToForeground()
    try phone.simulation.run(until: .seconds(21))
    #expect(app()!.names.last == "auth:notDetermined")
  }

  @Test func locationServicesOffReportsDeniedAndOnRestoresThePreviousStatus() throws {
    let (phone, _, app) = makePhone(
      user: UserScript(answers: [.location: [.allowWhileUsing]]),
      configure: { $0.requestWhenInUseAuthorization() })
    try phone.launchApp()
    try phone.simulation.run(until: .seconds(5))
    phone.setLocationServices(false)
    try phone.simulation.run(until: .seconds(6))
    #expect(app()!.manager.authorizationStatus == .denied)
    #expect(!app()!.manager.locationServicesEnabled())
    phone.setAirplaneMode(true)
    phone.setLocationServices(true)
    try phone.simulation.run(until: .seconds(7))
    #expect(app()!.manager.authorizationStatus == .denied)
    phone.setAirplaneMode(false)
    try phone.simulation.run(until: .seconds(8))
    #expect(app()!.manager.authorizationStatus == .authorizedWhenInUse)
    #expect(
      app()!.names == [
        "auth:notDetermined", "auth:authorizedWhenInUse", "auth:denied", "auth:authorizedWhenInUse",
      ])
  }

  /// Apple, `CLAuthorizationStatus.denied`: the status is denied when "Location services are
  /// unavailable because the device is in Airplane mode"; afterwards "your app's authorization
  /// returns to its previous state. The status change is reported to your delegate".
  @Test func airplaneModeAloneReportsDeniedAndOffRestoresThePreviousStatus() throws {
    let (phone, _, app) = makePhone(
      user: UserScript(answers: [.location: [.allowWhileUsing]]),
      configure: { $0.requestWhenInUseAuthorization() })
    try phone.launchApp()
    try phone.simulation.run(until: .seconds(5))
    phone.setAirplaneMode(true)
    try phone.simulation.run(until: .seconds(6))
    #expect(app()!.manager.authorizationStatus == .denied)
    // Location Services stay on: Airplane mode is not the Settings switch.
    #expect(app()!.manager.locationServicesEnabled())
    phone.setAirplaneMode(false)
    try phone.simulation.run(until: .seconds(7))
    #expect(app()!.manager.authorizationStatus == .authorizedWhenInUse)
    #expect(
      app()!.names == [
        "auth:notDetermined", "auth:authorizedWhenInUse", "auth:denied", "auth:authorizedWhenInUse",
      ])
  }

  @Test func settingsChangesAreToldToTheAppAndRevokingStopsUpdatesWithAnError() throws {
    let (phone, _, app) = makePhone(
      user: UserScript(answers: [.location: [.allowWhileUsing]]),
      configure: { $0.requestWhenInUseAuthorization() })
    try phone.launchApp()
    try phone.simulation.run(until: .seconds(3))
    app()!.manager.startUpdatingLocation()
    try phone.simulation.run(until: .seconds(10))
    let fixesBefore = app()!.fixes.count
    #expect(fixesBefore > 0)
    phone.setLocationSetting(.never)
    try phone.simulation.run(until: .seconds(20))
    #expect(app()!.fixes.count == fixesBefore)
    #expect(app()!.names.suffix(2) == ["auth:denied", "error:denied"])
    phone.setPreciseLocation(false)
    phone.setLocationSetting(.always)
    try phone.simulation.run(until: .seconds(21))
    #expect(app()!.manager.authorizationStatus == .authorizedAlways)
    #expect(app()!.manager.accuracyAuthorization == .reducedAccuracy)
  }

  @Test func startingUpdatesWhenDeniedFailsWithDenied() throws {
    let (phone, _, app) = makePhone(
      user: UserScript(answers: [.location: [.dontAllow]]),
      configure: { $0.requestWhenInUseAuthorization() })
    try phone.launchApp()
    try phone.simulation.run(until: .seconds(5))
    app()!.manager.startUpdatingLocation()
    try phone.simulation.run(until: .seconds(10))
    #expect(app()!.names == ["auth:notDetermined", "auth:denied", "error:denied"])
    #expect(app()!.fixes.isEmpty)
  }

  @Test func updatesStartedBeforeTheAnswerBeginOnceTheUserAllows() throws {
    let (phone, _, app) = makePhone(
      user: UserScript(answers: [.location: [.allowWhileUsing]], answerDelay: .seconds(4)),
      configure: {
        $0.requestWhenInUseAuthorization()
        $0.startUpdatingLocation()
      })
    try phone.launchApp()
    try phone.simulation.run(until: .seconds(4.5))
    #expect(app()!.fixes.isEmpty)
    try phone.simulation.run(until: .seconds(10))
    #expect(app()!.fixes.first?.timestamp == .seconds(5))
  }

  @Test func answersThePromptDoesNotOfferAreRejected() throws {
    let (phone, _, _) = makePhone(configure: { $0.requestWhenInUseAuthorization() })
    try phone.launchApp()
    try phone.simulation.run(until: .seconds(1))
    #expect(throws: DeviceError.self) { try phone.answerPrompt(.changeToAlways) }
  }
}

@Suite struct ProvisionalAlwaysTests {
  @Test func theSecondPromptComesWhenTheAppFirstUsesLocationInTheBackground() throws {
    let (phone, _, app) = makePhone(
      user: UserScript(
        answers: [.location: [.allowWhileUsing], .alwaysUpgrade: [.keepWhileUsing]],
        answerDelay: .seconds(1)),
      configure: {
        $0.requestAlwaysAuthorization()
        $0.allowsBackgroundLocationUpdates = true
        $0.pausesLocationUpdatesAutomatically = false
        $0.startUpdatingLocation()
      })
    try phone.launchApp()
    try phone.simulation.run(until: .seconds(5))
    #expect(app()!.manager.authorizationStatus == .authorizedAlways)
    #expect(phone.simulation.log.entries(source: "prompt", event: "shown").count == 1)
    phone.sendAppToBackground()
    try phone.simulation.run(until: .seconds(10))
    let prompts = phone.simulation.log.entries(source: "prompt", event: "shown")
    #expect(prompts.map { $0["kind"] } == [.string("location"), .string("alwaysUpgrade")])
    #expect(app()!.manager.authorizationStatus == .authorizedWhenInUse)
  }
}

@Suite struct BadSettingsTests {
  @Test func aNaNDesiredAccuracyFailsTheStartInsteadOfBeingIgnored() throws {
    let (phone, _, app) = makePhone(
      user: UserScript(answers: [.location: [.allowWhileUsing]], answerDelay: .zero),
      configure: {
        $0.requestWhenInUseAuthorization()
        $0.desiredAccuracy = .nan
        $0.startUpdatingLocation()
      })
    try phone.launchApp()
    try phone.simulation.run(until: .seconds(5))
    #expect(app()!.names.contains("error:locationUnknown"))
    #expect(app()!.fixes.isEmpty)
    let refused = phone.simulation.log.entries(source: "location", event: "startRefused")
    #expect(refused.first?["reason"] == .string("desiredAccuracy is not a number"))
  }
}
