import Device
import GeoSimFrameworks
import SimKernel
import Testing

// Each test checks one documented behaviour of Foundation's UserDefaults, as GeoSim's
// framework layer gives it over the phone's stores. [A] marks Apple's documentation; the
// coercion rules are Device's (`StoredValue+Coercion.swift`), each citing Apple.
// Foundation comes through GeoSimFrameworks only: importing both would make `UserDefaults`
// ambiguous.

private final class Idle: NSObject {}

/// A launched world; `body` runs as its app's code.
private func world(seed: UInt64 = 1) throws -> TestWorld {
  let world = TestWorld(seed: seed) { Idle() }
  try world.launchAndRun(until: 0)
  return world
}

@Suite("UserDefaults on the simulated phone")
struct UserDefaultsTests {
  @Test("standard is one shared object per phone [A]")
  func standardIsShared() throws {
    let w = try world()
    let other = try world()
    let a = w.inApp { UserDefaults.standard }
    #expect(w.inApp { UserDefaults.standard } === a)
    #expect(other.inApp { UserDefaults.standard } !== a)
  }

  @Test("each setter stores its type, and each getter reads it back")
  func roundTrips() throws {
    let w = try world()
    try w.inApp {
      let defaults = UserDefaults.standard
      defaults.set(42, forKey: "int")
      defaults.set(2.5, forKey: "double")
      defaults.set(Float(0.25), forKey: "float")
      defaults.set(true, forKey: "bool")
      defaults.set("Tokyo", forKey: "string")
      defaults.set(["a", "b"], forKey: "strings")
      defaults.set(["lat": 35.68, "name": "office"], forKey: "place")
      defaults.set(Data([0xCA, 0xFE]), forKey: "data")
      defaults.set(URL(string: "https://example.com/a?b=1"), forKey: "url")
      #expect(defaults.integer(forKey: "int") == 42)
      #expect(defaults.double(forKey: "double") == 2.5)
      #expect(defaults.float(forKey: "float") == 0.25)
      #expect(defaults.bool(forKey: "bool"))
      #expect(defaults.string(forKey: "string") == "Tokyo")
      #expect(defaults.stringArray(forKey: "strings") == ["a", "b"])
      #expect(defaults.array(forKey: "strings") as? [String] == ["a", "b"])
      let place = try #require(defaults.dictionary(forKey: "place"))
      #expect(place["lat"] as? Double == 35.68)
      #expect(place["name"] as? String == "office")
      #expect(defaults.data(forKey: "data") == Data([0xCA, 0xFE]))
      #expect(defaults.url(forKey: "url") == URL(string: "https://example.com/a?b=1"))
    }
  }

  @Test("a missing key reads as 0, false or nil [A]")
  func missingKeys() throws {
    let w = try world()
    w.inApp {
      let defaults = UserDefaults.standard
      #expect(defaults.integer(forKey: "none") == 0)
      #expect(defaults.double(forKey: "none") == 0)
      #expect(defaults.float(forKey: "none") == 0)
      #expect(!defaults.bool(forKey: "none"))
      #expect(defaults.object(forKey: "none") == nil)
      #expect(defaults.string(forKey: "none") == nil)
      #expect(defaults.array(forKey: "none") == nil)
      #expect(defaults.dictionary(forKey: "none") == nil)
      #expect(defaults.data(forKey: "none") == nil)
      #expect(defaults.url(forKey: "none") == nil)
    }
  }

  @Test("typed getters coerce as Foundation's do [A]")
  func coercions() throws {
    let w = try world()
    w.inApp {
      let defaults = UserDefaults.standard
      defaults.set("123.4", forKey: "text")
      defaults.set(true, forKey: "yes")
      defaults.set(2.67, forKey: "fraction")
      defaults.set("YES", forKey: "word")
      defaults.set(7, forKey: "seven")
      // "a string that contains a number becomes that number" [A]
      #expect(defaults.double(forKey: "text") == 123.4)
      #expect(defaults.integer(forKey: "text") == 123)
      // true becomes 1 [A]; a floating-point number becomes an integer (2.67 → 2) [A]
      #expect(defaults.integer(forKey: "yes") == 1)
      #expect(defaults.integer(forKey: "fraction") == 2)
      // "YES" is true [A]; numbers are converted to strings (123 → "123") [A]
      #expect(defaults.bool(forKey: "word"))
      #expect(defaults.string(forKey: "seven") == "7")
      // An array or a number is not a string array, a string is not an array [A]
      #expect(defaults.stringArray(forKey: "seven") == nil)
      #expect(defaults.array(forKey: "text") == nil)
      // A URL is stored as an archive: data, not a string [A]
      defaults.set(URL(string: "https://example.com"), forKey: "site")
      #expect(defaults.data(forKey: "site") != nil)
      #expect(defaults.string(forKey: "site") == nil)
    }
  }

  @Test("stringArray is nil when the array holds anything but strings [A]")
  func mixedArray() throws {
    let w = try world()
    w.inApp {
      UserDefaults.standard.set(["a", 1] as [Any], forKey: "mixed")
      #expect(UserDefaults.standard.stringArray(forKey: "mixed") == nil)
      #expect(UserDefaults.standard.array(forKey: "mixed")?.count == 2)
    }
  }

  @Test("object(forKey:) gives NSNumbers that bridge as Foundation's do")
  func objectsBridge() throws {
    let w = try world()
    w.inApp {
      let defaults = UserDefaults.standard
      defaults.set(3, forKey: "count")
      defaults.set(true, forKey: "flag")
      #expect(defaults.object(forKey: "count") as? Int == 3)
      #expect(defaults.object(forKey: "count") as? Double == 3)
      #expect(defaults.object(forKey: "flag") as? Bool == true)
      #expect(defaults.object(forKey: "count") is NSNumber)
    }
  }

  @Test("an absolute path string reads back as a file URL [A]")
  func pathAsURL() throws {
    let w = try world()
    w.inApp {
      UserDefaults.standard.set("/var/mobile/notes.txt", forKey: "file")
      #expect(
        UserDefaults.standard.url(forKey: "file") == URL(fileURLWithPath: "/var/mobile/notes.txt"))
    }
  }

  @Test("setting nil or removing a key forgets it, and the log records every write")
  func removalAndLog() throws {
    let w = try world()
    w.inApp {
      let defaults = UserDefaults.standard
      defaults.set("x", forKey: "a")
      defaults.set(nil, forKey: "a")
      defaults.set(1, forKey: "b")
      defaults.removeObject(forKey: "b")
      #expect(defaults.object(forKey: "a") == nil && defaults.object(forKey: "b") == nil)
    }
    #expect(w.entries("defaults", "set").map { $0["key"] } == [.string("a"), .string("b")])
    #expect(w.entries("defaults", "remove").map { $0["existed"] } == [.bool(true), .bool(true)])
    #expect(w.entries("defaults", "set").allSatisfy { $0["domain"] == .string("standard") })
  }

  @Test("registered values are the fallback, until the app's process ends [A]")
  func registeredDefaults() throws {
    let w = try world()
    w.inApp {
      let defaults = UserDefaults.standard
      defaults.register(defaults: ["radius": 200, "sound": true])
      #expect(defaults.integer(forKey: "radius") == 200)
      defaults.set(300, forKey: "radius")
      #expect(defaults.integer(forKey: "radius") == 300)
      defaults.removeObject(forKey: "radius")
      #expect(defaults.integer(forKey: "radius") == 200)
      #expect(defaults.dictionaryRepresentation()["sound"] as? Bool == true)
    }
    // "The registration domain is volatile, so you must register the set of default values each
    // time your app launches." [A]
    w.terminate()
    try w.relaunch()
    w.inApp { #expect(UserDefaults.standard.object(forKey: "sound") == nil) }
  }

  @Test("stored values survive the app's relaunch")
  func survivesRelaunch() throws {
    let w = try world()
    w.inApp { UserDefaults.standard.set("cafe", forKey: "last") }
    w.terminate()
    try w.relaunch()
    w.inApp { #expect(UserDefaults.standard.string(forKey: "last") == "cafe") }
  }

  @Test("a new world's phone starts empty, as after a fresh install, and worlds never share")
  func worldsAreIsolated() throws {
    let first = try world()
    first.inApp { UserDefaults.standard.set(1, forKey: "launches") }
    let second = try world()
    second.inApp {
      #expect(UserDefaults.standard.object(forKey: "launches") == nil)
      #expect(UserDefaults.standard.dictionaryRepresentation().isEmpty)
      UserDefaults.standard.set(5, forKey: "launches")
    }
    first.inApp { #expect(UserDefaults.standard.integer(forKey: "launches") == 1) }
  }

  @Test("worlds on two threads at once each see only their own store and center")
  func worldsOnTwoThreads() async throws {
    @Sendable func run(_ seed: UInt64) throws -> [String] {
      let w = try world(seed: seed)
      return try w.inApp {
        for i in 0..<50 { UserDefaults.standard.set("\(seed)-\(i)", forKey: "k\(i)") }
        let content = UNMutableNotificationContent()
        content.title = "\(seed)"
        UNUserNotificationCenter.current().add(
          UNNotificationRequest(identifier: "\(seed)", content: content, trigger: nil))
        try w.simulation.run(until: .seconds(1))
        let delivered = w.entries("notifications", "delivered").map { $0["identifier"] }
        #expect(delivered == [.string("\(seed)")])
        return (0..<50).compactMap { UserDefaults.standard.string(forKey: "k\($0)") }
      }
    }
    async let a = _Concurrency.Task.detached { try (0..<5).map { _ in try run(1) } }.value
    async let b = _Concurrency.Task.detached { try (0..<5).map { _ in try run(2) } }.value
    let (first, second) = try await (a, b)
    #expect(first.allSatisfy { $0 == (0..<50).map { "1-\($0)" } })
    #expect(second.allSatisfy { $0 == (0..<50).map { "2-\($0)" } })
  }

  @Test("a suite is its own store; nil is the app's own; the global domain is refused [A]")
  func suites() throws {
    let w = try world()
    w.inApp {
      let group = UserDefaults(suiteName: "group.com.example.checkin")
      group?.set("shared", forKey: "k")
      #expect(UserDefaults.standard.object(forKey: "k") == nil)
      #expect(UserDefaults(suiteName: "group.com.example.checkin")?.string(forKey: "k") == "shared")
      UserDefaults.standard.set("own", forKey: "k")
      #expect(UserDefaults(suiteName: nil)?.string(forKey: "k") == "own")
      #expect(UserDefaults().string(forKey: "k") == "own")
      #expect(UserDefaults(suiteName: "NSGlobalDomain") == nil)
    }
    let domains = w.entries("defaults", "set").map { $0["domain"] }
    #expect(domains == [.string("group.com.example.checkin"), .string("standard")])
  }

  @Test("a value that is not a property list is not stored, and the log says so")
  func nonPropertyList() throws {
    let w = try world()
    w.inApp {
      let defaults = UserDefaults.standard
      defaults.set("kept", forKey: "k")
      defaults.set(NSNull(), forKey: "k")
      defaults.set(URL(string: "https://example.com")! as Any, forKey: "u")
      defaults.set([1: "one"] as [Int: String], forKey: "d")
      #expect(defaults.string(forKey: "k") == "kept")
      #expect(defaults.object(forKey: "u") == nil)
      #expect(defaults.object(forKey: "d") == nil)
    }
    #expect(
      w.entries("defaults", "refused").map { $0["key"] } == [
        .string("k"), .string("u"), .string("d"),
      ])
  }

  @Test("a date is kept in the world's calendar")
  func dates() throws {
    let w = try world()
    let when = Date(timeIntervalSince1970: 1_775_001_600 + 90)
    w.inApp {
      UserDefaults.standard.set(when, forKey: "when")
      #expect(UserDefaults.standard.object(forKey: "when") as? Date == when)
    }
    #expect(w.entries("defaults", "set").first?["value"] == .double(90))
  }

  @Test("synchronize() is harmless and says true [A]")
  func synchronize() throws {
    let w = try world()
    w.inApp { #expect(UserDefaults.standard.synchronize()) }
  }

  @Test("standard outside a world stops with Phone.requireCurrent's message")
  func outsideAWorldStops() async {
    let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
      _ = UserDefaults.standard.bool(forKey: "x")
    }
    let message = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
    #expect(message.contains("UserDefaults.standard was used outside a GeoSim world"))
  }

  @Test("an object used in another world than its own stops")
  func anotherWorldStops() async {
    await #expect(processExitsWith: .failure) {
      let first = TestWorld { NSObject() }
      let second = TestWorld { NSObject() }
      let defaults = first.inApp { UserDefaults.standard }
      second.inApp { _ = defaults.bool(forKey: "x") }
    }
  }
}
