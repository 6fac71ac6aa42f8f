import Device
import Testing

/// An object that says when it goes away, as the phone and its services do.
private final class Component: LifetimeOwner {
  let lifetime = Lifetime()
  deinit { lifetime.end() }
}

/// A reference that keeps nothing alive and says when its object has gone, as a weak reference
/// does.
@Suite struct UncountedTests {
  @Test func itReadsItsObjectWhileTheObjectLivesAndNothingAfter() {
    var component: Component? = Component()
    let reference = Uncounted(component!)
    #expect(reference.value === component)
    component = nil
    #expect(reference.value == nil)
  }

  @Test func itDoesNotKeepItsObjectAlive() {
    var component: Component? = Component()
    let lifetime = component!.lifetime
    let reference = Uncounted(component!)
    component = nil
    #expect(!lifetime.isAlive)
    #expect(reference.value == nil)
  }

  @Test func itLendsItsObjectToAClosureWhileTheObjectLivesAndNothingAfter() {
    var component: Component? = Component()
    let reference = Uncounted(component!)
    #expect(reference.withValue { $0 === component } == true)
    component = nil
    var called = false
    #expect(reference.withValue { _ in called = true } == nil)
    #expect(!called)
  }

  @Test func asAPropertyItRefersToWhatItWasLastSetTo() {
    let first = Component()
    var second: Component? = Component()
    @Uncounted var held: Component? = nil
    #expect(held == nil)
    held = first
    #expect(held === first)
    held = second
    #expect(held === second)
    second = nil
    #expect(held == nil)
    held = first
    #expect(held === first)
  }
}
