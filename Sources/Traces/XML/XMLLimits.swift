/// The bounds an XML document must stay within before GeoSim reads it.
///
/// The reader never expands entities beyond the five predefined ones and character references,
/// and refuses any document type declaration, so neither entity expansion ("billion laughs") nor
/// external entities can occur; these limits bound what is left: nesting and size.
public struct XMLLimits: Hashable, Sendable {
  /// The deepest element nesting accepted. GPX needs 5 levels, SUMO 3; the default is 256.
  public var maximumDepth: Int
  /// The largest document accepted, in bytes. The default is 4 GiB.
  public var maximumBytes: Int

  /// Creates limits.
  public init(maximumDepth: Int = 256, maximumBytes: Int = 4 << 30) {
    self.maximumDepth = maximumDepth
    self.maximumBytes = maximumBytes
  }
}
