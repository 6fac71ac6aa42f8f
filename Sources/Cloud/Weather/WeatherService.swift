import Foundation
import Geo
import JSON
import SimKernel

/// A small One-Call-like forecast service: `GET /data/3.0/onecall?lat=…&lon=…` returns the
/// current conditions and an hourly forecast for the next 48 hours.
///
/// The weather is made up but deterministic: it depends only on the position (rounded to a
/// 0.1° grid cell, as forecasts are gridded), the virtual hour and the seed, never on who asked
/// before. Temperatures follow a latitude climate (a 28 °C equator falling 0.5 °C per degree of
/// latitude [?]), a daily cycle peaking at 15:00 local solar time with a 4 °C amplitude [?], and
/// smooth seeded noise. Every request's coordinates are kept in ``requestedCoordinates`` and
/// logged, so a replay shows an app asking for the weather at latitude 0, longitude 0. Errors
/// follow OpenWeather's shape: `{"cod":"400","message":"wrong latitude"}`.
public final class WeatherService: SimulatedService {
  /// `"weather"`.
  public let serviceName = "weather"
  /// Every (latitude, longitude) pair asked for, in order, including invalid ones.
  public private(set) var requestedCoordinates: [(latitude: String, longitude: String)] = []

  private let simulation: Simulation
  private let seed: UInt64
  /// The server's own processing time: 30 ms [?].
  public var serviceTime = SimDuration.milliseconds(30)

  /// A service on `simulation`'s clock whose weather is fixed by `seed`.
  public init(simulation: Simulation, seed: UInt64) {
    self.simulation = simulation
    self.seed = seed
  }

  /// Answers a One-Call request.
  public func respond(to request: HTTPRequest) -> (response: HTTPResponse, serviceTime: SimDuration)
  {
    (answer(request), serviceTime)
  }

  private func error(_ status: Int, _ message: String) -> HTTPResponse {
    HTTPResponse(
      status: status,
      body: .object(["cod": .string(String(status)), "message": .string(message)]))
  }

  private func answer(_ request: HTTPRequest) -> HTTPResponse {
    guard request.method == "GET", request.path == "/data/3.0/onecall" else {
      return error(404, "Internal error: 404")
    }
    let latText = request.queryValue("lat")
    let lonText = request.queryValue("lon")
    requestedCoordinates.append((latText ?? "", lonText ?? ""))
    simulation.log.record(WeatherEvent.request(lat: latText, lon: lonText), at: simulation.now)
    guard let latText, let lonText else { return error(400, "Nothing to geocode") }
    guard let lat = Double(latText), lat.isFinite, (-90...90).contains(lat) else {
      return error(400, "wrong latitude")
    }
    guard let lon = Double(lonText), lon.isFinite, (-180...180).contains(lon) else {
      return error(400, "wrong longitude")
    }
    let units = request.queryValue("units") ?? "standard"
    guard ["standard", "metric", "imperial"].contains(units) else {
      return error(400, "units: \(units) is not a valid unit")
    }
    let now = simulation.date(of: simulation.now).timeIntervalSince1970
    let hour = (now / 3_600).rounded(.down) * 3_600
    let current = conditions(latitude: lat, longitude: lon, at: now, units: units)
    let hourly = (1...48).map { i in
      conditions(latitude: lat, longitude: lon, at: hour + Double(i) * 3_600, units: units)
    }
    return HTTPResponse(
      status: 200,
      body: .object([
        "lat": .number((lat * 10_000).rounded() / 10_000),
        "lon": .number((lon * 10_000).rounded() / 10_000),
        "timezone_offset": .number((lon / 15).rounded() * 3_600),
        "current": current, "hourly": .array(hourly),
      ]))
  }

  /// The conditions at a grid cell and instant, as a One-Call hourly entry.
  func conditions(latitude: Double, longitude: Double, at time: Double, units: String)
    -> JSONValue
  {
    let cellLat = (latitude * 10).rounded()
    let cellLon = (longitude * 10).rounded()
    let hourIndex = (time / 3_600).rounded(.down)
    let localSolarHour = (time / 3_600 + longitude / 15).truncatingRemainder(dividingBy: 24)
    let daily = 4 * cos((localSolarHour - 15) / 24 * 2 * Double.pi)
    let climate = 28 - 0.5 * abs(latitude)
    let noise = smoothNoise(cellLat, cellLon, hourIndex)
    let celsius = climate + daily + 3 * noise
    let humidity = min(100, max(5, 65 - 20 * noise))
    let cloud = min(100, max(0, 50 + 50 * smoothNoise(cellLat + 1_000, cellLon, hourIndex)))
    let temperature: Double
    switch units {
    case "metric": temperature = celsius
    case "imperial": temperature = celsius * 9 / 5 + 32
    default: temperature = celsius + 273.15
    }
    let condition: (id: Double, main: String) =
      cloud > 85 && humidity > 70 ? (500, "Rain") : cloud > 40 ? (803, "Clouds") : (800, "Clear")
    return .object([
      "dt": .number(hourIndex * 3_600),
      "temp": .number((temperature * 100).rounded() / 100),
      "humidity": .number(humidity.rounded()),
      "clouds": .number(cloud.rounded()),
      "weather": .array([.object(["id": .number(condition.id), "main": .string(condition.main)])]),
    ])
  }

  /// A value in [−1, 1] that changes smoothly from hour to hour: interpolated hashed values.
  private func smoothNoise(_ a: Double, _ b: Double, _ hour: Double) -> Double {
    let base = (hour / 6).rounded(.down)
    let t = hour / 6 - base
    let v0 = hashed(a, b, base)
    let v1 = hashed(a, b, base + 1)
    let s = t * t * (3 - 2 * t)
    return v0 + (v1 - v0) * s
  }

  private func hashed(_ a: Double, _ b: Double, _ c: Double) -> Double {
    var generator = SplitMix64(
      seed: seed ^ UInt64(bitPattern: Int64(a)) &* 0x9E37_79B9
        ^ UInt64(bitPattern: Int64(b)) &* 0x85EB_CA6B ^ UInt64(bitPattern: Int64(c)) &* 0xC2B2_AE35)
    return Double(generator.next() >> 11) * 0x1p-52 - 1
  }
}
