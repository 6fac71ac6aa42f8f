import JSON
import SimKernel
import Testing

/// A component's declared events, as a component would write them.
private enum DoorEvent: LogEvent, Hashable {
  case opened(door: String, count: Int)
  case closed

  static let source = "door"
  static let declarations = [
    LogEventDeclaration(source, "opened", fields: ["door", "count"], "A door opened."),
    LogEventDeclaration(source, "closed", "A door closed."),
  ]
  var name: String {
    switch self {
    case .opened: "opened"
    case .closed: "closed"
    }
  }
  var fields: [LogField] {
    switch self {
    case .opened(let door, let count):
      [LogField("door", .string(door)), LogField("count", .int(Int64(count)))]
    case .closed: []
    }
  }
}

/// Every field type, to pin the JSON Lines shape.
private struct ShapeEvent: LogEvent {
  static let source = "region"
  static let declarations = [LogEventDeclaration(source, "didEnterRegion", "")]
  var name: String { "didEnterRegion" }
  var fields: [LogField] {
    [
      LogField("identifier", .string("home \"A\"")), LogField("latitude", .double(35.5)),
      LogField("count", .int(3)), LogField("ok", .bool(true)), LogField("gap", .null),
      LogField("list", .array([.int(1), .double(.nan)])),
    ]
  }
}

/// An event declared as a class (immutable, so unchecked Sendable), and a subclass of it: a
/// reader of the class gets both.
private class BellEvent: LogEvent, @unchecked Sendable {
  class var source: String { "bell" }
  class var declarations: [LogEventDeclaration] {
    [LogEventDeclaration("bell", "rang", "A bell rang.")]
  }
  var name: String { "rang" }
  var fields: [LogField] { [] }
}
private final class LoudBellEvent: BellEvent {}

@Suite struct EventLogTests {
  @Test func jsonLinesHaveAFixedShapeAndExactTimes() {
    let log = EventLog()
    log.record(ShapeEvent(), at: SimTime(nanoseconds: 1_500_000_001))
    #expect(
      log.jsonLines
        == #"{"t":1.500000001,"ns":1500000001,"seq":0,"source":"region","event":"didEnterRegion","fields":{"identifier":"home \"A\"","latitude":35.5,"count":3,"ok":true,"gap":null,"list":[1,null]}}"#
        + "\n")
  }

  @Test func aLineAsBytesEndsWithItsNewline() {
    let log = EventLog()
    log.record(ShapeEvent(), at: SimTime(nanoseconds: 1_500_000_001))
    log.record(DoorEvent.opened(door: "front \u{1}", count: -3), at: .seconds(86_400))
    var line = JSONBuffer()
    EventLog.writeJSONLine(log.entries[1], to: &line)
    #expect(
      String(decoding: line.bytes, as: UTF8.self)
        == #"{"t":86400,"ns":86400000000000,"seq":1,"source":"door","event":"opened","fields":{"door":"front \u0001","count":-3}}"#
        + "\n")
  }

  @Test func theSinkSeesEveryEntryAsItIsRecorded() {
    let log = EventLog()
    var streamed: [String] = []
    log.sink = { streamed.append(EventLog.jsonLine($0)) }
    log.record(DoorEvent.closed, at: .zero)
    log.record(DoorEvent.opened(door: "front", count: 1), at: .seconds(1))
    #expect(streamed.joined(separator: "\n") + "\n" == log.jsonLines)
    #expect(log.entries(source: "door", event: "opened").count == 1)
    #expect(log.entries[1]["count"] == .int(1))
    #expect(log.entries[1]["missing"] == nil)
  }

  @Test func readersGetTheTypedEventBackWithItsEntry() {
    let log = EventLog()
    log.record(DoorEvent.opened(door: "front", count: 2), at: .seconds(3))
    log.record(ShapeEvent(), at: .seconds(4))
    log.record(DoorEvent.closed, at: .seconds(5))
    let doors = log.events(DoorEvent.self)
    #expect(doors.map(\.event) == [.opened(door: "front", count: 2), .closed])
    #expect(doors.map(\.entry.sequence) == [0, 2])
    #expect(log.entries[0].payload as? DoorEvent == .opened(door: "front", count: 2))
  }

  @Test func readersOfAClassGetItsSubclassesToo() {
    let log = EventLog()
    log.record(BellEvent(), at: .seconds(1))
    log.record(DoorEvent.closed, at: .seconds(2))
    log.record(LoudBellEvent(), at: .seconds(3))
    #expect(log.events(BellEvent.self).map(\.entry.sequence) == [0, 2])
    #expect(log.events(LoudBellEvent.self).map(\.entry.sequence) == [2])
    #expect(log.events(DoorEvent.self).map(\.entry.sequence) == [1])
  }

  @Test func aSetOfTypesHoldsTheEntriesACastToOneOfThemWouldTake() {
    let log = EventLog()
    log.record(DoorEvent.closed, at: .seconds(1))
    log.record(ShapeEvent(), at: .seconds(2))
    log.record(BellEvent(), at: .seconds(3))
    log.record(LoudBellEvent(), at: .seconds(4))
    let doors = LogEventTypes(DoorEvent.self)
    #expect(log.entries.map(doors.contains) == [true, false, false, false])
    let bells = LogEventTypes(ShapeEvent.self, BellEvent.self)
    #expect(log.entries.map(bells.contains) == [false, true, true, true])
    let loud = LogEventTypes(LoudBellEvent.self)
    #expect(log.entries.map(loud.contains) == [false, false, false, true])
    #expect(log.entries.map(LogEventTypes().contains) == [false, false, false, false])
  }

  @Test func theStorageFormComesFromTheDeclaringType() {
    let log = EventLog()
    log.record(DoorEvent.opened(door: "back", count: 7), at: .zero)
    let entry = log.entries[0]
    #expect(entry.source == "door")
    #expect(entry.event == "opened")
    #expect(entry.fields.map(\.name) == ["door", "count"])
    #expect(DoorEvent.names == ["opened", "closed"])
  }
}
