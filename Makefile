# swaggerctl: `make demo` runs the main job against the bundled demo server; `make test` runs the tests.
SWIFT ?= swift
PREFIX ?= /usr/local
# Release builds link the Swift runtime statically: about 4 ms less start-up per command (see scripts/bench).
RELEASE := -c release --static-swift-stdlib --scratch-path .build-release

.PHONY: all deps build demo test fuzz install docs format lint bench clean

all: build

deps:
	@scripts/install-deps

build: deps
	$(SWIFT) build

demo: build
	@scripts/keyring-session scripts/demo

# The tests and the demo run inside a private D-Bus session with its own unlocked gnome-keyring (scripts/keyring-session);
# the Secret Service tests fail, rather than skip, anywhere else.
test: deps
	$(SWIFT) build --build-tests
	scripts/keyring-session $(SWIFT) test --skip-build

# The fuzz properties (Tests/SwaggerClientTests/FuzzTests.swift) run FUZZ_COUNT times each here, against
# a few hundred in `make test`.
FUZZ_COUNT ?= 50000
fuzz: deps
	$(SWIFT) build --build-tests
	SWAGGERCTL_FUZZ_COUNT=$(FUZZ_COUNT) $(SWIFT) test --skip-build --filter FuzzTests

install: deps
	$(SWIFT) build $(RELEASE) --product swaggerctl
	install -D -m 0755 "$$($(SWIFT) build $(RELEASE) --show-bin-path)/swaggerctl" "$(DESTDIR)$(PREFIX)/bin/swaggerctl"

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
