# The commands of the README. Each installs what it needs on a fresh Debian machine.
.PHONY: site serve test lint install fuzz fuzz-ci bench bench-quick bench-10m bench-importers bench-search deps deps-test clean

SCROLLBACK := .build/release/scrollback
# The release binary: the Swift standard library, Foundation and jemalloc linked in, templates embedded.
RELEASE_BUILD := bash scripts/build-release.sh
PREFIX ?= /usr/local

# Build the sample site into _site/ (installs the C libraries and builds the release binary).
site: deps
	$(RELEASE_BUILD)
	$(SCROLLBACK) build sample-logs -o _site

# Serve the sample site on http://127.0.0.1:8000/, rebuilding and reloading on every change.
serve: deps
	$(RELEASE_BUILD)
	$(SCROLLBACK) serve sample-logs

# Run every test: the format lint, the portable-binary check, the Swift unit tests, the
# benchmark tools' tests, the sample census, the browser suite, a bounded run of every fuzz target,
# then the dev server's tests. The steps run side by side (docs/testing.md, "How make test runs"):
# each binary is built once, the release binary first since the longest steps wait for it; the
# fuzz step (its own build folder) starts at once, and the debug test build fills the cores' idle
# time at a lower priority (nice). Each
# step's output is printed in one piece when it ends (--output-sync); the first failing step fails
# `make test` (make waits for the running steps, starts no new one, and exits non-zero).
TEST_JOBS ?= 10
# Browser suite workers (pytest-xdist); 0 runs it in one process.
BROWSER_WORKERS ?= 2
# A step that yields the cores to the critical path (the release binary and what uses it). Not the
# fuzz step: libFuzzer's -timeout is wall time, and a starved target would report a false hang.
LOW_PRIORITY := nice -n 10

# scripts/test-portable-binary.sh hides the checkout in a private mount namespace; where it cannot
# make one, it renames the checkout for its run, which no other step may see: it then runs alone.
PORTABLE_BESIDE := $(shell unshare --mount --map-root-user true 2>/dev/null && echo test-portable)

test: deps-test
	$(MAKE) --no-print-directory -j$(TEST_JOBS) --output-sync=target test-steps
	$(if $(PORTABLE_BESIDE),,bash scripts/test-portable-binary.sh $(SCROLLBACK))
	# The dev server's tests time real sockets: they run on their own, not beside the CPU-heavy steps.
	swift test --skip-build --filter ScrollbackServeTests

.PHONY: test-steps test-release-binary test-python-env test-debug-build test-portable test-swift test-bench \
  test-census test-browser test-fuzz
test-steps: lint $(PORTABLE_BESIDE) test-swift test-bench test-census test-browser test-fuzz

test-release-binary:
	$(RELEASE_BUILD)

# The Python packages (pip, mostly network time) while the binaries build.
test-python-env:
	bash scripts/python-env.sh

# The debug build of the Swift tests. After the release build: SwiftPM builds one configuration of a
# build folder at a time (.build/.lock), and the release binary is what the longest steps wait for.
test-debug-build: test-release-binary
	$(LOW_PRIORITY) swift build --build-tests

test-portable: test-release-binary
	bash scripts/test-portable-binary.sh $(SCROLLBACK)

# SlackEmojiTests runs scripts/generate-slack-emoji.py --check with the Python packages.
test-swift: test-debug-build test-python-env
	swift test --skip-build --skip ScrollbackServeTests

# ExportWriters builds each generated export with the debug binary.
test-bench: test-debug-build
	python3 -m unittest discover -s Tests/Bench

# Every real export of ../shared/samples: source records = the build's ledger = messages on the site.
test-census: test-release-binary
	python3 scripts/sample_census.py --binary $(SCROLLBACK)

test-browser: test-release-binary test-python-env
	BROWSER_WORKERS=$(BROWSER_WORKERS) bash scripts/test-browser.sh

# Every fuzz target for FUZZ_SECONDS (20 s) each, from its committed seeds; its own build folder
# (.build-fuzz), so its ASan build runs beside the others.
test-fuzz:
	$(MAKE) --no-print-directory fuzz-ci

# The libFuzzer targets (Fuzz/README.md), ten minutes each; crashes land in .build-fuzz/crashes/.
fuzz: deps
	bash scripts/fuzz.sh --seconds 600

# The bounded fuzz step for CI: every target for FUZZ_SECONDS each, two at a time (one optimised
# ASan build first, incremental in .build-fuzz).
FUZZ_SECONDS ?= 20
fuzz-ci: deps
	bash scripts/fuzz.sh --seconds $(FUZZ_SECONDS) --parallel 2

# Fails on Swift code that `swift format` would change (fix: swift format -i -r Sources Tests Plugins).
lint:
	swift format lint --strict -r Sources Tests Package.swift Plugins Fuzz

# Install the one self-contained binary into $(PREFIX)/bin (needs only libcmark-gfm and libxml2 at run time).
install: deps
	$(RELEASE_BUILD)
	install -d $(DESTDIR)$(PREFIX)/bin
	install -s -m 755 $(SCROLLBACK) $(DESTDIR)$(PREFIX)/bin/scrollback

# The performance benchmark (1M messages; bench-quick uses 100k).
bench: deps
	bash scripts/bench/run.sh --messages 1000000

bench-quick: deps
	bash scripts/bench/run.sh --messages 100000

# Every importer's export of the same 100k messages against the native logs it imports to (issue 43:
# within 1.5x), on its own; `make bench` runs it too (run.sh --skip-importers leaves it out).
bench-importers: deps
	bash scripts/bench/run.sh --messages 100000 --only-importers

# 10M messages in 500 conversations (issue 15), on its own and never in CI: the corpus is generated once into
# bench-work/ (several GB); clean builds only, with the 1M corpus built in the same run for the ratio.
bench-10m: deps
	bash scripts/bench/run.sh --messages 10000000 --conversations 500 --only-clean --skip-single \
	  --reference-messages 1000000

# The search benchmark (issue 13), on its own: it drives Chromium and Pagefind, too slow for `make bench`
# (which reports the build with and without search and the index size). Uses the corpora `make bench` and
# `make bench-quick` generate: 1M for the four targets, 100k beside Pagefind.
bench-search: deps
	$(RELEASE_BUILD)
	bash scripts/python-env.sh
	.venv/bin/python scripts/bench/search_bench.py --binary $(SCROLLBACK) \
	  --corpus bench-work/corpus-1000000-c50-s20240503 --work bench-work/search-1000000 --json bench-work/search-1000000.json
	.venv/bin/python scripts/bench/search_bench.py --binary $(SCROLLBACK) --pagefind \
	  --corpus bench-work/corpus-100000-c50-s20240503 --work bench-work/search-100000 --json bench-work/search-100000.json

# Debian packages the build needs; deps-test adds what the browser tests need.
deps:
	bash scripts/install-deps.sh

deps-test:
	bash scripts/install-deps.sh --test

clean:
	rm -rf .build .build-fuzz .build-fuzz-campaign _site artifacts bench-work

# A long campaign (Fuzz/README.md, "Campaigns"): TARGET to RUNS executions on the coverage build
# without AddressSanitizer, FORK processes, at low priority; findings are replayed under ASan.
TARGET ?= SiteBuild
RUNS ?= 1000000
FORK ?= 2
.PHONY: fuzz-campaign
fuzz-campaign: deps
	nice -n 10 bash scripts/fuzz.sh --campaign --runs $(RUNS) --fork $(FORK) $(TARGET)
