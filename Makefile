# The two entry points the README promises; each installs what it needs first.
.PHONY: setup run bench calibrate test browser-test lint sanitize fuzz man docs

setup:
	@scripts/ensure-system-packages
	@scripts/use-offline-swift-packages

# The release build the main job, the benchmarks and the calibration use: with the Swift
# runtime and Foundation linked into the executable, a process starts in about 9 ms instead of
# 13 and calls the runtime without going through the dynamic linker's tables; a replay starts
# a worker process per core. (Switching between this and a plain `swift build -c release`
# rebuilds the package.)
RELEASE_BUILD = swift build -c release --static-swift-stdlib --product geosim

# The main job: replay every shipped scenario (release build) and write the results under
# Reports/replay; exits non-zero when a scenario's verdict is not PASS or XFAIL.
run: setup
	$(RELEASE_BUILD)
	.build/release/geosim replay Scenarios --out Reports/replay

# The benchmark suites (release build): each suite's rows as JSON in .build/bench/<suite>.json,
# then the README's table of measured figures rewritten from them (scripts/bench-table).
BENCH_SUITES = geo kernel device map trace cloud replay report
bench: setup
	$(RELEASE_BUILD)
	mkdir -p .build/bench
	for suite in $(BENCH_SUITES); do \
	  .build/release/geosim bench $$suite --json > .build/bench/$$suite.json || exit 1; \
	done
	scripts/bench-table --readme README.md $(BENCH_SUITES:%=.build/bench/%.json)

# The published field tests of region monitoring re-run on the simulated phone (release build),
# published against simulated with 95 % intervals, into Reports/calibration (docs/DEVICE.md,
# "Calibration"). `make calibrate CHECK=--check` fails when a row is outside its band.
calibrate: setup
	$(RELEASE_BUILD)
	.build/release/geosim calibrate --out Reports/calibration $(CHECK)

# The package's tests, then the example app package's (Examples/CheckIn: an app written as for
# iOS, built against GeoSim by path, with its own scenarios, suite and command-line tool, which
# validates and replays its scenarios and writes their reports under Examples/CheckIn/Reports).
test: setup
	swift test
	cd Examples/CheckIn && swift test
	cd Examples/CheckIn && swift run checkin-sim validate Scenarios
	cd Examples/CheckIn && swift run checkin-sim replay Scenarios --out Reports/replay

# The replay viewer in a real browser: every shipped scenario replayed (debug build) into
# .build/browser-test/replay, then scripts/browser-test opens several scenarios' viewers in
# headless Chromium (Debian's chromium, chromium-driver and python3-selenium; fonts-noto-cjk so
# that Japanese renders), fails on any console message, scrubs, plays and clicks, and saves
# screenshots into .build/browser-test/screenshots.
BROWSER_PACKAGES = chromium chromium-driver python3-selenium fonts-noto-cjk
browser-test: setup
	@scripts/ensure-system-packages $(BROWSER_PACKAGES)
	swift build --product geosim
	rm -rf .build/browser-test
	.build/debug/geosim replay Scenarios --out .build/browser-test/replay
	scripts/browser-test .build/browser-test/replay --screenshots .build/browser-test/screenshots

lint:
	swift format lint --strict --configuration .swift-format -r Package.swift Sources Plugins Tests \
	  Examples/CheckIn/Package.swift Examples/CheckIn/Sources Examples/CheckIn/Tests \
	  Fuzz/Package.swift Fuzz/Sources

# geosim's man page, generated from its command line (release build): .build/man/geosim.1
man: setup
	swift package --disable-sandbox plugin generate-manual
	mkdir -p .build/man
	cp .build/plugins/GenerateManual/outputs/geosim/geosim.1 .build/man/geosim.1

# The whole suite under AddressSanitizer and LeakSanitizer (GEOS allocations included).
# Child processes (the geosim binary the CLI tests start) inherit the suppressions, and say
# nothing of them on exit (print_suppressions=0), so that tests reading a child's standard
# error read only the child's own words. The
# runtime's symbolicating backtracer can hang inside an instrumented process, so a crash
# reports AddressSanitizer's own stack instead.
sanitize: setup
	SWIFT_BACKTRACE=enable=no LSAN_OPTIONS=suppressions=$(CURDIR)/scripts/lsan-suppressions.txt:print_suppressions=0 \
	  ASAN_OPTIONS=malloc_context_size=100 \
	  swift test --sanitize=address --disable-xctest --scratch-path .build/asan

# Every reader fuzzed: the libFuzzer targets of Fuzz/ (one per input format), each for
# FUZZ_SECONDS, seeded from the fixtures; fails on a crash, a hang or runaway memory and leaves
# the input under Fuzz/crashes/<target>/ (scripts/fuzz says how it builds and what it judges).
FUZZ_SECONDS ?= 60
fuzz: setup
	FUZZ_SECONDS=$(FUZZ_SECONDS) scripts/fuzz

# The documentation of every library module (its DocC catalog, Sources/<Module>/<Module>.docc,
# and its doc comments), built with the DocC plugin: one archive per module, then all of them
# merged into one site, .build/documentation/GeoSim.doccarchive. Any warning fails it — a
# symbol link that does not resolve, a parameter a comment documents that the function does
# not have, one it leaves out. The plugin (1.3.0) passes docc an `--index` flag that this
# toolchain's docc no longer has; `--disable-indexing` drops it (the index is for Xcode).
DOC_MODULES = Geo SimKernel JSON Device Cloud Traces ReferenceApps Referee Replay \
  ReferenceAppCatalog Reporting GeoSimTesting GeoSimFrameworks GeoSimCLI
DOC_ARCHIVES = .build/plugins/Swift-DocC/outputs
docs: setup
	rm -rf $(DOC_ARCHIVES) .build/documentation
	swift package generate-documentation $(DOC_MODULES:%=--target %) --disable-indexing \
	  --warnings-as-errors
	mkdir -p .build/documentation
	docc merge $(DOC_MODULES:%=$(DOC_ARCHIVES)/%.doccarchive) \
	  --synthesized-landing-page-name GeoSim --output-path .build/documentation/GeoSim.doccarchive
