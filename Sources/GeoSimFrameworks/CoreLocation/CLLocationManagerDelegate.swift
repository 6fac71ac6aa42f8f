import Device

/// What a ``CLLocationManager`` tells the app (`CLLocationManagerDelegate`).
///
/// Every method is optional, as in Apple's SDK: a method the app does not implement is not
/// called. Callbacks arrive on the app's main thread, asynchronously, never inside the call
/// that caused them.
public protocol CLLocationManagerDelegate: AnyObject {
  /// The manager was created, or the app's authorization or accuracy changed [A].
  func locationManagerDidChangeAuthorization(_ manager: CLLocationManager)
  /// The manager was created, or the app's authorization status changed (deprecated in iOS 14;
  /// not called for a change of accuracy alone [3P]).
  func locationManager(
    _ manager: CLLocationManager, didChangeAuthorization status: CLAuthorizationStatus)
  /// New fixes arrived, oldest first.
  func locationManager(_ manager: CLLocationManager, didUpdateLocations locations: [CLLocation])
  /// Location could not be determined or was refused; the error is a ``CLError``.
  func locationManager(_ manager: CLLocationManager, didFailWithError error: any Error)
  /// The device entered a monitored region.
  func locationManager(_ manager: CLLocationManager, didEnterRegion region: CLRegion)
  /// The device left a monitored region.
  func locationManager(_ manager: CLLocationManager, didExitRegion region: CLRegion)
  /// A region's state is known: after a transition or a ``CLLocationManager/requestState(for:)``.
  func locationManager(
    _ manager: CLLocationManager, didDetermineState state: CLRegionState, for region: CLRegion)
  /// A region could not be monitored; the error is a ``CLError``.
  func locationManager(
    _ manager: CLLocationManager, monitoringDidFailFor region: CLRegion?,
    withError error: any Error)
  /// Updates paused automatically; the app must restart them itself.
  func locationManagerDidPauseLocationUpdates(_ manager: CLLocationManager)
  /// The visit service reports an arrival or a departure (iOS 8) [A].
  func locationManager(_ manager: CLLocationManager, didVisit visit: CLVisit)
}

extension CLLocationManagerDelegate {
  /// Not implemented.
  public func locationManagerDidChangeAuthorization(_ manager: CLLocationManager) {}
  /// Not implemented.
  public func locationManager(
    _ manager: CLLocationManager, didChangeAuthorization status: CLAuthorizationStatus
  ) {}
  /// Not implemented.
  public func locationManager(
    _ manager: CLLocationManager, didUpdateLocations locations: [CLLocation]
  ) {}
  /// Not implemented.
  public func locationManager(_ manager: CLLocationManager, didFailWithError error: any Error) {}
  /// Not implemented.
  public func locationManager(_ manager: CLLocationManager, didEnterRegion region: CLRegion) {}
  /// Not implemented.
  public func locationManager(_ manager: CLLocationManager, didExitRegion region: CLRegion) {}
  /// Not implemented.
  public func locationManager(
    _ manager: CLLocationManager, didDetermineState state: CLRegionState, for region: CLRegion
  ) {}
  /// Not implemented.
  public func locationManager(
    _ manager: CLLocationManager, monitoringDidFailFor region: CLRegion?,
    withError error: any Error
  ) {}
  /// Not implemented.
  public func locationManagerDidPauseLocationUpdates(_ manager: CLLocationManager) {}
  /// Not implemented.
  public func locationManager(_ manager: CLLocationManager, didVisit visit: CLVisit) {}
}
