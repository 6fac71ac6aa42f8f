extension UnsafeMutableBufferPointer {
  /// Reorders the elements in `range` so that position `nth` holds the element a sort by `key`
  /// would put there, with no greater key before it and no smaller key after it.
  ///
  /// Hoare's FIND with a median-of-three pivot; equal keys are swapped across, so duplicates
  /// split evenly. A range under 16 elements is sorted, and so is one that partitioning stops
  /// shrinking (after 2 log₂ *n* + 8 rounds), so the worst case stays O(*n* log *n*). The
  /// point index splits its nodes with it, and `quantile` finds its ranks with it.
  @inlinable @inline(__always)
  package func select(_ nth: Int, in range: Range<Int>, by key: (Element) -> Double) {
    guard range.count > 1 else { return }
    var lo = range.lowerBound
    var hi = range.upperBound - 1
    var budget = 2 * (Int.bitWidth - range.count.leadingZeroBitCount) + 8
    while hi > lo {
      if hi - lo < 16 || budget == 0 {
        var part = UnsafeMutableBufferPointer(rebasing: self[lo...hi])
        part.sort { key($0) < key($1) }
        return
      }
      budget -= 1
      let a = key(self[lo])
      let b = key(self[lo + (hi - lo) / 2])
      let c = key(self[hi])
      let pivot = Swift.max(Swift.min(a, b), Swift.min(Swift.max(a, b), c))
      var i = lo
      var j = hi
      while i <= j {
        while key(self[i]) < pivot { i += 1 }
        while key(self[j]) > pivot { j -= 1 }
        if i <= j {
          swapAt(i, j)
          i += 1
          j -= 1
        }
      }
      if nth <= j {
        hi = j
      } else if nth >= i {
        lo = i
      } else {
        return
      }
    }
  }
}
