import Foundation
import SimKernel

/// A seeded generator of large station sets for performance work.
///
/// Stations cluster the way rail networks do: a fifth of them spread uniformly over the area
/// (rural lines), the rest scattered around city centres drawn uniformly in the area, with
/// Gaussian spread of about 0.05° (5 km). The default area is Japan's main islands
/// (30–46° N, 129–146° E). The same seed and count always give the same stations, named
/// `S000000`, `S000001`, ….
public enum SyntheticStations {
  /// The default area: south, west, north, east in degrees.
  public static let japan = (south: 30.0, west: 129.0, north: 46.0, east: 146.0)

  /// `count` stations from `seed` in the given area (which must not cross the antimeridian).
  public static func generate(
    count: Int, seed: UInt64,
    area: (south: Double, west: Double, north: Double, east: Double) = japan
  ) -> [StationRecord] {
    var random = SplitMix64(seed: seed)
    let cityCount = max(1, count / 500)
    let cities = (0..<cityCount).map { _ in
      (
        Double.random(in: area.south...area.north, using: &random),
        Double.random(in: area.west...area.east, using: &random)
      )
    }
    var stations: [StationRecord] = []
    stations.reserveCapacity(count)
    for i in 0..<count {
      var latitude: Double
      var longitude: Double
      if random.next() % 5 == 0 {
        latitude = Double.random(in: area.south...area.north, using: &random)
        longitude = Double.random(in: area.west...area.east, using: &random)
      } else {
        let (cityLatitude, cityLongitude) = cities[Int(random.next() % UInt64(cityCount))]
        let (dx, dy) = gaussianPair(&random)
        latitude = min(area.north, max(area.south, cityLatitude + 0.05 * dy))
        longitude = min(area.east, max(area.west, cityLongitude + 0.05 * dx))
      }
      let digits = String(i)
      let name = "S" + String(repeating: "0", count: max(0, 6 - digits.count)) + digits
      // The area is validated by the clamps above, so the point is valid.
      let point = (try? GeoPoint(latitude: latitude, longitude: longitude))!
      stations.append(StationRecord(name: name, point: point))
    }
    return stations
  }

  /// Two independent standard normal numbers (Box–Muller).
  private static func gaussianPair(_ random: inout SplitMix64) -> (Double, Double) {
    let u = Double.random(in: Double.ulpOfOne..<1, using: &random)
    let v = Double.random(in: 0..<1, using: &random)
    let r = (-2 * log(u)).squareRoot()
    return (r * cos(2 * .pi * v), r * sin(2 * .pi * v))
  }
}
