import Device
import Foundation
import Geo
import SimKernel
import Testing

@Suite struct GeocoderTests {
  let phone = Phone(simulation: Simulation(seed: 1), geos: GEOSContext(), sensor: nil)

  /// An app with nothing to do: replies go to a running app.
  final class IdleApp: SimulatedApp {
    func didLaunch(on phone: Phone, reason: LaunchReason) {}
  }

  func geocoder(_ parameters: GeocodingParameters = GeocodingParameters()) throws -> Geocoder {
    if phone.appState == .notRunning {
      phone.install { IdleApp() }
      try phone.launchApp()
    }
    let gazetteer = try Gazetteer(geoJSON: Data(nestedGazetteerJSON.utf8), context: phone.geos)
    return Geocoder(
      phone: phone, service: GeocodingService(gazetteer: gazetteer, parameters: parameters))
  }

  func fix(_ latitude: Double, _ longitude: Double) throws -> Location {
    Location(
      coordinate: try Coordinate(latitude: latitude, longitude: longitude), horizontalAccuracy: 5,
      timestamp: .zero)
  }

  final class Replies {
    var items: [(time: SimTime, names: [String?]?, error: GeocodeErrorCode?)] = []
  }

  func record(_ replies: Replies) -> ([Placemark]?, GeocodeError?) -> Void {
    { [phone] placemarks, error in
      replies.items.append((phone.simulation.now, placemarks?.map(\.name), error?.code))
    }
  }

  @Test func aReverseGeocodeRepliesAsynchronouslyAfterTheLatency() throws {
    let geocoder = try geocoder()
    let replies = Replies()
    geocoder.reverseGeocodeLocation(try fix(35.68, 139.76), completionHandler: record(replies))
    #expect(replies.items.isEmpty && geocoder.isGeocoding)
    try phone.simulation.run()
    #expect(replies.items.count == 1)
    #expect(replies.items[0].time == .seconds(0.3))
    #expect(replies.items[0].names! == ["丸の内１丁目"])
    #expect(!geocoder.isGeocoding)
  }

  @Test func aSuspendedAppHearsTheReplyWhenItRunsAgain() throws {
    let geocoder = try geocoder()
    let replies = Replies()
    geocoder.reverseGeocodeLocation(try fix(35.68, 139.76), completionHandler: record(replies))
    phone.sendAppToBackground()
    try phone.simulation.run(until: .seconds(30))
    #expect(phone.appState == .suspended)
    // The reply came at 0.3 s, while the app still ran in its grace period.
    #expect(replies.items.count == 1)
    geocoder.reverseGeocodeLocation(try fix(35.68, 139.77), completionHandler: record(replies))
    try phone.simulation.run(until: .seconds(60))
    #expect(replies.items.count == 1)
    phone.bringAppToForeground()
    try phone.simulation.run(until: .seconds(61))
    #expect(replies.items.map(\.time) == [.seconds(0.3), .seconds(60)])
  }

  @Test func openSeaGivesNoResult() throws {
    let geocoder = try geocoder()
    let replies = Replies()
    geocoder.reverseGeocodeLocation(try fix(35.5, 139.9), completionHandler: record(replies))
    try phone.simulation.run()
    #expect(replies.items.map(\.error) == [.geocodeFoundNoResult])
  }

  @Test func aSecondRequestInFlightCancelsTheFirst() throws {
    let geocoder = try geocoder()
    let replies = Replies()
    geocoder.reverseGeocodeLocation(try fix(35.68, 139.76), completionHandler: record(replies))
    try phone.simulation.run(until: .seconds(0.1))
    geocoder.reverseGeocodeLocation(try fix(35.68, 139.77), completionHandler: record(replies))
    try phone.simulation.run()
    #expect(replies.items.map(\.error) == [.geocodeCanceled, nil])
    #expect(replies.items.map(\.time) == [.seconds(0.1), .seconds(0.4)])
    #expect(replies.items[1].names! == ["丸の内２丁目"])
  }

  @Test func geocodingTooOftenIsThrottledWithANetworkError() throws {
    let geocoder = try geocoder()
    let replies = Replies()
    for i in 0..<51 {
      try phone.simulation.run(until: .seconds(Double(i)))
      geocoder.reverseGeocodeLocation(try fix(35.68, 139.76), completionHandler: record(replies))
    }
    try phone.simulation.run()
    #expect(replies.items.prefix(50).allSatisfy { $0.error == nil })
    #expect(replies.items.last?.error == .network, "the 51st request within 60 s")
    // Once the window has moved on, requests succeed again.
    try phone.simulation.run(until: .seconds(200))
    geocoder.reverseGeocodeLocation(try fix(35.68, 139.76), completionHandler: record(replies))
    try phone.simulation.run()
    #expect(replies.items.last?.error == nil)
  }

  @Test func airplaneModeFailsWithANetworkError() throws {
    let geocoder = try geocoder()
    let replies = Replies()
    phone.setAirplaneMode(true)
    geocoder.reverseGeocodeLocation(try fix(35.68, 139.76), completionHandler: record(replies))
    try phone.simulation.run()
    #expect(replies.items.map(\.error) == [.network])
  }

  @Test func forwardGeocodingFindsNamedPlaces() throws {
    let geocoder = try geocoder()
    let replies = Replies()
    geocoder.geocodeAddressString("東京駅", completionHandler: record(replies))
    try phone.simulation.run()
    #expect(replies.items.first?.names! == ["東京駅"])
  }

  @Test func aRefusedReverseGeocodeCancelsTheRequestInFlightAndAnswersNoResultAsynchronously()
    throws
  {
    let geocoder = try geocoder()
    let replies = Replies()
    geocoder.reverseGeocodeLocation(try fix(35.68, 139.76), completionHandler: record(replies))
    geocoder.refuseReverseGeocode("not a coordinate", completionHandler: record(replies))
    // The cancelled request hears at once, as before; the refusal not inside the call.
    #expect(replies.items.map(\.error) == [.geocodeCanceled])
    #expect(!geocoder.isGeocoding)
    try phone.simulation.run()
    #expect(replies.items.map(\.error) == [.geocodeCanceled, .geocodeFoundNoResult])
    #expect(replies.items.map(\.time) == [.zero, .zero])
    let logged = phone.simulation.log.events(GeocoderEvent.self).map(\.event)
    #expect(
      logged.last
        == .failure(kind: "reverse", code: .geocodeFoundNoResult, reason: "not a coordinate"))
  }

  @Test func thePhoneHasOneGeocodingServiceCentralTokyoUntilOneIsSet() throws {
    let first = phone.geocodingService
    #expect(first === phone.geocodingService)
    #expect(first.gazetteer.areaCount == 24)
    let own = GeocodingService(
      gazetteer: try Gazetteer(geoJSON: Data(nestedGazetteerJSON.utf8), context: phone.geos))
    phone.geocodingService = own
    #expect(phone.geocodingService === own)
  }
}
