import Foundation

/// Angle arithmetic in degrees that is exact where it can be.
///
/// Reducing an angle in degrees before converting it to radians keeps multiples of 90° exact
/// (`sin 180° = 0`, not `1.2e-16`), which the geodesic special cases rely on.
enum AngleMath {
  static let radiansPerDegree = Double.pi / 180
  static let degreesPerRadian = 180 / Double.pi

  /// The sine and cosine of an angle in degrees, with the argument reduced exactly first.
  static func sinCos(degrees x: Double) -> (sin: Double, cos: Double) {
    // IEEE remainder is exact and lands in [-180, 180]; removing the nearest multiple of 90°
    // is exact too, leaving |r| ≤ 45° for the library sine and cosine.
    var r = abs(x) <= 180 ? x : x.remainder(dividingBy: 360)
    let quarterTurns = (r / 90).rounded()
    r -= quarterTurns * 90
    let s = sin(r * radiansPerDegree)
    let c = cos(r * radiansPerDegree)
    switch Int(quarterTurns) & 3 {
    case 0: return (s, c)
    case 1: return (c, -s)
    case 2: return (-s, -c)
    default: return (-c, s)
    }
  }

  /// The angle in degrees, in [−180, 180], of the vector (`x`, `y`); exact at multiples of 90°.
  static func atan2(_ y: Double, _ x: Double) -> Double {
    let ax = abs(x)
    let ay = abs(y)
    // The first-quadrant angle, always taking the arctangent of a ratio at most 1 so that the
    // complement 90° − θ is formed in degrees, where 90 is exact.
    var angle =
      ay > ax
      ? 90 - Foundation.atan2(ax, ay) * degreesPerRadian
      : Foundation.atan2(ay, ax) * degreesPerRadian
    if x < 0 { angle = 180 - angle }
    return y.sign == .minus ? -angle : angle
  }

  /// √(x² + y²) for the O(1) components of unit vectors; much cheaper than `hypot`, which it
  /// falls back to only when the squares would underflow.
  static func norm(_ x: Double, _ y: Double) -> Double {
    let r2 = x * x + y * y
    return r2 > 1e-280 ? r2.squareRoot() : hypot(x, y)
  }

  /// An azimuth in degrees moved into (−180, 180], with −0 reported as 0.
  static func azimuth(_ y: Double, _ x: Double) -> Double {
    let angle = atan2(y, x)
    return angle == -180 ? 180 : angle + 0
  }

  /// `x` with tiny magnitudes snapped to zero and the rest rounded to a fixed absolute grain.
  ///
  /// Angles below about 1e-17° would otherwise underflow when squared deep inside the geodesic
  /// formulas; rounding small angles to a grain of 2⁻⁵⁷ degrees (under 1e-12 m on the Earth)
  /// removes that hazard without any visible effect on results.
  static func rounded(_ x: Double) -> Double {
    let grain = 1.0 / 16
    let y = abs(x)
    // Subtracting from a larger fixed number rounds y to that number's resolution.
    let r = y < grain ? grain - (grain - y) : y
    return x.sign == .minus ? -r : r
  }

  /// The exact sum `a + b` as a rounded sum and its rounding error (Knuth's two-sum).
  static func twoSum(_ a: Double, _ b: Double) -> (sum: Double, error: Double) {
    let s = a + b
    let bVirtual = s - a
    let aVirtual = s - bVirtual
    let error = (a - aVirtual) + (b - bVirtual)
    return (s, error)
  }

  /// `lon2 − lon1` reduced into [−180, 180] as a rounded value plus its rounding error.
  ///
  /// Both inputs must lie in [−180, 180]. When the difference is 0 or ±180 its sign is that of
  /// the exact difference, so that meridional and antipodal cases pick a consistent side.
  static func longitudeDifference(
    _ lon1: Double, _ lon2: Double
  ) -> (difference: Double, error: Double) {
    var (d, t) = twoSum(lon2, -lon1)
    if d > 180 || (d == 180 && t > 0) {
      d -= 360  // exact: d lies in [180, 360)
    } else if d < -180 || (d == -180 && t < 0) {
      d += 360
    }
    var (difference, error) = twoSum(d, t)
    if difference == 0 || abs(difference) == 180 {
      let sign = error == 0 ? lon2 - lon1 : -error
      difference = sign.sign == .minus ? -abs(difference) : abs(difference)
    }
    return (difference, error)
  }
}
