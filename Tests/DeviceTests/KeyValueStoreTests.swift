import Device
import SimKernel
import Testing

/// The weather widget's repository (seed 003) in miniature: it writes the latest fix to
/// defaults and builds its request from whatever is stored.
private final class WeatherApp {
  let defaults: KeyValueStore

  init(defaults: KeyValueStore) { self.defaults = defaults }

  func didUpdateLocation(latitude: Double, longitude: Double) {
    defaults.set(latitude, forKey: "lat")
    defaults.set(longitude, forKey: "lng")
  }

  var requestCoordinates: (lat: Double, lng: Double) {
    (defaults.double(forKey: "lat"), defaults.double(forKey: "lng"))
  }
}

@Suite struct KeyValueStoreTests {
  private func makeStore() -> (KeyValueStore, Simulation) {
    let sim = Simulation(seed: 1)
    return (KeyValueStore(domain: "com.example.weather", simulation: sim), sim)
  }

  // MARK: Missing keys

  @Test func doubleForAMissingKeyIsZero() {
    #expect(makeStore().0.double(forKey: "lat") == 0)
  }

  @Test func integerForAMissingKeyIsZero() {
    #expect(makeStore().0.integer(forKey: "count") == 0)
  }

  @Test func boolForAMissingKeyIsFalse() {
    #expect(makeStore().0.bool(forKey: "enabled") == false)
  }

  @Test func stringObjectArrayDictionaryAndDataForAMissingKeyAreNil() {
    let (store, _) = makeStore()
    #expect(store.string(forKey: "name") == nil)
    #expect(store.object(forKey: "name") == nil)
    #expect(store.array(forKey: "name") == nil)
    #expect(store.dictionary(forKey: "name") == nil)
    #expect(store.data(forKey: "name") == nil)
  }

  // MARK: double(forKey:)

  @Test func doubleConvertsBooleansIntegersAndNumericStringsAsAppleDocuments() {
    let (store, _) = makeStore()
    store.set(true, forKey: "yes")
    store.set(false, forKey: "no")
    store.set(2, forKey: "two")
    store.set("123.4", forKey: "text")
    #expect(store.double(forKey: "yes") == 1)
    #expect(store.double(forKey: "no") == 0)
    #expect(store.double(forKey: "two") == 2)
    #expect(store.double(forKey: "text") == 123.4)
  }

  @Test(arguments: [
    ("3.5", 3.5), ("  -3.5 km", -3.5), ("+.5", 0.5), ("5.", 5), ("1e3x", 1_000),
    ("1e", 1), ("2.5e-1", 0.25), ("1.5.3", 1.5), ("abc", 0), ("--1", 0), ("", 0),
    ("x3.5", 0), ("0x1A", 0), ("inf", 0), ("nan", 0),
  ])
  func doubleReadsAStringsLeadingDecimalNumberLikeNSStringDoubleValue(
    text: String, expected: Double
  ) {
    let (store, _) = makeStore()
    store.set(text, forKey: "k")
    #expect(store.double(forKey: "k") == expected)
  }

  @Test func doubleOfAnOverflowingStringIsInfinite() {
    let (store, _) = makeStore()
    store.set("1e999", forKey: "big")
    store.set("-1e999", forKey: "small")
    #expect(store.double(forKey: "big") == .infinity)
    #expect(store.double(forKey: "small") == -.infinity)
  }

  @Test func doubleOfDataDatesArraysAndDictionariesIsZero() {
    let (store, _) = makeStore()
    store.set(.data([1, 2]), forKey: "data")
    store.set(.date(.seconds(5)), forKey: "date")
    store.set(.array([.double(1)]), forKey: "array")
    store.set(.dictionary(["a": .double(1)]), forKey: "dict")
    for key in ["data", "date", "array", "dict"] {
      #expect(store.double(forKey: key) == 0)
    }
  }

  // MARK: integer(forKey:)

  @Test func integerConvertsBooleansToOneAndZero() {
    let (store, _) = makeStore()
    store.set(true, forKey: "yes")
    store.set(false, forKey: "no")
    #expect(store.integer(forKey: "yes") == 1)
    #expect(store.integer(forKey: "no") == 0)
  }

  @Test(arguments: [(2.67, 2), (-2.67, -2), (0.999, 0), (-0.5, 0), (1e300, Int.max)])
  func integerTruncatesDoublesTowardZeroAndSaturates(value: Double, expected: Int) {
    let (store, _) = makeStore()
    store.set(value, forKey: "k")
    #expect(store.integer(forKey: "k") == expected)
  }

  @Test func integerOfNaNIsZeroAndOfInfinitiesSaturates() {
    let (store, _) = makeStore()
    store.set(Double.nan, forKey: "nan")
    store.set(-Double.infinity, forKey: "minusInf")
    #expect(store.integer(forKey: "nan") == 0)
    #expect(store.integer(forKey: "minusInf") == Int.min)
  }

  @Test(arguments: [
    ("123", 123), ("  -42abc", -42), ("+7", 7), ("- 5", -5), ("3.9", 3), ("1e3", 1),
    ("x1", 0), ("", 0), ("99999999999999999999", Int.max), ("-99999999999999999999", Int.min),
    ("-9223372036854775808", Int.min),
  ])
  func integerReadsAStringsLeadingDecimalIntegerLikeNSStringIntegerValue(
    text: String, expected: Int
  ) {
    let (store, _) = makeStore()
    store.set(text, forKey: "k")
    #expect(store.integer(forKey: "k") == expected)
  }

  // MARK: bool(forKey:)

  @Test func boolIsTrueForTheNumbersOneAndOnePointZeroAsAppleDocuments() {
    let (store, _) = makeStore()
    store.set(1, forKey: "int")
    store.set(1.0, forKey: "double")
    #expect(store.bool(forKey: "int"))
    #expect(store.bool(forKey: "double"))
  }

  @Test(arguments: [
    (StoredValue.int(2), true), (.int(-1), true), (.double(0.5), true), (.int(0), false),
    (.double(0), false), (.bool(true), true), (.bool(false), false),
  ])
  func boolIsTrueForEveryNonZeroNumber(value: StoredValue, expected: Bool) {
    let (store, _) = makeStore()
    store.set(value, forKey: "k")
    #expect(store.bool(forKey: "k") == expected)
  }

  @Test(arguments: [
    ("true", true), ("YES", true), ("1", true), ("yes", true), ("Y", true), ("t", true),
    ("Yikes", true), (" 2", true), ("+007", true), ("-1", true), ("no", false),
    ("false", false), ("NO", false), ("0", false), ("000", false), ("+y", false), ("", false),
    ("  ", false), ("abc", false),
  ])
  func boolReadsStringsLikeNSStringBoolValue(text: String, expected: Bool) {
    let (store, _) = makeStore()
    store.set(text, forKey: "k")
    #expect(store.bool(forKey: "k") == expected)
  }

  @Test func boolOfDataDatesArraysAndDictionariesIsFalse() {
    let (store, _) = makeStore()
    store.set(.data([1]), forKey: "data")
    store.set(.date(.seconds(1)), forKey: "date")
    store.set(.array([.bool(true)]), forKey: "array")
    store.set(.dictionary(["a": .bool(true)]), forKey: "dict")
    for key in ["data", "date", "array", "dict"] {
      #expect(!store.bool(forKey: key))
    }
  }

  // MARK: string(forKey:)

  @Test(arguments: [
    (StoredValue.int(123), "123"), (.int(-7), "-7"), (.double(3.5), "3.5"), (.double(2), "2"),
    (.double(0.1), "0.1"), (.double(1e20), "1e+20"), (.double(-.infinity), "-inf"),
    (.bool(true), "1"), (.bool(false), "0"), (.string("Tokyo"), "Tokyo"),
  ])
  func stringConvertsNumbersToTheirDecimalText(value: StoredValue, expected: String) {
    let (store, _) = makeStore()
    store.set(value, forKey: "k")
    #expect(store.string(forKey: "k") == expected)
  }

  @Test func stringOfDataDatesArraysAndDictionariesIsNil() {
    let (store, _) = makeStore()
    store.set(.data([1]), forKey: "data")
    store.set(.date(.seconds(1)), forKey: "date")
    store.set(.array([.string("a")]), forKey: "array")
    store.set(.dictionary(["a": .string("b")]), forKey: "dict")
    for key in ["data", "date", "array", "dict"] {
      #expect(store.string(forKey: key) == nil)
    }
  }

  // MARK: Writing and removing

  @Test func settingAKeyAgainReplacesItsValueAndType() {
    let (store, _) = makeStore()
    store.set(1, forKey: "k")
    store.set("one", forKey: "k")
    #expect(store.object(forKey: "k") == .string("one"))
    #expect(store.integer(forKey: "k") == 0)
  }

  @Test func settingANilStringOrValueRemovesTheKey() {
    let (store, _) = makeStore()
    store.set("a", forKey: "s")
    store.set(2, forKey: "v")
    store.set(nil as String?, forKey: "s")
    store.set(nil as StoredValue?, forKey: "v")
    #expect(store.object(forKey: "s") == nil)
    #expect(store.object(forKey: "v") == nil)
    #expect(store.dictionaryRepresentation().isEmpty)
  }

  @Test func removeObjectForgetsTheKeySoGettersFallBackToTheirDefaults() {
    let (store, _) = makeStore()
    store.set(35.68, forKey: "lat")
    store.removeObject(forKey: "lat")
    #expect(store.double(forKey: "lat") == 0)
    #expect(store.string(forKey: "lat") == nil)
  }

  @Test func arraysDictionariesAndDataComeBackUnchanged() {
    let (store, _) = makeStore()
    let nested = StoredValue.dictionary([
      "list": .array([.int(1), .string("two"), .date(.seconds(3))]), "flag": .bool(true),
    ])
    store.set(nested, forKey: "nested")
    store.set(.array([.double(1.5)]), forKey: "array")
    store.set(.data([0xDE, 0xAD]), forKey: "bytes")
    #expect(store.object(forKey: "nested") == nested)
    #expect(store.dictionary(forKey: "nested")?["flag"] == .bool(true))
    #expect(store.array(forKey: "array") == [.double(1.5)])
    #expect(store.data(forKey: "bytes") == [0xDE, 0xAD])
    #expect(store.array(forKey: "bytes") == nil)
  }

  @Test func dictionaryRepresentationHoldsEveryKeyAndValue() {
    let (store, _) = makeStore()
    store.set(35.68, forKey: "lat")
    store.set(139.76, forKey: "lng")
    store.set(true, forKey: "seen")
    store.removeObject(forKey: "seen")
    #expect(store.dictionaryRepresentation() == ["lat": .double(35.68), "lng": .double(139.76)])
  }

  // MARK: Lifetime

  @Test func theStoreOutlivesTheAppThatWroteIt() {
    let (store, _) = makeStore()
    var app: WeatherApp? = WeatherApp(defaults: store)
    app?.didUpdateLocation(latitude: 35.681236, longitude: 139.767125)
    weak let firstLaunch = app
    app = nil
    #expect(firstLaunch == nil)

    let relaunched = WeatherApp(defaults: store)
    #expect(relaunched.requestCoordinates.lat == 35.681236)
    #expect(relaunched.requestCoordinates.lng == 139.767125)
  }

  @Test func anAppThatNeverStoredAFixBuildsItsRequestForZeroZero() {
    let (store, _) = makeStore()
    let app = WeatherApp(defaults: store)
    #expect(app.requestCoordinates.lat == 0 && app.requestCoordinates.lng == 0)
  }

  // MARK: Logging

  @Test func everyWriteAndRemovalIsLoggedAtTheVirtualTime() throws {
    let (store, sim) = makeStore()
    try sim.schedule(at: .seconds(5)) { store.set(35.5, forKey: "lat") }
    try sim.schedule(at: .seconds(7)) { store.removeObject(forKey: "lat") }
    try sim.schedule(at: .seconds(8)) { store.removeObject(forKey: "lat") }
    try sim.schedule(at: .seconds(9)) { _ = store.double(forKey: "lat") }
    try sim.run()

    let entries = sim.log.entries(source: "defaults")
    #expect(entries.map(\.time) == [.seconds(5), .seconds(7), .seconds(8)])
    #expect(entries.map(\.event) == ["set", "remove", "remove"])
    #expect(entries[0]["key"] == .string("lat"))
    #expect(entries[0]["type"] == .string("double"))
    #expect(entries[0]["value"] == .double(35.5))
    #expect(entries[0]["domain"] == .string("com.example.weather"))
    #expect(entries[1]["existed"] == .bool(true))
    #expect(entries[2]["existed"] == .bool(false))
  }

  @Test func loggedValuesAreDeterministicWhateverTheirType() {
    let (store, sim) = makeStore()
    store.set(.data([0x0F, 0xA0]), forKey: "bytes")
    store.set(.date(.seconds(2.5)), forKey: "when")
    store.set(.dictionary(["b": .int(2), "a": .bool(true)]), forKey: "dict")
    let values = sim.log.entries(source: "defaults").map { $0["value"] }
    #expect(
      values == [
        .string("0fa0"), .double(2.5),
        .array([.array([.string("a"), .bool(true)]), .array([.string("b"), .int(2)])]),
      ])
    #expect(
      sim.log.entries(source: "defaults").map { $0["type"] } == [
        .string("data"), .string("date"), .string("dictionary"),
      ])
  }
}

@Suite struct RegisteredDefaultsTests {
  private func phone() -> Phone {
    let made = makePhone()
    return made.phone
  }

  @Test func aRegisteredValueIsReadUntilTheAppStoresItsOwnAndAgainAfterRemovingIt() {
    let store = phone().userDefaults()
    store.register(defaults: ["radius": .int(200)])
    #expect(store.integer(forKey: "radius") == 200)
    #expect(store.object(forKey: "radius") == .int(200))
    store.set(300, forKey: "radius")
    #expect(store.integer(forKey: "radius") == 300)
    store.removeObject(forKey: "radius")
    // Apple: registered values are "a fallback in cases where the app domain doesn't have them".
    #expect(store.integer(forKey: "radius") == 200)
  }

  @Test func registeredValuesAreCoercedLikeStoredOnes() {
    let store = phone().userDefaults()
    store.register(defaults: ["flag": .string("YES"), "count": .string("12 apples")])
    #expect(store.bool(forKey: "flag"))
    #expect(store.integer(forKey: "count") == 12)
  }

  @Test func registrationIsSharedByThePhonesStoresAndNeitherStoredNorLogged() {
    let phone = phone()
    phone.userDefaults().register(defaults: ["units": .string("metric")])
    #expect(phone.userDefaults(suiteName: "group.example").string(forKey: "units") == "metric")
    #expect(phone.simulation.log.entries(source: "defaults").isEmpty)
    #expect(phone.userDefaults().dictionaryRepresentation() == ["units": .string("metric")])
  }

  @Test func dictionaryRepresentationPutsStoredValuesOverRegisteredOnes() {
    let store = phone().userDefaults()
    store.register(defaults: ["a": .int(1), "b": .int(2)])
    store.set(3, forKey: "b")
    #expect(store.dictionaryRepresentation() == ["a": .int(1), "b": .int(3)])
  }

  @Test func registeredValuesEndWithTheAppsProcessAndStoredOnesSurviveIt() throws {
    let phone = phone()
    try phone.launchApp()
    phone.userDefaults().register(defaults: ["radius": .int(200)])
    phone.userDefaults().set(true, forKey: "onboarded")
    phone.terminateApp()
    try phone.launchApp()
    // Apple: "the registration domain is volatile, so you must register the set of default
    // values each time your app launches".
    #expect(phone.userDefaults().object(forKey: "radius") == nil)
    #expect(phone.userDefaults().bool(forKey: "onboarded"))
  }

  @Test func aSuiteNamedStandardIsNotTheStandardStore() {
    let phone = phone()
    phone.userDefaults().set(1, forKey: "k")
    #expect(phone.userDefaults(suiteName: "standard").object(forKey: "k") == nil)
    #expect(phone.userDefaults(suiteName: nil) === phone.userDefaults())
  }

  @Test func aRefusedWriteIsLoggedAndChangesNothing() {
    let phone = phone()
    let store = phone.userDefaults()
    store.set(1, forKey: "k")
    store.recordRefusedWrite(forKey: "k", type: "NSNull")
    #expect(store.integer(forKey: "k") == 1)
    let refused = phone.simulation.log.entries(source: "defaults", event: "refused")
    #expect(refused.count == 1)
    #expect(refused.first?["type"] == .string("NSNull"))
    #expect(refused.first?["domain"] == .string("standard"))
  }
}
