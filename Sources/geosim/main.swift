#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

exit(GeoSimTool.main(Array(CommandLine.arguments.dropFirst()), terminal: .standard))
