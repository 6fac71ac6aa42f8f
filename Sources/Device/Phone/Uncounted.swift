/// Whether an object is still alive: the object ends its lifetime in its `deinit`.
package final class Lifetime {
  /// `false` once the object has gone. (Read for every call through an ``Uncounted``
  /// reference and never held across a call: without the runtime's exclusivity check.)
  @exclusivity(unchecked) package private(set) var isAlive = true

  /// The lifetime of an object being made.
  package init() {}

  /// Marks the object gone; called from its `deinit`.
  package func end() { isAlive = false }
}

/// An object whose ``Lifetime`` others can watch, to hold it with ``Uncounted``.
package protocol LifetimeOwner: AnyObject {
  /// Ends when the object goes away.
  var lifetime: Lifetime { get }
}

/// A reference that does not keep its object alive and knows when it has gone: what a weak
/// reference does, without the weak reference's cost to the object.
///
/// The first weak reference to an object gives it a side table, and from then on every retain
/// and release of the object takes the runtime's slow path. The phone, its services and the
/// app's location managers are retained and released many times for each fix, a fix a second:
/// held weakly, they spent a fifth of a day's replay in those slow paths. This reference holds
/// its object without counting and its ``Lifetime`` strongly, and reads the object only while
/// the lifetime lasts. Like the world it lives in, it belongs to one thread. Unlike a weak
/// reference it reads the object until its `deinit` ends the lifetime, so an object ends it
/// first thing there, and nothing reaches the object through it from a subclass's `deinit`.
///
/// Use it as a property wrapper (`@Uncounted var phone: Phone?`) or as a value a closure
/// captures (`let service = Uncounted(self)`, then `service.value` inside).
@propertyWrapper
package struct Uncounted<Object: LifetimeOwner> {
  /// The object, not counted (`Unmanaged` rather than `unowned(unsafe)`, which is retained
  /// wherever it is read).
  private var object: Unmanaged<Object>?
  private var lifetime: Lifetime?

  /// A reference to `object`.
  package init(_ object: Object) {
    self.init(wrappedValue: object)
  }

  /// A reference to `wrappedValue`, or to nothing.
  package init(wrappedValue: Object?) {
    self.wrappedValue = wrappedValue
  }

  /// The object, or `nil` once it has gone (or if there was none).
  package var value: Object? { wrappedValue }

  /// Calls `body` with the object, without retaining it for the call, if it has not gone;
  /// returns `body`'s result, or `nil`. For loops that visit many objects on every event:
  /// ``value`` hands out a strong reference, a retain and a release each time.
  @inline(__always)
  package func withValue<R>(_ body: (Object) -> R) -> R? {
    guard lifetime?.isAlive == true, let object else { return nil }
    return object._withUnsafeGuaranteedRef(body)
  }

  /// The object, or `nil` once it has gone; setting it refers to another object.
  package var wrappedValue: Object? {
    get { lifetime?.isAlive == true ? object?.takeUnretainedValue() : nil }
    set {
      object = newValue.map { Unmanaged.passUnretained($0) }
      lifetime = newValue?.lifetime
    }
  }
}
