import Cloud
import Device
import Foundation
import Geo
import JSON
import SimKernel
import Testing

@testable import Replay

/// The true entry into a circle is interpolated between samples.
@Suite struct TruthTests {
  let center = try! Coordinate(latitude: 35.0, longitude: 139.0)

  /// A straight north-bound track at 10 m/s from `startOffset` metres south of the centre.
  func track(fromMetresSouth start: Double, seconds: Int, eastOffset: Double = 0) throws
    -> [TrajectorySample]
  {
    let projection = LocalProjection(center: center)
    return try (0...seconds).map { t in
      TrajectorySample(
        time: .seconds(Double(t) * 10),
        coordinate: try projection.unproject(Position(x: eastOffset, y: -start + Double(t) * 100)))
    }
  }

  @Test func anEntryBetweenSamplesIsInterpolated() throws {
    // 1 km south, 100 m steps every 10 s: the 250 m circle is reached after 750 m, at 75 s.
    let samples = try track(fromMetresSouth: 1_000, seconds: 20)
    let entry = try #require(
      try Truth.firstEntry(into: .init(center: center, radius: 250), along: samples))
    #expect(abs(entry.time.seconds - 75) < 1e-6)
    #expect(abs(Geodesic.wgs84.inverse(from: center, to: entry.coordinate).distance - 250) < 0.01)
  }

  @Test func aChordThroughTheCircleBetweenTwoOutsideSamplesIsAnEntry() throws {
    // Samples 1 km apart straddle a 100 m circle: both ends are outside.
    let projection = LocalProjection(center: center)
    let samples = [
      TrajectorySample(
        time: .seconds(0), coordinate: try projection.unproject(Position(x: 0, y: -500))),
      TrajectorySample(
        time: .seconds(100), coordinate: try projection.unproject(Position(x: 0, y: 500))),
    ]
    let entry = try #require(
      try Truth.firstEntry(into: .init(center: center, radius: 100), along: samples))
    #expect(abs(entry.time.seconds - 40) < 1e-6)
  }

  @Test func startingInsideIsAnEntryAtTheStart() throws {
    let samples = try track(fromMetresSouth: 50, seconds: 3)
    let entry = try #require(
      try Truth.firstEntry(into: .init(center: center, radius: 100), along: samples))
    #expect(entry.time == .zero)
  }

  @Test func passingBesideTheCircleIsNoEntry() throws {
    let samples = try track(fromMetresSouth: 1_000, seconds: 20, eastOffset: 300)
    #expect(try Truth.firstEntry(into: .init(center: center, radius: 250), along: samples) == nil)
  }
}

/// Coordinates are found in whatever a request carries.
@Suite struct RequestCoordinateTests {
  func entry(_ summary: String, body: JSONValue? = nil) -> HTTPRequest {
    var request = HTTPRequest(summary: summary)
    request.body = body
    return request
  }

  @Test func queryParametersAndBodiesAreRead() throws {
    let weather = RequestCoordinates.extract(from: entry("GET /data/3.0/onecall?lat=0.0&lon=0.0"))
    #expect(weather == [try Coordinate(latitude: 0, longitude: 0)])
    let threeWords = RequestCoordinates.extract(
      from: entry("GET /v3/convert-to-3wa?coordinates=35.68%2C139.76&language=ja"))
    #expect(threeWords == [try Coordinate(latitude: 35.68, longitude: 139.76)])
    let ncmb = RequestCoordinates.extract(
      from: entry(
        "GET /classes/Station",
        body: try JSONValue(
          parsing: Data(
            #"{"where":{"geo":{"$nearSphere":{"__type":"GeoPoint","latitude":35.6,"longitude":139.7}}}}"#
              .utf8))))
    #expect(ncmb == [try Coordinate(latitude: 35.6, longitude: 139.7)])
  }
}
