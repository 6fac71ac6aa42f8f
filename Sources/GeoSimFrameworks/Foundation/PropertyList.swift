import Device
import SimKernel

/// Converting between the app's property-list objects (`Any`, as `UserDefaults` and
/// `userInfo` take them) and the phone's ``Device/StoredValue``.
///
/// Property-list objects are strings, numbers, Booleans, data, dates, and arrays and
/// dictionaries with string keys of those (Apple's `UserDefaults` overview). Numbers read back
/// as `NSNumber`, as on iOS, so that `as? Int`, `as? Double` and `as? Bool` convert them the way
/// Foundation does. Dates are kept in the world's virtual time.
enum PropertyList {
  /// The stored form of `value`; `nil` when it is not a property-list object (an `NSNull`, a
  /// `URL`, a dictionary with a key that is not a string, a custom type).
  static func storedValue(_ value: Any, epoch: Date) -> StoredValue? {
    if type(of: value) is NSNumber.Type, let number = value as? NSNumber {
      return stored(number)
    }
    switch value {
    case let value as Bool: return .bool(value)
    case let value as Int: return .int(value)
    case let value as Int8: return .int(Int(value))
    case let value as Int16: return .int(Int(value))
    case let value as Int32: return .int(Int(value))
    case let value as Int64: return .int(Int(value))
    case let value as UInt8: return .int(Int(value))
    case let value as UInt16: return .int(Int(value))
    case let value as UInt32: return .int(Int(value))
    case let value as UInt:
      return Int(exactly: value).map(StoredValue.int) ?? .double(Double(value))
    case let value as UInt64:
      return Int(exactly: value).map(StoredValue.int) ?? .double(Double(value))
    case let value as Double: return .double(value)
    case let value as Float: return .double(Double(value))
    case let value as CGFloat: return .double(Double(value))
    case let value as String: return .string(value)
    case let value as Data: return .data(Array(value))
    case let value as Date: return .date(time(of: value, epoch: epoch))
    case let value as [Any]:
      var elements: [StoredValue] = []
      for element in value {
        guard let stored = storedValue(element, epoch: epoch) else { return nil }
        elements.append(stored)
      }
      return .array(elements)
    case let value as [String: Any]:
      var entries: [String: StoredValue] = [:]
      for (key, element) in value {
        guard let stored = storedValue(element, epoch: epoch) else { return nil }
        entries[key] = stored
      }
      return .dictionary(entries)
    default: return nil
    }
  }

  /// `value` as the app reads it back: `NSNumber`, `String`, `Data`, `Date`, `[Any]` or
  /// `[String: Any]`.
  static func object(_ value: StoredValue, epoch: Date) -> Any {
    switch value {
    case .bool(let value): NSNumber(value: value)
    case .int(let value): NSNumber(value: value)
    case .double(let value): NSNumber(value: value)
    case .string(let value): value
    case .data(let bytes): Data(bytes)
    case .date(let time): epoch.addingTimeInterval(time.seconds)
    case .array(let elements): elements.map { object($0, epoch: epoch) } as [Any]
    case .dictionary(let entries): entries.mapValues { object($0, epoch: epoch) } as [String: Any]
    }
  }

  /// The name of `value`'s type, for the log of a refused value.
  static func typeName(_ value: Any) -> String {
    String(describing: type(of: value))
  }

  /// An `NSNumber` by the kind it was made from: a Boolean, a floating-point number or an
  /// integer (one beyond `Int` kept as a double).
  private static func stored(_ number: NSNumber) -> StoredValue {
    switch String(cString: number.objCType) {
    case "c", "B": .bool(number.boolValue)
    case "f", "d": .double(number.doubleValue)
    case "Q", "L", "I", "S", "C":
      Int(exactly: number.uint64Value).map(StoredValue.int) ?? .double(number.doubleValue)
    default: .int(number.intValue)
    }
  }

  /// A date as an instant of the world's virtual time, rounded to the nanosecond; dates beyond
  /// what virtual time holds (about 292 years either side of the epoch) are clamped to its ends.
  private static func time(of date: Date, epoch: Date) -> SimTime {
    let nanoseconds = (date.timeIntervalSince(epoch) * 1e9).rounded()
    if nanoseconds.isNaN { return .zero }
    if nanoseconds >= 0x1p63 { return SimTime(nanoseconds: .max) }
    if nanoseconds <= -0x1p63 { return SimTime(nanoseconds: .min) }
    return SimTime(nanoseconds: Int64(nanoseconds))
  }
}
