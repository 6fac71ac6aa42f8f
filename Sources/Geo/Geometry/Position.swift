/// A vertex of a planar geometry: `x`, `y` and an optional `z`.
///
/// For geographic data `x` is longitude and `y` latitude in degrees (the GeoJSON and WKT axis
/// order); in a ``LocalProjection`` they are metres east and north of the centre.
public struct Position: Hashable, Sendable, CustomStringConvertible {
  /// The first axis: longitude in degrees, or metres east.
  public var x: Double
  /// The second axis: latitude in degrees, or metres north.
  public var y: Double
  /// The optional third axis (elevation in metres for geographic data).
  public var z: Double?

  /// Creates a position.
  public init(x: Double, y: Double, z: Double? = nil) {
    self.x = x
    self.y = y
    self.z = z
  }

  /// The position of a coordinate: `x` is its longitude and `y` its latitude.
  public init(_ coordinate: Coordinate) {
    self.init(x: coordinate.longitude, y: coordinate.latitude)
  }

  /// The position as `(x y)` or `(x y z)`, in WKT's axis order.
  public var description: String {
    if let z { return "(\(x) \(y) \(z))" }
    return "(\(x) \(y))"
  }
}

/// An axis-aligned planar rectangle, `minX…maxX` × `minY…maxY`.
public struct Envelope: Hashable, Sendable, CustomStringConvertible {
  /// The smallest `x`.
  public var minX: Double
  /// The smallest `y`.
  public var minY: Double
  /// The largest `x`.
  public var maxX: Double
  /// The largest `y`.
  public var maxY: Double

  /// Creates an envelope; throws unless every bound is finite and `min ≤ max` on both axes.
  public init(minX: Double, minY: Double, maxX: Double, maxY: Double) throws {
    guard minX.isFinite, minY.isFinite, maxX.isFinite, maxY.isFinite else {
      throw GeoError(.invalidArgument, "envelope bounds must be finite numbers")
    }
    guard minX <= maxX, minY <= maxY else {
      throw GeoError(
        .invalidArgument,
        "envelope needs minX ≤ maxX and minY ≤ maxY, got x \(minX)…\(maxX), y \(minY)…\(maxY)")
    }
    self.init(uncheckedMinX: minX, minY: minY, maxX: maxX, maxY: maxY)
  }

  init(uncheckedMinX minX: Double, minY: Double, maxX: Double, maxY: Double) {
    self.minX = minX
    self.minY = minY
    self.maxX = maxX
    self.maxY = maxY
  }

  /// Whether the envelope and `other` share at least one point (edges count).
  public func intersects(_ other: Envelope) -> Bool {
    minX <= other.maxX && other.minX <= maxX && minY <= other.maxY && other.minY <= maxY
  }

  /// Whether `position` lies inside or on the edge of the envelope.
  public func contains(_ position: Position) -> Bool {
    position.x >= minX && position.x <= maxX && position.y >= minY && position.y <= maxY
  }

  /// The envelope's ranges on both axes.
  public var description: String { "Envelope(x: \(minX)…\(maxX), y: \(minY)…\(maxY))" }
}
