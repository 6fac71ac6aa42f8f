import Foundation
import JSON
import Testing

@testable import GeoSimCLI

private let yamanote = URL(fileURLWithPath: #filePath)
  .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
  .appendingPathComponent("Scenarios/station-finder/datasets/yamanote-stations.json").path

private let tokyo = "35.681236,139.767125"

/// Writes `text` to a fresh file named `name` and returns its path.
private func scratchFile(_ name: String, _ text: String) throws -> String {
  let dir = try scratchFolder("query")
  let path = dir.appendingPathComponent(name).path
  try text.write(toFile: path, atomically: true, encoding: .utf8)
  return path
}

/// The station names (second column) of a plain report.
private func names(_ out: String) -> [String] {
  out.split(separator: "\n").dropFirst().map { String($0.split(separator: "\t")[1]) }
}

@Suite struct QueryCommandTests {
  @Test func nearQueryListsTheStationsWithin3KmOfTokyoNearestFirst() {
    let result = run(["query", yamanote, "--near", tokyo, "--within", "3km"])
    #expect(result.code == 0)
    #expect(result.err == "")
    #expect(result.out.hasPrefix("count: 7, returned: 7\n"))
    #expect(names(result.out) == ["東京", "有楽町", "神田", "新橋", "秋葉原", "御徒町", "浜松町"])
    let lines = result.out.split(separator: "\n")
    #expect(lines[1].hasSuffix("\t東京\t35.681236\t139.767125\t0.000 km"))
    #expect(lines[2].hasSuffix("\t有楽町\t35.675069\t139.763328\t0.767 km"))
    let distances = lines.dropFirst().map { Double($0.split(separator: "\t")[4].dropLast(3))! }
    #expect(distances == distances.sorted() && distances.last! <= 3)
  }

  @Test func everyBackendGivesTheSameAnswer() {
    let reference = run(["query", yamanote, "--near", tokyo, "--within", "1.9mi"]).out
    #expect(names(reference).count == 7)
    for backend in ["brute", "sqlite", "memory"] {
      let result = run([
        "query", yamanote, "--near", tokyo, "--within", "1.9mi", "--backend", backend,
      ])
      #expect(result.out == reference, "\(backend)")
    }
  }

  @Test(
    .enabled(
      if: ProcessInfo.processInfo.environment["GEOSIM_POSTGIS_URL"]?.isEmpty == false,
      "GEOSIM_POSTGIS_URL is not set, so there is no PostGIS server to query"))
  func thePostGISBackendGivesTheSameAnswerToEveryShape() {
    let url = ProcessInfo.processInfo.environment["GEOSIM_POSTGIS_URL"]!
    for shape in [
      ["--near", tokyo, "--within", "1.9mi"], ["--near", tokyo, "--limit", "5", "--skip", "2"],
      ["--box", "35.70,139.80,35.62,139.70"],
    ] {
      let reference = run(["query", yamanote] + shape).out
      let result = run(["query", yamanote] + shape + ["--backend", "postgis", "--database", url])
      #expect(result.err == "")
      #expect(result.out == reference, "\(shape)")
    }
  }

  @Test func limitAndSkipPageThroughWhileCountStaysTheTotal() {
    let result = run([
      "query", yamanote, "--near", tokyo, "--within", "0.000471rad", "--limit", "2", "--skip", "1",
    ])
    #expect(result.code == 0)
    #expect(result.out.hasPrefix("count: 7, returned: 2\n"))
    #expect(names(result.out) == ["有楽町", "神田"])
  }

  @Test func boxQueryReturnsTheStationsInsideNewestFirst() {
    let result = run(["query", yamanote, "--box", "35.65,139.70,35.67,139.76"])
    #expect(result.code == 0)
    #expect(result.out.hasPrefix("count: 3, returned: 3\n"))
    #expect(names(result.out) == ["渋谷", "浜松町", "新橋"])
    #expect(!result.out.contains("km"))
  }

  @Test func restWhereClauseReplaysLikeTheBuiltQuery() {
    let whereClause = """
      {"geo": {"$nearSphere": {"__type": "GeoPoint", "latitude": 35.681236,
       "longitude": 139.767125}, "$maxDistanceInKilometers": 3}}
      """
    let built = run(["query", yamanote, "--near", tokyo, "--within", "3km"])
    #expect(run(["query", yamanote, "--rest", whereClause]).out == built.out)
    let request = #"{"where": \#(whereClause), "limit": 3}"#
    let limited = run(["query", yamanote, "--rest", request])
    #expect(limited.out.hasPrefix("count: 7, returned: 3\n"))
    #expect(run(["query", yamanote, "--rest", request, "--limit", "7"]).out == built.out)
  }

  @Test func jsonOutputHasTheCountAndOneObjectPerResult() throws {
    let result = run([
      "query", yamanote, "--near", tokyo, "--within", "3km", "--limit", "2", "--json",
    ])
    #expect(result.code == 0)
    #expect(result.out.hasSuffix("}\n"))
    let value = try JSONDocument(parsing: result.out).root
    guard case .object(let body) = value, case .array(let results)? = body["results"] else {
      Issue.record("unexpected shape: \(result.out)")
      return
    }
    #expect(Set(body.keys) == ["count", "results"])
    #expect(body["count"] == .number(7))
    #expect(results.count == 2)
    guard case .object(let first) = results[0], case .object(let second) = results[1] else {
      Issue.record("results are not objects: \(result.out)")
      return
    }
    #expect(
      Set(first.keys) == ["objectId", "name", "latitude", "longitude", "distanceKilometers"])
    #expect(first["name"] == .string("東京"))
    #expect(first["latitude"] == .number(35.681236))
    #expect(first["longitude"] == .number(139.767125))
    #expect(first["distanceKilometers"] == .number(0))
    #expect(second["distanceKilometers"] == .number(0.766721))
    #expect(
      result.out
        == run(["query", yamanote, "--near", tokyo, "--within", "3km", "--limit", "2", "--json"])
        .out)
    #expect(value.jsonText + "\n" == result.out)

    let box = run(["query", yamanote, "--box", "35.65,139.70,35.67,139.76", "--json"])
    let boxResults = try JSONDocument(parsing: box.out).value(at: ["results", 0])
    guard case .object(let member)? = boxResults else {
      Issue.record("unexpected shape: \(box.out)")
      return
    }
    #expect(Set(member.keys) == ["objectId", "name", "latitude", "longitude"])
  }

  @Test func ncmbErrorsPrintTheirCodeAndMessageAndExit1() {
    for limit in ["0", "5000"] {
      let result = run(["query", yamanote, "--near", tokyo, "--limit", limit])
      #expect(result.code == 1)
      #expect(result.out == "")
      #expect(result.err == "geosim query: E400005: limit is not a valid value.\n")
    }
    let skip = run(["query", yamanote, "--near", tokyo, "--skip", "-1"])
    #expect(run(["query", yamanote, "--near", tokyo, "--skip=-1"]).err == skip.err)
    #expect(skip.code == 1 && skip.err == "geosim query: E400005: skip is not a valid value.\n")
    let point = run(["query", yamanote, "--near", "95,139"])
    #expect(point.code == 1 && point.err == "geosim query: E403006: Invalid GeoPoint value.\n")
    let box = run(["query", yamanote, "--box", "35,139,35,181"])
    #expect(box.code == 1 && box.err == "geosim query: E403006: Invalid GeoPoint value.\n")
    let op = run(["query", yamanote, "--rest", #"{"name": {"$regex": "x"}}"#])
    #expect(op.code == 1 && op.err == "geosim query: E400004: where is invalid format.\n")
  }

  @Test func badArgumentsExit2NamingTheMistakeFirst() {
    let cases: [([String], String)] = [
      (["query", yamanote], "Error: expected exactly one of --near, --box and --rest, found 0"),
      (
        ["query", yamanote, "--near", tokyo, "--box", "1,2,3,4"],
        "Error: expected exactly one of --near, --box and --rest, found 2"
      ),
      (
        ["query", "--near", tokyo], "Error: expected a dataset (or --backend postgis with --table)"
      ),
      (
        ["query", yamanote, "--near", "35.6"],
        "Error: --near '35.6': expected LAT,LON in decimal degrees"
      ),
      (
        ["query", yamanote, "--box", "1,2,3"],
        "Error: --box '1,2,3': expected SWLAT,SWLON,NELAT,NELON in decimal degrees"
      ),
      (
        ["query", yamanote, "--near", tokyo, "--within", "3 parsecs"],
        "Error: --within '3 parsecs': expected a distance like 3km, 2mi or 0.01rad"
      ),
      (["query", yamanote, "--box", "1,2,3,4", "--within", "3km"], "Error: --within needs --near"),
      (
        ["query", yamanote, "--near", tokyo, "--limit", "ten"],
        "Error: The value 'ten' is invalid for '--limit <limit>'"
      ),
      (
        ["query", yamanote, "--near", tokyo, "--backend", "btree"],
        "Error: --backend 'btree': expected strtree, brute, sqlite, memory or postgis"
      ),
      (
        ["query", yamanote, "--near", tokyo, "--database", "postgresql://127.0.0.1/db"],
        "Error: --database needs --backend postgis"
      ),
      (
        ["query", "--near", tokyo, "--backend", "postgis", "--database", "postgresql://h/db"],
        "Error: --backend postgis: expected either a dataset or --table, found neither"
      ),
      (
        ["query", yamanote, "--near", tokyo, "--backend", "postgis"],
        "Error: --backend postgis needs --database"
      ),
      (
        ["query", yamanote, "--near", tokyo, "--frobnicate"], "Error: Unknown option '--frobnicate'"
      ),
      (
        ["query", yamanote, "--rest", "{\"geo\": [1,]}"],
        "Error: --rest: invalid JSON: line 1, column 12: expected a value after ',' "
          + "(trailing commas are not allowed), found ']'"
      ),
      // An option is never taken for another option's value.
      (
        ["query", yamanote, "--near", "--json"],
        "Error: --near needs a value, not the option '--json'"
      ),
      (
        ["query", yamanote, "--near", tokyo, "--limit", "--json"],
        "Error: The value '--json' is invalid for '--limit <limit>'"
      ),
    ]
    for (arguments, message) in cases {
      let result = run(arguments)
      #expect(result.code == 2, "\(arguments)")
      #expect(result.out == "")
      #expect(result.err.split(separator: "\n").first.map(String.init) == message)
      #expect(result.err.contains("See 'geosim query --help'"))
    }
  }

  @Test func aSouthernOrWesternPointIsAValueNotAnOption() {
    let result = run(["query", yamanote, "--near", "-33.87,151.21", "--limit", "1"])
    #expect(result.code == 0)
    #expect(result.out.hasPrefix("count: 30, returned: 1\n"))
    #expect(run(["query", yamanote, "--near=-33.87,151.21", "--limit=1"]).out == result.out)
  }

  @Test func theDatasetCanComeFromStandardInput() throws {
    let text = try String(contentsOfFile: yamanote, encoding: .utf8)
    let piped = run(["query", "-", "--near", tokyo, "--within", "3km"], input: [text])
    #expect(piped.code == 0)
    #expect(piped.out == run(["query", yamanote, "--near", tokyo, "--within", "3km"]).out)
    let csv = run(
      ["query", "-", "--near", tokyo],
      input: ["name,latitude,longitude", "Tokyo,35.681236,139.767125"])
    #expect(csv.code == 0, "\(csv.err)")
    #expect(csv.out.hasPrefix("count: 1, returned: 1\n"))
  }

  @Test func aBadDatasetNamesTheFileLineColumnAndWhatWasExpected() throws {
    let cases: [(String, String, String)] = [
      (
        "s.json", "[\n  {\"name\": \"A\", \"latitude\": 1, \"longitude\": 2},\n]\n",
        ":3:1: expected a value after ',' (trailing commas are not allowed), found ']'"
      ),
      (
        "s.json", "{\"name\": \"A\"}",
        ":1:1: (root): expected an array of stations, found an object"
      ),
      (
        "s.json",
        "[\n  {\"name\": \"A\", \"latitude\": 1, \"longitude\": 2},\n  {\"name\": \"B\", \"latitude\": 91, \"longitude\": 2}\n]",
        ":3:29: [1].latitude: 91 is outside -90...90"
      ),
      (
        "s.json", "[{\"name\": 7, \"latitude\": 1, \"longitude\": 2}]",
        ":1:11: [0].name: expected a string, found a number"
      ),
      (
        "s.json", "[{\"name\": \"A\", \"latitude\": \"1\", \"longitude\": 2}]",
        ":1:28: [0].latitude: expected a number, found a string"
      ),
      ("s.json", "[\n  {\"name\": \"A\", \"latitude\": 1}\n]", ":2:3: [0]: missing \"longitude\""),
      (
        "s.json", "[3]",
        ":1:2: [0]: expected a station object with name, latitude and longitude, found a number"
      ),
      (
        "s.csv", "name,lat,lon\nA,1,2\n",
        ":1: expected a header row naming name, latitude and longitude, found: name, lat, lon"
      ),
      (
        "s.csv", "name,latitude,longitude\nA,1,2\nB,x,2\n",
        ":3: latitude: expected a number in -90...90, found 'x'"
      ),
    ]
    for (name, text, message) in cases {
      let path = try scratchFile(name, text)
      defer { try? FileManager.default.removeItem(atPath: path) }
      let result = run(["query", path, "--near", tokyo])
      #expect(result.code == 2, "\(text)")
      #expect(result.out == "")
      #expect(result.err == "geosim query: \(path)\(message)\n")
    }
    let missing = run(["query", "/nonexistent/stations.json", "--near", tokyo])
    #expect(missing.code == 2)
    #expect(missing.err == "geosim query: /nonexistent/stations.json: no such file\n")
  }

  @Test func csvDatasetsAreQueriedLikeJSONOnes() throws {
    let path = try scratchFile(
      "stations.csv",
      "name,latitude,longitude,code\n東京,35.681236,139.767125,JY01\n\"Yurakucho, JY30\",35.675069,139.763328,JY30\n"
    )
    defer { try? FileManager.default.removeItem(atPath: path) }
    let result = run(["query", path, "--near", tokyo, "--class", "Eki", "--field", "location"])
    #expect(result.code == 0)
    #expect(result.out.hasPrefix("count: 2, returned: 2\n"))
    #expect(names(result.out) == ["東京", "Yurakucho, JY30"])
    let plain = run([
      "query", path, "--rest", #"{"code": "JY30"}"#, "--class", "Eki", "--field", "location",
    ])
    #expect(plain.out.hasPrefix("count: 1, returned: 1\n"))
    #expect(plain.out.hasSuffix("\tYurakucho, JY30\t35.675069\t139.763328\n"))
  }

  @Test func helpDescribesTheQueryCommand() {
    let result = run(["query", "--help"])
    #expect(result.code == 0)
    #expect(result.out.contains("geosim query <dataset> --near <lat,lon> [--within <distance>]"))
    #expect(result.out.contains("Exit 1 for an error the NCMB service itself"))
    #expect(run(["help", "query"]).out == result.out)
  }
}
