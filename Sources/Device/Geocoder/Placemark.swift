import Geo

/// An address for a place, like `CLPlacemark`: the components a gazetteer knows, each `nil`
/// when unknown.
///
/// For a point in Japan, as CoreLocation reports it [A][3P]: ``administrativeArea`` is the
/// prefecture (東京都), ``locality`` the city or special ward (千代田区), ``subLocality`` the
/// district (丸の内), ``thoroughfare`` the chōme (丸の内１丁目) and ``subThoroughfare`` the block
/// number.
public struct Placemark: Hashable, Sendable {
  /// The place's name: a landmark's, or the most specific component otherwise.
  public var name: String?
  /// The street, or in Japan the chōme.
  public var thoroughfare: String?
  /// The street number, or in Japan the block number.
  public var subThoroughfare: String?
  /// The city or ward.
  public var locality: String?
  /// The neighbourhood or district.
  public var subLocality: String?
  /// The state or prefecture.
  public var administrativeArea: String?
  /// The postal code.
  public var postalCode: String?
  /// The country's name.
  public var country: String?
  /// The ISO 3166-1 alpha-2 country code.
  public var isoCountryCode: String?
  /// The coordinate that was looked up.
  public var coordinate: Coordinate

  /// A placemark at `coordinate` with no components.
  public init(coordinate: Coordinate) {
    self.coordinate = coordinate
  }

  /// The address components by their GeoJSON property names, in the order ``Gazetteer`` reads
  /// them.
  public static let componentNames = [
    "name", "thoroughfare", "subThoroughfare", "locality", "subLocality", "administrativeArea",
    "postalCode", "country", "isoCountryCode",
  ]

  /// The component called `name` (one of ``componentNames``).
  public subscript(component name: String) -> String? {
    get {
      switch name {
      case "name": self.name
      case "thoroughfare": thoroughfare
      case "subThoroughfare": subThoroughfare
      case "locality": locality
      case "subLocality": subLocality
      case "administrativeArea": administrativeArea
      case "postalCode": postalCode
      case "country": country
      case "isoCountryCode": isoCountryCode
      default: nil
      }
    }
    set {
      switch name {
      case "name": self.name = newValue
      case "thoroughfare": thoroughfare = newValue
      case "subThoroughfare": subThoroughfare = newValue
      case "locality": locality = newValue
      case "subLocality": subLocality = newValue
      case "administrativeArea": administrativeArea = newValue
      case "postalCode": postalCode = newValue
      case "country": country = newValue
      case "isoCountryCode": isoCountryCode = newValue
      default: break
      }
    }
  }
}
