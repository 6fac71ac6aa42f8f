import Geo

/// The `p` quantile of `values`: linear interpolation between the closest ranks (Hyndman and
/// Fan's definition 7, the default of R and NumPy); `nil` when there are no values.
///
/// With the values sorted as x₀ ≤ x₁ ≤ … ≤ xₙ₋₁, the quantile sits at position
/// h = p (n − 1): it is x⌊h⌋ + (h − ⌊h⌋)(x⌊h⌋₊₁ − x⌊h⌋). So `p = 0` is the minimum, `p = 1` the
/// maximum, and the median (`p = 0.5`) is the middle value, or the mean of the middle two for
/// an even count. Every report (geofence, search, sweep) takes its medians and 90th
/// percentiles from this one function (docs/REPORTS.md).
///
/// - Parameters:
///   - values: Finite numbers, in any order.
///   - p: The probability, in [0, 1].
/// - Precondition: `p` is in [0, 1].
/// - Complexity: O(*n*) on average: the two ranks are selected, not sorted for.
public func quantile(_ values: [Double], _ p: Double) -> Double? {
  precondition(p >= 0 && p <= 1, "a quantile's probability must lie in [0, 1], got \(p)")
  guard !values.isEmpty else { return nil }
  let position = p * Double(values.count - 1)
  let lower = Int(position.rounded(.down))
  let upper = min(lower + 1, values.count - 1)
  let weight = position - Double(lower)
  // NaN has no rank: leave its ordering to the sort, as ever.
  if values.contains(where: \.isNaN) {
    let sorted = values.sorted()
    return sorted[lower] + (sorted[upper] - sorted[lower]) * weight
  }
  var ranked = values
  let (low, high) = ranked.withUnsafeMutableBufferPointer { buffer in
    buffer.select(lower, in: 0..<buffer.count) { $0 }
    // Everything after the selected rank is at least as large: its least is the next rank.
    let low = buffer[lower]
    return (low, upper == lower ? low : buffer[(lower + 1)...].min()!)
  }
  return low + (high - low) * weight
}
