# The commands of the README. Each installs what it needs on a fresh Debian machine.
.PHONY: site test bench bench-quick deps clean

# Build the sample site into _site/ (installs the C libraries and builds the release binary).
site: deps
	swift build -c release --product scrollback
	.build/release/scrollback build sample-logs -o _site

# Run every test: the Swift unit tests, then the browser suite against built sites.
test: deps
	swift build -c release --product scrollback
	swift test
	bash scripts/test-browser.sh

# The performance benchmark (1M messages; bench-quick uses 100k).
bench: deps
	bash scripts/bench/run.sh --messages 1000000

bench-quick: deps
	bash scripts/bench/run.sh --messages 100000

# Debian packages the build and the tests need.
deps:
	bash scripts/install-deps.sh

clean:
	rm -rf .build _site artifacts bench-work
