# swaggerctl: `make demo` runs the main job against the bundled demo server; `make test` runs the tests.
SWIFT ?= swift

.PHONY: all deps build demo test format lint bench clean

all: build

deps:
	@scripts/install-deps

build: deps
	$(SWIFT) build

demo: build
	@scripts/demo

test: deps
	$(SWIFT) build --build-tests
	$(SWIFT) test --skip-build

format:
	swift format --in-place --recursive --parallel Package.swift Sources Tests

lint:
	swift format lint --strict --recursive --parallel Package.swift Sources Tests

bench:
	@scripts/bench

clean:
	rm -rf .build
