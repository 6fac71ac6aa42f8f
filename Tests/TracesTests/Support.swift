import Foundation
import Traces

/// The path of a fixture file.
func fixture(_ name: String) -> String {
  Bundle.module.url(forResource: "Fixtures/\(name)", withExtension: nil)!.path
}

/// Reads a fixture file.
func readFixture(_ name: String, format: TraceFormat? = nil) throws -> Trace {
  try Trace.read(contentsOf: fixture(name), format: format)
}

/// Seconds since the epoch of an ISO 8601 UTC time, through Foundation (an independent referee).
func epoch(_ text: String) -> Double {
  ISO8601DateFormatter().date(from: text)!.timeIntervalSince1970
}
