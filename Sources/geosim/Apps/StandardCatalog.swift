import Replay

extension AppCatalog {
  /// The apps `geosim replay` knows: the five reference apps.
  static var standard: AppCatalog {
    AppCatalog()
  }
}
