# swaggerctl: `make demo` runs the main job against the bundled demo server; `make test` runs the tests.
SWIFT ?= swift
PREFIX ?= /usr/local
# The release build's options, which scripts/release-flags explains.
RELEASE_FLAGS := $(shell scripts/release-flags)
RELEASE := -c release $(RELEASE_FLAGS)
RELEASE_BIN = $$($(SWIFT) build $(RELEASE) --show-bin-path)
# swaggerctl(1), written by scripts/man from argument-parser's generate-manual plugin and the Docs.
MANPAGE := .build/swaggerctl.1
RELEASE_MANPAGE := .build-release/swaggerctl.1

.PHONY: all deps build demo test test-unit fuzz man release install deb docs format lint bench clean

all: build

deps:
	@scripts/install-deps

build: deps
	$(SWIFT) build

demo: build
	@scripts/keyring-session scripts/demo

# The tests and the demo run inside a private D-Bus session with its own unlocked gnome-keyring (scripts/keyring-session);
# the Secret Service tests fail, rather than skip, anywhere else.
# The man page is built first: the packaging tests read it, and a nested `swift package` cannot run while
# `swift test` holds the build folder. scripts/python-env makes the venv of the FastAPI and Django OAuth
# Toolkit servers that the tests log in to.
#
# Swift Testing would start every test at once; most end-to-end tests start servers and commands, and a hundred
# of them at once on two busy cores leave every one of them waiting. TEST_WIDTH bounds how many tests run at the
# same time: three for each core.
TEST_WIDTH ?= $$(( $$(nproc) * 3 ))
test: deps
	$(SWIFT) build --build-tests
	scripts/man $(MANPAGE) debug
	scripts/python-env
	SWT_EXPERIMENTAL_MAXIMUM_PARALLELIZATION_WIDTH=$(TEST_WIDTH) scripts/keyring-session $(SWIFT) test --skip-build

# Every test but the end-to-end ones: each target's units and the demo server's routes, in process, starting no
# process and needing no keyring. Seconds, once built.
test-unit: deps
	$(SWIFT) build --build-tests
	$(SWIFT) test --skip-build --skip EndToEndTests

# The fuzz properties (Tests/SwaggerClientTests/FuzzTests.swift) run FUZZ_COUNT times each here, against
# a few hundred in `make test`.
FUZZ_COUNT ?= 50000
fuzz: deps
	$(SWIFT) build --build-tests
	SWAGGERCTL_FUZZ_COUNT=$(FUZZ_COUNT) $(SWIFT) test --skip-build --filter FuzzTests

man: deps
	scripts/man $(MANPAGE) debug

# The plugin behind scripts/man builds every product in release first, so this is the release build.
release: deps
	scripts/man $(RELEASE_MANPAGE) release $(RELEASE_FLAGS)

# The binary, the man page and the bash, zsh and fish completions; scripts/install-files lists where.
install: release
	DESTDIR="$(DESTDIR)" scripts/install-files "$(RELEASE_BIN)/swaggerctl" $(RELEASE_MANPAGE) "$(PREFIX)"

# .build-release/deb/swaggerctl_VERSION_ARCH.deb; scripts/deb says what goes in.
# lintian then checks it, and fails on any error; it is installed first if missing.
deb: release
	scripts/deb "$(RELEASE_BIN)/swaggerctl" $(RELEASE_MANPAGE) .build-release/deb > .build-release/deb.path
	scripts/install-deps lintian
	lintian --fail-on error --info $$(cat .build-release/deb.path)
	cat .build-release/deb.path

docs:
	@scripts/docs

format:
	swift format --in-place --recursive --parallel Package.swift Sources Tests

lint:
	swift format lint --strict --recursive --parallel Package.swift Sources Tests

bench:
	@scripts/bench

clean:
	rm -rf .build .build-release
