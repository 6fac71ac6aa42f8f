/// The attributes of one start tag, read lazily from the document's bytes.
struct XMLAttributes {
  struct Entry {
    var name: Range<Int>
    var value: Range<Int>
    var needsDecoding: Bool
  }

  let bytes: UnsafeBufferPointer<UInt8>
  var entries: [Entry]

  /// The entry whose local name (after any prefix) is `local`.
  func entry(_ local: String) -> Entry? {
    for entry in entries {
      var start = entry.name.lowerBound
      for i in entry.name where bytes[i] == UInt8(ascii: ":") { start = i + 1 }
      let name = UnsafeBufferPointer(rebasing: bytes[start..<entry.name.upperBound])
      if name.elementsEqual(local.utf8) { return entry }
    }
    return nil
  }

  /// The value of attribute `local` as a number, `nil` if absent or not a number.
  func double(_ local: String) -> Double? {
    guard let entry = entry(local) else { return nil }
    return XMLText(bytes: bytes, range: entry.value, needsDecoding: entry.needsDecoding).double
  }

  /// The value of attribute `local` as a string (entities decoded), `nil` if absent.
  func string(_ local: String) -> String? {
    guard let entry = entry(local) else { return nil }
    return XMLText(bytes: bytes, range: entry.value, needsDecoding: entry.needsDecoding).string
  }
}

/// The character data of an element that has no child elements.
struct XMLText {
  let bytes: UnsafeBufferPointer<UInt8>
  let range: Range<Int>
  let needsDecoding: Bool
  /// Already decoded text, when the content mixed in comments or CDATA sections.
  var decoded: [UInt8]? = nil

  static func empty(_ bytes: UnsafeBufferPointer<UInt8>) -> XMLText {
    XMLText(bytes: bytes, range: 0..<0, needsDecoding: false)
  }

  /// The text with entities and character references replaced.
  var string: String {
    if let decoded { return String(decoding: decoded, as: UTF8.self) }
    if !needsDecoding {
      return String(decoding: UnsafeBufferPointer(rebasing: bytes[range]), as: UTF8.self)
    }
    var out: [UInt8] = []
    XMLTokenizer.decode(bytes, range, into: &out)
    return String(decoding: out, as: UTF8.self)
  }

  /// The text as a number, or `nil`.
  var double: Double? {
    if decoded != nil || needsDecoding { return ByteScan.double(string) }
    return ByteScan.double(bytes, range.lowerBound, range.upperBound)
  }

  /// The text as an ISO 8601 time in seconds since the epoch, or `nil`.
  var isoTime: Double? {
    if decoded != nil || needsDecoding { return ByteScan.isoTime(string) }
    return ByteScan.isoTime(bytes, range.lowerBound, range.upperBound)
  }
}

/// Receives the elements of a document as the tokenizer meets them.
protocol XMLHandler {
  /// The local name the document's root element must have (`"gpx"`); the tokenizer refuses
  /// any other root before the handler sees it.
  static var root: String { get }
  /// An element starts at byte `offset`. `name` is its local name (without a prefix).
  mutating func start(_ name: String, _ attributes: XMLAttributes, offset: Int) throws
  /// An element ends; `text` is its character data if it had no child elements, else empty.
  mutating func end(_ name: String, _ text: XMLText, offset: Int) throws
}

/// A failure a handler raises about the element at `offset`; reported with its line and column.
struct XMLHandlerFailure: Error {
  let offset: Int
  let reason: String
}

/// A streaming, byte-level XML reader: it hands each element to a handler and keeps nothing but
/// the stack of open element names, so memory does not grow with the document.
///
/// Safety: a document type declaration (`<!DOCTYPE`) is refused outright, so no entity can be
/// declared, nothing external is fetched and nothing expands; only `&amp; &lt; &gt; &quot;
/// &apos;` and numeric character references are accepted. Depth and size are bounded by
/// ``XMLLimits``. Errors name the line and column and what was expected.
///
/// It checks what the importers rely on (tags nest and match, attributes are quoted, references
/// are known) and does not validate the rest of XML 1.0 (name characters beyond ASCII are
/// accepted as they are; an attribute repeated in one tag is refused).
enum XMLTokenizer {
  private static let lt = UInt8(ascii: "<")
  private static let gt = UInt8(ascii: ">")
  private static let amp = UInt8(ascii: "&")
  private static let slash = UInt8(ascii: "/")

  /// Reads `bytes` as one XML document whose root element is `H.root` and sends its elements
  /// to `handler`.
  ///
  /// - Throws: ``TraceError`` (``TraceError/Code/malformed`` or ``TraceError/Code/refused``)
  ///   naming `file`, the line and column, and what was expected.
  static func parse<H: XMLHandler>(
    _ bytes: UnsafeBufferPointer<UInt8>, file: String?, limits: XMLLimits, handler: inout H
  ) throws {
    func fail(_ code: TraceError.Code, _ offset: Int, _ reason: String) -> TraceError {
      var lines = LineCounter(bytes)
      let (line, column) = lines.position(of: offset)
      return TraceError(code, file: file, line: line, column: column, reason)
    }
    let n = bytes.count
    guard n <= limits.maximumBytes else {
      throw TraceError(
        .refused, file: file,
        "the document is \(n) bytes, more than the limit of \(limits.maximumBytes)")
    }
    var pos = 0
    if n >= 2, (bytes[0] == 0xFE && bytes[1] == 0xFF) || (bytes[0] == 0xFF && bytes[1] == 0xFE) {
      throw fail(.malformed, 0, "expected UTF-8 text, found a UTF-16 byte-order mark")
    }
    if n >= 3, bytes[0] == 0xEF, bytes[1] == 0xBB, bytes[2] == 0xBF { pos = 3 }

    var stack: [Range<Int>] = []
    stack.reserveCapacity(16)
    var attributes = XMLAttributes(bytes: bytes, entries: [])
    var sawRoot = false
    // Text of the innermost open element, valid while it has no child element (`leaf`).
    var leaf = false
    var textStart = 0
    var textNeedsDecoding = false
    var scratch: [UInt8] = []
    var scratchMode = false

    func hasPrefix(_ pattern: StaticString, at start: Int) -> Bool {
      let p = pattern.utf8Start
      let m = pattern.utf8CodeUnitCount
      guard start + m <= n else { return false }
      for k in 0..<m where bytes[start + k] != p[k] { return false }
      return true
    }

    func find(_ pattern: StaticString, from start: Int) -> Int? {
      let p = pattern.utf8Start
      let m = pattern.utf8CodeUnitCount
      var i = start
      while i + m <= n {
        if bytes[i] == p[0] {
          var k = 1
          while k < m, bytes[i + k] == p[k] { k += 1 }
          if k == m { return i }
        }
        i += 1
      }
      return nil
    }

    func localName(_ range: Range<Int>) -> String {
      var start = range.lowerBound
      for i in range where bytes[i] == UInt8(ascii: ":") { start = i + 1 }
      return String(
        decoding: UnsafeBufferPointer(rebasing: bytes[start..<range.upperBound]), as: UTF8.self)
    }

    func nameEnd(_ start: Int) -> Int {
      var i = start
      while i < n {
        let b = bytes[i]
        if ByteScan.isSpace(b) || b == slash || b == gt || b == UInt8(ascii: "=") { break }
        i += 1
      }
      return i
    }

    func isNameStart(_ b: UInt8) -> Bool {
      (b | 0x20) >= UInt8(ascii: "a") && (b | 0x20) <= UInt8(ascii: "z") || b == UInt8(ascii: "_")
        || b == UInt8(ascii: ":") || b >= 0x80
    }

    func describe(_ offset: Int) -> String {
      guard offset < n else { return "the end of the file" }
      let b = bytes[offset]
      if b >= 0x21 && b < 0x7F { return "'\(Character(Unicode.Scalar(b)))'" }
      return "byte 0x" + String(b, radix: 16, uppercase: true)
    }

    do {
      while pos < n {
        // Character data up to the next markup.
        let segment = pos
        while pos < n {
          let b = bytes[pos]
          if b == lt { break }
          if b == amp {
            guard let end = checkReference(bytes, at: pos) else {
              throw fail(.refused, pos, referenceMessage(bytes, at: pos))
            }
            textNeedsDecoding = true
            pos = end
            continue
          }
          if stack.isEmpty, !ByteScan.isSpace(b) {
            throw fail(
              .malformed, pos,
              sawRoot
                ? "expected nothing after the root element, found \(describe(pos))"
                : "expected '<' to start the root element, found \(describe(pos))")
          }
          pos += 1
        }
        if scratchMode, pos > segment { decode(bytes, segment..<pos, into: &scratch) }
        guard pos < n else { break }
        let markup = pos
        guard pos + 1 < n else { throw fail(.malformed, pos, "expected markup after '<'") }
        let next = bytes[pos + 1]
        if next == UInt8(ascii: "?") {
          guard let end = find("?>", from: pos + 2) else {
            throw fail(.malformed, pos, "expected '?>' to close the processing instruction")
          }
          if leaf, !scratchMode {
            scratchMode = true
            scratch.removeAll(keepingCapacity: true)
            decode(bytes, textStart..<markup, into: &scratch)
          }
          pos = end + 2
          continue
        }
        if next == UInt8(ascii: "!") {
          if n - pos >= 4, bytes[pos + 2] == UInt8(ascii: "-"), bytes[pos + 3] == UInt8(ascii: "-")
          {
            guard let end = find("-->", from: pos + 4) else {
              throw fail(.malformed, pos, "expected '-->' to close the comment")
            }
            if leaf, !scratchMode {
              scratchMode = true
              scratch.removeAll(keepingCapacity: true)
              decode(bytes, textStart..<markup, into: &scratch)
            }
            pos = end + 3
            continue
          }
          if hasPrefix("<![CDATA[", at: pos) {
            guard !stack.isEmpty else {
              throw fail(.malformed, pos, "expected the root element, found a CDATA section")
            }
            guard let end = find("]]>", from: pos + 9) else {
              throw fail(.malformed, pos, "expected ']]>' to close the CDATA section")
            }
            if leaf {
              if !scratchMode {
                scratchMode = true
                scratch.removeAll(keepingCapacity: true)
                decode(bytes, textStart..<markup, into: &scratch)
              }
              scratch.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[pos + 9..<end]))
            }
            pos = end + 3
            continue
          }
          if hasPrefix("<!DOCTYPE", at: pos) {
            throw fail(
              .refused, pos,
              "document type declarations are refused (no DTDs, no entity declarations); "
                + "expected the root element")
          }
          throw fail(.malformed, pos, "expected a comment, CDATA section or element after '<!'")
        }
        if next == slash {
          // End tag.
          let nameStart = pos + 2
          let nameStop = nameEnd(nameStart)
          var i = nameStop
          while i < n, ByteScan.isSpace(bytes[i]) { i += 1 }
          guard i < n, bytes[i] == gt else {
            throw fail(.malformed, i, "expected '>' to close the end tag, found \(describe(i))")
          }
          guard let open = stack.last else {
            throw fail(.malformed, pos, "found an end tag with no open element")
          }
          let closing = UnsafeBufferPointer(rebasing: bytes[nameStart..<nameStop])
          guard closing.elementsEqual(UnsafeBufferPointer(rebasing: bytes[open])) else {
            let openName = String(
              decoding: UnsafeBufferPointer(rebasing: bytes[open]), as: UTF8.self)
            var lines = LineCounter(bytes)
            throw fail(
              .malformed, pos,
              "expected </\(openName)> to close the element opened on line "
                + "\(lines.line(of: open.lowerBound)), found </\(String(decoding: closing, as: UTF8.self))>"
            )
          }
          var text = XMLText.empty(bytes)
          if leaf {
            if scratchMode {
              text.decoded = scratch
            } else {
              text = XMLText(
                bytes: bytes, range: textStart..<markup, needsDecoding: textNeedsDecoding)
            }
          }
          stack.removeLast()
          do {
            try handler.end(localName(open), text, offset: markup)
          } catch let failure as XMLHandlerFailure {
            throw fail(.malformed, failure.offset, failure.reason)
          }
          leaf = false
          scratchMode = false
          pos = i + 1
          continue
        }
        // Start tag.
        guard isNameStart(next) else {
          throw fail(
            .malformed, pos + 1, "expected an element name after '<', found \(describe(pos + 1))")
        }
        if stack.isEmpty, sawRoot {
          throw fail(.malformed, pos, "expected one root element, found a second one")
        }
        let nameStart = pos + 1
        let nameStop = nameEnd(nameStart)
        attributes.entries.removeAll(keepingCapacity: true)
        var i = nameStop
        var selfClosing = false
        while true {
          while i < n, ByteScan.isSpace(bytes[i]) { i += 1 }
          guard i < n else {
            throw fail(
              .malformed, markup, "expected '>' to close the start tag before the end of the file")
          }
          if bytes[i] == gt {
            i += 1
            break
          }
          if bytes[i] == slash {
            guard i + 1 < n, bytes[i + 1] == gt else {
              throw fail(.malformed, i, "expected '/>' to close the empty element")
            }
            selfClosing = true
            i += 2
            break
          }
          guard isNameStart(bytes[i]) else {
            throw fail(.malformed, i, "expected an attribute name or '>', found \(describe(i))")
          }
          let attributeStart = i
          let attributeStop = nameEnd(i)
          i = attributeStop
          while i < n, ByteScan.isSpace(bytes[i]) { i += 1 }
          guard i < n, bytes[i] == UInt8(ascii: "=") else {
            throw fail(.malformed, i, "expected '=' after the attribute name, found \(describe(i))")
          }
          i += 1
          while i < n, ByteScan.isSpace(bytes[i]) { i += 1 }
          guard i < n, bytes[i] == UInt8(ascii: "\"") || bytes[i] == UInt8(ascii: "'") else {
            throw fail(.malformed, i, "expected a quoted attribute value, found \(describe(i))")
          }
          let quote = bytes[i]
          i += 1
          let valueStart = i
          var needsDecoding = false
          while i < n, bytes[i] != quote {
            if bytes[i] == lt {
              throw fail(
                .malformed, i, "expected the closing quote of the attribute value, found '<'")
            }
            if bytes[i] == amp {
              guard let end = checkReference(bytes, at: i) else {
                throw fail(.refused, i, referenceMessage(bytes, at: i))
              }
              needsDecoding = true
              i = end
              continue
            }
            i += 1
          }
          guard i < n else {
            throw fail(
              .malformed, valueStart - 1, "expected the closing quote of the attribute value")
          }
          // A repeated attribute is not well-formed XML (and which value counts is anyone's
          // guess): refused where the second one starts.
          let attributeName = UnsafeBufferPointer(
            rebasing: bytes[attributeStart..<attributeStop])
          if attributes.entries.contains(where: {
            UnsafeBufferPointer(rebasing: bytes[$0.name]).elementsEqual(attributeName)
          }) {
            throw fail(
              .malformed, attributeStart,
              "the attribute '\(String(decoding: attributeName, as: UTF8.self))' appears twice "
                + "in one tag")
          }
          attributes.entries.append(
            XMLAttributes.Entry(
              name: attributeStart..<attributeStop, value: valueStart..<i,
              needsDecoding: needsDecoding))
          i += 1
          guard i < n, ByteScan.isSpace(bytes[i]) || bytes[i] == gt || bytes[i] == slash else {
            throw fail(
              .malformed, i,
              "expected whitespace, '>' or '/>' after the attribute value, found \(describe(i))")
          }
        }
        stack.append(nameStart..<nameStop)
        guard stack.count <= limits.maximumDepth else {
          throw fail(
            .refused, markup,
            "elements nest deeper than the limit of \(limits.maximumDepth)")
        }
        sawRoot = true
        let name = localName(nameStart..<nameStop)
        if stack.count == 1, name != H.root {
          throw fail(
            .malformed, markup, "expected <\(H.root)> as the root element, found <\(name)>")
        }
        do {
          try handler.start(name, attributes, offset: markup)
          if selfClosing {
            stack.removeLast()
            try handler.end(name, .empty(bytes), offset: markup)
          }
        } catch let failure as XMLHandlerFailure {
          throw fail(.malformed, failure.offset, failure.reason)
        }
        leaf = !selfClosing
        scratchMode = false
        textStart = i
        textNeedsDecoding = false
        pos = i
      }
    }
    if let open = stack.last {
      let name = String(decoding: UnsafeBufferPointer(rebasing: bytes[open]), as: UTF8.self)
      var lines = LineCounter(bytes)
      throw fail(
        .malformed, n,
        "expected </\(name)> (opened on line \(lines.line(of: open.lowerBound))) before the end of the file"
      )
    }
    guard sawRoot else { throw fail(.malformed, n, "expected an XML element, found none") }
  }

  /// The end of a valid reference starting at `at` (`&amp;`, `&#38;`, `&#x26;`), or `nil`.
  static func checkReference(_ bytes: UnsafeBufferPointer<UInt8>, at: Int) -> Int? {
    guard let (scalar, end) = reference(bytes, at: at), scalar != nil else { return nil }
    return end
  }

  /// Decodes the reference at `at`: its scalar (`nil` when not allowed) and where it ends.
  private static func reference(_ bytes: UnsafeBufferPointer<UInt8>, at: Int)
    -> (Unicode.Scalar?, Int)?
  {
    var semicolon = at + 1
    while semicolon < bytes.count, semicolon - at <= 12, bytes[semicolon] != UInt8(ascii: ";") {
      semicolon += 1
    }
    guard semicolon < bytes.count, bytes[semicolon] == UInt8(ascii: ";") else { return nil }
    let name = UnsafeBufferPointer(rebasing: bytes[at + 1..<semicolon])
    let end = semicolon + 1
    switch String(decoding: name, as: UTF8.self) {
    case "amp": return ("&", end)
    case "lt": return ("<", end)
    case "gt": return (">", end)
    case "quot": return ("\"", end)
    case "apos": return ("'", end)
    case let text where text.hasPrefix("#x"):
      return (UInt32(text.dropFirst(2), radix: 16).flatMap(Unicode.Scalar.init), end)
    case let text where text.hasPrefix("#"):
      return (UInt32(text.dropFirst(), radix: 10).flatMap(Unicode.Scalar.init), end)
    default: return (nil, end)
    }
  }

  /// Why the reference at `at` is refused.
  static func referenceMessage(_ bytes: UnsafeBufferPointer<UInt8>, at: Int) -> String {
    var end = at + 1
    while end < bytes.count, end - at <= 12, bytes[end] != UInt8(ascii: ";"),
      !ByteScan.isSpace(bytes[end]), bytes[end] != lt
    {
      end += 1
    }
    let text = String(
      decoding: UnsafeBufferPointer(rebasing: bytes[at..<min(end + 1, bytes.count)]), as: UTF8.self)
    return "entity reference '\(text)' is not expanded: expected &amp; &lt; &gt; &quot; &apos; "
      + "or a character reference (entities are refused)"
  }

  /// Appends `bytes[range]` to `out` with references replaced (they were checked before).
  static func decode(
    _ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>, into out: inout [UInt8]
  ) {
    var i = range.lowerBound
    while i < range.upperBound {
      if bytes[i] == amp, let (scalar, end) = reference(bytes, at: i), let scalar {
        out.append(contentsOf: String(Character(scalar)).utf8)
        i = end
      } else {
        out.append(bytes[i])
        i += 1
      }
    }
  }
}
