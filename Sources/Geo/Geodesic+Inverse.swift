import Foundation

// The inverse geodesic problem, after Karney (2013), doi:10.1007/s00190-012-0578-z: special
// cases, a starting point (spherical, or from the astroid for nearly antipodal points) and
// Newton's method on the azimuth at the first point.
//
// Notation follows the paper: φ latitude, β reduced latitude, α azimuth, α₀ the azimuth at the
// equator crossing, σ arc length and ω longitude on the auxiliary sphere, λ longitude on the
// ellipsoid. Angles travel as (sine, cosine) pairs wherever possible, which keeps their
// quadrant and avoids inverse trigonometric calls.

/// The result of the inverse problem before conversion to degrees.
struct InverseSolution {
  var distance: Double
  /// The reduced length m₁₂ in metres: how far the end moves sideways per radian of change in
  /// the initial azimuth. It measures how well the azimuths are determined by the end points.
  var reducedLength: Double
  var sinAzimuth1: Double
  var cosAzimuth1: Double
  var sinAzimuth2: Double
  var cosAzimuth2: Double
}

/// The reduced latitude β of a point and the derived √(1 + e′² sin² β).
private struct ReducedLatitude {
  var sin: Double
  var cos: Double
  /// √(1 + e′² sin² β) = √(1 + k² sin² σ) at this point, for any geodesic through it.
  var dn: Double
}

/// One evaluation of the longitude mismatch λ₁₂(α₁) − λ₁₂ for a trial azimuth α₁.
private struct LongitudeEvaluation {
  /// λ₁₂(α₁) − λ₁₂, in radians.
  var mismatch: Double
  /// dλ₁₂/dα₁ (only when requested).
  var derivative: Double
  var sinAlpha2: Double
  var cosAlpha2: Double
  var sigma12: Double
  var sinSigma1: Double
  var cosSigma1: Double
  var sinSigma2: Double
  var cosSigma2: Double
  var epsilon: Double
}

/// A first estimate of α₁ (and, for very short lines, the complete answer).
private struct StartingPoint {
  var sinAlpha1: Double
  var cosAlpha1: Double
  /// When the line is short enough to be solved outright: the arc σ₁₂, the azimuth at the end
  /// and the local radius factor; `shortSigma12` is negative otherwise.
  var shortSigma12: Double
  var sinAlpha2: Double
  var cosAlpha2: Double
  var dnMean: Double
}

/// `x` if it is positive, else +0 (unlike `max(0, x)`, which returns −0 for x = −0).
private func positivePart(_ x: Double) -> Double {
  x > 0 ? x : 0
}

/// Tolerances for the Newton iteration and the special cases.
private enum Tolerance {
  /// Machine epsilon: convergence target for λ₁₂ in radians.
  static let zero = Double.ulpOfOne
  /// √ε.
  static let root = Double.ulpOfOne.squareRoot()
  /// Nearly-zero scaled latitude offset for the astroid: treat as on the y = 0 segment.
  static let astroidY = 200 * Double.ulpOfOne
  /// How far beyond the astroid cusp (x = −1) the y = 0 segment is still used.
  static let astroidX = 1000 * root
  /// Bracket width at which bisection stops.
  static let bisection = Double.ulpOfOne * root
  static let tiny = Geodesic.tiny
  /// Newton steps before falling back to bisection only.
  static let newtonIterations = 20
  /// Total iterations; bisection needs about 60 to close the bracket from π to round-off.
  static let maximumIterations = newtonIterations + 64
}

extension Geodesic {
  /// Solves the inverse problem for latitudes in [−90, 90] and longitudes in [−180, 180] (deg).
  func solveInverse(
    latitude1: Double, longitude1: Double, latitude2: Double, longitude2: Double
  ) -> InverseSolution {
    // Reduce to a canonical configuration: |φ₁| ≥ |φ₂|, φ₁ ≤ 0 and 0 ≤ λ₁₂ ≤ 180°. Then the
    // first point is the one farthest from the equator, in the southern hemisphere, and the
    // geodesic heads east; every other case is a reflection or a reversal of this one.
    var (lon12, lon12Error) = AngleMath.longitudeDifference(longitude1, longitude2)
    lon12 = AngleMath.rounded(lon12)
    var lat1 = AngleMath.rounded(latitude1)
    var lat2 = AngleMath.rounded(latitude2)
    let swapped = abs(lat1) < abs(lat2)
    if swapped {
      swap(&lat1, &lat2)
      lon12 = -lon12
      lon12Error = -lon12Error
    }
    let lonSign: Double = lon12.sign == .minus ? -1 : 1
    lon12 *= lonSign
    lon12Error *= lonSign
    // +0 counts as northern, so the equator is reflected too (matching GeographicLib's choice
    // among equally short paths).
    let latSign: Double = lat1.sign == .minus ? 1 : -1
    lat1 *= latSign
    lat2 *= latSign

    var solution = solveCanonicalInverse(
      lat1: lat1, lat2: lat2, lon12: lon12, lon12Error: lon12Error)

    // Undo the reflections, then the reversal.
    solution.cosAzimuth1 *= latSign
    solution.cosAzimuth2 *= latSign
    solution.sinAzimuth1 *= lonSign
    solution.sinAzimuth2 *= lonSign
    if swapped {
      // Travelling from the second point to the first: each end's azimuth turns by 180°.
      (solution.sinAzimuth1, solution.cosAzimuth1, solution.sinAzimuth2, solution.cosAzimuth2) =
        (-solution.sinAzimuth2, -solution.cosAzimuth2, -solution.sinAzimuth1, -solution.cosAzimuth1)
    }
    return solution
  }

  private func reducedLatitude(_ latitude: Double) -> ReducedLatitude {
    let (s, c) = AngleMath.sinCos(degrees: latitude)
    var sinBeta = oneMinusF * s
    var cosBeta = c
    let r = AngleMath.norm(sinBeta, cosBeta)
    sinBeta /= r
    // A pole becomes a point a tiny distance from it on the given meridian, which gives the
    // azimuths there their limiting values.
    cosBeta = max(Tolerance.tiny, cosBeta / r)
    return ReducedLatitude(
      sin: sinBeta, cos: cosBeta,
      dn: (1 + secondEccentricitySquared * sinBeta * sinBeta).squareRoot())
  }

  /// The inverse problem with `lat1 ≤ 0`, `|lat2| ≤ |lat1|` and `0 ≤ lon12 ≤ 180`.
  private func solveCanonicalInverse(
    lat1: Double, lat2: Double, lon12: Double, lon12Error: Double
  ) -> InverseSolution {
    let point1 = reducedLatitude(lat1)
    let point2 = reducedLatitude(lat2)

    // λ₁₂ in radians, with sine and cosine. Near 180° the supplement 180° − λ₁₂ is the
    // informative quantity; it is formed exactly from the two-part longitude difference.
    let lon12Supplement = (180 - lon12) - lon12Error
    let lam12 = lon12 * AngleMath.radiansPerDegree
    let sinLam12: Double
    let cosLam12: Double
    if lon12 > 90 {
      let (s, c) = AngleMath.sinCos(degrees: lon12Supplement)
      sinLam12 = s
      cosLam12 = -c
    } else {
      (sinLam12, cosLam12) = AngleMath.sinCos(degrees: lon12)
    }

    // Meridional geodesic: a pole, or both points on one meridian (λ₁₂ = 0) or on a meridian
    // and its opposite (λ₁₂ = 180°, over the pole). The meridian is the shortest path unless
    // it runs past the conjugate point, where the reduced length m₁₂ turns negative.
    if lat1 == -90 || sinLam12 == 0 {
      if let solution = meridionalSolution(point1, point2, sinLam12: sinLam12, cosLam12: cosLam12) {
        return solution
      }
    }

    // Equatorial geodesic: both points on the equator, and not so far apart that a path over
    // a pole becomes shorter (which happens beyond λ₁₂ = (1 − f) · 180°).
    if point1.sin == 0 && (f == 0 || lon12Supplement >= f * 180) {
      return InverseSolution(
        distance: a * lam12, reducedLength: b * sin(lam12 / oneMinusF),
        sinAzimuth1: 1, cosAzimuth1: 0, sinAzimuth2: 1, cosAzimuth2: 0)
    }

    let start = startingPoint(
      point1, point2, lam12: lam12, lam12MinusPi: -lon12Supplement * AngleMath.radiansPerDegree,
      sinLam12: sinLam12, cosLam12: cosLam12)
    if start.shortSigma12 >= 0 {
      let distance = start.shortSigma12 * b * start.dnMean
      return InverseSolution(
        distance: distance, reducedLength: distance,
        sinAzimuth1: start.sinAlpha1, cosAzimuth1: start.cosAlpha1,
        sinAzimuth2: start.sinAlpha2, cosAzimuth2: start.cosAlpha2)
    }

    // Solve λ₁₂(α₁) = λ₁₂ for α₁ in (0, π). λ₁₂ grows with α₁, so every evaluation narrows a
    // bracket; Newton steps that would leave the bracket are replaced by bisection.
    var sinAlpha1 = start.sinAlpha1
    var cosAlpha1 = start.cosAlpha1
    // The bracket ends as (sin, cos) pairs; α near 0 undershoots λ₁₂ and α near π overshoots.
    var lowSin = Tolerance.tiny
    var lowCos = 1.0
    var highSin = Tolerance.tiny
    var highCos = -1.0
    var polishing = false
    var bisectionDone = false
    var iteration = 0
    var evaluation: LongitudeEvaluation
    while true {
      evaluation = longitudeMismatch(
        point1, point2, sinAlpha1: sinAlpha1, cosAlpha1: cosAlpha1,
        sinLam12: sinLam12, cosLam12: cosLam12,
        wantDerivative: iteration < Tolerance.newtonIterations)
      let v = evaluation.mismatch
      // After a Newton step taken from an already tiny mismatch, accept a result at the
      // round-off floor rather than chase it.
      let target = (polishing ? 8 : 1) * Tolerance.zero
      if bisectionDone || !(abs(v) >= target) || iteration == Tolerance.maximumIterations {
        break
      }
      // cot α decreases with α on (0, π): compare cotangents to keep the tightest bracket.
      if v > 0 && cosAlpha1 / sinAlpha1 > highCos / highSin {
        highSin = sinAlpha1
        highCos = cosAlpha1
      } else if v < 0 && cosAlpha1 / sinAlpha1 < lowCos / lowSin {
        lowSin = sinAlpha1
        lowCos = cosAlpha1
      }
      iteration += 1
      if iteration < Tolerance.newtonIterations && evaluation.derivative > 0 {
        let step = -v / evaluation.derivative
        if abs(step) < Double.pi {
          let sinStep = sin(step)
          let cosStep = cos(step)
          let newSin = sinAlpha1 * cosStep + cosAlpha1 * sinStep
          let newCos = cosAlpha1 * cosStep - sinAlpha1 * sinStep
          // Accept the step if it stays in (0, π) and strictly inside the bracket.
          if newSin > 0 && newCos / newSin < lowCos / lowSin && newCos / newSin > highCos / highSin
          {
            let r = AngleMath.norm(newSin, newCos)
            sinAlpha1 = newSin / r
            cosAlpha1 = newCos / r
            polishing = abs(v) <= 16 * Tolerance.zero
            continue
          }
        }
      }
      // Bisect: the normalized sum of two unit vectors halves the angle between them.
      let midSin = (lowSin + highSin) / 2
      let midCos = (lowCos + highCos) / 2
      let r = AngleMath.norm(midSin, midCos)
      sinAlpha1 = midSin / r
      cosAlpha1 = midCos / r
      polishing = false
      bisectionDone =
        abs(lowSin - sinAlpha1) + (lowCos - cosAlpha1) < Tolerance.bisection
        || abs(sinAlpha1 - highSin) + (cosAlpha1 - highCos) < Tolerance.bisection
    }

    let lengths = self.lengths(
      epsilon: evaluation.epsilon, sigma12: evaluation.sigma12,
      sinSigma1: evaluation.sinSigma1, cosSigma1: evaluation.cosSigma1, dn1: point1.dn,
      sinSigma2: evaluation.sinSigma2, cosSigma2: evaluation.cosSigma2, dn2: point2.dn,
      wantDistance: true)
    return InverseSolution(
      distance: b * lengths.distance + 0, reducedLength: b * lengths.reducedLength,
      sinAzimuth1: sinAlpha1, cosAzimuth1: cosAlpha1,
      sinAzimuth2: evaluation.sinAlpha2, cosAzimuth2: evaluation.cosAlpha2)
  }

  /// The meridional solution, or nil when the meridian is not the shortest path.
  private func meridionalSolution(
    _ point1: ReducedLatitude, _ point2: ReducedLatitude, sinLam12: Double, cosLam12: Double
  ) -> InverseSolution? {
    // Heading along the meridian λ₁₂ from point 1 (at a pole, azimuth = λ₁₂), arriving north.
    let sinAlpha1 = sinLam12
    let cosAlpha1 = cosLam12
    let sinSigma1 = point1.sin
    let cosSigma1 = cosAlpha1 * point1.cos
    let sinSigma2 = point2.sin
    let cosSigma2 = point2.cos
    let sigma12 = atan2(
      positivePart(cosSigma1 * sinSigma2 - sinSigma1 * cosSigma2),
      cosSigma1 * cosSigma2 + sinSigma1 * sinSigma2)
    let lengths = self.lengths(
      epsilon: meridianEpsilon, sigma12: sigma12,
      sinSigma1: sinSigma1, cosSigma1: cosSigma1, dn1: point1.dn,
      sinSigma2: sinSigma2, cosSigma2: cosSigma2, dn2: point2.dn,
      wantDistance: true)
    // A short meridian is always shortest; a long one only before its conjugate point.
    guard sigma12 < 1 || lengths.reducedLength >= 0 else { return nil }
    var distance = b * lengths.distance
    var reducedLength = b * lengths.reducedLength
    // Coincident points can leave a round-off residue of either sign; report exactly zero.
    if sigma12 < 3 * Tolerance.tiny
      || (sigma12 < Tolerance.zero && (lengths.distance < 0 || lengths.reducedLength < 0))
    {
      distance = 0
      reducedLength = 0
    }
    return InverseSolution(
      distance: distance + 0, reducedLength: reducedLength, sinAzimuth1: sinAlpha1,
      cosAzimuth1: cosAlpha1,
      sinAzimuth2: 0, cosAzimuth2: 1)
  }

  /// A starting azimuth for Newton's method; solves short lines outright.
  private func startingPoint(
    _ point1: ReducedLatitude, _ point2: ReducedLatitude,
    lam12: Double, lam12MinusPi: Double, sinLam12: Double, cosLam12: Double
  ) -> StartingPoint {
    let sinBeta12 = point2.sin * point1.cos - point2.cos * point1.sin  // sin(β₂ − β₁)
    let cosBeta12 = point2.cos * point1.cos + point2.sin * point1.sin  // cos(β₂ − β₁)
    let sinBetaSum = point2.sin * point1.cos + point2.cos * point1.sin  // sin(β₂ + β₁)

    // For short lines, treat the ellipsoid locally as a sphere whose longitude scale is that of
    // the mean reduced latitude: ω₁₂ = λ₁₂ / √(1 − e² cos² β̄).
    let shortLine = cosBeta12 >= 0 && sinBeta12 < 0.5 && point2.cos * lam12 < 0.5
    var sinOmega12 = sinLam12
    var cosOmega12 = cosLam12
    var dnMean = 1.0
    if shortLine {
      var sinBetaMean2 = (point1.sin + point2.sin) * (point1.sin + point2.sin)
      sinBetaMean2 /= sinBetaMean2 + (point1.cos + point2.cos) * (point1.cos + point2.cos)
      dnMean = (1 + secondEccentricitySquared * sinBetaMean2).squareRoot()
      let omega12 = lam12 / (oneMinusF * dnMean)
      sinOmega12 = sin(omega12)
      cosOmega12 = cos(omega12)
    }

    // The great-circle azimuth on the auxiliary sphere, in the form that avoids cancellation
    // on each side of ω₁₂ = 90°.
    var sinAlpha1 = point2.cos * sinOmega12
    let sinOmega12Squared = sinOmega12 * sinOmega12
    var cosAlpha1 =
      cosOmega12 >= 0
      ? sinBeta12 + point2.cos * point1.sin * sinOmega12Squared / (1 + cosOmega12)
      : sinBetaSum - point2.cos * point1.sin * sinOmega12Squared / (1 - cosOmega12)
    let sinSigma12 = AngleMath.norm(sinAlpha1, cosAlpha1)
    let cosSigma12 = point1.sin * point2.sin + point1.cos * point2.cos * cosOmega12

    if shortLine && sinSigma12 < shortLineArc {
      // Short enough that the local sphere is exact to round-off.
      var sinAlpha2 = point1.cos * sinOmega12
      var cosAlpha2 =
        sinBeta12 - point1.cos * point2.sin
        * (cosOmega12 >= 0 ? sinOmega12Squared / (1 + cosOmega12) : 1 - cosOmega12)
      let r2 = AngleMath.norm(sinAlpha2, cosAlpha2)
      sinAlpha2 /= r2
      cosAlpha2 /= r2
      let r1 = AngleMath.norm(sinAlpha1, cosAlpha1)
      return StartingPoint(
        sinAlpha1: sinAlpha1 / r1, cosAlpha1: cosAlpha1 / r1,
        shortSigma12: atan2(sinSigma12, cosSigma12),
        sinAlpha2: sinAlpha2, cosAlpha2: cosAlpha2, dnMean: dnMean)
    }

    // Nearly antipodal points (within a few f·π·cos²β₁ of the antipode on the auxiliary
    // sphere): the spherical estimate is poor there, because all geodesics from point 1 pass
    // close to its antipode. Their envelope is an astroid; solve for the azimuth of the geodesic
    // through point 2 on a locally flattened picture.
    if cosSigma12 < 0 && sinSigma12 < 6 * n * Double.pi * point1.cos * point1.cos {
      (sinAlpha1, cosAlpha1) = astroidStart(
        point1, lam12MinusPi: lam12MinusPi, sinBetaSum: sinBetaSum)
    }

    if sinAlpha1 > 0 {
      let r = AngleMath.norm(sinAlpha1, cosAlpha1)
      sinAlpha1 /= r
      cosAlpha1 /= r
    } else {
      sinAlpha1 = 1
      cosAlpha1 = 0
    }
    return StartingPoint(
      sinAlpha1: sinAlpha1, cosAlpha1: cosAlpha1, shortSigma12: -1,
      sinAlpha2: 0, cosAlpha2: 0, dnMean: dnMean)
  }

  /// The starting azimuth for nearly antipodal points (oblate ellipsoid).
  ///
  /// A geodesic leaving point 1 with azimuth α₁ returns to latitude −β₁ after half a circuit,
  /// short of the antipodal longitude by Δ sin α₁ with Δ = f π A₃ cos β₁. Near there, in the
  /// coordinates x = (λ₁₂ − π) / Δ, y = (β₁ + β₂) / (Δ cos β₁), the geodesic is the line
  /// x = −(1 + μ) sin α₁, y = μ cos α₁, where μ > 0 measures how far short of the half circuit it
  /// stops. Eliminating α₁ gives x² / (1 + μ)² + y² / μ² = 1, whose envelope is the astroid.
  private func astroidStart(
    _ point1: ReducedLatitude, lam12MinusPi: Double, sinBetaSum: Double
  ) -> (Double, Double) {
    // A₃ for the geodesic through point 1 that crosses the equator at right angles (cos α₀ =
    // |sin β₁|), which is a good enough stand-in for the unknown one.
    let k2 = point1.sin * point1.sin * secondEccentricitySquared
    let longitudeScale =
      f * point1.cos * longitudeSeries.a(Geodesic.epsilon(kSquared: k2)) * Double.pi
    let latitudeScale = longitudeScale * point1.cos
    let x = lam12MinusPi / longitudeScale
    let y = sinBetaSum / latitudeScale
    if y > -Tolerance.astroidY && x > -1 - Tolerance.astroidX {
      // On the segment y = 0 between the cusps every μ → 0: sin α₁ = −x and the path leaves
      // heading south (matching GeographicLib for exactly antipodal points).
      let sinAlpha1 = min(1, -x)
      return (sinAlpha1, -(1 - sinAlpha1 * sinAlpha1).squareRoot())
    }
    let mu = Geodesic.astroidRoot(x: x, y: y)
    return (-x / (1 + mu), y / mu)
  }

  /// The positive root μ of x² / (1 + μ)² + y² / μ² = 1 (requires y ≠ 0 or |x| > 1).
  ///
  /// h(μ) = x² / (1 + μ)² + y² / μ² − 1 is convex and decreasing for μ > 0, so Newton's method
  /// started at any μ with h(μ) ≥ 0 climbs monotonically to the root.
  static func astroidRoot(x: Double, y: Double) -> Double {
    let p = x * x
    let q = y * y
    if q == 0 { return max(0, abs(x) - 1) }
    func h(_ mu: Double) -> Double {
      let u = 1 + mu
      return p / (u * u) + q / (mu * mu) - 1
    }
    // Lower bounds: each term of h is at most 1, so μ ≥ |y| and μ ≥ |x| − 1. For |x| < 1,
    // 1 − x² / (1 + μ)² ≤ (1 − x²) + 2μ, so μ² (1 − x²) ≤ y² / 2 and 2μ³ ≤ y² / 2 together
    // make h(μ) ≥ 0; that start is within a small factor of the root near the cusp too.
    var mu = max(abs(y), abs(x) - 1)
    if p < 1 {
      let candidate = min((q / (2 * (1 - p))).squareRoot(), cbrt(q / 4))
      if candidate > mu && h(candidate) >= 0 { mu = candidate }
    }
    for _ in 0..<100 {
      let u = 1 + mu
      let termX = p / (u * u)
      let termY = q / (mu * mu)
      let value = termX + termY - 1
      if !(value > 0) { break }
      let step = value / (2 * (termX / u + termY / mu))
      mu += step
      if step <= mu * Double.ulpOfOne { break }
    }
    return mu
  }

  /// λ₁₂(α₁) − λ₁₂ for the geodesic leaving point 1 with azimuth α₁, and what comes with it.
  private func longitudeMismatch(
    _ point1: ReducedLatitude, _ point2: ReducedLatitude,
    sinAlpha1 sinAlpha1In: Double, cosAlpha1 cosAlpha1In: Double,
    sinLam12: Double, cosLam12: Double, wantDerivative: Bool
  ) -> LongitudeEvaluation {
    let sinAlpha1 = sinAlpha1In
    // Leaving the equator due east would follow the equator forever; tilt it slightly south.
    let cosAlpha1 = point1.sin == 0 && cosAlpha1In == 0 ? -Tolerance.tiny : cosAlpha1In

    // Clairaut: sin α₀ = sin α cos β.
    let sinAlpha0 = sinAlpha1 * point1.cos
    let cosAlpha0 = AngleMath.norm(cosAlpha1, sinAlpha1 * point1.sin)

    // σ₁ and ω₁ from the equator crossing: tan σ₁ = tan β₁ / cos α₁, tan ω₁ = sin α₀ tan σ₁.
    var sinSigma1 = point1.sin
    let sinOmega1 = sinAlpha0 * point1.sin
    var cosSigma1 = cosAlpha1 * point1.cos
    let cosOmega1 = cosSigma1
    var r = AngleMath.norm(sinSigma1, cosSigma1)
    sinSigma1 /= r
    cosSigma1 /= r

    // α₂ at latitude β₂, on the first crossing (heading north, cos α₂ ≥ 0). cos² α₂ cos² β₂ =
    // cos² α₁ cos² β₁ + cos² β₂ − cos² β₁, with the difference of squares formed in whichever
    // of cos β or sin β is the more sensitive near point 1.
    let sinAlpha2 = point2.cos != point1.cos ? sinAlpha0 / point2.cos : sinAlpha1
    let cosAlpha2: Double
    if point2.cos != point1.cos || abs(point2.sin) != -point1.sin {
      let difference =
        point1.cos < -point1.sin
        ? (point2.cos - point1.cos) * (point2.cos + point1.cos)
        : (point1.sin - point2.sin) * (point1.sin + point2.sin)
      let c = cosAlpha1 * point1.cos
      cosAlpha2 = (c * c + difference).squareRoot() / point2.cos
    } else {
      cosAlpha2 = abs(cosAlpha1)
    }

    var sinSigma2 = point2.sin
    let sinOmega2 = sinAlpha0 * point2.sin
    var cosSigma2 = cosAlpha2 * point2.cos
    let cosOmega2 = cosSigma2
    r = AngleMath.norm(sinSigma2, cosSigma2)
    sinSigma2 /= r
    cosSigma2 /= r

    // σ₁₂ ∈ [0, π].
    let sigma12 = atan2(
      positivePart(cosSigma1 * sinSigma2 - sinSigma1 * cosSigma2),
      cosSigma1 * cosSigma2 + sinSigma1 * sinSigma2)
    // ω₁₂ − λ₁₂ as one angle (ω₁₂ ≥ 0 since the geodesic heads east); the (sin, cos) pairs of
    // ω₁, ω₂ share positive scale factors, which atan2 ignores.
    let sinOmega12 = positivePart(cosOmega1 * sinOmega2 - sinOmega1 * cosOmega2)
    let cosOmega12 = cosOmega1 * cosOmega2 + sinOmega1 * sinOmega2
    let omega12MinusLam12 = atan2(
      sinOmega12 * cosLam12 - cosOmega12 * sinLam12,
      cosOmega12 * cosLam12 + sinOmega12 * sinLam12)

    // λ₁₂ = ω₁₂ − f sin α₀ I₃ between σ₁ and σ₂.
    let epsilon = Geodesic.epsilon(kSquared: cosAlpha0 * cosAlpha0 * secondEccentricitySquared)
    let c3 = longitudeSeries.c(epsilon)
    let b312 =
      c3.sum(sin: sinSigma2, cos: cosSigma2) - c3.sum(sin: sinSigma1, cos: cosSigma1)
    let deltaOmega12 = -f * longitudeSeries.a(epsilon) * sinAlpha0 * (sigma12 + b312)

    var derivative = 0.0
    if wantDerivative {
      if cosAlpha2 == 0 {
        // Point 2 at a vertex (the far one of a half circuit): dλ₁₂/dα₁ = −2 √(1 − e² cos² β₁)
        // / sin β₁.
        derivative = -2 * oneMinusF * point1.dn / point1.sin
      } else {
        // dλ₁₂/dα₁ = m₁₂ / (a cos α₂ cos β₂).
        let m12 = lengths(
          epsilon: epsilon, sigma12: sigma12,
          sinSigma1: sinSigma1, cosSigma1: cosSigma1, dn1: point1.dn,
          sinSigma2: sinSigma2, cosSigma2: cosSigma2, dn2: point2.dn,
          wantDistance: false
        ).reducedLength
        derivative = m12 * oneMinusF / (cosAlpha2 * point2.cos)
      }
    }

    return LongitudeEvaluation(
      mismatch: omega12MinusLam12 + deltaOmega12, derivative: derivative,
      sinAlpha2: sinAlpha2, cosAlpha2: cosAlpha2, sigma12: sigma12,
      sinSigma1: sinSigma1, cosSigma1: cosSigma1, sinSigma2: sinSigma2, cosSigma2: cosSigma2,
      epsilon: epsilon)
  }

  /// Distance s₁₂ / b and reduced length m₁₂ / b between σ₁ and σ₂ along one geodesic.
  ///
  /// m₁₂ / b = dn₂ cos σ₁ sin σ₂ − dn₁ sin σ₁ cos σ₂ − cos σ₁ cos σ₂ (J(σ₂) − J(σ₁)), with
  /// J = I₁ − I₂ and dn = √(1 + k² sin² σ).
  func lengths(
    epsilon: Double, sigma12: Double,
    sinSigma1: Double, cosSigma1: Double, dn1: Double,
    sinSigma2: Double, cosSigma2: Double, dn2: Double,
    wantDistance: Bool
  ) -> (distance: Double, reducedLength: Double) {
    let a1MinusOne = DistanceSeries.a1MinusOne(epsilon)
    let a2MinusOne = DistanceSeries.a2MinusOne(epsilon)
    let c1 = DistanceSeries.c1(epsilon)
    let c2 = DistanceSeries.c2(epsilon)
    let a1 = 1 + a1MinusOne
    let a2 = 1 + a2MinusOne
    // J's sine series has coefficients A₁ C₁ₗ − A₂ C₂ₗ.
    let j = SineSeries6(
      c1: a1 * c1.c1 - a2 * c2.c1, c2: a1 * c1.c2 - a2 * c2.c2, c3: a1 * c1.c3 - a2 * c2.c3,
      c4: a1 * c1.c4 - a2 * c2.c4, c5: a1 * c1.c5 - a2 * c2.c5, c6: a1 * c1.c6 - a2 * c2.c6)
    let j12 =
      (a1MinusOne - a2MinusOne) * sigma12
      + (j.sum(sin: sinSigma2, cos: cosSigma2) - j.sum(sin: sinSigma1, cos: cosSigma1))
    let reducedLength =
      dn2 * (cosSigma1 * sinSigma2) - dn1 * (sinSigma1 * cosSigma2)
      - cosSigma1 * cosSigma2 * j12
    var distance = 0.0
    if wantDistance {
      let b1 =
        c1.sum(sin: sinSigma2, cos: cosSigma2) - c1.sum(sin: sinSigma1, cos: cosSigma1)
      distance = a1 * (sigma12 + b1)
    }
    return (distance, reducedLength)
  }
}
