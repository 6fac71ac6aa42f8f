import Foundation

// The direct geodesic problem, after Karney (2013), doi:10.1007/s00190-012-0578-z: find σ₁ on
// the auxiliary sphere, convert the distance to the arc τ of the rectifying variable, add it,
// convert back to σ₂ with the reverted series, and read off β₂, α₂ and λ₁₂.

/// The result of the direct problem before packaging.
struct DirectSolution {
  var latitude: Double
  var longitude: Double
  var sinAzimuth2: Double
  var cosAzimuth2: Double
}

extension Geodesic {
  /// Solves the direct problem from a latitude and longitude in degrees (latitude in [−90, 90],
  /// longitude in [−180, 180]), the azimuth as a normalized (sine, cosine) pair and a distance
  /// in metres.
  func solveDirect(
    latitude1: Double, longitude1: Double, sinAzimuth1 sinAlpha1: Double,
    cosAzimuth1 cosAlpha1: Double, distance: Double
  ) -> DirectSolution {
    let (s, c) = AngleMath.sinCos(degrees: AngleMath.rounded(latitude1))
    var sinBeta1 = oneMinusF * s
    var cosBeta1 = c
    let r = AngleMath.norm(sinBeta1, cosBeta1)
    sinBeta1 /= r
    // At a pole, start a tiny distance away on the given meridian (azimuths keep their limit).
    cosBeta1 = max(Geodesic.tiny, cosBeta1 / r)

    // Clairaut: sin α₀ = sin α₁ cos β₁.
    let sinAlpha0 = sinAlpha1 * cosBeta1
    let cosAlpha0 = AngleMath.norm(cosAlpha1, sinAlpha1 * sinBeta1)

    // σ₁ and ω₁ measured from the equator crossing; on the equator heading due east or west the
    // crossing is the point itself.
    var sinSigma1 = sinBeta1
    let sinOmega1 = sinAlpha0 * sinBeta1
    var cosSigma1 = sinBeta1 != 0 || cosAlpha1 != 0 ? cosBeta1 * cosAlpha1 : 1
    let cosOmega1 = cosSigma1
    let rs = AngleMath.norm(sinSigma1, cosSigma1)
    sinSigma1 /= rs
    cosSigma1 /= rs

    let epsilon = Geodesic.epsilon(kSquared: cosAlpha0 * cosAlpha0 * secondEccentricitySquared)
    let a1 = 1 + DistanceSeries.a1MinusOne(epsilon)
    let c1 = DistanceSeries.c1(epsilon)
    let c1Reverted = DistanceSeries.c1Reverted(epsilon)

    // τ₁ = σ₁ + B₁(σ₁), τ₂ = τ₁ + s / (b A₁), σ₂ = τ₂ + B′₁(τ₂); so
    // σ₁₂ = s / (b A₁) + B₁(σ₁) + B′₁(τ₂).
    let b11 = c1.sum(sin: sinSigma1, cos: cosSigma1)
    let sinB11 = sin(b11)
    let cosB11 = cos(b11)
    let sinTau1 = sinSigma1 * cosB11 + cosSigma1 * sinB11
    let cosTau1 = cosSigma1 * cosB11 - sinSigma1 * sinB11
    let tau12 = distance / (b * a1)
    let sinTau12 = sin(tau12)
    let cosTau12 = cos(tau12)
    let sinTau2 = sinTau1 * cosTau12 + cosTau1 * sinTau12
    let cosTau2 = cosTau1 * cosTau12 - sinTau1 * sinTau12
    let sigma12 = tau12 + b11 + c1Reverted.sum(sin: sinTau2, cos: cosTau2)
    let sinSigma12 = sin(sigma12)
    let cosSigma12 = cos(sigma12)

    let sinSigma2 = sinSigma1 * cosSigma12 + cosSigma1 * sinSigma12
    var cosSigma2 = cosSigma1 * cosSigma12 - sinSigma1 * sinSigma12

    // sin β₂ = cos α₀ sin σ₂; cos β₂ from the other two components of the unit vector.
    let sinBeta2 = cosAlpha0 * sinSigma2
    var cosBeta2 = AngleMath.norm(sinAlpha0, cosAlpha0 * cosSigma2)
    if cosBeta2 == 0 {
      // Ending exactly on a pole: keep the direction defined.
      cosBeta2 = Geodesic.tiny
      cosSigma2 = Geodesic.tiny
    }
    let sinAlpha2 = sinAlpha0
    let cosAlpha2 = cosAlpha0 * cosSigma2

    // λ₁₂ = ω₁₂ − f sin α₀ I₃ between σ₁ and σ₂. ω₁₂ is only needed modulo 2π.
    let sinOmega2 = sinAlpha0 * sinSigma2
    let cosOmega2 = cosSigma2
    let omega12 = atan2(
      sinOmega2 * cosOmega1 - cosOmega2 * sinOmega1,
      cosOmega2 * cosOmega1 + sinOmega2 * sinOmega1)
    let c3 = longitudeSeries.c(epsilon)
    let b312 =
      c3.sum(sin: sinSigma2, cos: cosSigma2) - c3.sum(sin: sinSigma1, cos: cosSigma1)
    let lam12 = omega12 - f * longitudeSeries.a(epsilon) * sinAlpha0 * (sigma12 + b312)
    let lon12 = Coordinate.normalizedLongitude(lam12 * AngleMath.degreesPerRadian)
    let longitude = Coordinate.normalizedLongitude(longitude1 + lon12)
    let latitude = max(-90, min(90, AngleMath.atan2(sinBeta2, oneMinusF * cosBeta2)))

    return DirectSolution(
      latitude: latitude, longitude: longitude, sinAzimuth2: sinAlpha2, cosAzimuth2: cosAlpha2)
  }
}
