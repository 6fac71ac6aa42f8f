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
    select(rank: lower, in: buffer)
    // Everything after the selected rank is at least as large: its least is the next rank.
    let low = buffer[lower]
    return (low, upper == lower ? low : buffer[(lower + 1)...].min()!)
  }
  return low + (high - low) * weight
}

/// Reorders `buffer` so that the value of rank `k` (the `k`-th smallest, from 0) is at index
/// `k`, no larger value before it and no smaller one after it (Hoare's selection: partition
/// around the median of three, keep the side that holds `k`). After 2 log₂ *n* rounds that
/// have not finished, what is left is sorted instead, so the worst case stays O(*n* log *n*).
private func select(rank k: Int, in buffer: UnsafeMutableBufferPointer<Double>) {
  var low = 0
  var high = buffer.count - 1
  var rounds = 2 * (Int.bitWidth - buffer.count.leadingZeroBitCount)
  while high > low {
    guard rounds > 0 else {
      var rest = UnsafeMutableBufferPointer(rebasing: buffer[low...high])
      rest.sort()
      return
    }
    rounds -= 1
    let middle = low + (high - low) / 2
    let pivot = median(buffer[low], buffer[middle], buffer[high])
    // Hoare's partition: [low, j] holds values ≤ pivot, [i, high] values ≥ pivot.
    var i = low
    var j = high
    while i <= j {
      while buffer[i] < pivot { i += 1 }
      while buffer[j] > pivot { j -= 1 }
      if i <= j {
        buffer.swapAt(i, j)
        i += 1
        j -= 1
      }
    }
    if k <= j {
      high = j
    } else if k >= i {
      low = i
    } else {
      return  // between the two parts: every value there equals the pivot
    }
  }
}

private func median(_ a: Double, _ b: Double, _ c: Double) -> Double {
  max(min(a, b), min(max(a, b), c))
}
