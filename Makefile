# The commands of the README. Each installs what it needs on a fresh Debian machine.
.PHONY: site serve test fuzz bench bench-quick deps deps-test clean

SCROLLBACK := .build/release/scrollback

# Build the sample site into _site/ (installs the C libraries and builds the release binary).
site: deps
	swift build -c release --product scrollback
	$(SCROLLBACK) build sample-logs -o _site

# Serve the sample site on http://127.0.0.1:8000/, rebuilding and reloading on every change.
serve: deps
	swift build -c release --product scrollback
	$(SCROLLBACK) serve sample-logs

# Run every test: the Swift unit tests, the benchmark tools' tests, then the browser suite.
test: deps-test
	swift build -c release --product scrollback
	swift test
	python3 -m unittest discover -s Tests/Bench
	bash scripts/test-browser.sh
	bash scripts/fuzz.sh --seconds 60

# The libFuzzer targets (Fuzz/README.md), ten minutes each; crashes land in .build-fuzz/crashes/.
fuzz: deps
	bash scripts/fuzz.sh --seconds 600

# The performance benchmark (1M messages; bench-quick uses 100k).
bench: deps
	bash scripts/bench/run.sh --messages 1000000

bench-quick: deps
	bash scripts/bench/run.sh --messages 100000

# Debian packages the build needs; deps-test adds what the browser tests need.
deps:
	bash scripts/install-deps.sh

deps-test:
	bash scripts/install-deps.sh --test

clean:
	rm -rf .build .build-fuzz _site artifacts bench-work
