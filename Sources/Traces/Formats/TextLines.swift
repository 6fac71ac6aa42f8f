/// The lines of a text file with their 1-based numbers, a UTF-8 byte-order mark and carriage
/// returns removed (CR LF, LF and CR all end a line).
func textLines(_ bytes: UnsafeBufferPointer<UInt8>) -> [(number: Int, text: Substring)] {
  var text = String(decoding: bytes, as: UTF8.self)
  if text.hasPrefix("\u{FEFF}") { text.removeFirst() }
  // "\r\n" is one Character, so split on any newline character rather than on "\n".
  return text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline).enumerated()
    .map { index, line in (index + 1, line) }
}
