import Cloud

/// The bundled languages, read once for every three-word suite (reading them builds the
/// near-miss indexes, which takes a moment in a debug build).
enum ThreeWordFixtures {
  static let languages: ThreeWordLanguages = try! ThreeWordLanguages.bundled()
}
