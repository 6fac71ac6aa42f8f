import Geo

/// How GeoSim read a `$box` whose corners were not given as south-west then north-east.
///
/// The seed app passes its two map taps in tap order, so its "southwest" corner is often north
/// or east of its "northeast" one. NCMB's server is closed and its documentation silent, so
/// the evidence is what sits on either side of it:
///
/// - NCMB's SDKs send the corners as given, unchecked: `withinGeoBoxFromSouthwest` puts
///   `{"$box": [southwest, northeast]}` under `$within` (ncmb_ios `NCMBQuery.m`, ncmb_swift
///   `NCMBQuery.swift`, the SDK the seed app uses) [SDK];
/// - Parse, whose query language NCMB copied, refused such boxes only in its Android SDK's
///   local-datastore matcher (`OfflineQueryLogic`, code 102: "The southwest corner of a geo box
///   must be south of the northeast corner.") [3P]; a query sent to a Parse server went on to
///   MongoDB unchecked;
/// - MongoDB's legacy `$box` takes any two opposite corners: its `Box` is built from their
///   smaller and larger coordinates (`Box::init`, `shapes.cpp`) [3P].
///
/// GeoSim follows that evidence and the user's evident intent, so an inverted box returns the
/// same stations as an ordered one (the seed app's user sees no difference) [?]: the box is
/// the one spanned by the two corners, with
///
/// - latitudes swapped when "southwest" is north of "northeast", and
/// - longitudes read the short way round: the box runs east from the south-west longitude to
///   the north-east one when that span is at most 180°, which keeps genuine boxes across the
///   antimeridian (170° → −170° spans 20°); a span over 180° is read as swapped corners.
///   −180 → 180 is the whole globe.
///
/// Every query that needed either correction says so here, and the datastore logs it, so a
/// report can flag a result the real service may not have returned.
public struct BoxNormalization: Hashable, Sendable {
  /// The "southwest" corner was north of the "northeast" one.
  public let swappedLatitudes: Bool
  /// The eastward span from "southwest" to "northeast" exceeded 180°, so the corners'
  /// longitudes were swapped.
  public let swappedLongitudes: Bool

  /// A record of the corrections applied.
  public init(swappedLatitudes: Bool, swappedLongitudes: Bool) {
    self.swappedLatitudes = swappedLatitudes
    self.swappedLongitudes = swappedLongitudes
  }

  /// Whether either correction was applied.
  public var isInverted: Bool { swappedLatitudes || swappedLongitudes }

  /// The box spanned by two corners, and which corrections it needed (see above).
  static func bounds(southwest sw: GeoPoint, northeast ne: GeoPoint) -> (
    CoordinateBounds, BoxNormalization
  ) {
    let south = min(sw.latitude, ne.latitude)
    let north = max(sw.latitude, ne.latitude)
    var span = ne.longitude - sw.longitude
    if span < 0 { span += 360 }
    let swapLongitudes = span > 180 && span < 360
    let west = swapLongitudes ? ne.longitude : sw.longitude
    let east = swapLongitudes ? sw.longitude : ne.longitude
    // GeoPoint validated every value, so the box is valid.
    let bounds = (try? CoordinateBounds(south: south, west: west, north: north, east: east))!
    return (
      bounds,
      BoxNormalization(
        swappedLatitudes: sw.latitude > ne.latitude, swappedLongitudes: swapLongitudes)
    )
  }
}
