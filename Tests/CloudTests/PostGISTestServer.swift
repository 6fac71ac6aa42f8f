import Cloud
import Foundation
import Testing

/// The PostGIS server the tests run against: `GEOSIM_POSTGIS_URL`, which `.ci/run` sets after
/// `scripts/postgis-cluster start`. Without it the PostGIS tests are skipped and say why.
enum PostGISTestServer {
  static let target: PostGISTarget? = ProcessInfo.processInfo.environment["GEOSIM_POSTGIS_URL"]
    .flatMap { $0.isEmpty ? nil : PostGISTarget(url: $0) }

  static let skipped: Comment = """
    GEOSIM_POSTGIS_URL is not set, so there is no PostGIS server to test against \
    (scripts/postgis-cluster start DIR PORT starts one)
    """

  /// A table name no other test uses.
  static func uniqueName(_ stem: String) -> String {
    "geosim_test_\(stem)_\(UInt32.random(in: 0...UInt32.max))"
  }
}
