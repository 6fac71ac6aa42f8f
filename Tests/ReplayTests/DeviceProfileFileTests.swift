import Device
import Foundation
import Geo
import Testing

@testable import Replay

/// Device profile files — their JSON shape, the same checks as a scenario's `device` block,
/// byte-stable writing — and scenarios that load a profile by name or by path.
@Suite struct DeviceProfileFileTests {
  /// A fresh folder for one test's files.
  static func folder(_ name: String) throws -> URL {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent(
      "geosim-profile-tests-\(name)-\(getpid())")
    try? FileManager.default.removeItem(at: url)
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    return url
  }

  static func scenario(device: String) -> String {
    """
    {"format": "geosim-scenario/1", "name": "p", "start": "2026-04-01T08:00:00+09:00",
     "duration": 60, "app": {"name": "FixCounter"}, "device": \(device)}
    """
  }

  static func readScenario(_ text: String, in folder: URL, profile: DeviceProfile? = nil) throws
    -> Scenario
  {
    let file = folder.appendingPathComponent("p.scenario.json")
    try Data(text.utf8).write(to: file)
    return try Scenario(contentsOf: file.path, profile: profile)
  }

  static var changed: DeviceProfile {
    var p = DeviceProfile.functional
    p.name = "my-iphone"
    p.summary = "fitted to a walk \"home\""
    p.parameters.backgroundGracePeriod = .seconds(7.25)
    p.parameters.pauseAfter[.fitness] = nil
    p.parameters.regionMonitoring.missProbability = 0.125
    p.parameters.regionMonitoring.exitLatencyMedian = .seconds(61.5)
    p.parameters.significantChanges.distance = 450
    p.parameters.visits.radius = 75
    p.sensor.coarseAccuracy = 42.5
    p.sensor.coarseJumpDistance = 100...200
    p.sensor.cellSites = [
      try! Coordinate(latitude: 38.905, longitude: -77.063),
      try! Coordinate(latitude: 38.9, longitude: -77.07),
    ]
    return p
  }

  // MARK: The file

  @Test(arguments: DeviceProfile.builtIn + [changed])
  func readingTheWrittenFileGivesTheSameProfileAndTheSameBytes(_ profile: DeviceProfile) throws {
    let text = profile.fileText
    let read = try DeviceProfile(data: Data(text.utf8), file: "p.json")
    #expect(read == profile)
    #expect(read.fileText == text)
  }

  @Test func theFileListsEveryRegionAndSensorNumberAndOnlyTheOtherNumbersThatChanged() throws {
    let text = Self.changed.fileText
    #expect(text.hasPrefix("{\n  \"profile\": \"my-iphone\",\n  \"summary\": "))
    #expect(text.contains("\"regionMonitoring\": {\n    \"evaluationInterval\": 10,"))
    #expect(text.contains("\"missProbability\": 0.125"))
    #expect(text.contains("\"coarseJumpDistance\": {\"min\": 100, \"max\": 200}"))
    #expect(text.contains("\"backgroundGracePeriod\": 7.25"))
    #expect(!text.contains("regionRelaunchWindow"))
    #expect(text.contains("\"significantChanges\": {\"distance\": 450}"))
    #expect(text.contains("\"fitness\": null"))
    #expect(
      text.contains(
        "\"cellSites\": [\n      {\"latitude\": 38.905, \"longitude\": -77.063},\n"))
    let urban = DeviceProfile.urban.fileText
    #expect(!urban.contains("\"parameters\"") && !urban.contains("\"visits\""))
    #expect(urban.hasSuffix("}\n"))
  }

  @Test func aFileSetsOnlyWhatItNamesOverTheDefaults() throws {
    let profile = try DeviceProfile(
      data: Data(#"{"profile": "p", "regionMonitoring": {"missProbability": 0.2}}"#.utf8),
      file: "p.json")
    var expected = PhoneParameters()
    expected.regionMonitoring.missProbability = 0.2
    #expect(profile.parameters == expected && profile.sensor == SensorParameters())
    #expect(profile.summary == "")
  }

  @Test(arguments: [
    (#"{"summary": "x"}"#, "p.json:1:1: (root): missing required key 'profile'"),
    (
      #"{"profile": "p", "sensor": {"coarseAcuracy": 5}}"#,
      "p.json:1:29: sensor.coarseAcuracy: unknown key 'coarseAcuracy'"
    ),
    (
      "{\"profile\": \"p\",\n \"regionMonitoring\": {\"missProbability\": 2}}",
      "p.json:2:42: regionMonitoring.missProbability: expected a probability in [0, 1], found 2"
    ),
    (#"{"profile": "my phone"}"#, "p.json:1:13: profile: expected a profile name"),
    (#"{"profile": "p", "device": {}}"#, "p.json:1:18: device: unknown key 'device'"),
    ("{\"profile\": ", "p.json:1:13:"),
  ])
  func aBadFileNamesItsPlaceAndWhatWasExpected(_ text: String, _ message: String) {
    #expect {
      _ = try DeviceProfile(data: Data(text.utf8), file: "p.json")
    } throws: { error in
      "\(error)".hasPrefix(message)
    }
  }

  @Test func aMissingFileIsAnErrorNamingIt() {
    #expect {
      _ = try DeviceProfile(contentsOf: "/nonexistent/p.json")
    } throws: { error in
      "\(error)".hasPrefix("/nonexistent/p.json: cannot read the device profile")
    }
  }

  // MARK: Scenarios

  @Test func aBuiltInNameSetsTheDeviceAndTheBlocksOwnKeysOverrideSingleNumbers() throws {
    let folder = try Self.folder("builtin")
    defer { try? FileManager.default.removeItem(at: folder) }
    // The override comes before the profile in the document: the profile still goes first.
    let s = try Self.readScenario(
      Self.scenario(
        device: #"{"regionMonitoring": {"missProbability": 0.5}, "profile": "functional"}"#),
      in: folder)
    var expected = DeviceProfile.functional
    expected.parameters.regionMonitoring.missProbability = 0.5
    #expect(s.device.parameters == expected.parameters)
    #expect(s.device.sensor == expected.sensor)
    #expect(s.device.profileName == "functional" && s.device.profileFile == nil)
  }

  @Test func aScenarioWithoutAProfileHasTheStandardOne() throws {
    let folder = try Self.folder("standard")
    defer { try? FileManager.default.removeItem(at: folder) }
    let s = try Self.readScenario(Self.scenario(device: "{}"), in: folder)
    #expect(s.device.profileName == DeviceProfile.standard.name)
    #expect(s.device.parameters == DeviceProfile.standard.parameters)
  }

  @Test func aProfileFileLoadsRelativeToTheScenario() throws {
    let folder = try Self.folder("file")
    defer { try? FileManager.default.removeItem(at: folder) }
    try FileManager.default.createDirectory(
      at: folder.appendingPathComponent("profiles"), withIntermediateDirectories: true)
    try Data(Self.changed.fileText.utf8).write(
      to: folder.appendingPathComponent("profiles/my-iphone.json"))
    let s = try Self.readScenario(
      Self.scenario(
        device: #"{"profile": "profiles/my-iphone.json", "sensor": {"wifiCoverage": 0.5}}"#),
      in: folder)
    #expect(s.device.profileName == "my-iphone")
    #expect(s.device.profileFile == "profiles/my-iphone.json")
    #expect(s.device.parameters == Self.changed.parameters)
    var sensor = Self.changed.sensor
    sensor.wifiCoverage = 0.5
    #expect(s.device.sensor == sensor)
  }

  @Test func anUnknownNameOrAMissingFileListsTheBuiltInProfiles() throws {
    let folder = try Self.folder("unknown")
    defer { try? FileManager.default.removeItem(at: folder) }
    for (profile, message) in [
      (
        "factory",
        "unknown device profile 'factory': expected a built-in profile (functional, urban, suburban, rural, transit)"
      ),
      ("profiles/none.json", "no such file:"),
    ] {
      #expect {
        _ = try Self.readScenario(
          Self.scenario(device: "{\"profile\": \"\(profile)\"}"), in: folder)
      } throws: { error in
        let e = error as? ScenarioError
        return e?.path == "device.profile" && e?.line == 2 && e!.message.contains(message)
          && e!.message.contains("functional, urban, suburban, rural, transit")
      }
    }
  }

  @Test func aBadProfileFileIsNamedUnderTheScenariosPlace() throws {
    let folder = try Self.folder("bad")
    defer { try? FileManager.default.removeItem(at: folder) }
    try Data(#"{"profile": "x", "sensor": {"wifiCoverage": 3}}"#.utf8).write(
      to: folder.appendingPathComponent("x.json"))
    #expect {
      _ = try Self.readScenario(Self.scenario(device: #"{"profile": "x.json"}"#), in: folder)
    } throws: { error in
      let e = error as? ScenarioError
      return e?.path == "device.profile"
        && e!.message.contains("x.json:1:45: sensor.wifiCoverage: expected a share in [0, 1]")
    }
  }

  @Test func aProfileChosenInCodeReplacesTheNamedOneButNotTheBlocksNumbers() throws {
    let folder = try Self.folder("code")
    defer { try? FileManager.default.removeItem(at: folder) }
    let s = try Self.readScenario(
      Self.scenario(device: #"{"profile": "rural", "sensor": {"cellSpacing": 900}}"#),
      in: folder, profile: .functional)
    var sensor = DeviceProfile.functional.sensor
    sensor.cellSpacing = 900
    #expect(s.device.profileName == "functional" && s.device.sensor == sensor)
    let plain = try Self.readScenario(
      #"{"format": "geosim-scenario/1", "name": "p", "start": "2026-04-01T08:00:00+09:00", "duration": 60, "app": {"name": "FixCounter"}}"#,
      in: folder, profile: .functional)
    #expect(plain.device.profileName == "functional")
    #expect(plain.device.parameters == DeviceProfile.functional.parameters)
  }
}
