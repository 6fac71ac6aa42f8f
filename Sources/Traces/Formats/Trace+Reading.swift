import Errors
import Foundation

extension Trace {
  /// Reads the trace file at `path`, detecting its format from the content unless `format` is
  /// given.
  ///
  /// The file is read into memory once, and XML is read from it as a stream of elements, so
  /// memory grows with the file and the points kept. It is not memory-mapped: a mapped file
  /// that another process truncates while it is read kills the reader (SIGBUS). A file larger
  /// than `limits.maximumBytes` is refused before it is read. The trace's name is the file's
  /// own name for it (GPX metadata) or else the file name without its extension.
  ///
  /// - Parameters:
  ///   - path: the file.
  ///   - format: its format; detected when `nil`.
  ///   - limits: the sizes an XML file may not exceed.
  ///   - gpxWaypoints: how a GPX file's top-level waypoints are read.
  /// - Throws: ``TraceError`` naming `path`, the line (and column where known) and what was
  ///   expected.
  public static func read(
    contentsOf path: String, format: TraceFormat? = nil, limits: XMLLimits = XMLLimits(),
    gpxWaypoints: GPXWaypoints = .automatic
  ) throws -> Trace {
    try read(
      contentsOf: path, format: format, limits: limits, gpxWaypoints: gpxWaypoints,
      afterLoading: {})
  }

  /// ``read(contentsOf:format:limits:gpxWaypoints:)``, calling `afterLoading` once the bytes
  /// are in memory and before they are parsed (tests change the file there).
  package static func read(
    contentsOf path: String, format: TraceFormat?, limits: XMLLimits,
    gpxWaypoints: GPXWaypoints = .automatic, afterLoading: () throws -> Void
  ) throws -> Trace {
    let data = try fileData(atPath: path, limits: limits)
    try afterLoading()
    return try Trace(
      fileData: data, path: path, format: format, limits: limits, gpxWaypoints: gpxWaypoints)
  }

  /// The bytes of the trace file at `path`, read as ``read(contentsOf:format:limits:gpxWaypoints:)``
  /// reads them: a file larger than `limits.maximumBytes` is refused before it is read.
  ///
  /// With ``init(fileData:path:format:limits:gpxWaypoints:)`` this is that function in two
  /// steps, for a reader that keeps traces by their bytes.
  ///
  /// - Throws: ``TraceError`` naming `path`.
  public static func fileData(atPath path: String, limits: XMLLimits = XMLLimits()) throws
    -> Data
  {
    do {
      return Data(try readFileContents(atPath: path, maximumBytes: limits.maximumBytes))
    } catch {
      throw TraceError(
        error.reason.contains("limit") ? .refused : .unreadable, file: path, error.reason)
    }
  }

  /// Reads the bytes of the trace file at `path` (``fileData(atPath:limits:)``) as
  /// ``read(contentsOf:format:limits:gpxWaypoints:)`` reads the file, naming the trace the
  /// same way.
  ///
  /// - Throws: ``TraceError`` naming `path`, the line (and column where known) and what was
  ///   expected.
  public init(
    fileData data: Data, path: String, format: TraceFormat? = nil,
    limits: XMLLimits = XMLLimits(), gpxWaypoints: GPXWaypoints = .automatic
  ) throws {
    self = try Trace(
      data: data, file: path, format: format, limits: limits, gpxWaypoints: gpxWaypoints)
    if name == nil {
      name = URL(fileURLWithPath: path).deletingPathExtension().lastPathComponent
    }
  }

  /// Reads a trace from bytes; `file` names them in errors, and `gpxWaypoints` says how a
  /// GPX file's top-level waypoints are read.
  ///
  /// - Throws: ``TraceError`` naming `file`, the line (and column where known) and what was
  ///   expected.
  public init(
    data: Data, file: String? = nil, format: TraceFormat? = nil, limits: XMLLimits = XMLLimits(),
    gpxWaypoints: GPXWaypoints = .automatic
  ) throws {
    self = try data.withUnsafeBytes { raw in
      let bytes = raw.bindMemory(to: UInt8.self)
      let format = try format ?? Trace.detectFormat(bytes, file: file)
      switch format {
      case .gpx:
        var handler = GPXImporter(bytes: bytes, waypoints: gpxWaypoints)
        try XMLTokenizer.parse(bytes, file: file, limits: limits, handler: &handler)
        return try handler.trace(file: file)
      case .sumo:
        var handler = SUMOImporter(bytes: bytes)
        try XMLTokenizer.parse(bytes, file: file, limits: limits, handler: &handler)
        return try handler.trace(file: file)
      case .geojson:
        return try GeoJSONImporter.read(data, file: file)
      case .csv:
        return try CSVImporter.read(bytes, file: file)
      case .nmea:
        return try NMEAImporter.read(bytes, file: file)
      }
    }
  }

  /// The format of `bytes` judged from their start: `<gpx` or `<fcd-export` among the first
  /// elements, a JSON object or array, a `$` sentence, or else a header line naming latitude and
  /// longitude columns.
  static func detectFormat(_ bytes: UnsafeBufferPointer<UInt8>, file: String?) throws
    -> TraceFormat
  {
    var start = 0
    if bytes.count >= 3, bytes[0] == 0xEF, bytes[1] == 0xBB, bytes[2] == 0xBF { start = 3 }
    while start < bytes.count, ByteScan.isSpace(bytes[start]) { start += 1 }
    guard start < bytes.count else {
      throw TraceError(.noPoints, file: file, line: 1, "the file is empty: expected a trace")
    }
    let head = String(
      decoding: UnsafeBufferPointer(rebasing: bytes[start..<min(bytes.count, start + 8_192)]),
      as: UTF8.self)
    switch bytes[start] {
    case UInt8(ascii: "<"):
      if head.contains("<fcd-export") || head.contains("<timestep") { return .sumo }
      if head.contains("<gpx") || head.contains(":gpx") { return .gpx }
      throw TraceError(
        .unknownFormat, file: file,
        "an XML document that is neither GPX (<gpx>) nor SUMO FCD (<fcd-export>)")
    case UInt8(ascii: "{"), UInt8(ascii: "["):
      return .geojson
    case UInt8(ascii: "$"), UInt8(ascii: "!"):
      return .nmea
    default:
      let firstLine = head.prefix { $0 != "\n" && $0 != "\r" }.lowercased()
      let words = firstLine.split { ",;\t ".contains($0) }.map {
        $0.trimmingCharacters(in: CharacterSet(charactersIn: "\""))
      }
      if words.contains(where: { ["lat", "latitude"].contains($0) }) { return .csv }
      if head.contains("$GP") || head.contains("$GN") { return .nmea }
      throw TraceError(
        .unknownFormat, file: file, line: 1,
        "expected GPX, GeoJSON, NMEA, SUMO FCD or CSV with a lat/lon header; "
          + "pass the format explicitly")
    }
  }
}
