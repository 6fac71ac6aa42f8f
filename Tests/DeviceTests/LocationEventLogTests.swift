import Device
import Geo
import JSON
import SimKernel
import Testing

/// A fix a second is written to the log without building its fields: the bytes are those of
/// its fields, for every event of the location service.
@Suite struct LocationEventLogTests {
  static let fix = Location(
    coordinate: try! Coordinate(latitude: 35.681_236_123_456_78, longitude: 139.767_125_987_654_3),
    horizontalAccuracy: 8.263_613_015_537_427, timestamp: SimTime(nanoseconds: 5_250_000_001))

  @Test(arguments: [
    LocationEvent.managerCreated(manager: 1), .started(manager: 2),
    .startRefused(manager: 3, reason: "distanceFilter \"-2\""),
    .startRefused(manager: 3, reason: nil), .stopped(manager: 4), .requested(manager: 5),
    .requestFailed(manager: 6), .paused(manager: 7),
    .didUpdateLocations(manager: 8, location: fix),
    .didUpdateLocations(
      manager: -1,
      location: Location(
        coordinate: try! Coordinate(latitude: -33.5, longitude: -70),
        horizontalAccuracy: .infinity, timestamp: .zero)),
  ])
  func writtenFieldsAreTheFieldsAsTheLogWritesThem(_ event: LocationEvent) {
    var direct = JSONBuffer()
    event.writeFields(to: &direct)
    var generic = JSONBuffer()
    EventLog.writeFields(event.fields, to: &generic)
    let written = direct.bytes
    #expect(written == generic.bytes)
    #expect(!written.isEmpty)
  }

  @Test(arguments: [
    LocationEvent.managerCreated(manager: 1), .paused(manager: 7),
    .didUpdateLocations(manager: 8, location: fix),
  ])
  func theWrittenSourceAndNameAreThoseOfTheEvent(_ event: LocationEvent) {
    var direct = JSONBuffer()
    event.writeSourceAndName(to: &direct)
    var generic = JSONBuffer()
    EventLog.writeSourceAndName(LocationEvent.source, event.name, to: &generic)
    #expect(direct.bytes == generic.bytes)
    #expect(direct.bytes.starts(with: Array(#""source":"location","event":""#.utf8)))
  }

  @Test func aFixLineReadsAsItsFields() {
    let log = EventLog()
    log.record(
      LocationEvent.didUpdateLocations(manager: 1, location: Self.fix),
      at: SimTime(nanoseconds: 5_300_000_000))
    #expect(
      log.jsonLines
        == #"{"t":5.3,"ns":5300000000,"seq":0,"source":"location","event":"didUpdateLocations","fields":{"manager":1,"latitude":35.68123612345678,"longitude":139.7671259876543,"horizontalAccuracy":8.263613015537427,"timestamp":5250000001}}"#
        + "\n")
  }
}
