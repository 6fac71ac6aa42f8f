import Foundation
import JSON
import SimKernel

/// One object of a datastore class, as NCMB's `NCMBObject`: an id, creation and update
/// instants, and JSON-typed fields (GeoPoints among them, in their tagged JSON form).
public struct DatastoreObject: Hashable, Sendable {
  /// The class the object belongs to (`"Station"`).
  public let className: String
  /// The object's id: 16 letters and digits, as NCMB issues them.
  public let objectId: String
  /// When the object was created, in virtual time.
  public let createDate: SimTime
  /// When the object was last changed, in virtual time.
  public internal(set) var updateDate: SimTime
  /// The user fields; never holds `objectId`, `createDate`, `updateDate` or `acl`.
  public internal(set) var fields: [String: JSONValue]

  /// The GeoPoint in `field`, if it holds one.
  public func geoPoint(_ field: String) -> GeoPoint? {
    fields[field].flatMap { try? GeoPoint(json: $0) }
  }

  /// The object as the REST API returns it, with dates as ISO 8601 strings in UTC
  /// (`"2013-09-25T04:22:40.409Z"`, NCMB's format) counted from `epoch`.
  public func json(epoch: Date) -> JSONValue {
    var members = fields
    members["objectId"] = .string(objectId)
    members["createDate"] = .string(DatastoreObject.isoString(createDate, epoch: epoch))
    members["updateDate"] = .string(DatastoreObject.isoString(updateDate, epoch: epoch))
    return .object(members)
  }

  /// A virtual instant as NCMB's date string: ISO 8601, UTC, milliseconds.
  public static func isoString(_ time: SimTime, epoch: Date) -> String {
    let style = Date.ISO8601FormatStyle(includingFractionalSeconds: true, timeZone: .gmt)
    return epoch.addingTimeInterval(time.seconds).formatted(style)
  }

  /// Field names the service owns; a request may not set them.
  static let reservedFields: Set<String> = ["objectId", "createDate", "updateDate", "acl"]
}
