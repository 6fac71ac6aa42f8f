import Device
import SimKernel

/// A place the user visited (`CLVisit`): made by the phone's visit service and handed to
/// ``CLLocationManagerDelegate/locationManager(_:didVisit:)``; an app does not create one [A].
///
/// An arrival carries ``departureDate`` `Date.distantFuture`; a departure carries both dates, or
/// ``arrivalDate`` `Date.distantPast` when the stay began before the app monitored visits [A].
open class CLVisit: NSObject, @unchecked Sendable {
  // Unchecked: immutable after init, as Apple's.
  /// The approximate time the user arrived, or `Date.distantPast` when unknown [A].
  public let arrivalDate: Date
  /// The approximate time the user left, or `Date.distantFuture` while still there [A].
  public let departureDate: Date
  /// The centre of the place visited.
  public let coordinate: CLLocationCoordinate2D
  /// The radius of uncertainty of ``coordinate``, in metres.
  public let horizontalAccuracy: CLLocationAccuracy

  init(_ visit: Visit, in simulation: Simulation) {
    arrivalDate = visit.arrival.map(simulation.date(of:)) ?? Date.distantPast
    departureDate = visit.departure.map(simulation.date(of:)) ?? Date.distantFuture
    coordinate = CLLocationCoordinate2D(visit.coordinate)
    horizontalAccuracy = visit.horizontalAccuracy
    super.init()
  }
}
