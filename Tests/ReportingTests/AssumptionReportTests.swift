import Device
import Foundation
import JSON
import ReferenceAppCatalog
import Replay
import Testing

@testable import Reporting

private let resources = ReplayResources()

/// The shipped scenario at `path`, changed by `change`, replayed (with `seed` if given) and
/// reported.
private func report(
  _ path: String, seed: UInt64? = nil, _ change: (inout Scenario) -> Void = { _ in }
) throws -> ScenarioReport {
  var scenario = try Scenario(
    contentsOf: repository.appendingPathComponent("Scenarios/\(path)").path)
  change(&scenario)
  let run = try ScenarioRun(scenario, catalog: .referenceApps, resources: resources, seed: seed)
  return try ScenarioReport(input: ReportInput(run), context: run.world.geos, resources: resources)
}

private let staleRelaunch = "three-word-locator/stale-fix-relaunch-as-published.scenario.json"
private let trainCorrected = "arrival-alarm/train-to-shinagawa-corrected.scenario.json"
private let alreadyInside = "arrival-alarm/already-inside-as-published.scenario.json"

private func uses(_ r: ScenarioReport) -> [Assumption] {
  r.result?.assumptions.map(\.assumption) ?? []
}

/// The JSON members of `r`'s assumptions, by assumption name.
private func jsonAssumptions(_ r: ScenarioReport) -> [String: [String: JSONValue]] {
  guard case .object(let root) = r.json, case .array(let items)? = root["assumptions"] else {
    return [:]
  }
  var byName: [String: [String: JSONValue]] = [:]
  for case .object(let o) in items {
    if case .string(let name)? = o["assumption"] { byName[name] = o }
  }
  return byName
}

/// A verdict that rests on a default no source confirms says so, and only when it does.
@Suite(.serialized) struct AssumptionReportTests {
  @Test func aStaleFirstFixDeliveredToTheAppIsAnAssumptionTheReportShows() throws {
    let r = try report(staleRelaunch) { $0.device.sensor.invalidFixProbability = 0 }
    #expect(uses(r) == [.staleFirstFix])
    let md = r.markdown()
    #expect(md.contains("### Assumptions this run depended on"))
    #expect(md.contains("| `PhoneParameters.staleFirstFixProbability` | 1 | [?] |"))
    #expect(md.contains("`device.parameters.staleFirstFixProbability`"))
    let stale = jsonAssumptions(r)["staleFirstFix"]
    #expect(stale?["value"] == .string("1"))
    #expect(stale?["tag"] == .string("[?]"))
    #expect(stale?["parameter"] == .string("PhoneParameters.staleFirstFixProbability"))
    #expect(
      stale?["scenarioKeys"] == .array([.string("device.parameters.staleFirstFixProbability")]))
    let first = try #require(r.result?.assumptions.first)
    #expect(stale?["count"] == .number(Double(first.count)))
    #expect(stale?["firstTime"] == .number(first.firstTime))
    // It is the relaunch's first fix: after the app was opened again.
    #expect(first.firstTime > 0)
  }

  @Test func aRunWithoutAStaleFirstFixListsNoAssumption() throws {
    let r = try report(staleRelaunch) {
      $0.device.parameters.staleFirstFixProbability = 0
      $0.device.sensor.invalidFixProbability = 0
    }
    #expect(uses(r).isEmpty)
    #expect(!r.markdown().contains("Assumptions this run depended on"))
    guard case .object(let root) = r.json else {
      Issue.record("the report is not a JSON object")
      return
    }
    #expect(root["assumptions"] == .array([]))
  }

  @Test func anInvalidFixDeliveredToTheAppIsAnAssumptionTheReportShows() throws {
    let r = try report(trainCorrected) { $0.device.sensor.invalidFixProbability = 0.05 }
    #expect(uses(r).contains(.invalidFix))
    #expect(r.markdown().contains("| `SensorParameters.invalidFixProbability` | 0.05 | [?] |"))
    #expect(
      jsonAssumptions(r)["invalidFix"]?["scenarioKeys"]
        == .array([.string("device.sensor.invalidFixProbability")]))
    let none = try report(trainCorrected) { $0.device.sensor.invalidFixProbability = 0 }
    #expect(!uses(none).contains(.invalidFix))
  }

  @Test func aLocationTriggerAddedInsideItsRegionIsAnAssumptionTheReportShows() throws {
    let r = try report(alreadyInside)
    #expect(uses(r).contains(.locationTriggerAddedInside))
    let md = r.markdown()
    #expect(md.contains("| `PhoneParameters.locationTriggerFiresWhenAddedInside` | false | [?] |"))
    #expect(
      jsonAssumptions(r)["locationTriggerAddedInside"]?["scenarioKeys"]
        == .array([.string("device.parameters.locationTriggerFiresWhenAddedInside")]))
    // The published bug shows only under the assumed rule: with the other reading it rings.
    #expect(r.verdict == .expectedFailure)
    let other = try report(alreadyInside) {
      $0.device.parameters.locationTriggerFiresWhenAddedInside = true
    }
    #expect(other.verdict == .unexpectedPass)
    #expect(other.markdown().contains("locationTriggerFiresWhenAddedInside` | true | [?] |"))
    // Set on the way, far from the destination, the alarm depends on no such assumption.
    let train = try report("arrival-alarm/train-to-shinagawa-corrected.scenario.json")
    #expect(!uses(train).contains(.locationTriggerAddedInside))
  }

  @Test func theAssumptionsReadBackFromTheReportAndTravelInJUnit() throws {
    let r = try report(staleRelaunch) { $0.device.sensor.invalidFixProbability = 0 }
    let entry = try RunReport.Entry(
      reading: Data(r.json.jsonText.utf8), file: "report.json", markdown: "", figures: [])
    #expect(entry.summary == r.summary)
    #expect(entry.summary.assumptions == r.result?.assumptions)
    let junit = RunReport(entries: [entry]).junitXML()
    #expect(junit.contains("<properties>"))
    #expect(
      junit.contains(
        "<property name=\"assumption.staleFirstFix\" value=\"PhoneParameters.staleFirstFixProbability = 1 [?]; exercised once"
      ))
    let result = try #require(r.result)
    #expect(ReplayResult(json: result.json) == result)
    let first = try #require(result.assumptions.first)
    let damaged = r.json.jsonText.replacingOccurrences(
      of: "\"firstTime\":\(JSONText.number(first.firstTime))", with: "\"firstTime\":\"late\"")
    #expect(damaged != r.json.jsonText)
    do {
      _ = try RunReport.Entry(
        reading: Data(damaged.utf8), file: "r.json", markdown: "", figures: [])
      Issue.record("a damaged assumption was read")
    } catch {
      #expect(error.description.contains("assumptions[0]: expected an assumption"))
    }
  }

  @Test func overSeveralRunsTheReportSaysInHowManyRunsEachWasExercised() throws {
    var scenario = try Scenario(
      contentsOf: repository.appendingPathComponent("Scenarios/\(staleRelaunch)").path)
    scenario.device.parameters.staleFirstFixProbability = 0.5
    scenario.device.sensor.invalidFixProbability = 0
    scenario.runs = 6
    let results = try (0..<scenario.runs).map { i in
      try ScenarioRun(
        scenario, catalog: .referenceApps, resources: resources, seed: scenario.seed(ofRun: i)
      ).result
    }
    let exercised = results.indices.filter { !results[$0].assumptions.isEmpty }
    #expect(!exercised.isEmpty && exercised.count < results.count, "a probability of 0.5")
    let result = ReplayResult(aggregating: results, scenario: scenario)
    let use = try #require(result.assumptions.first)
    #expect(use.assumption == .staleFirstFix)
    #expect(use.runs == exercised.count)
    #expect(use.firstRun == exercised.first)
    #expect(use.count == results.reduce(0) { $0 + ($1.assumptions.first?.count ?? 0) })
    let md = ScenarioRunsReport(
      result: result, scenario: scenario, firstReport: nil, firstMarkdown: nil
    ).markdown()
    #expect(md.contains("### Assumptions this run depended on"))
    #expect(md.contains("in \(exercised.count) of 6 runs"))
    #expect(md.contains("run \(exercised.first!), "))
    #expect(ReplayResult(json: result.json) == result)
  }
}
