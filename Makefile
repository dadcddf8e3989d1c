# Reel: `make demo` and `make test` work on a fresh Debian machine with the Swift toolchain.
# Each target first installs the Debian packages that are missing (and only those).

SWIFT ?= swift
APT_PACKAGES := libavformat-dev libavcodec-dev libavutil-dev libswscale-dev libswresample-dev libcurl4-openssl-dev \
                pkg-config libsqlite3-dev libxml2 ffmpeg chromium librlottie-dev \
                libsdl2-dev libsdl2-ttf-dev fonts-dejavu-core xvfb xdotool
SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo)

.PHONY: deps build release test tsan fuzz fuzz-short demo view bench report-png install install-reel install-manual-tool uninstall clean

## deps: install the missing Debian packages (skipped when all are present).
deps:
	@missing=""; \
	for p in $(APT_PACKAGES); do \
	  dpkg-query -W -f='$${Status}' $$p 2>/dev/null | grep -q "install ok installed" || missing="$$missing $$p"; \
	done; \
	if [ -n "$$missing" ]; then \
	  echo "Installing missing packages:$$missing"; \
	  $(SUDO) apt-get update -qq && DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq $$missing; \
	fi

build: deps
	$(SWIFT) build

release: deps
	$(SWIFT) build -c release

## test: build everything and run every test, then the concurrency tests under the thread sanitizer,
## then a short fuzz pass over the parsers. At most TEST_WIDTH tests run at once: the suite is bound
## by CPU on two cores, so more at once only starves the tests that wait on the wall clock (network
## timeouts, real players); the feed sessions and the viewer, whose scroll traces run in real time, run after the rest.
TEST_WIDTH ?= 8
export SWT_EXPERIMENTAL_MAXIMUM_PARALLELIZATION_WIDTH := $(TEST_WIDTH)
REALTIME_TESTS := FeedSessionTests|ViewerTests
## The test builds (here, tsan's and fuzz-short's) compile each module whole (-wmo: one job per module, split
## over the cores, instead of batches that each type-check the files of the others) with line tables
## only (a backtrace still names file and line): on two cores the debug build takes 330 s instead of 445.
## A whole module is rebuilt when any of its files changes, so the tests build in TEST_SCRATCH, apart
## from the incremental .build of `swift build`. TEST_SWIFT_FLAGS= builds as `swift build` does.
NPROC := $(shell nproc 2>/dev/null || echo 2)
TEST_SWIFT_FLAGS ?= -Xswiftc -wmo -Xswiftc -num-threads -Xswiftc $(NPROC) -Xswiftc -gline-tables-only
TEST_SCRATCH ?= .build-test
test: deps
	$(SWIFT) build --build-tests --scratch-path $(TEST_SCRATCH) $(TEST_SWIFT_FLAGS)
	$(SWIFT) build --product generate-manual --scratch-path $(TEST_SCRATCH) $(TEST_SWIFT_FLAGS)
	$(SWIFT) test --skip-build --scratch-path $(TEST_SCRATCH) --skip '$(REALTIME_TESTS)'
	$(SWIFT) test --skip-build --scratch-path $(TEST_SCRATCH) --filter '$(REALTIME_TESTS)'
	@$(MAKE) --no-print-directory tsan
	@$(MAKE) --no-print-directory fuzz-short

## tsan: the concurrency tests under the thread sanitizer: the suites in each test target's Concurrency/ folder (the
## blocking pool, the decoder pool, players, the feed engine, prefetcher, cache, transfer engine, launch controller and
## Lottie renderer, and what they need), built in a folder of their own (.build-tsan) so the normal build stays as it is;
## the launch tests' asset checker is the `reel` of the test build (REEL_TEST_PRODUCTS).
## tsan-suppressions.txt names the one known false positive (Swift's continuation hand-off) and why.
## Only those folders and what they depend on are built (TSAN_TARGETS and REEL_TEST_SOURCES, read by Package.swift: a
## sanitized build of everything took as long as the normal one), and TSAN_WIDTH tests run at once (instrumented code is
## slow: at 8 a real-time player starved past its stream's end before its read-ahead filled, and the pass took longer).
TSAN_TARGETS := ReelCoreTests,ReelMediaTests,ReelEngineTests,ReelNetTests,ReelLaunchTests
TSAN_WIDTH ?= 4
TSAN_ENV := REEL_TEST_TARGETS=$(TSAN_TARGETS) REEL_TEST_SOURCES=Concurrency
tsan: deps
	$(SWIFT) build --product reel --scratch-path $(TEST_SCRATCH) $(TEST_SWIFT_FLAGS)
	$(TSAN_ENV) $(SWIFT) build --build-tests --sanitize=thread --scratch-path .build-tsan $(TEST_SWIFT_FLAGS)
	$(TSAN_ENV) SWT_EXPERIMENTAL_MAXIMUM_PARALLELIZATION_WIDTH=$(TSAN_WIDTH) REEL_TEST_PRODUCTS=$(TEST_SCRATCH)/debug \
	  TSAN_OPTIONS="suppressions=$(CURDIR)/tsan-suppressions.txt $$TSAN_OPTIONS" \
	  $(SWIFT) test --skip-build --sanitize=thread --scratch-path .build-tsan

## fuzz: build the libFuzzer targets (the Fuzz/ package, in .build-fuzz) and run each for FUZZ_SECONDS
## (default 30), FUZZ_JOBS at once (default: the cores); FUZZ_TARGETS chooses among hls, dash, config, json, lottie, launchstate and cacheindex. A crash, an input slower than
## 2 s or one needing more than 400 MB fails the run; the input is left in .build-fuzz/findings/<target>/.
## Seeds: Fuzz/Corpus/<target>/ and the conformance inputs (copied at run time, never committed).
FUZZ_SECONDS ?= 30
FUZZ_TARGETS ?= hls dash config json lottie launchstate cacheindex
fuzz: deps
	FUZZ_SECONDS=$(FUZZ_SECONDS) FUZZ_TARGETS="$(FUZZ_TARGETS)" SWIFT=$(SWIFT) scripts/fuzz.sh

## fuzz-short: the fuzz pass `make test` runs: a debug build of the targets (half the build time of release; fewer
## executions a second: 2.4 times fewer for hls, far fewer for config and lottie), 12 s per target, as many targets at once as there are cores; an input slower than 5 s
## fails it (release's 2 s, scaled by the slower code).
fuzz-short: deps
	FUZZ_SECONDS=12 FUZZ_TIMEOUT=5 FUZZ_CONFIG=debug FUZZ_SWIFT_FLAGS="$(TEST_SWIFT_FLAGS)" FUZZ_TARGETS="$(FUZZ_TARGETS)" \
	  SWIFT=$(SWIFT) scripts/fuzz.sh

## demo: build and run the main job on the bundled samples.
demo: release
	.build/release/reel demo

## view: build the viewer in release mode and open its window on the bundled samples (4g profile, the
## splash flag on). VIEW_ARGS="..." passes anything else, e.g. VIEW_ARGS="--hud --set device.isLowEnd=true";
## without a display it runs offscreen (VIEW_ARGS="--exit-after 10 --record view.mp4" makes a recording).
VIEW_ARGS ?=
view: deps
	$(SWIFT) build -c release --product reel-view
	@if [ -z "$$DISPLAY$$WAYLAND_DISPLAY" ]; then offscreen=--offscreen; echo "make view: no display; running offscreen"; fi; \
	.build/release/reel-view --config Samples/launch/flags.json $$offscreen $(VIEW_ARGS)

## bench: run the benchmarks (the Benchmarks/ package) in release mode and print their tables.
## BENCH_FILTER is a regular expression a benchmark's whole name must match, e.g. 'Coordinator.*'.
BENCH_FILTER ?= .*
bench: deps
	cd Benchmarks && $(SWIFT) package --disable-sandbox benchmark --filter '$(BENCH_FILTER)'

## report-png: draw a session report with headless Chromium into a PNG, the check that it renders
## in a real browser. REPORT=page.html (default report.html), or EVENTS=run.jsonl [SUMMARY=run.json]
## to write that page first (REPORT_ARGS="..." passes anything else to reel feed report);
## PNG=out.png (default: the page's name), REPORT_SIZE=width,height of the window (default 1240,4400).
REPORT ?= report.html
PNG ?= $(basename $(REPORT)).png
REPORT_SIZE ?= 1240,4400
CHROMIUM ?= chromium

report-png: build
	@if [ -n "$(EVENTS)$(REPORT_ARGS)" ]; then \
	  .build/debug/reel feed report $(if $(EVENTS),--events "$(EVENTS)") $(if $(SUMMARY),--summary "$(SUMMARY)") \
	    $(REPORT_ARGS) --output "$(REPORT)" || exit $$?; \
	fi
	@[ -f "$(REPORT)" ] || { echo "make report-png: no $(REPORT): give REPORT=page.html, or EVENTS=run.jsonl to write it"; exit 2; }
	@profile=$$(mktemp -d); \
	$(CHROMIUM) --headless --no-sandbox --disable-gpu --disable-dev-shm-usage --hide-scrollbars --no-first-run \
	  --user-data-dir="$$profile" --window-size=$(REPORT_SIZE) --screenshot="$(abspath $(PNG))" \
	  "file://$(abspath $(REPORT))" >"$$profile/chromium.log" 2>&1; \
	status=$$?; \
	if [ $$status -ne 0 ] || [ ! -s "$(PNG)" ]; then tail -5 "$$profile/chromium.log"; rm -rf "$$profile"; exit 1; fi; \
	rm -rf "$$profile"; echo "wrote $(PNG) ($(REPORT_SIZE)) from $(REPORT)"

## install: put reel on the PATH: PREFIX/bin/reel (PREFIX defaults to /usr/local; DESTDIR is prepended
## for packagers), the samples its defaults find in PREFIX/share/reel/Samples, the man page
## (share/man/man1/reel.1) and the bash, zsh and fish completions, generated from the commands, and
## LICENSE, NOTICE and README.md in share/doc/reel. The tool is a release build with the Swift runtime
## linked in (--static-swift-stdlib), so it runs without the toolchain; it still needs the Debian
## libraries of `make deps` (FFmpeg, libcurl, SQLite, rlottie, libxml2). REEL=path installs that
## binary instead of building one (the test suite installs the tool it built), MANUAL_TOOL=path that
## generate-manual. It builds as the user who runs it and copies with sudo when PREFIX is not
## writable; scripts/install.sh does the copying.
PREFIX ?= /usr/local
REEL ?=
MANUAL_TOOL ?=
install: $(if $(REEL),,install-reel) $(if $(MANUAL_TOOL),,install-manual-tool)
	@target="$(DESTDIR)$(PREFIX)"; while [ ! -e "$$target" ]; do target=$$(dirname "$$target"); done; \
	if [ -w "$$target" ]; then as=; else as="$(SUDO)"; echo "make install: $$target is not writable; copying with $(SUDO)"; fi; \
	$$as env PREFIX="$(PREFIX)" DESTDIR="$(DESTDIR)" REEL="$(or $(REEL),.build/release/reel)" \
	  MANUAL_TOOL="$(or $(MANUAL_TOOL),.build/release/generate-manual)" scripts/install.sh

install-reel: deps
	$(SWIFT) build -c release --static-swift-stdlib --product reel

install-manual-tool:
	$(SWIFT) build -c release --static-swift-stdlib --product generate-manual

## uninstall: remove what `make install` put under PREFIX.
uninstall:
	$(if $(shell [ -w "$(DESTDIR)$(PREFIX)" ] && echo yes),,$(SUDO)) rm -rf "$(DESTDIR)$(PREFIX)/bin/reel" "$(DESTDIR)$(PREFIX)/share/reel" "$(DESTDIR)$(PREFIX)/share/man/man1/reel.1" \
	  "$(DESTDIR)$(PREFIX)/share/bash-completion/completions/reel" "$(DESTDIR)$(PREFIX)/share/zsh/site-functions/_reel" \
	  "$(DESTDIR)$(PREFIX)/share/fish/vendor_completions.d/reel.fish" "$(DESTDIR)$(PREFIX)/share/doc/reel"

clean:
	rm -rf .build .build-test .build-tsan .build-fuzz
