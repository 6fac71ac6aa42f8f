// The order-6 series of Karney, "Algorithms for geodesics", J. Geodesy 87, 43–55 (2013),
// doi:10.1007/s00190-012-0578-z.
//
// The integrals of the geodesic on the auxiliary sphere are expanded in
// ε = (√(1 + k²) − 1) / (√(1 + k²) + 1), k = e′ cos α₀, and, for the longitude integral, in the
// third flattening n as well:
//
//   I₁(σ) = A₁ (σ + Σ C₁ₗ sin 2lσ)   distance            s = b I₁(σ)
//   σ     = τ + Σ C′₁ₗ sin 2lτ        inverse of I₁       τ = s / (b A₁)
//   I₂(σ) = A₂ (σ + Σ C₂ₗ sin 2lσ)   reduced length      m = b (… − cos σ₁ cos σ₂ (I₁ − I₂))
//   I₃(σ) = A₃ (σ + Σ C₃ₗ sin 2lσ)   longitude           λ = ω − f sin α₀ I₃(σ)
//
// The coefficients below were checked against numerical quadrature of the integrals: the
// residual shrinks as ε⁷ (as t⁶ for I₃ with n, ε ∝ t), so every retained term is right.

/// The coefficients c₁…c₆ of the sine series `Σ cₗ sin 2lσ`.
struct SineSeries6 {
  var c1: Double
  var c2: Double
  var c3: Double
  var c4: Double
  var c5: Double
  var c6: Double

  /// The sum at the angle whose sine and cosine (normalized) are given, by Clenshaw summation.
  func sum(sin s: Double, cos c: Double) -> Double {
    // sin 2(l+1)σ = 2 cos 2σ · sin 2lσ − sin 2(l−1)σ, so the sum is sin 2σ · b₁ with
    // bₗ = cₗ + 2 cos 2σ · bₗ₊₁ − bₗ₊₂.
    let twoCos2 = 2 * (c - s) * (c + s)
    let b6 = c6
    let b5 = c5 + twoCos2 * b6
    let b4 = c4 + twoCos2 * b5 - b6
    let b3 = c3 + twoCos2 * b4 - b5
    let b2 = c2 + twoCos2 * b3 - b4
    let b1 = c1 + twoCos2 * b2 - b3
    return 2 * s * c * b1
  }
}

/// The coefficients c₁…c₅ of the sine series `Σ cₗ sin 2lσ`.
struct SineSeries5 {
  var c1: Double
  var c2: Double
  var c3: Double
  var c4: Double
  var c5: Double

  /// The sum at the angle whose sine and cosine (normalized) are given, by Clenshaw summation.
  func sum(sin s: Double, cos c: Double) -> Double {
    let twoCos2 = 2 * (c - s) * (c + s)
    let b5 = c5
    let b4 = c4 + twoCos2 * b5
    let b3 = c3 + twoCos2 * b4 - b5
    let b2 = c2 + twoCos2 * b3 - b4
    let b1 = c1 + twoCos2 * b2 - b3
    return 2 * s * c * b1
  }
}

/// The ε-only series: distance (I₁), its inverse, and the reduced-length integral (I₂).
enum DistanceSeries {
  /// `A₁ − 1`: A₁ = (1 + ε²/4 + ε⁴/64 + ε⁶/256) / (1 − ε).
  static func a1MinusOne(_ eps: Double) -> Double {
    let e2 = eps * eps
    let t = e2 * (1.0 / 4 + e2 * (1.0 / 64 + e2 / 256))
    return (t + eps) / (1 - eps)
  }

  /// C₁ₗ.
  static func c1(_ eps: Double) -> SineSeries6 {
    let e2 = eps * eps
    return SineSeries6(
      c1: eps * (-1.0 / 2 + e2 * (3.0 / 16 - e2 / 32)),
      c2: e2 * (-1.0 / 16 + e2 * (1.0 / 32 - e2 * 9 / 2048)),
      c3: eps * e2 * (-1.0 / 48 + e2 * 3 / 256),
      c4: e2 * e2 * (-5.0 / 512 + e2 * 3 / 512),
      c5: eps * e2 * e2 * (-7.0 / 1280),
      c6: e2 * e2 * e2 * (-7.0 / 2048))
  }

  /// C′₁ₗ, the coefficients of the reverted series σ(τ).
  static func c1Reverted(_ eps: Double) -> SineSeries6 {
    let e2 = eps * eps
    return SineSeries6(
      c1: eps * (1.0 / 2 + e2 * (-9.0 / 32 + e2 * 205 / 1536)),
      c2: e2 * (5.0 / 16 + e2 * (-37.0 / 96 + e2 * 1335 / 4096)),
      c3: eps * e2 * (29.0 / 96 - e2 * 75 / 128),
      c4: e2 * e2 * (539.0 / 1536 - e2 * 2391 / 2560),
      c5: eps * e2 * e2 * (3467.0 / 7680),
      c6: e2 * e2 * e2 * (38081.0 / 61440))
  }

  /// `A₂ − 1`: A₂ = (1 − ε)(1 + ε²/4 + 9ε⁴/64 + 25ε⁶/256).
  static func a2MinusOne(_ eps: Double) -> Double {
    let e2 = eps * eps
    let t = e2 * (1.0 / 4 + e2 * (9.0 / 64 + e2 * 25 / 256))
    return t - eps * (1 + t)
  }

  /// C₂ₗ.
  static func c2(_ eps: Double) -> SineSeries6 {
    let e2 = eps * eps
    return SineSeries6(
      c1: eps * (1.0 / 2 + e2 * (1.0 / 16 + e2 / 32)),
      c2: e2 * (3.0 / 16 + e2 * (1.0 / 32 + e2 * 35 / 2048)),
      c3: eps * e2 * (5.0 / 48 + e2 * 5 / 256),
      c4: e2 * e2 * (35.0 / 512 + e2 * 7 / 512),
      c5: eps * e2 * e2 * (63.0 / 1280),
      c6: e2 * e2 * e2 * (77.0 / 2048))
  }
}

/// The longitude series A₃ and C₃ₗ, with their n-dependence evaluated once per
/// ellipsoid so that each call only runs a polynomial in ε.
struct LongitudeSeries: Sendable {
  // A₃ = 1 + a1 ε + … + a5 ε⁵.
  let a1: Double
  let a2: Double
  let a3: Double
  let a4: Double
  let a5: Double
  // C₃ₗ = Σⱼ cₗⱼ εʲ for j = l…5.
  let c11: Double
  let c12: Double
  let c13: Double
  let c14: Double
  let c15: Double
  let c22: Double
  let c23: Double
  let c24: Double
  let c25: Double
  let c33: Double
  let c34: Double
  let c35: Double
  let c44: Double
  let c45: Double
  let c55: Double

  init(thirdFlattening n: Double) {
    let n2 = n * n
    a1 = -(1.0 / 2 - n / 2)
    a2 = -(1.0 / 4 + n / 8 - n2 * 3 / 8)
    a3 = -(1.0 / 16 + n * 3 / 16 + n2 / 16)
    a4 = -(3.0 / 64 + n / 32)
    a5 = -3.0 / 128
    c11 = 1.0 / 4 - n / 4
    c12 = 1.0 / 8 - n2 / 8
    c13 = 3.0 / 64 + n * 3 / 64 - n2 / 64
    c14 = 5.0 / 128 + n / 64
    c15 = 3.0 / 128
    c22 = 1.0 / 16 - n * 3 / 32 + n2 / 32
    c23 = 3.0 / 64 - n / 32 - n2 * 3 / 64
    c24 = 3.0 / 128 + n / 128
    c25 = 5.0 / 256
    c33 = 5.0 / 192 - n * 3 / 64 + n2 * 5 / 192
    c34 = 3.0 / 128 - n * 5 / 192
    c35 = 7.0 / 512
    c44 = 7.0 / 512 - n * 7 / 256
    c45 = 7.0 / 512
    c55 = 21.0 / 2560
  }

  /// A₃ at ε.
  func a(_ eps: Double) -> Double {
    1 + eps * (a1 + eps * (a2 + eps * (a3 + eps * (a4 + eps * a5))))
  }

  /// C₃ₗ at ε.
  func c(_ eps: Double) -> SineSeries5 {
    let e2 = eps * eps
    let e3 = e2 * eps
    let e4 = e2 * e2
    return SineSeries5(
      c1: eps * (c11 + eps * (c12 + eps * (c13 + eps * (c14 + eps * c15)))),
      c2: e2 * (c22 + eps * (c23 + eps * (c24 + eps * c25))),
      c3: e3 * (c33 + eps * (c34 + eps * c35)),
      c4: e4 * (c44 + eps * c45),
      c5: e4 * eps * c55)
  }
}
