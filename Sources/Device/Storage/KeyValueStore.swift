import SimKernel

/// One defaults domain of a simulated phone: what an app reads and writes through
/// `UserDefaults`.
///
/// The phone owns its stores, not the app: a store keeps its values when the app object that
/// wrote them is gone, so a relaunched app finds them again, just as `UserDefaults` persists
/// across launches on a device. ``domain`` names the store: the app's bundle identifier for
/// `UserDefaults.standard`, or an App Group name for `UserDefaults(suiteName:)`, which an app
/// and its widget must share to see each other's values (an extension's `standard` defaults
/// are its own). Whether values survive deleting the app is the scenario's business.
///
/// The getters coerce values exactly as `UserDefaults`' do: a missing key reads as 0, `false`
/// or `nil`, and numbers, Booleans and numeric strings convert into each other by the rules on
/// ``double(forKey:)``, ``integer(forKey:)``, ``bool(forKey:)`` and ``string(forKey:)``, each
/// citing Apple's documentation. Reads are not logged; every write and removal is, under source
/// `"defaults"` with events `"set"` (fields `key`, `type`, `value`, `domain`) and `"remove"`
/// (fields `key`, `existed`, `domain`), at the simulation's current time, so a report can show
/// what the app stored and when.
///
/// Values registered with ``register(defaults:)`` are the fallback of every store of the phone
/// and last as long as the app's process. Key-value observation and `didChangeNotification` are
/// not modelled.
public final class KeyValueStore {
  /// The defaults domain: a bundle identifier or an App Group suite name.
  public let domain: String

  private let simulation: Simulation
  private let registration: DefaultsRegistration
  private var values: [String: StoredValue] = [:]

  /// Creates an empty store with a registration domain of its own.
  ///
  /// - Parameters:
  ///   - domain: the bundle identifier or suite name, written to every log entry.
  ///   - simulation: the world whose clock stamps and whose log records every write.
  public convenience init(domain: String, simulation: Simulation) {
    self.init(domain: domain, simulation: simulation, registration: DefaultsRegistration())
  }

  /// Creates an empty store that falls back on `registration`, shared with the phone's other
  /// stores.
  init(domain: String, simulation: Simulation, registration: DefaultsRegistration) {
    self.domain = domain
    self.simulation = simulation
    self.registration = registration
  }

  // MARK: Writing

  /// Stores `value` under `key`, replacing any earlier value; `nil` removes the key.
  ///
  /// As `UserDefaults.set(_:forKey:)` with a property-list object; passing `nil` removes the
  /// key as ``removeObject(forKey:)`` does (and is logged as a removal).
  public func set(_ value: StoredValue?, forKey key: String) {
    write(value, forKey: key)
  }

  /// Stores a floating-point number (`UserDefaults.set(_:forKey:)` with a `Double`).
  public func set(_ value: Double, forKey key: String) {
    write(.double(value), forKey: key)
  }

  /// Stores an integer (`UserDefaults.set(_:forKey:)` with an `Int`).
  public func set(_ value: Int, forKey key: String) {
    write(.int(value), forKey: key)
  }

  /// Stores a Boolean (`UserDefaults.set(_:forKey:)` with a `Bool`).
  public func set(_ value: Bool, forKey key: String) {
    write(.bool(value), forKey: key)
  }

  /// Stores a string; `nil` removes the key.
  public func set(_ value: String?, forKey key: String) {
    write(value.map(StoredValue.string), forKey: key)
  }

  /// Removes the value of `key`, if any (`UserDefaults.removeObject(forKey:)`).
  ///
  /// The call is logged even when the key was absent, with `existed` false.
  public func removeObject(forKey key: String) {
    write(nil, forKey: key)
  }

  /// Records that the app tried to store something that is not a property-list value under
  /// `key`; the store keeps what it had. On a device `set(_:forKey:)` stops the app
  /// (`NSInvalidArgumentException`: "Attempt to insert non-property list object"); a layer that
  /// converts the app's values calls this instead, and the log records `refused` with the
  /// value's `type`.
  public func recordRefusedWrite(forKey key: String, type: String) {
    simulation.log.record(
      DefaultsEvent.refused(key: key, type: type, domain: domain), at: simulation.now)
  }

  /// Registers fallback values (`UserDefaults.register(defaults:)`): a key without a value of
  /// its own reads as its registered value, in this store and every other store of the phone,
  /// and ``removeObject(forKey:)`` reveals it again.
  ///
  /// Apple: the values are "a fallback in cases where the app domain doesn't have them", and
  /// "the registration domain is volatile, so you must register the set of default values each
  /// time your app launches". So registered values are not stored and not logged, and last
  /// until the app's process ends. Registering a key again replaces its value.
  public func register(defaults: [String: StoredValue]) {
    registration.values.merge(defaults) { _, new in new }
  }

  private func write(_ value: StoredValue?, forKey key: String) {
    if let value {
      values[key] = value
      simulation.log.record(
        DefaultsEvent.set(key: key, value: value, domain: domain), at: simulation.now)
    } else {
      let existed = values.removeValue(forKey: key) != nil
      simulation.log.record(
        DefaultsEvent.remove(key: key, existed: existed, domain: domain), at: simulation.now)
    }
  }

  // MARK: Reading

  /// The value stored under `key`, unconverted; `nil` when there is none
  /// (`UserDefaults.object(forKey:)`).
  public func object(forKey key: String) -> StoredValue? {
    values[key] ?? registration.values[key]
  }

  /// The value of `key` as a double; 0 when the key is missing or holds no number.
  ///
  /// Apple (`UserDefaults.double(forKey:)`): the value, or 0.0 if the key is not present;
  /// `true` becomes 1.0 and `false` 0.0, an integer the equal double (2 → 2.0), and a string
  /// that contains a number that number ("123.4" → 123.4).
  ///
  /// GeoSim reads strings as `NSString.doubleValue` documents: leading whitespace skipped, the
  /// longest decimal prefix taken ("3.5 km" → 3.5), 0 when the string does not begin with a
  /// number, ±infinity on overflow. Data, dates, arrays and dictionaries read as 0.
  public func double(forKey key: String) -> Double {
    object(forKey: key)?.coercedDouble ?? 0
  }

  /// The value of `key` as an integer; 0 when the key is missing or holds no number.
  ///
  /// Apple (`UserDefaults.integer(forKey:)`): the value, or 0 if the key is not present;
  /// `true` becomes 1 and `false` 0, a floating-point number an integer (2.67 → 2), and a
  /// string that contains a number that number ("123" → 123).
  ///
  /// GeoSim truncates doubles toward zero as `NSNumber.integerValue` does (−2.67 → −2),
  /// reads NaN as 0 and saturates out-of-range values at `Int.min`/`Int.max`. Strings are read
  /// as `NSString.integerValue` documents: leading whitespace, optional sign, decimal digits,
  /// the rest ignored ("3.9" → 3), 0 without digits, `Int.max`/`Int.min` on overflow.
  public func integer(forKey key: String) -> Int {
    object(forKey: key)?.coercedInteger ?? 0
  }

  /// The value of `key` as a Boolean; `false` when the key is missing.
  ///
  /// Apple (`UserDefaults.bool(forKey:)`): the value, or `false` if the key is not present; the
  /// numbers 1 and 1.0 and the strings "true", "YES" and "1" are `true`.
  ///
  /// GeoSim treats every non-zero number as `true` (`NSNumber.boolValue`) and reads strings as
  /// `NSString.boolValue` documents: "Y", "y", "T" or "t" first, or a digit 1–9 after an
  /// optional sign and zeros, is `true` ("yes", "t", "2", "+01"); anything else is `false`
  /// ("no", "false", "0", ""). Data, dates, arrays and dictionaries read as `false`.
  public func bool(forKey key: String) -> Bool {
    object(forKey: key)?.coercedBool ?? false
  }

  /// The value of `key` as a string; `nil` when the key is missing or cannot make one.
  ///
  /// Apple (`UserDefaults.string(forKey:)`): the string, or `nil` if the key is not present;
  /// numbers are converted (123 → "123"); a value that cannot make an appropriate string gives
  /// `nil`.
  ///
  /// GeoSim writes numbers as `NSNumber.stringValue` does: Booleans as "1"/"0", integral
  /// doubles without a fraction (2.0 → "2"), other doubles in their shortest exact form
  /// ("3.5", "1e+20"). Data, dates, arrays and dictionaries give `nil`.
  public func string(forKey key: String) -> String? {
    object(forKey: key)?.coercedString
  }

  /// The array stored under `key`; `nil` when the key is missing or holds something else
  /// (`UserDefaults.array(forKey:)`).
  public func array(forKey key: String) -> [StoredValue]? {
    if case .array(let elements) = object(forKey: key) { return elements }
    return nil
  }

  /// The dictionary stored under `key`; `nil` when the key is missing or holds something else
  /// (`UserDefaults.dictionary(forKey:)`).
  public func dictionary(forKey key: String) -> [String: StoredValue]? {
    if case .dictionary(let entries) = object(forKey: key) { return entries }
    return nil
  }

  /// The bytes stored under `key`; `nil` when the key is missing or holds something else
  /// (`UserDefaults.data(forKey:)`).
  public func data(forKey key: String) -> [UInt8]? {
    if case .data(let bytes) = object(forKey: key) { return bytes }
    return nil
  }

  /// Every key and value in the store, over the registered values
  /// (`UserDefaults.dictionaryRepresentation()`).
  ///
  /// A device's result also holds the global domain (languages, locale); a simulated phone has
  /// none.
  public func dictionaryRepresentation() -> [String: StoredValue] {
    registration.values.merging(values) { _, own in own }
  }
}

/// The registration domain of the app's process: the values ``KeyValueStore/register(defaults:)``
/// registered, shared by the phone's stores and forgotten when the process ends.
final class DefaultsRegistration {
  var values: [String: StoredValue] = [:]
}
