import Device
import Foundation

/// What a geocoding request hands back: the placemarks, or `nil` and the error
/// (`CLGeocodeCompletionHandler`).
public typealias CLGeocodeCompletionHandler = ([CLPlacemark]?, (any Error)?) -> Void

/// Converts coordinates to addresses and back (`CLGeocoder`), over the phone's geocoder
/// (`Device.Geocoder`) and its geocoding server (`Device.Phone.geocodingService`).
///
/// As Apple documents: requests are asynchronous and answered on the app's main thread, never
/// inside the call [A]; the completion handler runs whether the request succeeded or not [A];
/// ``cancelGeocode()`` makes a pending request's handler run with
/// ``CLError/geocodeCanceled`` [A]; the app's geocoders share a rate limit, and a request over
/// it fails with ``CLError/network`` [A], as does every request in Airplane mode; a place no
/// address covers gives ``CLError/geocodeFoundNoResult``. A geocoder is for one request at a
/// time: Apple says not to start another while one is pending and documents no outcome; here the
/// new request cancels the pending one, whose handler gets ``CLError/geocodeCanceled`` [?].
///
/// `CLGeocoder()` binds to the phone whose app is running on the calling thread and stops the
/// process outside a world, as `CLLocationManager()` does.
open class CLGeocoder: NSObject {
  private let geocoder: Geocoder
  private unowned let phone: Phone

  /// A geocoder for the running app.
  public override init() {
    let phone = Phone.requireCurrent(doing: "CLGeocoder()")
    self.phone = phone
    geocoder = Geocoder(phone: phone, service: phone.geocodingService)
    super.init()
  }

  /// Whether a request is pending.
  open var isGeocoding: Bool { geocoder.isGeocoding }

  /// Looks up the address of `location`; an invalid coordinate gives
  /// ``CLError/geocodeFoundNoResult`` [?].
  open func reverseGeocodeLocation(
    _ location: CLLocation, completionHandler: @escaping CLGeocodeCompletionHandler
  ) {
    let handler = onMainThread(
      "CLGeocoder.reverseGeocodeLocation(_:completionHandler:)", completionHandler)
    let c = location.coordinate
    guard let coordinate = c.coordinate else {
      return geocoder.refuseReverseGeocode(
        "(\(c.latitude), \(c.longitude)) is not a valid coordinate", completionHandler: handler)
    }
    geocoder.reverseGeocodeLocation(
      Location(
        coordinate: coordinate, horizontalAccuracy: location.horizontalAccuracy,
        timestamp: phone.simulation.now),
      completionHandler: handler)
  }

  /// Looks up the address of `location` and returns its placemarks, or throws a ``CLError``.
  ///
  /// Until the answer comes, the wait is listed among the app's pending work.
  open func reverseGeocodeLocation(
    _ location: CLLocation, file: StaticString = #fileID, line: UInt = #line
  ) async throws -> [CLPlacemark] {
    try await awaitAnswer("CLGeocoder.reverseGeocodeLocation(_:) at \(file):\(line)") {
      reverseGeocodeLocation(location, completionHandler: $0)
    }
  }

  /// Looks up the named places whose name contains `addressString`.
  open func geocodeAddressString(
    _ addressString: String, completionHandler: @escaping CLGeocodeCompletionHandler
  ) {
    geocoder.geocodeAddressString(
      addressString,
      completionHandler: onMainThread(
        "CLGeocoder.geocodeAddressString(_:completionHandler:)", completionHandler))
  }

  /// Looks up the named places whose name contains `addressString` and returns their
  /// placemarks, or throws a ``CLError``.
  ///
  /// Until the answer comes, the wait is listed among the app's pending work.
  open func geocodeAddressString(
    _ addressString: String, file: StaticString = #fileID, line: UInt = #line
  ) async throws -> [CLPlacemark] {
    try await awaitAnswer("CLGeocoder.geocodeAddressString(_:) at \(file):\(line)") {
      geocodeAddressString(addressString, completionHandler: $0)
    }
  }

  /// Cancels the pending request, whose handler then runs with ``CLError/geocodeCanceled``;
  /// does nothing when no request is pending [A].
  open func cancelGeocode() {
    geocoder.cancelGeocode()
  }

  /// The phone's answer turned into Apple's, delivered on the app's main thread: the phone
  /// answers a cancelled request inside the call that cancels it, which iOS never does.
  private func onMainThread(
    _ label: String, _ completion: @escaping CLGeocodeCompletionHandler
  ) -> ([Placemark]?, GeocodeError?) -> Void {
    { [unowned phone] placemarks, error in
      phone.runLoop.enqueue(label) {
        let date = phone.simulation.date(of: phone.simulation.now)
        completion(placemarks?.map { CLPlacemark($0, at: date) }, error.map(CLError.init))
      }
    }
  }

  /// Starts a request with `start` and waits for its answer, the wait registered on the run
  /// loop under `label` until it comes.
  private func awaitAnswer(
    _ label: String, _ start: (@escaping CLGeocodeCompletionHandler) -> Void
  ) async throws -> [CLPlacemark] {
    return try await withCheckedThrowingContinuation { continuation in
      let resumption = Resumption(continuation)
      let wait = phone.runLoop.beginWaiting(
        label, endedBy: { resumption.resume(with: .failure(CLError(.geocodeCanceled))) })
      start { placemarks, error in
        wait.cancel()
        if let placemarks {
          resumption.resume(with: .success(placemarks))
        } else {
          resumption.resume(with: .failure(error ?? CLError(.geocodeFoundNoResult)))
        }
      }
    }
  }
}
