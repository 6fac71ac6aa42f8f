import Device
import Geo
import JSON
import SimKernel

extension ScenarioReader {
  // MARK: Timeline

  func timeline(_ node: Node, duration: Double) throws -> [TimelineEvent] {
    var previous = 0.0
    return try array(node).map { item in
      let event = try timelineEvent(item)
      let atPath = item.path.appending(key: "at")
      guard event.at >= previous else {
        throw error(
          atPath,
          "times out of order: \(JSONText.number(event.at)) s comes before the previous "
            + "event's \(JSONText.number(previous)) s")
      }
      guard event.at <= duration else {
        throw error(
          atPath,
          "expected a time within the scenario's duration (\(JSONText.number(duration)) s), "
            + "found \(JSONText.number(event.at)) s")
      }
      previous = event.at
      return event
    }
  }

  /// The keys each timeline action takes besides `at` and `do`.
  static let actionKeys: [String: [String]] = [
    "launch": [], "background": [], "foreground": [], "terminate": [], "relaunch": [],
    "reboot": [], "answerPrompt": ["answer"], "locationSetting": ["value"],
    "preciseLocation": ["on"], "locationServices": ["on"], "airplaneMode": ["on"],
    "network": ["online"], "tap": ["x", "y", "latitude", "longitude"],
    "doubleTap": ["x", "y", "latitude", "longitude"],
    "longPress": ["x", "y", "latitude", "longitude", "duration"], "drag": ["path", "duration"],
    "touches": ["samples"], "enterText": ["field", "text"], "tapButton": ["button"],
    "trace": ["trace"],
  ]

  func timelineEvent(_ node: Node) throws -> TimelineEvent {
    guard case .object(let object) = node.value else {
      throw error(node.path, "expected an object, found \(node.value.typeName)")
    }
    guard let doValue = object["do"] else {
      throw error(node.path, "missing required key 'do' (the event's kind)")
    }
    let doNode = Node(value: doValue, path: node.path.appending(key: "do"))
    let kind = try string(doNode)
    guard let keys = Self.actionKeys[kind] else {
      throw error(
        doNode.path,
        "unknown event '\(kind)' (expected one of: "
          + Self.actionKeys.keys.sorted().joined(separator: ", ") + ")")
    }
    let m = try members(node, allowed: ["at", "do"] + keys, required: ["at"])
    let at = try seconds(m["at"]!)
    func required(_ key: String) throws -> Node {
      guard let n = m[key] else {
        throw error(node.path, "missing required key '\(key)' for '\(kind)'")
      }
      return n
    }
    let action: TimelineEvent.Action
    switch kind {
    case "launch": action = .launch
    case "background": action = .background
    case "foreground": action = .foreground
    case "terminate": action = .terminate
    case "relaunch": action = .relaunch
    case "reboot": action = .reboot
    case "answerPrompt":
      action = .answerPrompt(try choice(try required("answer"), PromptAnswer.self))
    case "locationSetting":
      action = .locationSetting(try choice(try required("value"), LocationSetting.self))
    case "preciseLocation": action = .preciseLocation(try bool(try required("on")))
    case "locationServices": action = .locationServices(try bool(try required("on")))
    case "airplaneMode": action = .airplaneMode(try bool(try required("on")))
    case "network": action = .network(online: try bool(try required("online")))
    case "tap": action = .tap(try touchTarget(m, node))
    case "doubleTap": action = .doubleTap(try touchTarget(m, node))
    case "longPress":
      let duration = try m["duration"].map { try seconds($0, allowZero: false) } ?? 0.8
      action = .longPress(try touchTarget(m, node), duration: duration)
    case "drag":
      let path = try array(try required("path")).map(screenPoint)
      guard path.count >= 2 else {
        throw error(m["path"]!.path, "expected at least two points, found \(path.count)")
      }
      action = .drag(path, duration: try seconds(try required("duration"), allowZero: false))
    case "touches":
      var last = -1.0
      let samples = try array(try required("samples")).map { item -> TouchSample in
        let s = try members(
          item, allowed: ["t", "phase", "x", "y", "finger"], required: ["t", "phase", "x", "y"])
        let t = try seconds(s["t"]!)
        guard t >= last else {
          throw error(s["t"]!.path, "touch sample times must not decrease")
        }
        last = t
        let phases = [
          "began": TouchPhase.began, "moved": .moved, "ended": .ended, "cancelled": .cancelled,
        ]
        let phaseName = try string(s["phase"]!)
        guard let phase = phases[phaseName] else {
          throw error(
            s["phase"]!.path,
            "expected 'began', 'moved', 'ended' or 'cancelled', found '\(phaseName)'")
        }
        let point = Point(
          x: try number(s["x"]!, -100_000...100_000, what: "a screen x in points"),
          y: try number(s["y"]!, -100_000...100_000, what: "a screen y in points"))
        let finger = try s["finger"].map { try integer($0, 0...9) } ?? 0
        return TouchSample(finger: finger, phase: phase, point: point, time: .seconds(t))
      }
      guard !samples.isEmpty else {
        throw error(m["samples"]!.path, "expected at least one sample")
      }
      action = .touches(samples)
    case "enterText":
      action = .enterText(
        field: try string(try required("field")), text: try string(try required("text")))
    case "tapButton": action = .tapButton(try string(try required("button")))
    default:
      action = .trace(try trace(try required("trace"), startAt: at))
    }
    return TimelineEvent(at: at, action, origin: node.path.description)
  }

  func screenPoint(_ node: Node) throws -> Point {
    let pair = try array(node)
    guard pair.count == 2 else { throw error(node.path, "expected [x, y] in screen points") }
    return Point(
      x: try number(pair[0], -100_000...100_000, what: "a screen x in points"),
      y: try number(pair[1], -100_000...100_000, what: "a screen y in points"))
  }

  func touchTarget(_ m: [String: Node], _ node: Node) throws -> TimelineEvent.TouchTarget {
    switch (m["x"], m["y"], m["latitude"], m["longitude"]) {
    case (let x?, let y?, nil, nil):
      return .screen(
        Point(
          x: try number(x, -100_000...100_000, what: "a screen x in points"),
          y: try number(y, -100_000...100_000, what: "a screen y in points")))
    case (nil, nil, let lat?, let lon?):
      return .coordinate(
        try coordinate(
          Node(value: .object(["latitude": lat.value, "longitude": lon.value]), path: node.path)))
    default:
      throw error(
        node.path, "expected either 'x' and 'y' (screen points) or 'latitude' and 'longitude'")
    }
  }

  // MARK: Expectations

  /// The keys each expectation kind takes besides `expect` and `name`.
  static func expectationKeys(_ kind: Expectation.Kind) -> [String] {
    switch kind {
    case .notificationAfterEntry: ["identifierPrefix", "region", "within"]
    case .noRequestNear: ["latitude", "longitude", "tolerance"]
    case .state: ["path", "equals", "at"]
    case .markersMatch: ["near", "withinKilometers", "box", "path", "at"]
    case .noCrash: []
    case .count: ["source", "event", "fields", "min", "max", "equals", "from", "to"]
    }
  }

  func expectation(_ node: Node, duration: Double) throws -> Expectation {
    guard case .object(let object) = node.value else {
      throw error(node.path, "expected an object, found \(node.value.typeName)")
    }
    guard let kindValue = object["expect"] else {
      throw error(node.path, "missing required key 'expect' (the expectation's kind)")
    }
    let kindNode = Node(value: kindValue, path: node.path.appending(key: "expect"))
    let kindName = try string(kindNode)
    guard let kind = Expectation.Kind(rawValue: kindName) else {
      throw error(
        kindNode.path,
        "unknown expectation '\(kindName)' (expected one of: "
          + Expectation.Kind.allCases.map(\.rawValue).sorted().joined(separator: ", ") + ")")
    }
    let m = try members(node, allowed: ["expect", "name", "rate"] + Self.expectationKeys(kind))
    let name = try m["name"].map(string)
    func required(_ key: String) throws -> Node {
      guard let n = m[key] else {
        throw error(node.path, "missing required key '\(key)' for '\(kind.rawValue)'")
      }
      return n
    }
    func time(_ key: String) throws -> Double? {
      guard let n = m[key] else { return nil }
      let t = try seconds(n)
      guard t <= duration else {
        throw error(
          n.path, "expected a time within the scenario's duration (\(JSONText.number(duration)) s)")
      }
      return t
    }
    let rule: Expectation.Rule
    switch kind {
    case .notificationAfterEntry:
      let r = try members(
        try required("region"), allowed: ["latitude", "longitude", "radius"],
        required: ["latitude", "longitude", "radius"])
      let center = try coordinate(
        Node(
          value: .object(["latitude": r["latitude"]!.value, "longitude": r["longitude"]!.value]),
          path: m["region"]!.path))
      let radius = try number(r["radius"]!, 1...20_000_000, what: "a radius in metres")
      rule = .notificationAfterEntry(
        identifierPrefix: try m["identifierPrefix"].map(string) ?? "",
        region: .init(center: center, radius: radius),
        within: try seconds(try required("within")))
    case .noRequestNear:
      let c = try coordinate(
        Node(
          value: .object([
            "latitude": try required("latitude").value,
            "longitude": try required("longitude").value,
          ]), path: node.path))
      rule = .noRequestNear(
        c,
        tolerance: try m["tolerance"].map { try number($0, 0...20_000_000, what: "metres") }
          ?? 1_000)
    case .state:
      let path = try string(try required("path"))
      guard !path.isEmpty else { throw error(m["path"]!.path, "expected a non-empty path") }
      rule = .state(path: path, equals: try required("equals").value, at: try time("at"))
    case .markersMatch:
      let at = try time("at")
      let path = try m["path"].map(string) ?? "markers"
      switch (m["near"], m["box"]) {
      case (let near?, nil):
        let km = try number(
          try required("withinKilometers"), 0...20_038, what: "a distance in kilometres")
        rule = .markersMatch(.near(try coordinate(near), kilometers: km), path: path, at: at)
      case (nil, let box?):
        if let extra = m["withinKilometers"] {
          throw error(extra.path, "'withinKilometers' applies to 'near', not 'box'", key: true)
        }
        let b = try members(
          box, allowed: ["southwest", "northeast"], required: ["southwest", "northeast"])
        let sw = try coordinate(b["southwest"]!)
        let ne = try coordinate(b["northeast"]!)
        guard sw.latitude <= ne.latitude else {
          throw error(
            b["northeast"]!.path, "expected the north-east corner north of the south-west one")
        }
        rule = .markersMatch(.box(southwest: sw, northeast: ne), path: path, at: at)
      default:
        throw error(node.path, "expected exactly one of 'near' or 'box'")
      }
    case .noCrash:
      rule = .noCrash
    case .count:
      var fields: [String: JSONValue] = [:]
      if let f = m["fields"] {
        guard case .object(let o) = f.value else {
          throw error(f.path, "expected an object of field values, found \(f.value.typeName)")
        }
        fields = o
      }
      var lo = try m["min"].map { try integer($0, 0...1e9) }
      var hi = try m["max"].map { try integer($0, 0...1e9) }
      if let e = m["equals"] {
        guard lo == nil, hi == nil else {
          throw error(e.path, "'equals' cannot be combined with 'min' or 'max'", key: true)
        }
        let n = try integer(e, 0...1e9)
        lo = n
        hi = n
      }
      if let lo, let hi, lo > hi {
        throw error(m["max"]!.path, "expected max ≥ min (\(lo))")
      }
      guard lo != nil || hi != nil else {
        throw error(node.path, "expected 'min', 'max' or 'equals'")
      }
      let from = try time("from")
      let to = try time("to")
      if let from, let to, to < from {
        throw error(m["to"]!.path, "expected 'to' at or after 'from'")
      }
      rule = .count(
        source: try string(try required("source")), event: try string(try required("event")),
        fields: fields, min: lo, max: hi, from: from, to: to)
    }
    return Expectation(name: name ?? rule.summary, rule, rate: try m["rate"].map(rate))
  }

  /// `{"atLeast": share}`: a share of runs above 0 (a rate of 0 would hold whatever happened)
  /// and at most 1.
  func rate(_ node: Node) throws -> Expectation.Rate {
    let m = try members(node, allowed: ["atLeast"], required: ["atLeast"])
    let n = m["atLeast"]!
    let share = try number(n, 0...1, what: "a share of runs")
    guard share > 0 else {
      throw error(
        n.path, "expected a share of runs above 0 (a rate of at least 0 holds whatever happens)")
    }
    return Expectation.Rate(atLeast: share)
  }
}
