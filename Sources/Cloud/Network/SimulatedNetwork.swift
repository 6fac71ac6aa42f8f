import JSON
import SimKernel

/// The phone's connection to the simulated cloud, on the kernel's clock.
///
/// Each service has its own ``LinkProfile``. A request leaves when a slot on its link is free,
/// takes half its round trip to reach the service, is answered after the service's own time
/// (or replaced by a 503 at the profile's failure rate), and takes the other half to come back;
/// past the timeout the client gets ``NetworkFailure/timedOut`` instead. While the phone is
/// offline (an outage window or Airplane mode) requests fail at once with
/// ``NetworkFailure/notConnectedToInternet``. Every request and its outcome, with the simulated
/// network and service times, go to the event log (`source: "network"`): the search-performance
/// report reads them there. Completions always run asynchronously, as URLSession's do.
public final class SimulatedNetwork {
  /// The kernel.
  public let simulation: Simulation
  /// Whether the phone has no connection (an outage or Airplane mode).
  public private(set) var isOffline = false

  private var services: [String: any SimulatedService] = [:]
  private var profiles: [String: LinkProfile] = [:]
  private var inFlight: [String: Int] = [:]
  private var waiting: [String: [() -> Void]] = [:]
  private var random: RandomStream
  private var nextRequestID = 0

  /// A network with no services yet.
  public init(simulation: Simulation) {
    self.simulation = simulation
    self.random = simulation.random.stream("network")
  }

  /// Makes `service` reachable with the given link profile.
  public func register(_ service: any SimulatedService, profile: LinkProfile = LinkProfile()) throws
  {
    try profile.validate(service: service.serviceName)
    services[service.serviceName] = service
    profiles[service.serviceName] = profile
  }

  /// Changes a registered service's link profile.
  public func setProfile(_ profile: LinkProfile, for service: String) throws {
    guard services[service] != nil else {
      throw CloudError(.invalidArgument, "no service called '\(service)' is registered")
    }
    try profile.validate(service: service)
    profiles[service] = profile
  }

  /// Takes the phone offline or back online (outage windows, Airplane mode).
  public func setOffline(_ offline: Bool) {
    guard offline != isOffline else { return }
    isOffline = offline
    simulation.log.record(
      offline ? NetworkEvent.offline : NetworkEvent.online, at: simulation.now)
  }

  /// Sends `request` to `service`; `completion` gets the response or a failure.
  ///
  /// Throws only for a service that was never registered (a wiring mistake, not a network
  /// condition).
  public func send(
    _ request: HTTPRequest, to service: String,
    completion: @escaping (Result<HTTPResponse, NetworkFailure>) -> Void
  ) throws {
    guard let target = services[service], let profile = profiles[service] else {
      throw CloudError(.invalidArgument, "no service called '\(service)' is registered")
    }
    nextRequestID += 1
    let id = nextRequestID
    let sent = simulation.now
    simulation.log.record(
      NetworkEvent.request(id: id, service: service, request: request), at: sent)
    if isOffline {
      finish(
        id: id, service: service, sent: sent, .failure(.notConnectedToInternet), after: .zero,
        networkTime: .zero, serviceTime: .zero, completion: completion)
      return
    }
    let start: () -> Void = { [weak self] in
      self?.transmit(
        request, id: id, to: target, profile: profile, sent: sent, completion: completion)
    }
    if inFlight[service, default: 0] < profile.maximumConcurrentRequests {
      inFlight[service, default: 0] += 1
      start()
    } else {
      waiting[service, default: []].append(start)
    }
  }

  private func transmit(
    _ request: HTTPRequest, id: Int, to service: any SimulatedService, profile: LinkProfile,
    sent: SimTime, completion: @escaping (Result<HTTPResponse, NetworkFailure>) -> Void
  ) {
    let roundTrip = SimDuration.seconds(
      random.logNormal(median: profile.latencyMedian.seconds, sigma: profile.latencySigma))
    let half = SimDuration(nanoseconds: roundTrip.nanoseconds / 2)
    let fails = random.bernoulli(profile.failureRate)
    let name = service.serviceName
    checkedScheduling {
      try simulation.schedule(after: half) { [weak self] in
        guard let self else { return }
        var (response, serviceTime) = service.respond(to: request)
        if fails {
          response = HTTPResponse(
            status: 503, body: .object(["error": .string("Service Unavailable")]))
        }
        let waited = self.simulation.now - sent
        let total = waited + serviceTime + (roundTrip - half)
        if total > profile.timeout || self.isOffline {
          let failure: NetworkFailure = self.isOffline ? .notConnectedToInternet : .timedOut
          let remaining = max(.zero, profile.timeout - waited)
          self.finish(
            id: id, service: name, sent: sent, .failure(failure),
            after: failure == .timedOut ? remaining : .zero, networkTime: roundTrip,
            serviceTime: serviceTime, completion: completion)
        } else {
          self.finish(
            id: id, service: name, sent: sent, .success(response),
            after: serviceTime + (roundTrip - half), networkTime: roundTrip,
            serviceTime: serviceTime, completion: completion)
        }
      }
    }
  }

  private func finish(
    id: Int, service: String, sent: SimTime, _ result: Result<HTTPResponse, NetworkFailure>,
    after delay: SimDuration, networkTime: SimDuration, serviceTime: SimDuration,
    completion: @escaping (Result<HTTPResponse, NetworkFailure>) -> Void
  ) {
    let wasOffline = isOffline && networkTime == .zero
    checkedScheduling {
      try simulation.schedule(after: delay) { [weak self] in
        guard let self else { return }
        self.simulation.log.record(
          NetworkEvent.response(
            id: id, service: service, networkTime: networkTime, serviceTime: serviceTime,
            totalTime: self.simulation.now - sent, result: result),
          at: self.simulation.now)
        if !wasOffline { self.release(service) }
        completion(result)
      }
    }
  }

  /// Frees a slot on `service`'s link and starts the next waiting request.
  private func release(_ service: String) {
    if var queue = waiting[service], !queue.isEmpty {
      let next = queue.removeFirst()
      waiting[service] = queue
      next()
    } else {
      inFlight[service, default: 1] -= 1
    }
  }
}
