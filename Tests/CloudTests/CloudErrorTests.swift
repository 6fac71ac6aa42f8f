import Cloud
import Testing

@Suite struct CloudErrorTests {
  @Test func anErrorPrintsItsMessage() {
    let error = CloudError(.invalidArgument, "limit 5000 is outside 1…1000")
    #expect(error.description == "limit 5000 is outside 1…1000")
    #expect(error.code == .invalidArgument)
  }
}
