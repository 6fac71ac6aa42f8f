/// Turns byte offsets into 1-based lines and columns, counting newlines incrementally so that
/// offsets asked for in increasing order cost O(n) in total.
struct LineCounter {
  let bytes: UnsafeBufferPointer<UInt8>
  private var offset = 0
  private var line = 1
  private var lineStart = 0

  init(_ bytes: UnsafeBufferPointer<UInt8>) { self.bytes = bytes }

  /// The line and column (in bytes) of `target`.
  mutating func position(of target: Int) -> (line: Int, column: Int) {
    if target < offset {
      offset = 0
      line = 1
      lineStart = 0
    }
    let end = min(target, bytes.count)
    while offset < end {
      if bytes[offset] == 0x0A {
        line += 1
        lineStart = offset + 1
      }
      offset += 1
    }
    return (line, target - lineStart + 1)
  }

  /// The line of `target`.
  mutating func line(of target: Int) -> Int { position(of: target).line }
}
