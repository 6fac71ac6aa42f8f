import Device
import SimKernel

/// The app's defaults database on the simulated phone (Foundation's `UserDefaults`, standing in
/// for it in code that imports this module).
///
/// Every object reads and writes one of the phone's stores (`Device.KeyValueStore`, from
/// `Device.Phone.userDefaults(suiteName:)`): `standard` the app's own, `init?(suiteName:)` an
/// App Group's. The phone owns the stores, so values survive a relaunch of the app within a
/// world; each world has its own phone and so its own stores, empty at the start as after a
/// fresh install. Values registered with ``register(defaults:)`` are every store's fallback
/// until the app's process ends. The typed getters coerce as Foundation's do (the rules are on
/// `Device.KeyValueStore`, each citing Apple); every write is in the event log (source
/// `defaults`).
///
/// A value that is not a property-list object (an `NSNull`, a `URL` passed as `Any`, a custom
/// type) stops the app on a device (`NSInvalidArgumentException`); here it is not stored, the
/// old value stays, and the log records `defaults.refused` with its type.
///
/// An object is bound to the phone of the world that made it: using it outside a world, or in
/// another world, stops the process with a message saying so. Key-value observation,
/// `didChangeNotification`, `addSuite(named:)` and the persistent-domain methods are not
/// provided.
open class UserDefaults: NSObject, @unchecked Sendable {
  // Unchecked: an object belongs to one world, which runs on one thread.
  private let suiteName: String?
  @Uncounted private var phone: Phone? = nil

  /// The app's shared defaults object on the running world's phone: the same object each time
  /// within a world [A].
  open class var standard: UserDefaults {
    let phone = Phone.requireCurrent(doing: "UserDefaults.standard")
    return phone.attachment(StandardDefaults.self) {
      StandardDefaults(defaults: UserDefaults(phone: phone, suiteName: nil))
    }.defaults
  }

  /// A new object for the app's own defaults, as `standard` reads and writes them [A].
  public convenience override init() {
    self.init(phone: Phone.requireCurrent(doing: "UserDefaults()"), suiteName: nil)
  }

  /// An object for the defaults of the App Group `suiteName`; `nil` gives the app's own
  /// defaults, as ``init()`` does.
  ///
  /// Apple: "the globalDomain is also an invalid suite name, because it isn't writeable by
  /// apps", so `"NSGlobalDomain"` gives `nil`. (Apple also asks that a suite name differ from
  /// the app's bundle identifier; a simulated app has none.)
  public init?(suiteName: String?) {
    let phone = Phone.requireCurrent(doing: "UserDefaults(suiteName:)")
    if suiteName == "NSGlobalDomain" { return nil }
    self.suiteName = suiteName
    self.phone = phone
    super.init()
  }

  private init(phone: Phone, suiteName: String?) {
    self.suiteName = suiteName
    self.phone = phone
    super.init()
  }

  /// The store of this object's domain, after checking that its world is the one running.
  private func store(_ api: @autoclosure () -> String) -> (KeyValueStore, Date) {
    let current = Phone.requireCurrent(doing: api())
    guard let phone, phone === current else {
      Phone.requireCurrent(phone ?? current, doing: api())
      fatalError("\(api()) belongs to a world that has ended")
    }
    return (phone.userDefaults(suiteName: suiteName), phone.simulation.epoch)
  }

  // MARK: Writing

  /// Stores a property-list object under `defaultName`; `nil` removes the key.
  open func set(_ value: Any?, forKey defaultName: String) {
    let (store, epoch) = self.store("UserDefaults.set(_:forKey:)")
    guard let value else { return store.removeObject(forKey: defaultName) }
    guard let stored = PropertyList.storedValue(value, epoch: epoch) else {
      return store.recordRefusedWrite(forKey: defaultName, type: PropertyList.typeName(value))
    }
    store.set(stored, forKey: defaultName)
  }

  /// Stores an integer.
  open func set(_ value: Int, forKey defaultName: String) {
    store("UserDefaults.set(_:forKey:)").0.set(value, forKey: defaultName)
  }

  /// Stores a single-precision number, read back as the double it widens to [A].
  open func set(_ value: Float, forKey defaultName: String) {
    store("UserDefaults.set(_:forKey:)").0.set(Double(value), forKey: defaultName)
  }

  /// Stores a double.
  open func set(_ value: Double, forKey defaultName: String) {
    store("UserDefaults.set(_:forKey:)").0.set(value, forKey: defaultName)
  }

  /// Stores a Boolean.
  open func set(_ value: Bool, forKey defaultName: String) {
    store("UserDefaults.set(_:forKey:)").0.set(value, forKey: defaultName)
  }

  /// Stores a URL as a data archive, as Apple does ("the method stores the URL object as the
  /// root object of a Data archive"); `nil` removes the key.
  ///
  /// The archive is `NSKeyedArchiver`'s, so ``data(forKey:)`` returns bytes an app can unarchive
  /// itself, and ``url(forKey:)`` reads it back. File URLs are archived as they are: a
  /// simulated phone has no home directory to abbreviate with a tilde.
  open func set(_ url: URL?, forKey defaultName: String) {
    let (store, _) = self.store("UserDefaults.set(_:forKey:)")
    guard let url else { return store.removeObject(forKey: defaultName) }
    guard
      let archive = try? NSKeyedArchiver.archivedData(
        withRootObject: url as NSURL, requiringSecureCoding: true)
    else { return store.recordRefusedWrite(forKey: defaultName, type: "URL") }
    store.set(.data(Array(archive)), forKey: defaultName)
  }

  /// Removes the value of `defaultName`; a registered value shows again.
  open func removeObject(forKey defaultName: String) {
    store("UserDefaults.removeObject(forKey:)").0.removeObject(forKey: defaultName)
  }

  /// Registers fallback values for keys without a value of their own, until the app's process
  /// ends [A]; a dictionary holding anything but property-list objects registers nothing, and
  /// each such value is logged as `defaults.refused`.
  open func register(defaults registrationDictionary: [String: Any]) {
    let (store, epoch) = self.store("UserDefaults.register(defaults:)")
    var values: [String: StoredValue] = [:]
    var refused = false
    for key in registrationDictionary.keys.sorted() {
      let value = registrationDictionary[key]!
      if let stored = PropertyList.storedValue(value, epoch: epoch) {
        values[key] = stored
      } else {
        refused = true
        store.recordRefusedWrite(forKey: key, type: PropertyList.typeName(value))
      }
    }
    if !refused { store.register(defaults: values) }
  }

  /// Returns `true`: the phone's stores are always up to date (deprecated by Apple; "this
  /// method is unnecessary and shouldn't be used").
  @discardableResult
  open func synchronize() -> Bool {
    _ = store("UserDefaults.synchronize()")
    return true
  }

  // MARK: Reading

  /// The object stored or registered under `defaultName`: an `NSNumber`, `String`, `Data`,
  /// `Date`, `[Any]` or `[String: Any]`; `nil` if there is none.
  open func object(forKey defaultName: String) -> Any? {
    let (store, epoch) = self.store("UserDefaults.object(forKey:)")
    return store.object(forKey: defaultName).map { PropertyList.object($0, epoch: epoch) }
  }

  /// The string under `defaultName`; numbers are converted, other values give `nil` [A].
  open func string(forKey defaultName: String) -> String? {
    store("UserDefaults.string(forKey:)").0.string(forKey: defaultName)
  }

  /// The array under `defaultName`; `nil` if the value is not an array [A].
  open func array(forKey defaultName: String) -> [Any]? {
    let (store, epoch) = self.store("UserDefaults.array(forKey:)")
    return store.array(forKey: defaultName)?.map { PropertyList.object($0, epoch: epoch) }
  }

  /// The dictionary under `defaultName`; `nil` if the value is not a dictionary [A].
  open func dictionary(forKey defaultName: String) -> [String: Any]? {
    let (store, epoch) = self.store("UserDefaults.dictionary(forKey:)")
    return store.dictionary(forKey: defaultName)?.mapValues {
      PropertyList.object($0, epoch: epoch)
    }
  }

  /// The bytes under `defaultName`; `nil` if the value is not data [A].
  open func data(forKey defaultName: String) -> Data? {
    store("UserDefaults.data(forKey:)").0.data(forKey: defaultName).map { Data($0) }
  }

  /// The array of strings under `defaultName`; `nil` if the value is not an array or holds
  /// anything but strings [A].
  open func stringArray(forKey defaultName: String) -> [String]? {
    let elements = store("UserDefaults.stringArray(forKey:)").0.array(forKey: defaultName)
    guard let elements else { return nil }
    var strings: [String] = []
    for element in elements {
      guard case .string(let string) = element else { return nil }
      strings.append(string)
    }
    return strings
  }

  /// The integer under `defaultName`; 0 if there is none or it holds no number [A].
  open func integer(forKey defaultName: String) -> Int {
    store("UserDefaults.integer(forKey:)").0.integer(forKey: defaultName)
  }

  /// The single-precision number under `defaultName`; 0 if there is none [A].
  open func float(forKey defaultName: String) -> Float {
    Float(store("UserDefaults.float(forKey:)").0.double(forKey: defaultName))
  }

  /// The double under `defaultName`; 0 if there is none or it holds no number [A].
  open func double(forKey defaultName: String) -> Double {
    store("UserDefaults.double(forKey:)").0.double(forKey: defaultName)
  }

  /// The Boolean under `defaultName`; `false` if there is none [A].
  open func bool(forKey defaultName: String) -> Bool {
    store("UserDefaults.bool(forKey:)").0.bool(forKey: defaultName)
  }

  /// The URL under `defaultName`: a URL archive (as `set(_:forKey:)` with a URL writes it)
  /// unarchived, or a string holding an absolute path as a file URL; `nil` otherwise [A].
  ///
  /// A device also expands a path starting with `~` to the home directory, and reads any other
  /// string as a path too; a simulated phone has no file system, so those give `nil` [?].
  open func url(forKey defaultName: String) -> URL? {
    switch store("UserDefaults.url(forKey:)").0.object(forKey: defaultName) {
    case .data(let bytes)?:
      let url = try? NSKeyedUnarchiver.unarchivedObject(ofClass: NSURL.self, from: Data(bytes))
      return url.map { $0 as URL }
    case .string(let path)? where path.hasPrefix("/"):
      return URL(fileURLWithPath: path)
    default:
      return nil
    }
  }

  /// Every key and value the object sees: the registered values under the stored ones. A
  /// device's also holds the global domain (languages, locale); a simulated phone has none.
  open func dictionaryRepresentation() -> [String: Any] {
    let (store, epoch) = self.store("UserDefaults.dictionaryRepresentation()")
    return store.dictionaryRepresentation().mapValues { PropertyList.object($0, epoch: epoch) }
  }
}

/// The phone's one `UserDefaults.standard`, kept as the phone's attachment.
private final class StandardDefaults {
  let defaults: UserDefaults
  init(defaults: UserDefaults) { self.defaults = defaults }
}
