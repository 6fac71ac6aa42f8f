import Cloud
import JSON
import SimKernel
import Synchronization

/// Read-only data that every world may use and that is costly to load (the three-word
/// languages): loaded at most once, on first use, and shared by the worlds that a process runs,
/// on any thread.
public final class ReplayResources: Sendable {
  private let languages = Mutex<Result<ThreeWordLanguages, CloudError>?>(nil)

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
