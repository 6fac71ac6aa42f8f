import Cloud
import Device
import Foundation
import Geo
import JSON
import SimKernel
import Synchronization
import Traces

/// Read-only data that every world may use and that is costly to load or compute (the
/// three-word languages, the built-in gazetteer's areas): loaded at most once, on first use,
/// and shared by the worlds that a process runs, on any thread.
///
/// It also keeps the traces and map layers the process has read, by their file's bytes, and
/// the trajectories it has synthesized, by their source: checking a scenario and then
/// replaying it, or replaying the points of a sweep that share a trace, reads and synthesizes
/// each one once.
public final class ReplayResources: Sendable {
  private let languages = Mutex<Result<ThreeWordLanguages, CloudError>?>(nil)
  private let tokyoFeatures = Mutex<[GeoJSONFeature]?>(nil)
  private let traces = Mutex<[TraceFileKey: Trace]>([:])
  private let synthesized = Mutex<[TraceSource: [TrajectorySample]]>([:])
  private let layers = Mutex<[GeoJSONKey: [GeoJSONFeature]]>([:])
  private let trajectories = Mutex<[[TrajectorySample]: Trajectory]>([:])
  private let timeZoneSpans = Mutex<[TimeZoneSpan: JSONValue]>([:])
  private let resolvedURLs = Mutex<[FileKey: URL]>([:])

  /// A time zone over a span of time, from `start` for `seconds`.
  package struct TimeZoneSpan: Hashable, Sendable {
    package let zone: String
    package let start: Date
    package let seconds: Double

    package init(zone: String, start: Date, seconds: Double) {
      self.zone = zone
      self.start = start
      self.seconds = seconds
    }
  }

  /// A GeoJSON text as parsed: the name it is given in errors, and its bytes.
  private struct GeoJSONKey: Hashable {
    let file: String
    let data: Data
  }

  /// A trace file as read: where, how its GPX waypoints are read, and its bytes (a file that
  /// changed is read again).
  private struct TraceFileKey: Hashable {
    let path: String
    let gpxWaypoints: GPXWaypoints
    let data: Data
  }

  /// Resources from the bundled data files, loaded when first needed.
  public init() {}

  /// The bundled three-word languages.
  public func threeWordLanguages() throws(CloudError) -> ThreeWordLanguages {
    let result = languages.withLock { cached in
      if let cached { return cached }
      let loaded = Result { () throws(CloudError) in try ThreeWordLanguages.bundled() }
      cached = loaded
      return loaded
    }
    return try result.get()
  }

  /// The areas of the built-in gazetteer (`Gazetteer.centralTokyoFeatures(context:)`),
  /// computed once in a GEOS context of their own; each world builds its gazetteer from them
  /// in its own context.
  public func centralTokyoFeatures() throws -> [GeoJSONFeature] {
    try tokyoFeatures.withLock { cached in
      if let cached { return cached }
      let features = try Gazetteer.centralTokyoFeatures(context: GEOSContext())
      cached = features
      return features
    }
  }

  /// The trace in the file at `path`, as `Trace.read(contentsOf:gpxWaypoints:)` reads it;
  /// parsed once per process for the same bytes.
  ///
  /// - Throws: `TraceError` naming the file, the line and what was expected.
  public func trace(contentsOf path: String, gpxWaypoints: GPXWaypoints) throws -> Trace {
    let data = try Trace.fileData(atPath: path)
    let key = TraceFileKey(path: path, gpxWaypoints: gpxWaypoints, data: data)
    if let trace = traces.withLock({ $0[key] }) { return trace }
    // Parsed outside the lock: another thread may parse the same file meanwhile, to the same
    // trace.
    let trace = try Trace(fileData: data, path: path, gpxWaypoints: gpxWaypoints)
    traces.withLock { $0[key] = trace }
    return trace
  }

  /// `url` standardized and with its symbolic links resolved
  /// (`standardizedFileURL.resolvingSymlinksInPath()`), worked out once per process for the
  /// same URL: every point of a sweep names the same files, and Foundation resolves a path one
  /// component at a time.
  package func resolvingSymlinks(_ url: URL) -> URL {
    resolved(FileKey(folder: url, path: nil)) { url.standardizedFileURL.resolvingSymlinksInPath() }
  }

  /// The file `path` names, relative to `folder` unless it is absolute, standardized and with
  /// its symbolic links resolved, as ``resolvingSymlinks(_:)`` resolves it: made once per
  /// process for the same names.
  package func resolvingSymlinks(_ path: String, in folder: URL) -> URL {
    resolved(FileKey(folder: folder, path: path)) { Self.resolvingSymlinks(path, in: folder) }
  }

  /// The file `path` names, relative to `folder` unless it is absolute, standardized and with
  /// its symbolic links resolved, worked out afresh.
  package static func resolvingSymlinks(_ path: String, in folder: URL) -> URL {
    let url = path.hasPrefix("/") ? URL(fileURLWithPath: path) : folder.appendingPathComponent(path)
    return url.standardizedFileURL.resolvingSymlinksInPath()
  }

  /// A file's name as a scenario gives it (`path` in `folder`), or a URL (`folder` alone).
  private struct FileKey: Hashable {
    let folder: URL
    let path: String?
  }

  private func resolved(_ key: FileKey, _ make: () -> URL) -> URL {
    if let known = resolvedURLs.withLock({ $0[key] }) { return known }
    let resolved = make()
    resolvedURLs.withLock { $0[key] = resolved }
    return resolved
  }

  /// The features of a GeoJSON text (`GeoJSON.features(from:file:)`), parsed once per
  /// process for the same bytes.
  ///
  /// - Throws: `GeoError` naming `file`, the place in it and what was expected.
  public func geoJSONFeatures(_ data: Data, file: String) throws -> [GeoJSONFeature] {
    let key = GeoJSONKey(file: file, data: data)
    if let features = layers.withLock({ $0[key] }) { return features }
    let features = try GeoJSON.features(from: data, file: file)
    layers.withLock { $0[key] = features }
    return features
  }

  /// The trajectory through `samples` (`Trajectory(_:)`), built once per process for the
  /// same samples: a sweep's worlds that share a trace follow one, and a replay's reports
  /// measure against the one its phone followed.
  ///
  /// - Throws: `DeviceError` for samples that make no trajectory.
  public func trajectory(_ samples: [TrajectorySample]) throws -> Trajectory {
    if let trajectory = trajectories.withLock({ $0[samples] }) { return trajectory }
    let trajectory = try Trajectory(samples)
    trajectories.withLock { $0[samples] = trajectory }
    return trajectory
  }

  /// What the time zone database says of a zone over a span (the replay viewer's offsets and
  /// abbreviations), asked of it by `make` once per span: every run of a scenario replayed
  /// several times shows the same span.
  package func describe(_ span: TimeZoneSpan, make: () -> JSONValue) -> JSONValue {
    if let known = timeZoneSpans.withLock({ $0[span] }) { return known }
    let made = make()
    timeZoneSpans.withLock { $0[span] = made }
    return made
  }

  /// The true trajectory of a synthesized trace source (`.synthesized`), computed once per
  /// process by `make`.
  func samples(
    of source: TraceSource, make: () throws -> [TrajectorySample]
  ) rethrows -> [TrajectorySample] {
    if let samples = synthesized.withLock({ $0[source] }) { return samples }
    let samples = try make()
    synthesized.withLock { $0[source] = samples }
    return samples
  }
}

/// The three-word service, created at its first request so that worlds whose app never asks
/// for three-word addresses do not load the word lists.
final class LazyThreeWordService: SimulatedService {
  let serviceName = "threewords"
  private let resources: ReplayResources
  private var endpoint: ThreeWordEndpoint?

  init(resources: ReplayResources) {
    self.resources = resources
  }

  func respond(to request: HTTPRequest) -> (response: HTTPResponse, serviceTime: SimDuration) {
    if endpoint == nil {
      do {
        endpoint = ThreeWordEndpoint(
          service: ThreeWordAddressService(languages: try resources.threeWordLanguages()))
      } catch {
        return (
          HTTPResponse(
            status: 500,
            body: .object([
              "error": .object([
                "code": .string("InternalServerError"), "message": .string("\(error)"),
              ])
            ])), .zero
        )
      }
    }
    return endpoint!.respond(to: request)
  }
}
