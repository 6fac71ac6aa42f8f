import Foundation
import Geo
import SimKernel

/// The geocoding failures an app sees, with CoreLocation's `CLError.Code` raw values [A].
public enum GeocodeErrorCode: Int, Hashable, Sendable, CustomStringConvertible {
  /// No network, or the app exceeded the rate limit (`CLError.network`) [A].
  case network = 2
  /// Nothing at that place or for that text (`CLError.geocodeFoundNoResult`) [A].
  case geocodeFoundNoResult = 8
  /// The request was cancelled (`CLError.geocodeCanceled`) [A].
  case geocodeCanceled = 10

  /// The Swift case name.
  public var description: String {
    switch self {
    case .network: "network"
    case .geocodeFoundNoResult: "geocodeFoundNoResult"
    case .geocodeCanceled: "geocodeCanceled"
    }
  }
}

/// An error handed to a geocoding completion handler.
public struct GeocodeError: Error, Hashable, Sendable, CustomStringConvertible {
  /// The Core Location code.
  public let code: GeocodeErrorCode
  /// Why, in words.
  public let reason: String

  /// An error with a code and an explanation.
  public init(_ code: GeocodeErrorCode, _ reason: String) {
    self.code = code
    self.reason = reason
  }

  /// The code and the reason.
  public var description: String { "\(code): \(reason)" }
}

/// The behaviour numbers of the simulated geocoding server.
public struct GeocodingParameters: Hashable, Sendable {
  /// How long a reply takes; 0.3 s [?] (a network round trip; Apple publishes none).
  public var latency = SimDuration.milliseconds(300)
  /// The most requests an app may make in ``rateWindow``; 50 [3P] (the limit Apple's map
  /// services log when they throttle a search; the geocoder's own limit is undocumented [A]).
  public var maximumRequestsPerWindow = 50
  /// The sliding window of the rate limit; 60 s [3P].
  public var rateWindow = SimDuration.seconds(60)

  /// The defaults.
  public init() {}
}

/// The simulated geocoding server an app's geocoders talk to: a ``Gazetteer`` behind a rate
/// limit.
///
/// Requests are rate-limited per app [A], so every ``Geocoder`` of the app shares one service
/// and its sliding window of request times.
public final class GeocodingService {
  /// The address data.
  public let gazetteer: Gazetteer
  /// The behaviour numbers.
  public let parameters: GeocodingParameters
  private var requestTimes: [SimTime] = []

  /// A service answering from `gazetteer`.
  public init(gazetteer: Gazetteer, parameters: GeocodingParameters = GeocodingParameters()) {
    self.gazetteer = gazetteer
    self.parameters = parameters
  }

  /// Records a request at `time`; `false` when it exceeds the rate limit (it still counts, as
  /// the server saw it [?]).
  func admit(at time: SimTime) -> Bool {
    let windowStart = time - parameters.rateWindow
    requestTimes.removeAll { $0 <= windowStart }
    requestTimes.append(time)
    return requestTimes.count <= parameters.maximumRequestsPerWindow
  }
}

/// Converts coordinates to addresses and back, like `CLGeocoder`, asynchronously on the
/// simulation's clock.
///
/// As with Apple's: a reply arrives after the service's latency [A]; one request at a time — a
/// new request while one is in flight cancels the earlier one, whose handler gets
/// ``GeocodeErrorCode/geocodeCanceled`` [?] (Apple only says not to do it [A]); too many
/// requests fail with ``GeocodeErrorCode/network`` [A]; so does any request in Airplane mode
/// [A]; a place no area covers (open sea) gives ``GeocodeErrorCode/geocodeFoundNoResult`` [A].
/// Requests and replies are logged with source `"geocoder"`.
public final class Geocoder {
  /// The server this geocoder talks to.
  public let service: GeocodingService
  unowned let phone: Phone
  private var inFlight: (handle: EventHandle, fail: (GeocodeError) -> Void)?

  /// A geocoder for the app on `phone`.
  public init(phone: Phone, service: GeocodingService) {
    self.phone = phone
    self.service = service
  }

  /// Whether a request is in flight.
  public var isGeocoding: Bool { inFlight != nil }

  /// Looks up the address of `location`, like `reverseGeocodeLocation(_:completionHandler:)`.
  public func reverseGeocodeLocation(
    _ location: Location, completionHandler: @escaping ([Placemark]?, GeocodeError?) -> Void
  ) {
    let c = location.coordinate
    start(.reverse(c), completionHandler) { [service] in
      guard let placemark = try service.gazetteer.placemark(at: c) else {
        throw GeocodeError(.geocodeFoundNoResult, "no address at \(c)")
      }
      return [placemark]
    }
  }

  /// Looks up the named places matching `text`, like `geocodeAddressString(_:completionHandler:)`.
  public func geocodeAddressString(
    _ text: String, completionHandler: @escaping ([Placemark]?, GeocodeError?) -> Void
  ) {
    start(.forward(text), completionHandler) { [service] in
      let found = service.gazetteer.places(matching: text)
      guard !found.isEmpty else {
        throw GeocodeError(.geocodeFoundNoResult, "no place matches \"\(text)\"")
      }
      return found
    }
  }

  /// Refuses a reverse-geocoding request for a place that is not a coordinate (a latitude or
  /// longitude out of range, or not a number): it cancels the request in flight, as any new
  /// request does, and its handler gets ``GeocodeErrorCode/geocodeFoundNoResult`` at once,
  /// without the server [?] (Apple documents no answer for it).
  ///
  /// - Parameters:
  ///   - reason: why the place is not a coordinate, for the log and the handler.
  ///   - completionHandler: called on the app's main thread with no placemarks and the error.
  public func refuseReverseGeocode(
    _ reason: String, completionHandler: @escaping ([Placemark]?, GeocodeError?) -> Void
  ) {
    cancelInFlight("a new request")
    let error = GeocodeError(.geocodeFoundNoResult, reason)
    logReply("reverse", nil, error)
    phone.process.call { completionHandler(nil, error) }
  }

  /// Cancels the request in flight; its handler gets ``GeocodeErrorCode/geocodeCanceled`` [A].
  public func cancelGeocode() {
    cancelInFlight("cancelGeocode")
  }

  private func cancelInFlight(_ why: String) {
    guard let (handle, fail) = inFlight else { return }
    phone.simulation.cancel(handle)
    inFlight = nil
    fail(GeocodeError(.geocodeCanceled, "cancelled by \(why)"))
  }

  private func start(
    _ query: GeocodeQuery,
    _ completion: @escaping ([Placemark]?, GeocodeError?) -> Void,
    _ answer: @escaping () throws -> [Placemark]
  ) {
    cancelInFlight("a new request")
    let now = phone.simulation.now
    let admitted = service.admit(at: now)
    let offline = phone.airplaneMode
    let kind = query.kind
    phone.record(GeocoderEvent.request(query))
    let reply: () -> Void = { [weak self] in
      guard let self else { return }
      self.inFlight = nil
      var result: [Placemark]?
      var error: GeocodeError?
      if offline {
        error = GeocodeError(.network, "the network is unavailable (Airplane mode)")
      } else if !admitted {
        error = GeocodeError(
          .network,
          "more than \(self.service.parameters.maximumRequestsPerWindow) requests in "
            + "\(self.service.parameters.rateWindow)")
      } else {
        do {
          result = try answer()
        } catch let e as GeocodeError {
          error = e
        } catch {
          preconditionFailure("gazetteer lookup failed: \(error)")
        }
      }
      self.logReply(kind, result, error)
      // A suspended app hears the reply when it runs again, as with every callback.
      self.phone.deliverToApp { completion(result, error) }
    }
    let fail: (GeocodeError) -> Void = { [weak self] e in
      guard let self else { return }
      self.logReply(kind, nil, e)
      self.phone.deliverToApp { completion(nil, e) }
    }
    // Scheduling after a non-negative delay cannot fail.
    let handle = try! phone.simulation.schedule(after: max(.zero, service.parameters.latency)) {
      reply()
    }
    inFlight = (handle, fail)
  }

  private func logReply(_ kind: String, _ result: [Placemark]?, _ error: GeocodeError?) {
    if let error {
      phone.record(GeocoderEvent.failure(kind: kind, code: error.code, reason: error.reason))
    } else {
      phone.record(
        GeocoderEvent.reply(
          kind: kind, count: result?.count ?? 0, firstName: result?.first?.name))
    }
  }
}

extension Phone {
  /// The geocoding server the app's geocoders talk to when they are made for the phone alone
  /// (`CLGeocoder()`): one per phone, so that they share its rate limit [A]. A world's
  /// assembler sets the scenario's; until then it is a server over the approximate central
  /// Tokyo gazetteer (``Gazetteer/centralTokyo(context:)``).
  public var geocodingService: GeocodingService {
    get {
      let slot = attachment(GeocodingServiceSlot.self) { GeocodingServiceSlot() }
      if let service = slot.service { return service }
      do {
        let service = GeocodingService(gazetteer: try Gazetteer.centralTokyo(context: geos))
        slot.service = service
        return service
      } catch {
        // Built from constants: only a broken GEOS installation gets here.
        preconditionFailure("the central Tokyo gazetteer could not be built: \(error)")
      }
    }
    set { attachment(GeocodingServiceSlot.self) { GeocodingServiceSlot() }.service = newValue }
  }
}

/// Where a phone keeps its geocoding server.
private final class GeocodingServiceSlot {
  var service: GeocodingService?
}
