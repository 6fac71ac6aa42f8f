/// The kinds of error one module throws: a closed-looking but growable set of codes, each a
/// static member of the conforming type (`DeviceErrorCode.invalidArgument`).
public protocol ModuleErrorCode: Hashable, Sendable {
  /// How an error of this kind reads in messages and logs; the message alone unless the codes
  /// say otherwise (the three-word service prefixes its wire code).
  func describe(_ message: String) -> String
}

extension ModuleErrorCode {
  /// The message alone.
  public func describe(_ message: String) -> String { message }
}

/// An error that says what went wrong in one sentence, with a code to match on.
///
/// Each module names its own instance, keeping its codes beside it:
/// `public typealias DeviceError = ModuleError<DeviceErrorCode>`, thrown as
/// `DeviceError(.invalidArgument, "…")` and caught as `catch let e as DeviceError`, matched with
/// `e.code == .invalidArgument`. Errors of different modules are different types.
public struct ModuleError<Codes: ModuleErrorCode>: Error, Hashable, Sendable,
  CustomStringConvertible
{
  /// The module's set of codes (`DeviceError.Code`).
  public typealias Code = Codes

  /// What kind of error this is.
  public let code: Code
  /// What went wrong, naming the offending value or place.
  public let message: String

  /// An error of the given kind.
  public init(_ code: Code, _ message: String) {
    self.code = code
    self.message = message
  }

  /// The message, as the codes render it (``ModuleErrorCode/describe(_:)``).
  public var description: String { code.describe(message) }
}
