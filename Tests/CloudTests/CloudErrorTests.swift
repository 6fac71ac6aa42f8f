import Cloud
import JSON
import Testing

@Suite struct CloudErrorTests {
  @Test func anErrorPrintsItsMessage() {
    let error = CloudError(.invalidArgument, "limit 5000 is outside 1…1000")
    #expect(error.description == "limit 5000 is outside 1…1000")
    #expect(error.code == .invalidArgument)
  }

  @Test func aThreeWordErrorPrintsItsWireCodeAndCarriesItsStatusAndBody() {
    let error = ThreeWordAPIError(.invalidKey, "Authentication failed; invalid API key")
    #expect(error.description == "InvalidKey: Authentication failed; invalid API key")
    #expect(error.httpStatus == 401)
    #expect(
      error.json.jsonText
        == #"{"error":{"code":"InvalidKey","message":"Authentication failed; invalid API key"}}"#)
  }

  @Test func aThreeWordErrorIsNotCaughtAsACloudError() {
    func answer() throws { throw ThreeWordAPIError(.badWords, "not three words") }
    var caughtAsCloudError = false
    do { try answer() } catch is CloudError {
      caughtAsCloudError = true
    } catch {}
    #expect(!caughtAsCloudError)
  }
}
