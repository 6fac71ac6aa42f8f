import CGEOS

extension GEOSContext {
  /// The Voronoi cell of each site: the points nearer to it than to any other site (planar
  /// distance), in the order of `sites`, each clipped to `boundary` when one is given.
  ///
  /// GEOS computes the diagram over an extent covering the sites and `boundary`; with GEOS
  /// before 3.12 its cells come in no particular order, so each is matched to the site it
  /// contains. Throws ``GeoError`` for fewer than two sites, duplicate sites or a GEOS failure.
  ///
  /// - Complexity: O(*n* log *n*) for *n* sites, plus the clipping.
  public func voronoiCells(of sites: [Position], clippedTo boundary: Geometry? = nil) throws
    -> [Geometry]
  {
    guard sites.count >= 2 else {
      throw GeoError(
        .invalidArgument, "a Voronoi diagram needs two or more sites, got \(sites.count)")
    }
    guard Set(sites.map { [$0.x, $0.y] }).count == sites.count else {
      throw GeoError(.invalidArgument, "Voronoi sites must be distinct")
    }
    let diagram: Geometry = try withGEOS(.multiPoint(sites)) { points in
      if let boundary {
        return try withGEOS(boundary) { extent in
          // Returns NULL on exception.
          try consume(GEOSVoronoiDiagram_r(handle, points, extent, 0, 0), "Voronoi diagram")
        }
      }
      return try consume(GEOSVoronoiDiagram_r(handle, points, nil, 0, 0), "Voronoi diagram")
    }
    guard case .geometryCollection(let cells) = diagram else {
      throw GeoError(.geos, "Voronoi diagram: expected a collection, got a \(diagram.typeName)")
    }
    var result: [Geometry] = []
    for site in sites {
      guard let cell = try cells.first(where: { try covers($0, .point(site)) }) else {
        throw GeoError(.geos, "Voronoi diagram: no cell holds the site \(site)")
      }
      result.append(try boundary.map { try intersection(cell, $0) } ?? cell)
    }
    return result
  }

  /// The smallest convex polygon holding every point of `geometry`.
  public func convexHull(_ geometry: Geometry) throws -> Geometry {
    // Returns NULL on exception.
    try withGEOS(geometry) { try consume(GEOSConvexHull_r(handle, $0), "convex hull") }
  }
}
