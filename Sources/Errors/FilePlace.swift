/// Where in a file a problem is, as compilers and editors write it: `file`, `file:line` or
/// `file:line:column`, leaving out what is not known (a column without a line is left out too).
public func filePlace(_ file: String, line: Int?, column: Int?) -> String {
  guard let line else { return file }
  guard let column else { return "\(file):\(line)" }
  return "\(file):\(line):\(column)"
}
