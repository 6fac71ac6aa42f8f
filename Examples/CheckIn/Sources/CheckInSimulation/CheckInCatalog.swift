import CheckIn
import GeoSimFrameworks
import Replay

extension AppCatalog {
  /// The apps this package's scenarios can name: `CheckIn`, launched through its app delegate.
  public static var checkIn: AppCatalog {
    var catalog = AppCatalog()
    catalog.register("CheckIn") { _ in
      { ApplicationHost { AppDelegate() } }
    }
    return catalog
  }
}
