# memharness — the two set-up commands are `make bench` and `make test`.
GO      ?= go
BIN     := bin/bench
OUT     ?= runs
CONFIGS := $(wildcard configs/paper/*.yaml)

.PHONY: all build bench test lint perf smoke clean

all: build

# The commit goes into `bench --version` also where Go's own VCS stamping is
# off or cannot see the repository (worktrees).
COMMIT  := $(shell git rev-parse --short=12 HEAD 2>/dev/null)
build:
	$(GO) build -ldflags "-X github.com/memharness/memharness/internal/buildstamp.linkedCommit=$(COMMIT)" -o $(BIN) ./cmd/bench
	$(GO) build -o $(dir $(BIN))bench-sql ./cmd/bench-sql

# Runs every paper config on the embedded default (the sim backbone and
# synthetic data) or, when OPENAI_BASE_URL is set, on that endpoint. The
# suite goes on past a failing config and ends with a summary of what failed
# and what was left out; it exits non-zero only when a config failed.
# PROFILE=paper applies the paper's sizes to every config with a profiles block.
PROFILE ?=
bench: build
	./$(BIN) suite --out $(OUT) $(if $(PROFILE),--profile $(PROFILE)) $(CONFIGS)

smoke: build
	./$(BIN) run -c configs/smoke.yaml --out $(OUT)

# go test's own lines (ok/FAIL per package, failed tests' output), then the
# tests that skipped and why (optional parts that are not installed).
test: lint
	GO=$(GO) $(GO) run ./internal/cmd/testsum -count=1 -timeout 14m ./...

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
