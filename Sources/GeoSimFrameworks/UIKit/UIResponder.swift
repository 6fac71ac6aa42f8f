/// An object that takes part in handling events (`UIResponder`), here only as the base class
/// of an app delegate, so that `class AppDelegate: UIResponder, UIApplicationDelegate` compiles
/// as in Xcode's template.
///
/// Isolated to the main actor, as Apple's. It has none of Apple's members: touches reach the
/// map through its gesture recognizers, not through a responder chain, and there are no views
/// to become first responder.
@MainActor open class UIResponder: NSObject {
  /// A responder.
  public override init() {
    super.init()
  }
}
