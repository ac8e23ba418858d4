# The commands of the README. Each installs what it needs on a fresh Debian machine.
.PHONY: site serve test lint install fuzz fuzz-ci bench bench-quick bench-10m bench-search deps deps-test clean

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
# benchmark tools' tests, the sample census, the browser suite, then a bounded run of every fuzz target.
test: deps-test lint
	$(RELEASE_BUILD)
	bash scripts/test-portable-binary.sh $(SCROLLBACK)
	# The Python packages first: SlackEmojiTests runs scripts/generate-slack-emoji.py --check with them.
	bash scripts/python-env.sh
	# The dev server's tests time real sockets: they run on their own, not beside the CPU-heavy suites.
	swift test --skip ScrollbackServeTests
	swift test --skip-build --filter ScrollbackServeTests
	python3 -m unittest discover -s Tests/Bench
	# Every real export of ../shared/samples: source records = the build's ledger = messages on the site.
	python3 scripts/sample_census.py --binary $(SCROLLBACK)
	bash scripts/test-browser.sh
	# Every fuzz target for FUZZ_SECONDS (20 s) each, from its committed seeds.
	$(MAKE) fuzz-ci

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
