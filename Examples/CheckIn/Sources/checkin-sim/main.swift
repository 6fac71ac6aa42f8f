import CheckInSimulation
import GeoSimCLI

// This package's own `geosim`: every command GeoSim's tool has, replaying the CheckIn app.
//
//     swift run checkin-sim validate Scenarios
//     swift run checkin-sim replay Scenarios --out Reports/replay
//     swift run checkin-sim sweep Scenarios/office-then-gym.scenario.json --vary seed=1..30
GeoSimTool(name: "checkin-sim", apps: .checkIn).main()
