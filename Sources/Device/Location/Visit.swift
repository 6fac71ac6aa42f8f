import Geo
import SimKernel

/// A place where the device stayed, as the visit service reports it (`CLVisit`).
///
/// An arrival is reported with no ``departure``; a departure with both times, or with no
/// ``arrival`` when the stay was already under way when the app started monitoring visits [A].
public struct Visit: Hashable, Sendable {
  /// The centre of the place, as the phone estimated it.
  public let coordinate: Coordinate
  /// The radius of uncertainty of ``coordinate``, in metres.
  public let horizontalAccuracy: Double
  /// When the device arrived, or `nil` when unknown (`distantPast` in `CLVisit`).
  public let arrival: SimTime?
  /// When the device left, or `nil` while it is still there (`distantFuture` in `CLVisit`).
  public let departure: SimTime?

  /// A visit.
  public init(
    coordinate: Coordinate, horizontalAccuracy: Double, arrival: SimTime?, departure: SimTime?
  ) {
    self.coordinate = coordinate
    self.horizontalAccuracy = horizontalAccuracy
    self.arrival = arrival
    self.departure = departure
  }
}
