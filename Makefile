# memharness — the two set-up commands are `make bench` and `make test`.
GO      ?= go
BIN     := bin/bench
OUT     ?= runs
CONFIGS := $(wildcard configs/paper/*.yaml)

.PHONY: all build bench test lint perf smoke clean

all: build

build:
	$(GO) build -o $(BIN) ./cmd/bench
	$(GO) build -o $(dir $(BIN))bench-sql ./cmd/bench-sql

# Runs every paper config on the embedded default (the sim backbone and
# synthetic data) or, when OPENAI_BASE_URL is set, on that endpoint.
bench: build
	@set -e; for c in $(CONFIGS); do \
		echo "== $$c"; \
		if grep -q '^sweep:' $$c; then ./$(BIN) sweep -c $$c --out $(OUT); \
		else ./$(BIN) run -c $$c --out $(OUT); fi; \
	done

smoke: build
	./$(BIN) run -c configs/smoke.yaml --out $(OUT)

test: lint
	$(GO) test -count=1 -timeout 14m ./...

lint:
	@out=$$(gofmt -l $$(git ls-files '*.go' 2>/dev/null || find . -name '*.go')); \
	if [ -n "$$out" ]; then echo "gofmt needed:"; echo "$$out"; exit 1; fi
	$(GO) vet ./...

# Go benchmarks behind the performance targets; prints each figure against its
# target and a baseline measured in the same run.
perf:
	./scripts/perf.sh

clean:
	rm -rf bin $(OUT)
