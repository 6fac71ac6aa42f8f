import Device
import Foundation
import Geo
import GeoSimFrameworks
import SimKernel
import Testing

@Suite("CoreLocation names over the simulated phone")
struct CoreLocationTests {
  // MARK: Errors

  @Test("CLError.Code has Apple's twenty cases with their raw values")
  func errorCodes() {
    let apple: [(CLError.Code, Int)] = [
      (.locationUnknown, 0), (.denied, 1), (.network, 2), (.headingFailure, 3),
      (.regionMonitoringDenied, 4), (.regionMonitoringFailure, 5),
      (.regionMonitoringSetupDelayed, 6), (.regionMonitoringResponseDelayed, 7),
      (.geocodeFoundNoResult, 8), (.geocodeFoundPartialResult, 9), (.geocodeCanceled, 10),
      (.deferredFailed, 11), (.deferredNotUpdatingLocation, 12), (.deferredAccuracyTooLow, 13),
      (.deferredDistanceFiltered, 14), (.deferredCanceled, 15), (.rangingUnavailable, 16),
      (.rangingFailure, 17), (.promptDeclined, 18), (.historicalLocationError, 19),
    ]
    #expect(CLError.Code.allCases.count == apple.count)
    for (code, raw) in apple {
      #expect(code.rawValue == raw, "\(code)")
      #expect(CLError.Code(rawValue: raw) == code)
    }
    #expect(CLError.Code(rawValue: 20) == nil)
    #expect("\(CLError.Code.regionMonitoringResponseDelayed)" == "regionMonitoringResponseDelayed")
  }

  @Test("a CLError matches its code in a pattern, by its code, and as an NSError")
  func errorMatching() {
    #expect(userMessage(for: CLError(.denied)) == "Location is off for this app.")
    #expect(userMessage(for: CLError(.geocodeFoundNoResult)) == "No address here.")
    #expect(userMessage(for: CLError(.network, reason: "offline")) == "No connection.")
    #expect(userMessage(for: CLError(.promptDeclined)) == "Precise location was not granted.")
    #expect(userMessage(for: CLError(.headingFailure)) == "Something went wrong.")
    let error = CLError(.regionMonitoringFailure, reason: "radius too large") as NSError
    #expect(error.domain == "kCLErrorDomain")
    #expect(error.code == 5)
    #expect(error.localizedDescription == "radius too large")
    // The static members are the codes, so `CLError.denied` and `.denied` agree.
    #expect(CLError.promptDeclined == CLError.Code.promptDeclined)
    #expect(CLError.historicalLocationError.rawValue == 19)
  }
}
