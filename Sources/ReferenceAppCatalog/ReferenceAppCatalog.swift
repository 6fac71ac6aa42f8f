import JSON
import ReferenceApps
import Replay

extension AppCatalog {
  /// The five reference apps (`ThreeWordLocator`, `StationFinder`, `PinDrop`, `WeatherWidget`,
  /// `ArrivalAlarm`), each `as-published` and `corrected`, and ArrivalAlarm also `modern`:
  /// the apps `geosim replay` knows. A scenario naming a variant its app does not come in is
  /// refused at `app.variant` with that app's variants. Add your own with
  /// `AppCatalog.register(_:variants:events:make:)`.
  public static var referenceApps: AppCatalog {
    var catalog = AppCatalog()
    for kind in ReferenceAppKind.allCases {
      let variants = kind.variants.map(\.rawValue)
      catalog.register(kind.rawValue, variants: variants, events: kind.events) { context in
        guard let variant = ReferenceAppVariant(rawValue: context.variant ?? "") else {
          throw AppConfigurationError(path: "", "expected a variant: \(variants)")
        }
        do {
          return try kind.factory(
            variant: variant, configuration: context.configuration,
            services: ReferenceAppServices(
              network: context.network))
        } catch let error as ReferenceAppConfigurationError {
          throw AppConfigurationError(path: error.path, error.message)
        }
      }
    }
    return catalog
  }
}
