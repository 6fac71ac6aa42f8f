// Written as for iOS: this file compiles unchanged against Apple's frameworks, with the import
// swap below as its only difference.
#if canImport(CoreLocation)
  import CoreLocation
#else
  import GeoSimFrameworks
#endif

/// What an app would tell its user for a Core Location error, matched the three ways iOS code
/// does: a `catch`-style pattern, the code of a `CLError`, and `NSError`'s domain and code.
func userMessage(for error: Error) -> String {
  switch error {
  case CLError.denied: return "Location is off for this app."
  case CLError.geocodeCanceled: return ""
  case CLError.geocodeFoundNoResult: return "No address here."
  default: break
  }
  if let error = error as? CLError, error.code == .network {
    return "No connection."
  }
  let error = error as NSError
  if error.domain == kCLErrorDomain && error.code == CLError.Code.promptDeclined.rawValue {
    return "Precise location was not granted."
  }
  return "Something went wrong."
}
