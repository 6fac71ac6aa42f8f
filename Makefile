# The two entry points the README promises; each installs what it needs first.
.PHONY: setup run test lint sanitize

setup:
	@scripts/ensure-system-packages

# The main job: for now, the benchmark suites (release build).
run: setup
	swift build -c release --product geosim
	.build/release/geosim bench geo
	.build/release/geosim bench kernel
	.build/release/geosim bench device
	.build/release/geosim bench map
	.build/release/geosim bench trace
	.build/release/geosim bench cloud

test: setup
	swift test

lint:
	swift format lint --strict --configuration .swift-format -r Package.swift Sources Tests

# The whole suite under AddressSanitizer and LeakSanitizer (GEOS allocations included).
sanitize: setup
	swift test --sanitize=address --disable-xctest --scratch-path .build/asan
