import JSON
import Replay
import Testing

/// A sweep's grid: every combination, in a fixed order, reproducible from an index.
@Suite struct SweepGridTests {
  let grid = SweepGrid(parameters: [
    try! SweepGrid.parameter("app.configuration.radius,expectations[0].region.radius=100,200"),
    try! SweepGrid.parameter("trace.speed=walk,car,train"),
    try! SweepGrid.parameter("seed=1..2"),
  ])

  @Test func pointsAreEveryCombinationWithTheLastVaryingFastest() {
    #expect(grid.count == 12)
    #expect(grid.values(at: 0) == [.number(100), .string("walk"), .number(1)])
    #expect(grid.values(at: 1) == [.number(100), .string("walk"), .number(2)])
    #expect(grid.values(at: 2) == [.number(100), .string("car"), .number(1)])
    #expect(grid.values(at: 11) == [.number(200), .string("train"), .number(2)])
  }

  @Test func shardsPartitionThePoints() {
    let shards = (1...5).map { grid.indices(shard: $0, of: 5) }
    #expect(shards.flatMap { $0 }.sorted() == Array(0..<12))
    #expect(shards[0] == [0, 5, 10])
  }

  @Test func aPointSetsEveryPathOfItsParameters() throws {
    let document = try JSONDocument(
      parsing:
        #"{"seed": 9, "app": {"name": "A"}, "expectations": [{"region": {"radius": 5}}], "trace": {"speed": "bike"}}"#
    ).root
    let point = try grid.document(document, at: 11)
    #expect(point[["app", "configuration", "radius"]] == .number(200))
    #expect(point[["expectations", 0, "region", "radius"]] == .number(200))
    #expect(point[["trace", "speed"]] == .string("train"))
    #expect(point[["seed"]] == .number(2))
    #expect(point[["app", "name"]] == .string("A"))
  }

  @Test func aPathThatLeadsNowhereIsAnError() throws {
    let g = SweepGrid(parameters: [try SweepGrid.parameter("expectations[3].within=1")])
    #expect(throws: SweepError.self) {
      try g.document(.object(["expectations": .array([])]), at: 0)
    }
  }

  @Test func valuesAreJSONWhereTheyParse() throws {
    let p = try SweepGrid.parameter(
      #"device.promptAnswers.location[0]=allowWhileUsing,"dontAllow",true,2.5"#)
    #expect(
      p.values == [.string("allowWhileUsing"), .string("dontAllow"), .bool(true), .number(2.5)])
    #expect(p.name == "device.promptAnswers.location[0]")
    #expect(throws: SweepError.self) { try SweepGrid.parameter("radius") }
    #expect(throws: SweepError.self) { try SweepGrid.parameter("seed=5..1") }
  }

  @Test func theGridRoundTripsThroughJSONWhateverItsKeys() throws {
    #expect(try SweepGrid(json: grid.json) == grid)
    let odd = SweepGrid(parameters: [
      .init(name: "odd", paths: [JSONPath(["app", "configuration", "x-y z", 2])], values: [.null])
    ])
    #expect(try SweepGrid(json: odd.json) == odd)
  }

  @Test func objectsAndArraysAreSingleValues() throws {
    let p = try SweepGrid.parameter(
      #"app.configuration.region={"latitude":35.6,"longitude":139.7},[1,2],3"#)
    #expect(
      p.values == [
        .object(["latitude": .number(35.6), "longitude": .number(139.7)]),
        .array([.number(1), .number(2)]), .number(3),
      ])
  }

  @Test func gridsThatCannotBeSweptAreRefused() throws {
    let huge = SweepGrid(
      parameters: (0..<4).map { i in
        .init(
          name: "p\(i)", paths: [JSONPath([.key("p\(i)")])],
          values: Array(repeating: .null, count: 100_000))
      })
    #expect(huge.count == .max)
    #expect(throws: SweepError.self) { try huge.validate() }
    let twice = SweepGrid(parameters: [
      try SweepGrid.parameter("app.configuration.radius=1,2"),
      try SweepGrid.parameter("seed,app.configuration.radius=3"),
    ])
    #expect(throws: SweepError.self) { try twice.validate() }
    #expect(throws: Never.self) { try grid.validate() }
  }
}
