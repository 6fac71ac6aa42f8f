import Cloud
import JSON
import SimKernel
import Testing

/// A service that echoes the path after a fixed service time.
private final class Echo: SimulatedService {
  let serviceName = "echo"
  var serviceTime = SimDuration.milliseconds(50)
  func respond(to request: HTTPRequest) -> (response: HTTPResponse, serviceTime: SimDuration) {
    (HTTPResponse(status: 200, body: .string(request.path)), serviceTime)
  }
}

private func fixedLatency(_ milliseconds: Int64) -> LinkProfile {
  var profile = LinkProfile()
  profile.latencyMedian = .milliseconds(milliseconds)
  profile.latencySigma = 0
  return profile
}

@Suite struct NetworkTests {
  @Test func aResponseArrivesAfterTheRoundTripAndTheServiceTimeAndIsLogged() throws {
    let simulation = Simulation(seed: 1)
    let network = SimulatedNetwork(simulation: simulation)
    try network.register(Echo(), profile: fixedLatency(100))
    var arrived: (SimTime, Result<HTTPResponse, NetworkFailure>)?
    try network.send(HTTPRequest(path: "/a"), to: "echo") { arrived = (simulation.now, $0) }
    try simulation.run()
    #expect(arrived?.0 == .seconds(0.15))
    #expect(try arrived?.1.get() == HTTPResponse(status: 200, body: .string("/a")))
    let response = try #require(simulation.log.entries(source: "network", event: "response").first)
    #expect(response["networkSeconds"] == .double(0.1))
    #expect(response["serviceSeconds"] == .double(0.05))
    #expect(response["status"] == .int(200))
  }

  @Test func offlineRequestsFailAtOnceWithNotConnected() throws {
    let simulation = Simulation(seed: 1)
    let network = SimulatedNetwork(simulation: simulation)
    try network.register(Echo())
    network.setOffline(true)
    var result: Result<HTTPResponse, NetworkFailure>?
    try network.send(HTTPRequest(path: "/a"), to: "echo") { result = $0 }
    #expect(result == nil)
    try simulation.run()
    #expect(result == .failure(.notConnectedToInternet))
    #expect(simulation.now == .zero)
  }

  @Test func aSlowServiceTimesOutAtTheTimeout() throws {
    let simulation = Simulation(seed: 1)
    let network = SimulatedNetwork(simulation: simulation)
    let slow = Echo()
    slow.serviceTime = .seconds(90)
    try network.register(slow, profile: fixedLatency(100))
    var arrived: (SimTime, Result<HTTPResponse, NetworkFailure>)?
    try network.send(HTTPRequest(path: "/a"), to: "echo") { arrived = (simulation.now, $0) }
    try simulation.run()
    #expect(arrived?.0 == .seconds(60))
    #expect(arrived?.1 == .failure(.timedOut))
  }

  @Test func injectedFailuresAreServiceUnavailable() throws {
    let simulation = Simulation(seed: 1)
    let network = SimulatedNetwork(simulation: simulation)
    var profile = fixedLatency(10)
    profile.failureRate = 1
    try network.register(Echo(), profile: profile)
    var status: Int?
    try network.send(HTTPRequest(path: "/a"), to: "echo") { status = try? $0.get().status }
    try simulation.run()
    #expect(status == 503)
  }

  @Test func requestsBeyondTheConcurrencyLimitWaitInOrder() throws {
    let simulation = Simulation(seed: 1)
    let network = SimulatedNetwork(simulation: simulation)
    try network.register(Echo(), profile: fixedLatency(100))
    var arrivals: [(String, SimTime)] = []
    for i in 0..<5 {
      try network.send(HTTPRequest(path: "/\(i)"), to: "echo") {
        if case .success(let r) = $0, case .string(let path) = r.body {
          arrivals.append((path, simulation.now))
        }
      }
    }
    try simulation.run()
    #expect(arrivals.map(\.0) == ["/0", "/1", "/2", "/3", "/4"])
    #expect(arrivals.map(\.1) == [0.15, 0.15, 0.15, 0.15, 0.3].map { SimTime.seconds($0) })
  }

  @Test func theSameSeedGivesTheSameLatencies() throws {
    func latencies(seed: UInt64) throws -> [LogValue?] {
      let simulation = Simulation(seed: seed)
      let network = SimulatedNetwork(simulation: simulation)
      try network.register(Echo())
      for i in 0..<10 { try network.send(HTTPRequest(path: "/\(i)"), to: "echo") { _ in } }
      try simulation.run()
      return simulation.log.entries(source: "network", event: "response").map {
        $0["networkSeconds"]
      }
    }
    #expect(try latencies(seed: 3) == latencies(seed: 3))
    #expect(try latencies(seed: 3) != latencies(seed: 4))
  }

  @Test func badProfilesAndUnknownServicesAreErrors() throws {
    let network = SimulatedNetwork(simulation: Simulation(seed: 1))
    var profile = LinkProfile()
    profile.failureRate = 2
    #expect(throws: CloudError.self) { try network.register(Echo(), profile: profile) }
    #expect(throws: CloudError.self) {
      try network.send(HTTPRequest(path: "/"), to: "nowhere") { _ in }
    }
  }
}

@Suite struct WeatherServiceTests {
  func request(_ lat: String, _ lon: String, units: String = "metric") -> HTTPRequest {
    HTTPRequest(
      path: "/data/3.0/onecall", query: [("lat", lat), ("lon", lon), ("units", units)])
  }

  @Test func theForecastIsDeterministicAndHourly() throws {
    let a = WeatherService(simulation: Simulation(seed: 1), seed: 9)
    let b = WeatherService(simulation: Simulation(seed: 2), seed: 9)
    let first = a.respond(to: request("35.68", "139.77")).response
    #expect(first == b.respond(to: request("35.68", "139.77")).response)
    #expect(first.status == 200)
    guard case .object(let body) = first.body, case .array(let hourly) = body["hourly"] else {
      Issue.record("no hourly forecast")
      return
    }
    #expect(hourly.count == 48)
    let other = WeatherService(simulation: Simulation(seed: 1), seed: 10)
    #expect(other.respond(to: request("35.68", "139.77")).response != first)
  }

  @Test func everyRequestedPositionIsRecordedEvenNullIsland() throws {
    let simulation = Simulation(seed: 1)
    let weather = WeatherService(simulation: simulation, seed: 1)
    _ = weather.respond(to: request("0.0", "0.0"))
    #expect(weather.requestedCoordinates.map(\.latitude) == ["0.0"])
    #expect(
      simulation.log.entries(source: "weather", event: "request").first?["lat"] == .string("0.0"))
  }

  @Test(arguments: [
    ("91", "0", "wrong latitude"), ("x", "0", "wrong latitude"), ("0", "181", "wrong longitude"),
  ])
  func outOfRangeCoordinatesGetOpenWeathersError(lat: String, lon: String, message: String) {
    let weather = WeatherService(simulation: Simulation(seed: 1), seed: 1)
    let response = weather.respond(to: request(lat, lon)).response
    #expect(response.status == 400)
    #expect(response.body == .object(["cod": .string("400"), "message": .string(message)]))
  }

  @Test func throughTheNetworkTheAppSeesLatency() throws {
    let simulation = Simulation(seed: 1)
    let network = SimulatedNetwork(simulation: simulation)
    try network.register(WeatherService(simulation: simulation, seed: 1))
    var status: Int?
    try network.send(request("35", "139"), to: "weather") { status = try? $0.get().status }
    try simulation.run()
    #expect(status == 200)
    #expect(simulation.now > .zero)
  }
}

/// A logged request reads back into the request it summarises.
@Test func aRequestReadsBackFromItsSummary() {
  let request = HTTPRequest(
    path: "/v3/autosuggest", query: [("input", "a&b"), ("focus", "35.6,139.7"), ("key", "k")])
  let back = HTTPRequest(summary: request.summary)
  #expect(back == request)
  #expect(
    HTTPRequest(summary: "POST /classes/Station")
      == HTTPRequest(method: "POST", path: "/classes/Station"))
}
