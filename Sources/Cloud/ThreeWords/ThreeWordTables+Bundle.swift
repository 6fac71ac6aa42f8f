import Errors
import Foundation
import ThreeWordData

extension ThreeWordTables {
  // Read once a process: the languages and the gazetteer share them, and the viewer's borders
  // are read apart (`BorderTable.bundled()`) for replays that ask for no three-word address.
  private static let cached = Result { () throws(CloudError) in
    try readBundled(borders: BorderTable.bundled())
  }

  /// The tables the package build made of the bundled `languages` and `places` folders, read
  /// on first use and shared afterwards.
  static func bundled() throws(CloudError) -> ThreeWordTables { try cached.get() }

  /// The bundled tables, read afresh with the given borders (what a process's first
  /// three-word request costs, with `BorderTable.readBundled()`): mapped, not copied.
  ///
  /// - Throws: ``CloudError`` when the file is missing, damaged or of another format.
  package static func readBundled(borders: BorderTable) throws(CloudError) -> ThreeWordTables {
    try readResource(fileName) { path throws(ThreeWordDataError) in
      try ThreeWordTables(contentsOfFile: path, borders: borders, name: path)
    }
  }
}

extension BorderTable {
  private static let cached = Result { () throws(CloudError) in try readBundled() }

  /// The borders of the bundled `places` folder, read on first use and shared afterwards.
  static func bundled() throws(CloudError) -> BorderTable { try cached.get() }

  /// The bundled borders, read afresh (mapped, not copied).
  ///
  /// - Throws: ``CloudError`` when the file is missing, damaged or of another format.
  package static func readBundled() throws(CloudError) -> BorderTable {
    try readResource(ThreeWordTables.bordersFileName) { path throws(ThreeWordDataError) in
      try BorderTable(contentsOfFile: path, name: path)
    }
  }
}

/// What `read` makes of the file of resource `name`, given its path.
private func readResource<T>(
  _ name: String, _ read: (String) throws(ThreeWordDataError) -> T
) throws(CloudError) -> T {
  guard let url = Bundle.module.url(forResource: name, withExtension: nil) else {
    throw CloudError(.invalidData, "the bundled \(name) is missing; build the package again")
  }
  do {
    return try read(url.path)
  } catch {
    throw CloudError(.invalidData, error.message)
  }
}
