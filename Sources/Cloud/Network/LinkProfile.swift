import SimKernel

/// How one service's link behaves: latency, server failures, timeout and concurrency.
///
/// Defaults, each overridable: a log-normal round-trip latency with median 120 ms and σ 0.5 [?]
/// (a typical LTE round trip with a long tail); no injected failures; URLSession's default
/// request timeout of 60 s [A] (`timeoutIntervalForRequest`); at most 4 requests in flight per
/// host [A] (`httpMaximumConnectionsPerHost` is 4 on iOS), the rest queued in order.
public struct LinkProfile: Hashable, Sendable {
  /// The median network round trip (request there plus response back).
  public var latencyMedian = SimDuration.milliseconds(120)
  /// The spread of the round trip's logarithm.
  public var latencySigma = 0.5
  /// The probability that a request gets an HTTP 503 instead of the service's answer.
  public var failureRate = 0.0
  /// How long the client waits for a response before failing with `timedOut`.
  public var timeout = SimDuration.seconds(60)
  /// Requests in flight at once; more wait in order.
  public var maximumConcurrentRequests = 4

  /// The documented defaults.
  public init() {}

  func validate(service: String) throws {
    guard latencyMedian >= .zero, latencySigma.isFinite, latencySigma >= 0 else {
      throw CloudError(.invalidArgument, "\(service): latency must be ≥ 0 with a finite spread")
    }
    guard failureRate.isFinite, (0...1).contains(failureRate) else {
      throw CloudError(.invalidArgument, "\(service): failureRate \(failureRate) is not in 0…1")
    }
    guard timeout > .zero, maximumConcurrentRequests >= 1 else {
      throw CloudError(
        .invalidArgument, "\(service): timeout must be > 0 and at least 1 concurrent request")
    }
  }
}
