import GeoSimCLI
import ReferenceAppCatalog

// `geosim` is the GeoSim tool with the five reference apps.
GeoSimTool(name: "geosim", apps: .referenceApps).main()
