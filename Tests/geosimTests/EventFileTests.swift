import Device
import Foundation
import JSON
import Replay
import SimKernel
import Testing

@testable import GeoSimCLI

/// A worker's `events.jsonl` is written in large pieces, and still holds every event before
/// the worker stops.
@Suite(.serialized) struct EventFileTests {
  /// A log of `count` entries whose lines are some 60 bytes, with a long one among them.
  private func log(_ count: Int) -> EventLog {
    let log = EventLog()
    for i in 0..<count {
      let note = i == 700 ? String(repeating: "long \"line\" ", count: 10_000) : "n\(i)"
      log.record(
        AppEvent("fix", [LogField("i", .int(Int64(i))), LogField("note", .string(note))]),
        at: .seconds(Double(i) / 3))
    }
    return log
  }

  /// Streams every entry of `log` to an event file at `url` and closes it.
  private func stream(_ log: EventLog, to url: URL) throws {
    let file = try EventFile(path: url.path)
    log.entries.forEach(file.append)
    try file.close()
  }

  @Test func theFileHoldsTheLogsLinesWhenClosed() throws {
    let url = try scratchFolder("events").appendingPathComponent("events.jsonl")
    let log = log(3_000)
    try stream(log, to: url)
    #expect(try Data(contentsOf: url) == Data(log.jsonLines.utf8))
  }

  @Test func aFileAlreadyThereIsReplacedWhole() throws {
    let url = try scratchFolder("events").appendingPathComponent("events.jsonl")
    try stream(log(3_000), to: url)
    let log = log(30)
    try stream(log, to: url)
    #expect(try Data(contentsOf: url) == Data(log.jsonLines.utf8))
  }

  @Test func whatIsPendingIsWrittenBeforeAStop() throws {
    let url = try scratchFolder("events").appendingPathComponent("events.jsonl")
    let log = log(300)
    let file = try EventFile(path: url.path)
    log.entries.forEach(file.append)
    // Less than one buffer: nothing is written yet. (Its size, not its bytes: Foundation's
    // reading of an empty file leaks its buffer, which make sanitize would report.)
    let size = try FileManager.default.attributesOfItem(atPath: url.path)[.size] as? NSNumber
    #expect(size?.intValue == 0)
    EventFile.writePending()
    #expect(try Data(contentsOf: url) == Data(log.jsonLines.utf8))
    // The replay's thread may still add lines (more than a piece, a long one among them):
    // the ended file takes none of them.
    self.log(3_000).entries.forEach(file.append)
    try file.close()
    #expect(try Data(contentsOf: url) == Data(log.jsonLines.utf8))
  }

  #if os(Linux)
    @Test func aFailedWriteIsReportedWhenTheFileIsClosed() throws {
      let file = try EventFile(path: "/dev/full")
      log(2_000).entries.forEach(file.append)
      do {
        try file.close()
        Issue.record("the full device took every line")
      } catch {
        #expect(error.message == "cannot write /dev/full: No space left on device")
      }
    }
  #endif

  /// A worker stopped by its time limit has written every event before it: the file ends
  /// with a whole line, and the timeout's last events are the file's last 20 lines.
  @Test func aWorkerStoppedForItsTimeLimitLeavesEveryEventInItsFile() throws {
    // A car driving back and forth all day, every fix delivered: far longer than the limit.
    let start = #"{"latitude": 35.681236, "longitude": 139.767125}"#
    let away = #"{"latitude": 35.554, "longitude": 139.612}"#
    let waypoints = (0...60).map { $0.isMultiple(of: 2) ? start : away }
    let scenario = """
      {"format": "geosim-scenario/1", "name": "day", "seed": 1,
       "start": "2026-04-01T08:00:00+09:00", "duration": 86400,
       "device": {"promptAnswers": {"notifications": ["allow"], "location": ["allowWhileUsing"]}},
       "app": {"name": "ArrivalAlarm", "variant": "corrected",
               "configuration": {"destination": {"latitude": 35.8, "longitude": 139.9}, "radius": 200}},
       "trace": {"waypoints": [\(waypoints.joined(separator: ","))], "speed": "car", "interval": 1},
       "timeline": [{"at": 0, "do": "launch"}, {"at": 5, "do": "tapButton", "button": "pin"},
                    {"at": 10, "do": "background"}],
       "expectations": [{"expect": "noCrash"}]}
      """
    let dir = try folder(["day.scenario.json": scenario])
    // Building the world takes host time too: the limit is raised until the worker stopped
    // with events in its file.
    var events = ""
    for limit in ["1", "2", "4", "8"] where events.isEmpty {
      let r = try geosim(
        ["replay", "day.scenario.json", "--out", "out", "--time-limit", limit], in: dir)
      try #require(r.out.hasPrefix("TIMEOUT day: day took more than \(limit) s"), "\(r.out)")
      // An empty file is not read: Foundation's reading of an empty file leaks its buffer.
      let file = dir.appendingPathComponent("out/day/events.jsonl")
      let size = try FileManager.default.attributesOfItem(atPath: file.path)[.size] as? Int
      events = size ?? 0 > 0 ? try String(contentsOf: file, encoding: .utf8) : ""
    }
    #expect(events.hasSuffix("\n"))
    let lines = events.split(separator: "\n").map(String.init)
    #expect(lines.count > 20)
    for (i, line) in lines.enumerated() {
      let value = try JSONValue(parsing: Data(line.utf8))
      guard case .object(let o) = value else {
        Issue.record("line \(i + 1) is not an object")
        break
      }
      #expect(o["seq"] == .number(Double(i)))
    }
    let result = try JSONFile(dir.appendingPathComponent("out/day/result.json").path)
    guard case .object(let o) = result.root, case .object(let timeout)? = o["timeout"],
      case .array(let last)? = timeout["lastEvents"]
    else {
      Issue.record("no timeout in result.json")
      return
    }
    #expect(last == lines.suffix(20).map { .string($0) })
  }
}
