import Foundation
import ThreeWordData

// Run by the package build (ThreeWordTablesPlugin): reads the three-word data folders and
// writes their tables (`ThreeWordTables`) into the Cloud module's resources: the borders to
// one file, everything else to the other.
//
//     ThreeWordTablesBuilder LANGUAGES_FOLDER PLACES_FOLDER TABLES_FILE BORDERS_FILE
let arguments = CommandLine.arguments
guard arguments.count == 5 else {
  FileHandle.standardError.write(
    Data("usage: ThreeWordTablesBuilder LANGUAGES PLACES TABLES BORDERS\n".utf8))
  exit(2)
}
do {
  let tables = try ThreeWordTables(languagesFolder: arguments[1], placesFolder: arguments[2])
  try Data(tables.encoded()).write(to: URL(fileURLWithPath: arguments[3]), options: .atomic)
  try Data(tables.borders.encoded()).write(
    to: URL(fileURLWithPath: arguments[4]), options: .atomic)
} catch {
  FileHandle.standardError.write(Data("error: \(error)\n".utf8))
  exit(1)
}
