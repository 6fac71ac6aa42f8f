/// A named set of the phone's behaviour numbers: the phone's parameters and its sensor's,
/// chosen together for what a test is for.
///
/// GeoSim ships ``functional`` for logic tests — nothing random decides a verdict — and field
/// profiles calibrated against the published field tests (docs/DEVICE.md, "Device profiles").
/// `geosim calibrate --fit` writes a profile fitted to a field log recorded on a user's own
/// phone; a scenario loads one with `"device": {"profile": …}`.
public struct DeviceProfile: Hashable, Sendable {
  /// The profile's name: a built-in name, or the name a fitted profile was given.
  public var name: String
  /// What the profile is for, in a sentence.
  public var summary: String
  /// The phone's parameters.
  public var parameters: PhoneParameters
  /// The sensor's parameters.
  public var sensor: SensorParameters

  /// A profile of the given numbers.
  public init(
    name: String, summary: String, parameters: PhoneParameters = PhoneParameters(),
    sensor: SensorParameters = SensorParameters()
  ) {
    self.name = name
    self.summary = summary
    self.parameters = parameters
    self.sensor = sensor
  }

  /// The profile a phone has when nothing chooses one: the documented defaults of
  /// ``PhoneParameters`` and ``SensorParameters``, which are the ``urban`` field profile.
  public static var standard: DeviceProfile { urban }

  /// The profiles GeoSim ships, by name.
  public static var builtIn: [DeviceProfile] {
    [functional, urban, suburban, rural, transit]
  }

  /// The built-in profile called `name`, or `nil`.
  public static func named(_ name: String) -> DeviceProfile? {
    builtIn.first { $0.name == name }
  }

  /// Checks every number of the profile.
  ///
  /// - Throws: ``DeviceError`` with code ``DeviceErrorCode/invalidArgument`` naming the first
  ///   parameter out of range.
  public func validate() throws {
    try parameters.regionMonitoring.validate()
    try sensor.validate()
  }
}
