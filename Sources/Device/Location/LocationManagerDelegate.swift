/// What a ``LocationManager`` tells its app (`CLLocationManagerDelegate`).
///
/// Every method has a default that does nothing, as the Objective-C protocol's optional
/// methods do.
public protocol LocationManagerDelegate: AnyObject {
  /// The app's authorization or accuracy changed, or the manager was just created.
  func locationManagerDidChangeAuthorization(_ manager: LocationManager)
  /// New fixes arrived, oldest first.
  func locationManager(_ manager: LocationManager, didUpdateLocations locations: [Location])
  /// Location could not be determined or was refused.
  func locationManager(_ manager: LocationManager, didFailWithError error: LocationError)
  /// The device entered a monitored region.
  func locationManager(_ manager: LocationManager, didEnterRegion region: CircularRegion)
  /// The device left a monitored region.
  func locationManager(_ manager: LocationManager, didExitRegion region: CircularRegion)
  /// A region's state is known: after a transition or a ``LocationManager/requestState(for:)``.
  func locationManager(
    _ manager: LocationManager, didDetermineState state: RegionState, for region: CircularRegion)
  /// A region could not be monitored.
  func locationManager(
    _ manager: LocationManager, monitoringDidFailFor region: CircularRegion?,
    withError error: LocationError)
  /// Updates paused automatically; the app must restart them itself.
  func locationManagerDidPauseLocationUpdates(_ manager: LocationManager)
  /// The visit service reports an arrival or a departure.
  func locationManager(_ manager: LocationManager, didVisit visit: Visit)
}

extension LocationManagerDelegate {
  /// Does nothing by default.
  public func locationManagerDidChangeAuthorization(_ manager: LocationManager) {}
  /// Does nothing by default.
  public func locationManager(_ manager: LocationManager, didUpdateLocations locations: [Location])
  {}
  /// Does nothing by default.
  public func locationManager(_ manager: LocationManager, didFailWithError error: LocationError) {}
  /// Does nothing by default.
  public func locationManager(_ manager: LocationManager, didEnterRegion region: CircularRegion) {}
  /// Does nothing by default.
  public func locationManager(_ manager: LocationManager, didExitRegion region: CircularRegion) {}
  /// Does nothing by default.
  public func locationManager(
    _ manager: LocationManager, didDetermineState state: RegionState, for region: CircularRegion
  ) {}
  /// Does nothing by default.
  public func locationManager(
    _ manager: LocationManager, monitoringDidFailFor region: CircularRegion?,
    withError error: LocationError
  ) {}
  /// Does nothing by default.
  public func locationManagerDidPauseLocationUpdates(_ manager: LocationManager) {}
  /// Does nothing by default.
  public func locationManager(_ manager: LocationManager, didVisit visit: Visit) {}
}
