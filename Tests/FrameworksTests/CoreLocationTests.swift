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

  @Test("a UIKit app declares its purpose keys in its host's Info.plist; without them, declined")
  func purposeKeysOfAUIKitApp() throws {
    func answer(declaring info: InfoPlist) throws -> String? {
      let world = TestWorld(
        user: UserScript(answers: [.location: [.allowWhileUsing], .temporaryFullAccuracy: [.allow]]
        ),
        infoPlist: info, delegate: { PreciseAppDelegate() })
      world.phone.setPreciseLocation(false)
      try world.launchAndRun(until: 5)
      world.onMainActor {
        (world.applicationHost?.delegate as? PreciseAppDelegate)?.directions?.askForPrecision()
      }
      try world.run(until: 10)
      return world.onMainActor {
        (world.applicationHost?.delegate as? PreciseAppDelegate)?.directions?.notes.last
      }
    }
    #expect(try answer(declaring: Self.info) == "answered, now fullAccuracy")
    #expect(try answer(declaring: InfoPlist())?.hasPrefix("not asked: ") == true)
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

@Suite("CLLocationManager's fixes, cache and regions")
struct LocationManagerTests {
  /// A launched world running a ``LocationProbe`` (the latest, after relaunches) whose user
  /// allows While Using; the phone stays at 35.68° N 139.76° E.
  static func world() throws -> (TestWorld, () -> LocationProbe?) {
    var probe: LocationProbe?
    let world = TestWorld(user: UserScript(answers: [.location: [.allowWhileUsing]])) {
      let made = LocationProbe()
      probe = made
      return made
    }
    try world.launchAndRun(until: 0)
    world.inApp { probe?.start() }
    try world.run(until: 5)
    return (world, { probe })
  }

  @Test("requestLocation() delivers one fix and stops; the fix is then the cached location")
  func requestLocationOnce() throws {
    let (world, probe) = try Self.world()
    let probeNow = try #require(probe())
    #expect(probeNow.manager.location == nil)
    world.inApp { probeNow.manager.requestLocation() }
    try world.run(until: 120)
    #expect(probeNow.fixes.count == 1)
    #expect(world.events("location").filter { $0 == "didUpdateLocations" }.count == 1)
    let fix = try #require(probeNow.fixes.first)
    #expect(fix.coordinate == CLLocationCoordinate2D(latitude: 35.68, longitude: 139.76))
    // The timestamp is the fix's instant in the world's calendar (2026-04-01T00:00:00Z + t).
    let delivered = try #require(
      world.simulation.log.entries(source: "location", event: "didUpdateLocations").first)
    #expect(
      fix.timestamp == Date(timeIntervalSince1970: 1_775_001_600 + delivered.time.seconds))
    // The cache: the same fix, for this manager and for a new one.
    #expect(probeNow.manager.location?.coordinate == fix.coordinate)
    #expect(probeNow.manager.location?.timestamp == fix.timestamp)
    let other = world.inApp { CLLocationManager() }
    #expect(other.location?.timestamp == fix.timestamp)
    // A location the app makes is timestamped now, in the world's calendar.
    let made = world.inApp { CLLocation(latitude: 0, longitude: 0) }
    #expect(made.timestamp == Date(timeIntervalSince1970: 1_775_001_600 + 120))
  }

  @Test("a radius over maximumRegionMonitoringDistance fails with regionMonitoringFailure, logged")
  func radiusTooLarge() throws {
    let (world, probe) = try Self.world()
    let probeNow = try #require(probe())
    let tooLarge = probeNow.manager.maximumRegionMonitoringDistance + 1
    world.inApp {
      probeNow.monitor(
        CLLocationCoordinate2D(latitude: 35.68, longitude: 139.76), radius: tooLarge, "county")
    }
    #expect(probeNow.failures.isEmpty, "not inside the call")
    try world.run(until: 6)
    #expect(probeNow.failures.map(\.region) == ["county"])
    #expect(probeNow.failures.map(\.code) == [CLError.Code.regionMonitoringFailure.rawValue])
    #expect(world.events("region") == ["monitoringDidFail"])
    #expect(probeNow.manager.monitoredRegions.isEmpty)
  }

  @Test("an invalid centre fails with regionMonitoringFailure, logged")
  func invalidCentre() throws {
    let (world, probe) = try Self.world()
    let probeNow = try #require(probe())
    world.inApp { probeNow.monitor(kCLLocationCoordinate2DInvalid, radius: 100, "nowhere") }
    #expect(probeNow.failures.isEmpty, "not inside the call")
    try world.run(until: 6)
    #expect(probeNow.failures.map(\.region) == ["nowhere"])
    #expect(probeNow.failures.map(\.code) == [5])
    let logged = world.simulation.log.events(RegionEvent.self).map(\.event)
    guard case .monitoringDidFail("nowhere", _)? = logged.last else {
      Issue.record("no monitoringDidFail logged: \(logged)")
      return
    }
  }

  @Test("monitored regions survive a relaunch, seen by the new process's manager")
  func monitoredRegionsAfterRelaunch() throws {
    let (world, probe) = try Self.world()
    let center = CLLocationCoordinate2D(latitude: 35.69, longitude: 139.70)
    world.inApp { probe()?.monitor(center, radius: 150, "shinjuku") }
    try world.run(until: 6)
    let first = try #require(probe())
    world.inApp {
      world.phone.terminateApp()
      try? world.phone.launchApp()
    }
    let second = try #require(probe())
    #expect(first !== second)
    let regions = second.manager.monitoredRegions
    #expect(regions.count == 1)
    let region = try #require(regions.first as? CLCircularRegion)
    #expect(region.identifier == "shinjuku" && region.center == center && region.radius == 150)
    #expect(regions.contains(CLCircularRegion(center: center, radius: 150, identifier: "shinjuku")))
  }

  @Test("class methods answer for the running app's phone")
  func classMethods() throws {
    let (world, _) = try Self.world()
    world.inApp {
      #expect(CLLocationManager.authorizationStatus() == .authorizedWhenInUse)
      #expect(CLLocationManager.locationServicesEnabled())
      #expect(CLLocationManager.isMonitoringAvailable(for: CLCircularRegion.self))
      #expect(!CLLocationManager.isMonitoringAvailable(for: CLRegion.self))
    }
    world.phone.setLocationServices(false)
    world.inApp {
      #expect(!CLLocationManager.locationServicesEnabled())
      #expect(CLLocationManager.authorizationStatus() == .denied)
    }
  }

  @Test("outside a world there is no current phone; the stop says how to run the code in one")
  func outsideAWorld() {
    // CLLocationManager() here would stop the process, which a test cannot watch in-process.
    #expect(Phone.current == nil)
    let message = Phone.outsideWorldMessage(doing: "CLLocationManager()")
    #expect(message.hasPrefix("CLLocationManager() was used outside a GeoSim world."))
    #expect(message.contains("phone.makeCurrent(during:)"))
    #expect(message.contains("geosim replay"))
  }
}

@Suite("CoreLocation's value types")
struct CoreLocationValueTests {
  @Test("CLLocationCoordinate2DIsValid: latitude within ±90, longitude within ±180")
  func coordinateValidity() {
    #expect(
      CLLocationCoordinate2DIsValid(CLLocationCoordinate2D(latitude: 35.68, longitude: 139.76)))
    #expect(CLLocationCoordinate2DIsValid(CLLocationCoordinate2D(latitude: -90, longitude: 180)))
    #expect(!CLLocationCoordinate2DIsValid(kCLLocationCoordinate2DInvalid))
    #expect(!CLLocationCoordinate2DIsValid(CLLocationCoordinate2D(latitude: 90.5, longitude: 0)))
    #expect(!CLLocationCoordinate2DIsValid(CLLocationCoordinate2D(latitude: 0, longitude: -181)))
    #expect(!CLLocationCoordinate2DIsValid(CLLocationCoordinate2D(latitude: .nan, longitude: 0)))
    #expect(CLLocationCoordinate2DMake(1, 2) == CLLocationCoordinate2D(latitude: 1, longitude: 2))
  }

  @Test("distance(from:) is the WGS 84 geodesic: JFK to LHR, GeographicLib's worked example")
  func geodesicDistance() {
    // GeographicLib's documentation: Inverse(40.6, -73.8, 51.6, -0.5) gives 5551759.400319 m.
    let jfk = CLLocation(latitude: 40.6, longitude: -73.8)
    let lhr = CLLocation(latitude: 51.6, longitude: -0.5)
    #expect(abs(jfk.distance(from: lhr) - 5_551_759.400_319) < 0.001)
    #expect(lhr.distance(from: jfk) == jfk.distance(from: lhr))
    #expect(jfk.distance(from: jfk) == 0)
    let invalid = CLLocation(latitude: -180, longitude: -180)
    #expect(jfk.distance(from: invalid).isNaN)
  }

  @Test("a location made outside a world is timestamped at the Unix epoch")
  func timestampOutsideAWorld() {
    #expect(CLLocation(latitude: 1, longitude: 2).timestamp == Date(timeIntervalSince1970: 0))
  }
}
