import Foundation
import JSON

/// Text escaping for XML (SVG, JUnit) and HTML.
enum Markup {
  /// `text` with `&`, `<`, `>`, `"` and `'` escaped, and characters XML 1.0 forbids dropped.
  static func escape(_ text: String) -> String {
    // Most text has nothing to escape or drop (0xEF leads U+FFFE and U+FFFF, among others).
    let attention = text.utf8.contains { byte in
      switch byte {
      case UInt8(ascii: "&"), UInt8(ascii: "<"), UInt8(ascii: ">"), UInt8(ascii: "\""),
        UInt8(ascii: "'"), 0xEF:
        true
      case 0x09, 0x0A, 0x0D: false
      default: byte < 0x20
      }
    }
    guard attention else { return text }
    var out = ""
    out.reserveCapacity(text.utf8.count)
    for scalar in text.unicodeScalars {
      switch scalar {
      case "&": out += "&amp;"
      case "<": out += "&lt;"
      case ">": out += "&gt;"
      case "\"": out += "&quot;"
      case "'": out += "&apos;"
      case "\t", "\n", "\r": out.unicodeScalars.append(scalar)
      default:
        // XML 1.0 allows no other control characters, nor U+FFFE / U+FFFF.
        if scalar.value < 0x20 || scalar.value == 0xFFFE || scalar.value == 0xFFFF { continue }
        out.unicodeScalars.append(scalar)
      }
    }
    return out
  }

  /// Markdown with every `<` and `>` outside code spans backslash-escaped, so that text from a
  /// scenario or an app (a description, a region's identifier) can never be raw HTML where the
  /// report is rendered. Already escaped ones stay as they are, so it can run twice.
  static func escapingHTML(inMarkdown markdown: String) -> String {
    // Most reports have neither: nothing to walk character by character.
    guard markdown.utf8.contains(where: { $0 == UInt8(ascii: "<") || $0 == UInt8(ascii: ">") })
    else { return markdown }
    var out = ""
    out.reserveCapacity(markdown.utf8.count)
    var inCode = false
    var previous: Character = " "
    for character in markdown {
      if character == "`" { inCode.toggle() }
      if character == "\n" { inCode = false }
      if !inCode, character == "<" || character == ">", previous != "\\" { out.append("\\") }
      out.append(character)
      previous = character
    }
    return out
  }

  /// Text for a cell of a Markdown table: `|` escaped and line breaks as spaces.
  static func tableCell(_ text: String) -> String {
    guard text.utf8.contains(where: { $0 == UInt8(ascii: "|") || $0 == UInt8(ascii: "\n") })
    else { return text }
    return text.replacingOccurrences(of: "|", with: "\\|")
      .replacingOccurrences(of: "\n", with: " ")
  }

  /// A number for SVG coordinates: two decimals, no trailing zeros, no exponent.
  ///
  /// Below 10¹² in magnitude the digits are the whole hundredths themselves, written as
  /// integers (a figure has thousands of coordinates; `String(format:)` costs a microsecond
  /// each); larger numbers take the formatted path, whose digits are the same.
  static func number(_ x: Double) -> String {
    var text: [UInt8] = []
    write(x, to: &text)
    return String(decoding: text, as: UTF8.self)
  }

  /// Appends ``number(_:)`` of `x` to `out`.
  static func write(_ x: Double, to out: inout [UInt8]) {
    guard x.isFinite else { return out.append(UInt8(ascii: "0")) }
    let hundredths = (x * 100).rounded()
    guard abs(hundredths) < 1e14 else {
      return out.append(contentsOf: formatted(hundredths / 100).utf8)
    }
    // Exact as an integer, and hundredths / 100 lies within 0.001 of the decimal, so "%.2f"
    // of it would print these same digits.
    let cents = Int64(hundredths)
    if cents < 0 { out.append(UInt8(ascii: "-")) }
    writeDigits(cents.magnitude / 100, to: &out)
    let fraction = cents.magnitude % 100
    guard fraction > 0 else { return }
    out.append(UInt8(ascii: "."))
    out.append(UInt8(ascii: "0") + UInt8(fraction / 10))
    if fraction % 10 > 0 { out.append(UInt8(ascii: "0") + UInt8(fraction % 10)) }
  }

  /// `value` with `decimals` decimals (0…6), as "%.Nf" prints it, or `nil` where the caller's
  /// own formatting must decide: by a rounding tie, from 10⁷ up once scaled, or not finite.
  ///
  /// Below 10⁷ in magnitude once scaled, the scaled value lies within 10⁻⁹ of the exact one,
  /// so away from a tie its rounding gives the digits of every correct formatting, which are
  /// written here as integers (`String(format:)` costs a microsecond or more). At a tie the
  /// formatters themselves differ (`String(format:locale:)` rounds 57.15 to 57.2, `String(format:)`
  /// to 57.1), so the caller's decides.
  static func fixed(_ value: Double, decimals: Int) -> String? {
    precondition((0...6).contains(decimals), "expected 0 to 6 decimals")
    var scale: UInt64 = 1
    for _ in 0..<decimals { scale *= 10 }
    let product = value * Double(scale)
    let tie = product.rounded(.down) + 0.5
    guard abs(product) < 1e7, abs(product - tie) > 1e-6 else { return nil }
    let units = UInt64(abs(product.rounded()))
    var text: [UInt8] = value.sign == .minus ? [UInt8(ascii: "-")] : []
    writeDigits(units / scale, to: &text)
    if decimals > 0 {
      text.append(UInt8(ascii: "."))
      var unit = scale / 10
      let fraction = units % scale
      repeat {
        text.append(UInt8(ascii: "0") + UInt8(fraction / unit % 10))
        unit /= 10
      } while unit > 0
    }
    return String(decoding: text, as: UTF8.self)
  }

  /// Appends the decimal digits of `n`.
  static func writeDigits(_ n: UInt64, to out: inout [UInt8]) {
    var unit: UInt64 = 1
    while unit <= n / 10 { unit *= 10 }
    repeat {
      out.append(UInt8(ascii: "0") + UInt8(n / unit % 10))
      unit /= 10
    } while unit > 0
  }

  /// A number of 10¹² or more (already rounded to hundredths), as "%.2f" without trailing
  /// zeros.
  private static func formatted(_ rounded: Double) -> String {
    if rounded == rounded.rounded() {
      // Whole numbers print without decimals; past 1e15 they may not fit an Int64.
      return abs(rounded) < 1e15 ? String(Int64(rounded)) : String(format: "%.0f", rounded)
    }
    var text = String(format: "%.2f", rounded)
    while text.hasSuffix("0") { text.removeLast() }
    return text
  }
}

/// A small SVG document: shapes in user units, drawn in order, with a title.
///
/// Its elements are written as bytes as they are drawn, one a line: a map has hundreds of
/// them, each with half a dozen attributes.
struct SVGDocument {
  let width: Double
  let height: Double
  private var body: [UInt8] = []

  init(width: Double, height: Double, title: String) {
    self.width = width
    self.height = height
    body.reserveCapacity(1 << 13)
    start("title")
    close(text: title, tag: "title")
    start("rect")
    attribute("x", 0)
    attribute("y", 0)
    attribute("width", width)
    attribute("height", height)
    attribute("fill", "#ffffff")
    end()
  }

  private mutating func append(_ text: StaticString) {
    body.append(
      contentsOf: UnsafeBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount))
  }

  /// Opens element `tag` on a line of its own.
  private mutating func start(_ tag: StaticString) {
    if !body.isEmpty { body.append(UInt8(ascii: "\n")) }
    body.append(UInt8(ascii: "<"))
    append(tag)
  }

  private mutating func attribute(_ name: StaticString, _ value: String) {
    body.append(UInt8(ascii: " "))
    append(name)
    append("=\"")
    body.append(contentsOf: Markup.escape(value).utf8)
    body.append(UInt8(ascii: "\""))
  }

  /// An attribute of ``Markup/number(_:)`` of `value` (which needs no escaping).
  private mutating func attribute(_ name: StaticString, _ value: Double) {
    body.append(UInt8(ascii: " "))
    append(name)
    append("=\"")
    Markup.write(value, to: &body)
    body.append(UInt8(ascii: "\""))
  }

  /// Ends an element without content.
  private mutating func end() { append("/>") }

  /// Ends an element's start tag, writes `text` as its content and closes it.
  private mutating func close(text: String, tag: StaticString) {
    body.append(UInt8(ascii: ">"))
    body.append(contentsOf: Markup.escape(text).utf8)
    append("</")
    append(tag)
    body.append(UInt8(ascii: ">"))
  }

  /// Ends an element with a `<title>` (its tooltip) or without content.
  private mutating func end(title: String?, tag: StaticString) {
    guard let title else { return end() }
    append("><title>")
    body.append(contentsOf: Markup.escape(title).utf8)
    append("</title></")
    append(tag)
    body.append(UInt8(ascii: ">"))
  }

  mutating func line(
    _ x1: Double, _ y1: Double, _ x2: Double, _ y2: Double, stroke: String,
    width: Double = 1, dash: String? = nil
  ) {
    start("line")
    attribute("x1", x1)
    attribute("y1", y1)
    attribute("x2", x2)
    attribute("y2", y2)
    attribute("stroke", stroke)
    attribute("stroke-width", width)
    if let dash { attribute("stroke-dasharray", dash) }
    end()
  }

  mutating func polyline(
    _ points: [(Double, Double)], stroke: String, width: Double = 1.5, fill: String = "none",
    closed: Bool = false, dash: String? = nil, opacity: Double? = nil
  ) {
    guard !points.isEmpty else { return }
    if closed { start("polygon") } else { start("polyline") }
    // The points' numbers, commas and spaces need no escaping.
    append(" points=\"")
    body.reserveCapacity(body.count + 16 * points.count)
    for (i, p) in points.enumerated() {
      if i > 0 { body.append(UInt8(ascii: " ")) }
      Markup.write(p.0, to: &body)
      body.append(UInt8(ascii: ","))
      Markup.write(p.1, to: &body)
    }
    body.append(UInt8(ascii: "\""))
    attribute("stroke", stroke)
    attribute("stroke-width", width)
    attribute("fill", fill)
    attribute("stroke-linejoin", "round")
    if let dash { attribute("stroke-dasharray", dash) }
    if let opacity { attribute("fill-opacity", opacity) }
    end()
  }

  mutating func circle(
    _ x: Double, _ y: Double, r: Double, fill: String, stroke: String = "none",
    width: Double = 1, title: String? = nil
  ) {
    start("circle")
    attribute("cx", x)
    attribute("cy", y)
    attribute("r", r)
    attribute("fill", fill)
    attribute("stroke", stroke)
    attribute("stroke-width", width)
    end(title: title, tag: "circle")
  }

  mutating func rect(
    _ x: Double, _ y: Double, _ w: Double, _ h: Double, fill: String, stroke: String = "none",
    title: String? = nil
  ) {
    start("rect")
    attribute("x", x)
    attribute("y", y)
    attribute("width", max(0, w))
    attribute("height", max(0, h))
    attribute("fill", fill)
    attribute("stroke", stroke)
    end(title: title, tag: "rect")
  }

  mutating func text(
    _ x: Double, _ y: Double, _ text: String, size: Double = 12, anchor: String = "start",
    fill: String = "#222222", rotate: Double? = nil, weight: String? = nil
  ) {
    start("text")
    attribute("x", x)
    attribute("y", y)
    attribute("font-size", size)
    attribute("font-family", "sans-serif")
    attribute("text-anchor", anchor)
    attribute("fill", fill)
    if let rotate {
      attribute(
        "transform", "rotate(\(Markup.number(rotate)) \(Markup.number(x)) \(Markup.number(y)))")
    }
    if let weight { attribute("font-weight", weight) }
    close(text: text, tag: "text")
  }

  /// A legend box of (colour, label) rows at the top right.
  mutating func legend(_ items: [(color: String, label: String)], x: Double, y: Double) {
    guard !items.isEmpty else { return }
    let rowHeight = 16.0
    let boxWidth = 12 + 7 * Double(items.map(\.label.count).max() ?? 0) + 24
    rect(x, y, boxWidth, rowHeight * Double(items.count) + 8, fill: "#ffffff", stroke: "#999999")
    for (i, item) in items.enumerated() {
      let rowY = y + 4 + rowHeight * Double(i)
      rect(x + 6, rowY + 3, 10, 10, fill: item.color)
      text(x + 22, rowY + 12, item.label, size: 11)
    }
  }

  /// The document's text.
  var text: String {
    """
    <?xml version="1.0" encoding="UTF-8"?>
    <svg xmlns="http://www.w3.org/2000/svg" version="1.1" width="\(Markup.number(width))" \
    height="\(Markup.number(height))" viewBox="0 0 \(Markup.number(width)) \(Markup.number(height))">
    \(String(decoding: body, as: UTF8.self))
    </svg>

    """
  }
}

/// "Nice" tick values covering `lower...upper`: steps of 1, 2 or 5 times a power of ten.
func niceTicks(_ lower: Double, _ upper: Double, count: Int = 5) -> [Double] {
  guard upper > lower, lower.isFinite, upper.isFinite else { return [lower] }
  let raw = (upper - lower) / Double(max(1, count))
  let magnitude = pow(10, (log10(raw)).rounded(.down))
  let step = [1.0, 2, 5, 10].map { $0 * magnitude }.first { $0 >= raw } ?? 10 * magnitude
  var ticks: [Double] = []
  var t = (lower / step).rounded(.up) * step
  while t <= upper + step * 1e-9 {
    ticks.append(abs(t) < step * 1e-9 ? 0 : t)
    t += step
  }
  return ticks
}
