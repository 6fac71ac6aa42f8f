/// What the app hears about its own life (`UIApplicationDelegate`), isolated to the main actor
/// as Apple's.
///
/// Every method is optional, as in Apple's SDK: a method the app does not implement is not
/// called (the launch methods then count as returning `true`). ``ApplicationHost`` calls each at
/// the moment of the phone's lifecycle that iOS calls it at; `launchOptions` is `nil` when the
/// user opened the app and holds ``UIApplication/LaunchOptionsKey/location`` when the system
/// relaunched it in the background for a region event.
@MainActor public protocol UIApplicationDelegate: NSObjectProtocol {
  /// The launch has begun; the first app code that runs in a new process.
  func application(
    _ application: UIApplication,
    willFinishLaunchingWithOptions launchOptions: [UIApplication.LaunchOptionsKey: Any]?
  ) -> Bool
  /// The launch is almost done: set up the app here.
  func application(
    _ application: UIApplication,
    didFinishLaunchingWithOptions launchOptions: [UIApplication.LaunchOptionsKey: Any]?
  ) -> Bool
  /// The app is active in the foreground.
  func applicationDidBecomeActive(_ application: UIApplication)
  /// The app is about to stop being active (the user is leaving it).
  func applicationWillResignActive(_ application: UIApplication)
  /// The app is in the background: after the user left it, after a launch into the
  /// background, and when a suspended app runs again for a background event [A].
  func applicationDidEnterBackground(_ application: UIApplication)
  /// The app is about to come back to the foreground.
  func applicationWillEnterForeground(_ application: UIApplication)
  /// The running app is about to end; not called for a suspended app [A].
  func applicationWillTerminate(_ application: UIApplication)
}

extension UIApplicationDelegate {
  /// Not implemented: the launch goes on.
  public func application(
    _ application: UIApplication,
    willFinishLaunchingWithOptions launchOptions: [UIApplication.LaunchOptionsKey: Any]?
  ) -> Bool { true }
  /// Not implemented: the launch goes on.
  public func application(
    _ application: UIApplication,
    didFinishLaunchingWithOptions launchOptions: [UIApplication.LaunchOptionsKey: Any]?
  ) -> Bool { true }
  /// Not implemented.
  public func applicationDidBecomeActive(_ application: UIApplication) {}
  /// Not implemented.
  public func applicationWillResignActive(_ application: UIApplication) {}
  /// Not implemented.
  public func applicationDidEnterBackground(_ application: UIApplication) {}
  /// Not implemented.
  public func applicationWillEnterForeground(_ application: UIApplication) {}
  /// Not implemented.
  public func applicationWillTerminate(_ application: UIApplication) {}
}
