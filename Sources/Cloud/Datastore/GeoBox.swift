import Geo

/// How GeoSim read a `$box` whose corners were not given as south-west then north-east.
///
/// The seed app passes its two map taps in tap order, so its "southwest" corner is often north
/// or east of its "northeast" one. NCMB's behaviour is undocumented. Parse's SDKs, whose query
/// language NCMB copied, refused such boxes (code 102: "The southwest corner of a geo box must
/// be south of the northeast corner.", "Geo box queries larger than 180 degrees in longitude
/// are not supported. Please check point order.") while MongoDB's `$box` takes any two
/// opposite corners. GeoSim follows MongoDB and the user's evident intent: the box is the one
/// spanned by the two corners, with
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
