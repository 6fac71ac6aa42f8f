import CGEOS

extension GEOSContext {
  /// The distance along `line` of the point on it nearest to `position`.
  ///
  /// This is linear referencing's *project*: 0 at the first vertex, the line's length at the
  /// last. Later layers use it with ``interpolate(_:distance:)`` to find where and when a trace
  /// crosses a fence.
  public func project(_ position: Position, onto line: LineString) throws -> Double {
    guard !line.positions.isEmpty else {
      throw GeoError(.invalidArgument, "cannot project onto an empty line string")
    }
    return try withGEOS(.lineString(line), .point(position)) { l, p in
      let d = GEOSProject_r(handle, l, p)
      // GEOSProject_r returns -1 on exception.
      if d < 0 { throw failure("project") }
      return d
    }
  }

  /// The point at `distance` along `line`, clamped to its ends.
  ///
  /// A negative distance counts back from the end, as in GEOS and JTS.
  public func interpolate(_ line: LineString, distance: Double) throws -> Position {
    guard !line.positions.isEmpty else {
      throw GeoError(.invalidArgument, "cannot interpolate along an empty line string")
    }
    guard distance.isFinite else {
      throw GeoError(.invalidArgument, "interpolation distance must be finite, got \(distance)")
    }
    return try withGEOS(.lineString(line)) { l in
      switch try consume(GEOSInterpolate_r(handle, l, distance), "interpolate") {
      case .point(let p): return p
      case let other: throw GeoError(.geos, "interpolate returned a \(other.typeName)")
      }
    }
  }
}
