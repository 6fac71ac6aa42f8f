/// A position on the screen in points, like `CGPoint`: origin at the view's top-left corner,
/// `x` to the right and `y` down (UIKit's coordinate system [A]).
public struct Point: Hashable, Sendable, CustomStringConvertible {
  /// Points to the right of the origin.
  public var x: Double
  /// Points below the origin.
  public var y: Double

  /// A point from its components.
  public init(x: Double, y: Double) {
    self.x = x
    self.y = y
  }

  /// Whether both components are finite numbers.
  public var isFinite: Bool { x.isFinite && y.isFinite }

  /// The straight-line distance to `other`, in points.
  public func distance(to other: Point) -> Double {
    ((x - other.x) * (x - other.x) + (y - other.y) * (y - other.y)).squareRoot()
  }

  /// The point as `(x, y)`.
  public var description: String { "(\(x), \(y))" }
}

/// A width and height in points, like `CGSize`.
public struct Size: Hashable, Sendable, CustomStringConvertible {
  /// The width in points.
  public var width: Double
  /// The height in points.
  public var height: Double

  /// A size from its components.
  public init(width: Double, height: Double) {
    self.width = width
    self.height = height
  }

  /// The size as `width×height`.
  public var description: String { "\(width)×\(height)" }
}
