import JSON

/// Comparisons of JSON field values for `where` conditions and `order`.
///
/// Numbers compare with numbers and strings with strings (by Unicode scalars); other pairings
/// never satisfy an ordering condition. In `order`, missing values sort first.
enum FieldComparison {
  static func holds(_ constraint: DatastoreQuery.FieldConstraint, _ value: JSONValue?) -> Bool {
    guard let value else { return false }
    if constraint.op == "$eq" { return value == constraint.value }
    guard let c = compare(value, constraint.value) else { return false }
    switch constraint.op {
    case "$gt": return c > 0
    case "$gte": return c >= 0
    case "$lt": return c < 0
    default: return c <= 0
    }
  }

  /// −1, 0 or 1 when the values are comparable.
  static func compare(_ a: JSONValue, _ b: JSONValue) -> Int? {
    switch (a, b) {
    case (.number(let x), .number(let y)): x < y ? -1 : (x > y ? 1 : 0)
    case (.string(let x), .string(let y)):
      x.unicodeScalars.lexicographicallyPrecedes(y.unicodeScalars)
        ? -1 : (x == y ? 0 : 1)
    default: nil
    }
  }

  static func orderedBefore(_ a: DatastoreObject, _ b: DatastoreObject, keys: [String]) -> Bool {
    for key in keys {
      let descending = key.hasPrefix("-")
      let name = descending ? String(key.dropFirst()) : key
      let c: Int
      switch name {
      case "createDate": c = compareTimes(a.createDate.nanoseconds, b.createDate.nanoseconds)
      case "updateDate": c = compareTimes(a.updateDate.nanoseconds, b.updateDate.nanoseconds)
      case "objectId": c = compare(.string(a.objectId), .string(b.objectId)) ?? 0
      default:
        switch (a.fields[name], b.fields[name]) {
        case (nil, nil): c = 0
        case (nil, _): c = -1
        case (_, nil): c = 1
        case (let x?, let y?): c = compare(x, y) ?? 0
        }
      }
      if c != 0 { return descending ? c > 0 : c < 0 }
    }
    return false
  }

  private static func compareTimes(_ a: Int64, _ b: Int64) -> Int { a < b ? -1 : (a > b ? 1 : 0) }
}
