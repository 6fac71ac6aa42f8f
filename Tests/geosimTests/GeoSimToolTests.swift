import Testing

@testable import GeoSimCLI

@Suite struct GeoSimToolTests {
  @Test func helpListsTheCommands() {
    let result = run(["--help"])
    #expect(result.code == 0)
    #expect(result.out.contains("geodesic"))
    #expect(result.out.contains("bench"))
  }

  @Test func versionPrintsOneLine() {
    let result = run(["--version"])
    #expect(result.code == 0)
    #expect(result.out == "geosim \(GeoSimTool.version)\n")
  }

  @Test(arguments: [
    (["frobnicate"], "Error: Unexpected argument 'frobnicate'"),
    (["--frobnicate"], "Error: Unknown option '--frobnicate'"),
    (["geodesic", "--fast"], "Error: Unknown option '--fast'"),
    (["geodesic", "-p"], "Error: Missing value for '-p <prec>'"),
    (["geodesic", "-p", "x"], "Error: The value 'x' is invalid for '-p <prec>'"),
    (["geodesic", "-p", "11"], "Error: -p needs a whole number from 0 to 10, got 11"),
    (["bench"], "Error: Missing expected argument '<suite>'"),
    (
      ["bench", "nope"],
      "Error: unknown suite 'nope'; expected one of: geo, kernel, device, trace, map, cloud, "
        + "replay, report"
    ),
    (["bench", "geo", "extra"], "Error: Unexpected argument 'extra'"),
    ([], "Error: missing command"),
  ])
  func usageErrorsExitTwoNamingTheMistakeFirst(arguments: [String], message: String) {
    let result = run(arguments)
    #expect(result.code == 2)
    #expect(result.err.split(separator: "\n").first.map(String.init) == message, "\(result.err)")
    #expect(result.out.isEmpty)
  }

  @Test func geodesicInverseAnswersLikeGeodSolve() {
    // GeographicLib (Python 2.0) Inverse(40.6, -73.8, 51.6, -0.5), printed as GeodSolve does.
    let result = run(["geodesic"], input: ["40.6 -73.8 51.6 -0.5"])
    #expect(result.code == 0)
    #expect(result.out == "51.19888285 107.82177674 5551759.400\n")
  }

  @Test func geodesicDirectAnswersLikeGeodSolve() {
    // GeographicLib (Python 2.0) Direct(40.63972222, -73.77888889, 53.5, 5850e3).
    let result = run(["geodesic", "--direct"], input: ["40.63972222 -73.77888889 53.5 5850e3"])
    #expect(result.code == 0)
    #expect(result.out == "49.01466893 2.56106226 111.62946705\n")
  }

  @Test func malformedLinesAreReportedWithTheirNumberAndTheRestAnswered() {
    let result = run(
      ["geodesic"], input: ["0 0 0 1", "0 0 zero 1", "91 0 0 0", "0 0 0", "0 0 1 0"])
    #expect(result.code == 2)
    #expect(result.out.split(separator: "\n").count == 2)
    #expect(result.err.contains("line 2: lat2 'zero' is not a finite number"))
    #expect(result.err.contains("line 3: latitude 91.0"))
    #expect(result.err.contains("line 4: expected 4 numbers"))
  }

  @Test func aHugeLongitudeIsTheAngleGeographicLibReadsItAs() {
    // GeographicLib (Python 2.0) Inverse(0, 0, 0, 1e17): azi1 = azi2 = -90, s12 = 8905559.263.
    let result = run(["geodesic", "-p", "0"], input: ["0 0 0 1e17"])
    #expect(result.out == "-90.00000 -90.00000 8905559\n")
  }

  @Test func precisionOptionSetsTheDecimals() {
    let result = run(["geodesic", "-p", "0"], input: ["0 0 0 1"])
    #expect(result.out == "90.00000 90.00000 111319\n")
  }

  @Test func benchJSONHasTheAgreedShape() throws {
    let rows = [
      BenchResult(
        name: "base", unit: "ns/op", median: 10, p10: 9, p90: 12, baseline: nil, ratio: nil),
      BenchResult(
        name: "fast", unit: "ns/op", median: 5, p10: 4, p90: 6, baseline: "base", ratio: 0.5,
        target: "≤ 8 ns"),
    ]
    #expect(
      BenchCommand.jsonText(rows)
        == #"[{"baseline":null,"median":10,"name":"base","p10":9,"p90":12,"ratio":null,"target":null,"unit":"ns/op"},{"baseline":"base","median":5,"name":"fast","p10":4,"p90":6,"ratio":0.5,"target":"≤ 8 ns","unit":"ns/op"}]"#
        + "\n")
  }

  @Test func benchWarmsACaseUpOverAllItsInputsBeforeTimingIt() {
    // A lazily built index: the first use of each input is slow. The harness must not time
    // that first use, nor calibrate on it.
    var bench = Bench(samples: 3, minimumSampleTime: .microseconds(50))
    var built = Set<Int>()
    var timedBeforeBuilt = 0
    var seen = Set<Int>()
    var warmedUp = false
    bench.measure("lazy", inputs: 16) { n in
      for i in 0..<n {
        let input = i % 16
        if warmedUp { seen.insert(input) }
        if built.insert(input).inserted, warmedUp { timedBeforeBuilt += 1 }
      }
      warmedUp = true
    }
    #expect(timedBeforeBuilt == 0)
    #expect(seen == Set(0..<16))
  }

  @Test func benchRefusesACaseWhoseWorkDiffersFromTheBruteForce() throws {
    var bench = Bench(samples: 3, minimumSampleTime: .microseconds(50))
    // 10 inputs, each finding its own number of results: 45 per cycle.
    try bench.measure("right", inputs: 10, expecting: 45) { n in
      (0..<n).reduce(0) { $0 + $1 % 10 }
    }
    #expect(bench.results.map(\.name) == ["right"])
    // Input 3 finds nothing: a fast wrong answer.
    #expect(throws: BenchCheckFailure.self) {
      try bench.measure("wrong", inputs: 10, expecting: 45) { n in
        (0..<n).reduce(0) { $0 + ($1 % 10 == 3 ? 0 : $1 % 10) }
      }
    }
    #expect(bench.results.count == 1)
  }

  @Test func benchHarnessRecordsRatiosToTheBaseline() {
    var bench = Bench(samples: 3, minimumSampleTime: .microseconds(50))
    bench.measure("slow") { n in
      var x = 0.0
      for i in 0..<n * 20 { x += Double(i).squareRoot() }
      blackHole(x)
    }
    bench.measure("fast", baseline: "slow") { n in
      var x = 0.0
      for i in 0..<n { x += Double(i).squareRoot() }
      blackHole(x)
    }
    #expect(bench.results.count == 2)
    #expect(bench.results[0].ratio == nil)
    let ratio = try! #require(bench.results[1].ratio)
    #expect(ratio > 0 && ratio < 1)
  }
}

@Suite struct KernelBenchSuiteTests {
  @Test func everyHoldCaseFiresTheSameEventsAsTheMinimalHeap() throws {
    var bench = Bench(samples: 1, minimumSampleTime: .microseconds(10))
    bench.quick = true
    try KernelBenchSuite.run(&bench)
    #expect(
      bench.results.map(\.name) == [
        "hold10.heap", "hold10.handler-events", "hold10.closure-events", "hold1k.heap",
        "hold1k.handler-events", "hold1k.closure-events",
      ])
    #expect(
      bench.results.map(\.baseline) == [
        nil, "hold10.heap", "hold10.handler-events", nil, "hold1k.heap", "hold1k.handler-events",
      ])
  }
}
