# The two entry points the README promises; each installs what it needs first.
.PHONY: setup run test lint

setup:
	@scripts/ensure-system-packages

# The main job: for now, the geometry benchmark (release build).
run: setup
	swift run -c release geosim bench geo

test: setup
	swift test

lint:
	swift format lint --strict --configuration .swift-format -r Package.swift Sources Tests
