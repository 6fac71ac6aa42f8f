/// How fast a synthesized traveller moves and how quickly it speeds up and slows down.
///
/// Presets (cruise speed; acceleration; deceleration), with sources. Accelerations in SUMO are
/// "convenient" values of its default vehicle classes (SUMO documentation, "Vehicle Type
/// Parameter Defaults"); values marked [?] are estimates without a source yet.
///
/// | preset  | speed m/s          | accel m/s²      | decel m/s²      |
/// |---------|--------------------|-----------------|-----------------|
/// | `walk`  | 1.4 (simctl-like)  | 1.5 (SUMO ped.) | 2.0 (SUMO ped.) |
/// | `run`   | 3.0                | 2.0 [?]         | 2.0 [?]         |
/// | `bike`  | 5.0                | 1.2 (SUMO bike) | 3.0 (SUMO bike) |
/// | `car`   | 13.9 (50 km/h)     | 2.6 (SUMO car)  | 4.5 (SUMO car)  |
/// | `train` | 20.0               | 1.0 [?]         | 1.0 [?]         |
///
/// An explicit speed in m/s uses the car's acceleration and deceleration scaled down to at most
/// the speed itself per second, so that slow explicit speeds do not lurch [?].
public struct SpeedProfile: Hashable, Sendable {
  /// The cruise speed in metres per second.
  public var speed: Double
  /// The acceleration from a stop, in m/s².
  public var acceleration: Double
  /// The deceleration into a stop, in m/s².
  public var deceleration: Double

  /// Creates a profile.
  ///
  /// - Throws: ``TraceError`` with code ``TraceError/Code/invalidArgument`` unless all three
  ///   values are finite and positive.
  public init(speed: Double, acceleration: Double, deceleration: Double) throws {
    for (name, value) in [
      ("speed", speed), ("acceleration", acceleration), ("deceleration", deceleration),
    ] {
      guard value.isFinite, value > 0 else {
        throw TraceError(
          .invalidArgument, file: nil, "\(name) \(value) is not a finite positive number")
      }
    }
    self.speed = speed
    self.acceleration = acceleration
    self.deceleration = deceleration
  }

  private init(unchecked speed: Double, _ acceleration: Double, _ deceleration: Double) {
    self.speed = speed
    self.acceleration = acceleration
    self.deceleration = deceleration
  }

  /// Walking: 1.4 m/s.
  public static let walk = SpeedProfile(unchecked: 1.4, 1.5, 2.0)
  /// Running: 3 m/s.
  public static let run = SpeedProfile(unchecked: 3, 2.0, 2.0)
  /// Cycling: 5 m/s.
  public static let bike = SpeedProfile(unchecked: 5, 1.2, 3.0)
  /// Driving in town: 13.9 m/s (50 km/h).
  public static let car = SpeedProfile(unchecked: 13.9, 2.6, 4.5)
  /// A train: 20 m/s.
  public static let train = SpeedProfile(unchecked: 20, 1.0, 1.0)

  /// The presets by name.
  public static let presets: [(name: String, profile: SpeedProfile)] = [
    ("walk", .walk), ("run", .run), ("bike", .bike), ("car", .car), ("train", .train),
  ]

  /// A preset name (`walk`, `run`, `bike`, `car`, `train`) or a speed in m/s (`7.5`).
  ///
  /// - Throws: ``TraceError`` with code ``TraceError/Code/invalidArgument`` naming the accepted
  ///   values.
  public init(parsing text: String) throws {
    if let preset = SpeedProfile.presets.first(where: { $0.name == text }) {
      self = preset.profile
      return
    }
    guard let speed = ByteScan.double(text.hasSuffix("m/s") ? String(text.dropLast(3)) : text),
      speed > 0
    else {
      throw TraceError(
        .invalidArgument, file: nil,
        "speed '\(text)': expected walk, run, bike, car, train or a positive number of m/s")
    }
    try self.init(
      speed: speed, acceleration: min(SpeedProfile.car.acceleration, speed),
      deceleration: min(SpeedProfile.car.deceleration, speed))
  }
}
