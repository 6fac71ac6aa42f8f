import Device
import Geo
import SimKernel

/// The phone's sensor in a replay: a ``SensorModel`` over the true trajectory so far, rebuilt
/// when a timeline event starts or changes the trace.
///
/// Before any trace starts the phone has no position: it gets no fixes and no coarse estimate.
final class ReplaySensor: LocationSensor {
  /// The true trajectory: every sample the phone has followed or will follow.
  private(set) var samples: [TrajectorySample] = []
  private var model: SensorModel?
  private let environment: SensorEnvironment?
  private let parameters: SensorParameters
  private let random: RandomStream
  private var changes = 0

  /// Where the trajectories of samples a process follows again are kept.
  private let resources: ReplayResources

  init(
    environment: SensorEnvironment?, parameters: SensorParameters, random: RandomStream,
    resources: ReplayResources
  ) {
    self.environment = environment
    self.parameters = parameters
    self.random = random
    self.resources = resources
  }

  var updateInterval: SimDuration { parameters.updateInterval }

  func trueSpeed(at time: SimTime) -> Double? { model?.trueSpeed(at: time) }

  /// From `time` on, the phone follows `next` (whose samples start at or after `time`); what
  /// remained of the previous trace is dropped, and the position at `time` is kept as a
  /// sample so that the truth up to `time` is unchanged.
  func follow(_ next: [TrajectorySample], from time: SimTime) throws {
    var kept = samples.filter { $0.time < time }
    if let model, let state = model.trajectory.state(at: time),
      kept.last.map({ $0.time < time }) ?? true, next.first.map({ $0.time > time }) ?? true
    {
      kept.append(TrajectorySample(time: time, coordinate: state.coordinate))
    }
    kept.append(
      contentsOf: next.filter { sample in kept.last.map { sample.time > $0.time } ?? true })
    changes += 1
    model = try SensorModel(
      trajectory: resources.trajectory(kept), environment: environment, parameters: parameters,
      random: random.split("trace.\(changes)"))
    samples = kept
  }

  func reading(at time: SimTime, desiredAccuracy: Double, reducedAccuracy: Bool) -> SensorReading {
    model?.reading(at: time, desiredAccuracy: desiredAccuracy, reducedAccuracy: reducedAccuracy)
      ?? .silent
  }

  func coarseEstimate(at time: SimTime) -> Location? {
    model?.coarseEstimate(at: time)
  }

  func regionPosition(at time: SimTime, from source: PositioningSource, connected: Bool)
    -> Location?
  {
    model?.regionPosition(at: time, from: source, connected: connected)
  }

  func truePosition(at time: SimTime) -> Coordinate? {
    model?.truePosition(at: time)
  }

  func approximate(_ location: Location) -> Location {
    model?.approximate(location) ?? location
  }
}
