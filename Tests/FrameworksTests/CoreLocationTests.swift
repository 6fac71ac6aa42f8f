import Device
import Foundation
import Geo
import GeoSimFrameworks
import SimKernel
import Testing

@Suite("CoreLocation names over the simulated phone")
struct CoreLocationTests {
  // MARK: Errors

  @Test("CLError.Code has Apple's twenty cases with their raw values")
  func errorCodes() {
    let apple: [(CLError.Code, Int)] = [
      (.locationUnknown, 0), (.denied, 1), (.network, 2), (.headingFailure, 3),
      (.regionMonitoringDenied, 4), (.regionMonitoringFailure, 5),
      (.regionMonitoringSetupDelayed, 6), (.regionMonitoringResponseDelayed, 7),
      (.geocodeFoundNoResult, 8), (.geocodeFoundPartialResult, 9), (.geocodeCanceled, 10),
      (.deferredFailed, 11), (.deferredNotUpdatingLocation, 12), (.deferredAccuracyTooLow, 13),
      (.deferredDistanceFiltered, 14), (.deferredCanceled, 15), (.rangingUnavailable, 16),
      (.rangingFailure, 17), (.promptDeclined, 18), (.historicalLocationError, 19),
    ]
    #expect(CLError.Code.allCases.count == apple.count)
    for (code, raw) in apple {
      #expect(code.rawValue == raw, "\(code)")
      #expect(CLError.Code(rawValue: raw) == code)
    }
    #expect(CLError.Code(rawValue: 20) == nil)
    #expect("\(CLError.Code.regionMonitoringResponseDelayed)" == "regionMonitoringResponseDelayed")
  }

  @Test("a CLError matches its code in a pattern, by its code, and as an NSError")
  func errorMatching() {
    #expect(userMessage(for: CLError(.denied)) == "Location is off for this app.")
    #expect(userMessage(for: CLError(.geocodeFoundNoResult)) == "No address here.")
    #expect(userMessage(for: CLError(.network, reason: "offline")) == "No connection.")
    #expect(userMessage(for: CLError(.promptDeclined)) == "Precise location was not granted.")
    #expect(userMessage(for: CLError(.headingFailure)) == "Something went wrong.")
    let error = CLError(.regionMonitoringFailure, reason: "radius too large") as NSError
    #expect(error.domain == "kCLErrorDomain")
    #expect(error.code == 5)
    #expect(error.localizedDescription == "radius too large")
    // The static members are the codes, so `CLError.denied` and `.denied` agree.
    #expect(CLError.promptDeclined == CLError.Code.promptDeclined)
    #expect(CLError.historicalLocationError.rawValue == 19)
  }
}

@Suite("CLGeocoder over the phone's geocoder")
struct GeocoderTests {
  /// A launched world whose app is an ``AddressLookup`` over the Tokyo Station gazetteer.
  static func world(
    _ parameters: GeocodingParameters = GeocodingParameters()
  ) throws -> (TestWorld, AddressLookup) {
    var lookup: AddressLookup?
    let world = TestWorld {
      let made = AddressLookup()
      lookup = made
      return made
    }
    world.phone.geocodingService = GeocodingService(
      gazetteer: try tokyoStationGazetteer(world.phone), parameters: parameters)
    try world.launchAndRun(until: 0)
    return (world, try #require(lookup))
  }

  static let marunouchi = CLLocation(latitude: 35.68, longitude: 139.76)

  @Test("a reverse geocode answers on the main thread after the server's latency, not in the call")
  func reverseGeocode() throws {
    let (world, lookup) = try Self.world()
    world.inApp { lookup.describe(Self.marunouchi) }
    #expect(lookup.notes == ["asked, geocoding true"])
    try world.run(until: 1)
    #expect(lookup.notes == ["asked, geocoding true", "found 1: 丸の内１丁目 (東京都千代田区丸の内１丁目)"])
    let placemark = try #require(lookup.placemarks.first)
    #expect(placemark.subLocality == "丸の内" && placemark.postalCode == "100-0005")
    #expect(placemark.country == "日本" && placemark.isoCountryCode == "JP")
    #expect(placemark.subThoroughfare == nil && placemark.subAdministrativeArea == nil)
    #expect(placemark.timeZone == nil && placemark.ocean == nil && placemark.region == nil)
    let location = try #require(placemark.location)
    #expect(location.coordinate == CLLocationCoordinate2D(latitude: 35.68, longitude: 139.76))
    // Answered 0.3 s into the world, in the world's calendar.
    #expect(location.timestamp == Date(timeIntervalSince1970: 1_775_001_600.3))
    #expect(world.events("geocoder") == ["request", "reply"])
    #expect(!lookup.geocoder.isGeocoding)
    #expect(CLPlacemark(placemark: placemark) == placemark)
  }

  @Test("the async reverse geocode returns the placemarks; its wait is pending work until then")
  func reverseGeocodeAsync() throws {
    let (world, lookup) = try Self.world()
    world.inApp { lookup.describeAsync(Self.marunouchi) }
    try world.run(until: 0.1)
    let waits = world.phone.runLoop.pendingWork.filter { $0.kind == .waiting }
    #expect(waits.count == 1)
    #expect(
      waits.first?.label.hasPrefix(
        "CLGeocoder.reverseGeocodeLocation(_:) at FrameworksTests/AddressLookup.swift:") == true)
    try world.run(until: 1)
    #expect(lookup.notes == ["found 1: 丸の内１丁目 (東京都千代田区丸の内１丁目)"])
    #expect(world.phone.runLoop.pendingWork.isEmpty)
  }

  @Test("forward geocoding finds named places with both forms; nothing found throws the code")
  func forwardGeocode() throws {
    let (world, lookup) = try Self.world()
    world.inApp { lookup.find("東京駅") }
    try world.run(until: 1)
    world.inApp { lookup.findAsync("東京駅") }
    try world.run(until: 2)
    world.inApp { lookup.findAsync("大阪") }
    try world.run(until: 3)
    world.inApp { lookup.find("大阪") }
    try world.run(until: 4)
    #expect(
      lookup.notes == [
        "found 1: 東京駅 (千代田区)", "found 1: 東京駅 (千代田区)", "nothing found", "error 8",
      ])
    let station = try #require(lookup.placemarks.first?.location?.coordinate)
    #expect(station == CLLocationCoordinate2D(latitude: 35.681236, longitude: 139.767125))
  }

  @Test("cancelGeocode runs the handler with geocodeCanceled later, never inside the call")
  func cancel() throws {
    let (world, lookup) = try Self.world()
    world.inApp {
      lookup.describe(Self.marunouchi)
      lookup.cancel()
    }
    #expect(lookup.notes == ["asked, geocoding true", "cancelled"])
    #expect(!lookup.geocoder.isGeocoding)
    try world.run(until: 1)
    #expect(lookup.notes == ["asked, geocoding true", "cancelled", "error 10"])
    // Cancelling with nothing pending does nothing.
    world.inApp { lookup.cancel() }
    try world.run(until: 2)
    #expect(lookup.notes.last == "cancelled")
  }

  @Test("a second request while one is pending cancels the first [?]")
  func secondRequestCancelsTheFirst() throws {
    let (world, lookup) = try Self.world()
    world.inApp {
      lookup.describe(Self.marunouchi)
      lookup.find("東京駅")
    }
    try world.run(until: 1)
    #expect(lookup.notes == ["asked, geocoding true", "error 10", "found 1: 東京駅 (千代田区)"])
  }

  @Test("requests over the rate limit fail with CLError.network, as in Airplane mode")
  func rateLimitAndAirplaneMode() throws {
    var parameters = GeocodingParameters()
    parameters.maximumRequestsPerWindow = 2
    let (world, lookup) = try Self.world(parameters)
    for second in 0..<3 {
      world.inApp { lookup.describe(Self.marunouchi) }
      try world.run(until: Double(second) + 1)
    }
    #expect(
      lookup.notes.filter { !$0.hasPrefix("asked") }.map { $0.prefix(5) } == [
        "found", "found", "error",
      ])
    #expect(lookup.notes.last == "error 2")
    try world.run(until: 120)
    world.phone.setAirplaneMode(true)
    world.inApp { lookup.describe(Self.marunouchi) }
    try world.run(until: 121)
    #expect(lookup.notes.last == "error 2")
  }

  @Test("open sea and an invalid coordinate give geocodeFoundNoResult, logged")
  func noResult() throws {
    let (world, lookup) = try Self.world()
    world.inApp { lookup.describe(CLLocation(latitude: 35.5, longitude: 139.9)) }
    try world.run(until: 1)
    world.inApp { lookup.describe(CLLocation(latitude: 200, longitude: 0)) }
    #expect(lookup.notes.last == "asked, geocoding false")
    try world.run(until: 2)
    #expect(lookup.notes.filter { !$0.hasPrefix("asked") } == ["error 8", "error 8"])
    #expect(world.events("geocoder") == ["request", "failure", "failure"])
    guard
      case .failure("reverse", .geocodeFoundNoResult, let reason)? =
        world.simulation.log.events(GeocoderEvent.self).last?.event
    else {
      Issue.record("no failure logged for the invalid coordinate")
      return
    }
    #expect(reason == "(200.0, 0.0) is not a valid coordinate")
  }
}

@Suite("CLLocationManager's authorization callbacks and temporary full accuracy")
struct AuthorizationCallbackTests {
  static let info = InfoPlist(locationTemporaryUsageDescriptionDictionary: [
    "directions": "Turn-by-turn directions need your precise location."
  ])

  /// A launched world running ``PreciseDirections`` whose user allows While Using, with
  /// Precise Location off unless `precise`.
  static func world(
    key: String = "directions", precise: Bool = false, answers: [PromptAnswer] = []
  ) throws -> (TestWorld, PreciseDirections) {
    var feature: PreciseDirections?
    let world = TestWorld(
      user: UserScript(answers: [.location: [.allowWhileUsing], .temporaryFullAccuracy: answers]),
      infoPlist: info
    ) {
      let made = PreciseDirections(purposeKey: key)
      feature = made
      return made
    }
    world.phone.setPreciseLocation(precise)
    try world.launchAndRun(until: 0)
    let made = try #require(feature)
    world.inApp { made.start() }
    try world.run(until: 5)
    return (world, made)
  }

  @Test("the delegate hears the authorization after the manager is created, not inside init")
  func toldAfterCreation() throws {
    var feature: PreciseDirections?
    let world = TestWorld {
      let made = PreciseDirections(purposeKey: "directions")
      feature = made
      // Nothing has been told yet when the app's own init returns.
      #expect(made.notes == ["created"])
      return made
    }
    try world.launchAndRun(until: 1)
    #expect(
      feature?.notes == [
        "created", "authorization notDetermined fullAccuracy", "status notDetermined",
      ])
  }

  @Test("the deprecated callback hears status changes, but not a change of accuracy alone")
  func deprecatedCallback() throws {
    let (world, feature) = try Self.world(precise: true)
    #expect(
      feature.notes == [
        "created", "authorization notDetermined fullAccuracy", "status notDetermined",
        "authorization authorizedWhenInUse fullAccuracy", "status authorizedWhenInUse",
      ])
    world.phone.setPreciseLocation(false)
    try world.run(until: 6)
    #expect(feature.notes.suffix(1) == ["authorization authorizedWhenInUse reducedAccuracy"])
  }

  @Test("approximate location: the user allows once, the app gets full accuracy for the session")
  func temporaryFullAccuracyGranted() throws {
    let (world, feature) = try Self.world(answers: [.allow])
    let before = feature.notes.count
    world.inApp { feature.askForPrecision() }
    #expect(feature.notes.last == "asking")
    try world.run(until: 10)
    #expect(
      Array(feature.notes.dropFirst(before)) == [
        "asking", "authorization authorizedWhenInUse fullAccuracy",
        "answered, now fullAccuracy",
      ])
    #expect(world.events("authorization").contains("temporaryFullAccuracy"))
    // It ends with the session: suspended in the background, the app hears reduced accuracy
    // when it runs again.
    world.phone.sendAppToBackground()
    try world.run(until: 30)
    world.phone.bringAppToForeground()
    try world.run(until: 31)
    #expect(feature.notes.last == "authorization authorizedWhenInUse reducedAccuracy")
  }

  @Test("the async form returns after the answer; its wait is pending work until then")
  func temporaryFullAccuracyAsync() throws {
    let (world, feature) = try Self.world(answers: [.dontAllow])
    world.inApp { feature.askForPrecisionAsync() }
    try world.run(until: 6)
    let waits = world.phone.runLoop.pendingWork.filter { $0.kind == .waiting }
    #expect(
      waits.map(\.label).first?.hasPrefix(
        "CLLocationManager.requestTemporaryFullAccuracyAuthorization(withPurposeKey:) at "
          + "FrameworksTests/PreciseDirections.swift:") == true)
    try world.run(until: 10)
    #expect(feature.notes.last == "answered, now reducedAccuracy")
    #expect(world.phone.runLoop.pendingWork.isEmpty)
  }

  @Test("with full accuracy already the request completes at once, without a prompt")
  func alreadyFullAccuracy() throws {
    let (world, feature) = try Self.world(precise: true)
    world.inApp { feature.askForPrecision() }
    #expect(feature.notes.last == "asking")
    try world.run(until: 5)
    #expect(feature.notes.last == "answered, now fullAccuracy")
    #expect(world.simulation.log.entries(source: "prompt", event: "shown").count == 1)
  }

  @Test("a purpose key the Info.plist does not declare fails with CLError.promptDeclined")
  func unknownPurposeKey() throws {
    let (world, feature) = try Self.world(key: "coffee", answers: [.allow])
    world.inApp {
      feature.askForPrecision()
      feature.askForPrecisionAsync()
    }
    try world.run(until: 10)
    #expect(
      feature.notes.suffix(2) == ["not asked: Precise location was not granted.", "not asked"])
    #expect(world.phone.runLoop.pendingWork.isEmpty)
  }
}
