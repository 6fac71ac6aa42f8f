import SimKernel

/// A value in a ``KeyValueStore``: one of the property-list types `UserDefaults` accepts.
///
/// `UserDefaults.set(_:forKey:)` takes `Any?` and accepts only property-list objects
/// (`NSData`, `NSString`, `NSNumber`, `NSDate`, `NSArray`, `NSDictionary`; Apple's `UserDefaults`
/// overview). GeoSim spells that set out as an enum, so a store can never hold anything else.
/// `NSNumber` is split into ``bool(_:)``, ``int(_:)`` and ``double(_:)`` because the getters
/// convert each differently. Dictionary keys are strings, as in a property list.
public enum StoredValue: Hashable, Sendable {
  /// A Boolean (`NSNumber` created from a `Bool`).
  case bool(Bool)
  /// An integer (`NSNumber` created from an `Int`).
  case int(Int)
  /// A floating-point number (`NSNumber` created from a `Double`).
  case double(Double)
  /// A string.
  case string(String)
  /// Raw bytes (`Data`).
  case data([UInt8])
  /// An instant (`Date`), in the simulation's virtual time.
  case date(SimTime)
  /// An ordered list of values.
  case array([StoredValue])
  /// Values by string key.
  case dictionary([String: StoredValue])
}

extension StoredValue {
  /// The case name, written to the event log as the `type` field.
  var typeName: String {
    switch self {
    case .bool: "bool"
    case .int: "int"
    case .double: "double"
    case .string: "string"
    case .data: "data"
    case .date: "date"
    case .array: "array"
    case .dictionary: "dictionary"
    }
  }

  /// The value as the event log writes it.
  ///
  /// Data becomes a lower-case hexadecimal string, a date its seconds since the epoch, and a
  /// dictionary a list of `[key, value]` pairs sorted by key, so the same store always logs
  /// the same bytes (Swift dictionaries have no stable order).
  var logValue: LogValue {
    switch self {
    case .bool(let value): .bool(value)
    case .int(let value): .int(Int64(value))
    case .double(let value): .double(value)
    case .string(let value): .string(value)
    case .data(let bytes): .string(Self.hex(bytes))
    case .date(let time): .double(time.seconds)
    case .array(let values): .array(values.map(\.logValue))
    case .dictionary(let values):
      .array(values.keys.sorted().map { .array([.string($0), values[$0]!.logValue]) })
    }
  }

  private static func hex(_ bytes: [UInt8]) -> String {
    let digits = Array("0123456789abcdef")
    var out = ""
    out.reserveCapacity(bytes.count * 2)
    for byte in bytes {
      out.append(digits[Int(byte >> 4)])
      out.append(digits[Int(byte & 0x0F)])
    }
    return out
  }
}
