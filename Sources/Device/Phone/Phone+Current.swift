#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

extension Phone {
  /// The phone whose world is running on the calling thread, if any.
  ///
  /// Code written against Apple's framework names (`CLLocationManager()`,
  /// `UNUserNotificationCenter.current()`, `DispatchQueue.main`) finds its phone here. A
  /// world's driver makes its phone current for as long as the world runs
  /// (``makeCurrent(during:)``), so two worlds — one after the other, or on two threads — never
  /// see each other's phone.
  public static var current: Phone? {
    guard let pointer = pthread_getspecific(CurrentPhone.key) else { return nil }
    return Unmanaged<Phone>.fromOpaque(pointer).takeUnretainedValue()
  }

  /// Runs `body` with this phone as the calling thread's ``current`` phone, restoring the
  /// previous one afterwards.
  public func makeCurrent<T, E: Error>(during body: () throws(E) -> T) throws(E) -> T {
    let previous = pthread_getspecific(CurrentPhone.key)
    pthread_setspecific(CurrentPhone.key, Unmanaged.passUnretained(self).toOpaque())
    defer { pthread_setspecific(CurrentPhone.key, previous) }
    return try body()
  }

  /// The calling thread's phone, or a stop with ``outsideWorldMessage(doing:)``.
  public static func requireCurrent(doing api: @autoclosure () -> String) -> Phone {
    guard let phone = current else { fatalError(outsideWorldMessage(doing: api())) }
    return phone
  }

  /// What the process says when `api` is used outside a world: how to run it in one.
  public static func outsideWorldMessage(doing api: String) -> String {
    "\(api) was used outside a GeoSim world. App code runs in a world: replay a "
      + "scenario (geosim replay, GeoSimTest.replay) or, driving a Phone yourself, call "
      + "it inside phone.makeCurrent(during:)."
  }

  /// Stops the process unless `phone` is the calling thread's phone: an object bound to one
  /// world's phone used outside any world, or in another world.
  public static func requireCurrent(_ phone: Phone, doing api: @autoclosure () -> String) {
    guard current !== phone else { return }
    if current == nil { _ = requireCurrent(doing: api()) }
    fatalError(
      "\(api()) belongs to another world's phone than the one running on this thread: "
        + "objects of one world cannot be used in another.")
  }
}

/// The thread-local slot behind ``Phone/current``: one key for the process, created once; the
/// value is per thread.
private enum CurrentPhone {
  static let key: pthread_key_t = {
    var key = pthread_key_t()
    precondition(pthread_key_create(&key, nil) == 0, "no thread-local key for the current phone")
    return key
  }()
}
