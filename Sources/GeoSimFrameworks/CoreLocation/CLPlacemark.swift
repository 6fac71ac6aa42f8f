import Device
import Foundation

/// An address for a place (`CLPlacemark`): the components the phone's gazetteer knows, each
/// `nil` when it does not.
///
/// For a point in Japan, as Core Location reports it: ``administrativeArea`` is the prefecture
/// (東京都), ``locality`` the city or special ward (千代田区), ``subLocality`` the district
/// (丸の内), ``thoroughfare`` the chōme and ``subThoroughfare`` the block number
/// (`Device.Placemark`). The gazetteer knows no county, time zone, water body or areas of
/// interest, so ``subAdministrativeArea``, ``timeZone``, ``inlandWater``, ``ocean``,
/// ``areasOfInterest`` and ``region`` are always `nil`.
open class CLPlacemark: NSObject, @unchecked Sendable {
  // Unchecked: immutable after init, as Apple's.
  /// The phone's address.
  let address: Placemark
  /// Where the place is: the coordinate looked up, or the named place found.
  public let location: CLLocation?

  /// A copy of `placemark`.
  public init(placemark: CLPlacemark) {
    address = placemark.address
    location = placemark.location
  }

  /// The phone's address, located at its coordinate and timestamped `date`.
  init(_ address: Placemark, at date: Date) {
    self.address = address
    location = CLLocation(
      coordinate: CLLocationCoordinate2D(address.coordinate), altitude: 0, horizontalAccuracy: 0,
      verticalAccuracy: -1, timestamp: date)
  }

  /// The place's name: a landmark's, or the most specific address part.
  open var name: String? { address.name }
  /// The street, or in Japan the chōme.
  open var thoroughfare: String? { address.thoroughfare }
  /// The street number, or in Japan the block number.
  open var subThoroughfare: String? { address.subThoroughfare }
  /// The city or ward.
  open var locality: String? { address.locality }
  /// The neighbourhood or district.
  open var subLocality: String? { address.subLocality }
  /// The state or prefecture.
  open var administrativeArea: String? { address.administrativeArea }
  /// The county: always `nil` (the gazetteer has none).
  open var subAdministrativeArea: String? { nil }
  /// The postal code.
  open var postalCode: String? { address.postalCode }
  /// The ISO 3166-1 alpha-2 country code.
  open var isoCountryCode: String? { address.isoCountryCode }
  /// The country's name.
  open var country: String? { address.country }
  /// The time zone: always `nil` (the gazetteer has none).
  open var timeZone: TimeZone? { nil }
  /// The lake or river: always `nil` (the gazetteer has none).
  open var inlandWater: String? { nil }
  /// The ocean: always `nil` (the gazetteer has none; open sea has no placemark).
  open var ocean: String? { nil }
  /// Points of interest: always `nil` (the gazetteer has none).
  open var areasOfInterest: [String]? { nil }
  /// The area the placemark covers: always `nil` (the gazetteer does not say).
  open var region: CLRegion? { nil }

  /// Placemarks are equal when their addresses and coordinates are.
  open override func isEqual(_ object: Any?) -> Bool {
    guard let other = object as? CLPlacemark else { return false }
    return address == other.address
  }

  /// The address's hash.
  open override var hash: Int { address.hashValue }

  /// "東京駅, 丸の内１丁目, 千代田区, 東京都, 日本 @ <+35.68123600,+139.76712400>".
  open override var description: String {
    let parts = [
      name, thoroughfare, subThoroughfare, subLocality, locality, administrativeArea, postalCode,
      country,
    ]
    var seen: Set<String> = []
    let text = parts.compactMap { $0 }.filter { seen.insert($0).inserted }
      .joined(separator: ", ")
    let latitude = String(format: "%+.8f", address.coordinate.latitude)
    let longitude = String(format: "%+.8f", address.coordinate.longitude)
    return "\(text) @ <\(latitude),\(longitude)>"
  }
}
