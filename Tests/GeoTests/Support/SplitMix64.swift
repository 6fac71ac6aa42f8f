import Foundation
import SimKernel

@testable import Geo

extension SplitMix64 {
  /// A uniform double in [0, 1).
  mutating func unit() -> Double { Double(next() >> 11) * 0x1p-53 }

  /// A uniform double in [lower, upper).
  mutating func uniform(_ lower: Double, _ upper: Double) -> Double {
    lower + (upper - lower) * unit()
  }

  /// A uniform double in `range`.
  mutating func double(in range: ClosedRange<Double>) -> Double {
    Double.random(in: range, using: &self)
  }

  /// A uniform integer in 0..<bound.
  mutating func below(_ bound: Int) -> Int { Int(next() % UInt64(bound)) }

  /// A coordinate distributed uniformly over the sphere.
  mutating func coordinate() -> Coordinate {
    let latitude = asin(uniform(-1, 1)) * 180 / .pi
    return Coordinate(uncheckedLatitude: latitude, longitude: uniform(-180, 180))
  }
}
